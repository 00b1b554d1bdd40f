"""autopower.draw: the start of a car's turn — the draw, and last turn's control penalty.

AUTOpower §2.3 step 1 (refill to seven), §2.11 (Drawing on Skills, AP-D21),
AP-D4 (only the active player), AP-D12, AP-D26.
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Odds, Outcome, Procedure, Result, Values, plan_of
from carwars_desktop.rules.autopower.procedures.common import (
    DRAWING_ON_SKILLS,
    RULESET,
    car_input,
    change,
    planned,
)
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule
from carwars_desktop.rules.autopower.turns import start_turn


def _start(values: Values) -> tuple[CarSheet, int]:
    before: CarSheet = values["vehicle"]
    after, _ = start_turn(before, values["drawing_on_skills"])
    return after, after.hand_size - before.hand_size


def _resolve(values: Values, dice: DiceSource) -> Result:
    before: CarSheet = values["vehicle"]
    after, steps = start_turn(before, values["drawing_on_skills"])
    drawn = after.hand_size - before.hand_size
    return Result(outcome=f"{after.name} draws {drawn}: hand {after.hand_size}", steps=steps,
                  effects=[change("vehicle", after, f"{after.name}: hand {after.hand_size}, "
                                                f"this turn {after.penalty_this_turn.label}")],
                  values={"drawn": drawn, "hand_size": after.hand_size,
                          "penalty_this_turn": after.penalty_this_turn.value})


def _odds(values: Values) -> Odds:
    after, drawn = plan_of(values, _start)
    label = f"draws {drawn} (hand {after.hand_size})"
    return Odds((Outcome(label, Fraction(1)),), f"{label}: no roll",
                expected=(("cards drawn", Fraction(drawn)),))


DRAW = Procedure(
    id="autopower.draw",
    aliases={"car": "vehicle"},
    title="Start of turn: draw cards (refill to 7, Drawing on Skills)",
    ruleset=RULESET,
    rule=rule("2.3"),
    summary="The active car refills its hand to seven (or draws max(1, I), stopping at seven); "
            "a control failure from last turn comes into force.",
    inputs=(car_input("vehicle", "Active car"), DRAWING_ON_SKILLS),
    resolve_fn=_resolve,
    odds_fn=_odds,
    plan_fn=planned(_start),
)
