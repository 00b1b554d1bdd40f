"""mini.speed — choose a vehicle's speed for the new turn (Mini Car Wars §2.2–§2.3, §2.12).

Starting the turn also clears the per-turn state: weapons and characters may
fire again, maneuvers and moves start from zero (MCW-D2 for a pending skid).
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    BoolInput,
    IntInput,
    Odds,
    Outcome,
    Procedure,
    Refusal,
    Result,
    SheetChange,
    Step,
    Values,
)
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.movement import Velocity, sheet_velocities
from carwars_desktop.rules.mini_car_wars.procedures.common import (
    D2,
    RULESET,
    get_sheet,
    rules_from,
    sheet_input,
)
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

RULE = mcw("§2.3")


def _wanted(values: Values) -> Velocity:
    return Velocity(values["speed"], values["reverse"] and values["speed"] > 0)


def _constraints(sheet: MiniSheet) -> list[Step]:
    steps = []
    if sheet.wrecked:
        steps.append(Step(f"{sheet.name} is a wreck: it stays at 0 mph", mcw("§2.7")))
    elif sheet.driver.is_down:
        steps.append(Step(f"driver {sheet.driver.state.value}: the vehicle must lose exactly "
                          "10 mph this turn", mcw("§2.12")))
    elif sheet.power_plant_destroyed:
        steps.append(Step("power plant destroyed: the vehicle must lose at least 10 mph this "
                          "turn", mcw("§2.12")))
    return steps


def _resolve(values: Values, dice: DiceSource) -> Result:
    sheet = get_sheet(values, "vehicle")
    wanted = _wanted(values)
    legal = sheet_velocities(sheet)
    current = Velocity(sheet.speed, sheet.reverse)
    steps = _constraints(sheet)
    steps.append(Step(f"{sheet.name} was at {current.text}: legal new speeds "
                      f"{', '.join(str(v) for v in legal)} (R = reverse)", RULE))
    if wanted not in legal:
        why = "cycles cannot reverse" if wanted.reverse and sheet.is_cycle else \
            f"{wanted.text} is not one of the legal new speeds from {current.text}"
        steps.append(Step(f"{wanted.text} is not allowed: {why}", RULE))
        return Result(steps=steps, values={"legal": tuple(str(v) for v in legal)},
                      refusal=Refusal(why, RULE, f"{wanted.text} is not allowed"))
    keep_skip = rules_from(values).d2_skid_carries_over
    new = sheet.started_turn(wanted.mph, wanted.reverse, keep_skip=keep_skip)
    steps.append(Step(f"new speed {wanted.text}: {_phases(wanted.mph)} this turn",
                      mcw("§2.4")))
    steps.append(Step("new turn: every weapon and character may fire again; maneuvers and moves "
                      "start from zero", mcw("§2.2")))
    if new.skip_next_move:
        steps.append(Step("a skid from last turn still skips the first move (MCW-D2 "
                          "alternative)", mcw("§2.7")))
    return Result(outcome=f"{sheet.name}: {current.text} → {wanted.text}", steps=steps,
                  success=True, effects=[SheetChange("vehicle", new,
                                                     f"{new.name}: {wanted.text}")],
                  values={"legal": tuple(str(v) for v in legal), "speed": wanted.mph,
                          "reverse": wanted.reverse,
                          "phases": list(range(1, wanted.mph // 10 + 1))},
                  label="allowed")


def _phases(mph: int) -> str:
    """When a vehicle at ``mph`` moves, in words (one phase named in the singular)."""
    moves = mph // 10
    if moves == 0:
        return "moves in no phase (stopped)"
    return "moves in phase 1" if moves == 1 else f"moves in phases 1–{moves}"


def _odds(values: Values) -> Odds:
    sheet = get_sheet(values, "vehicle")
    legal = sheet_velocities(sheet)
    allowed = _wanted(values) in legal
    label = "allowed" if allowed else "not allowed"
    return Odds(outcomes=(Outcome(label, Fraction(1)),),
                summary=f"{_wanted(values).text}: {label} (legal: "
                        f"{', '.join(str(v) for v in legal)})")


SPEED_SELECTION = Procedure(
    id="mini.speed",
    aliases={"new_speed": "speed"},
    title="Speed selection (accelerate, decelerate, reverse)",
    ruleset=RULESET,
    rule=mcw("§2.3"),
    summary="Choose the new speed at the start of a turn: +10, −10 or −20 mph, reverse for "
            "cars after a turn at 0, forced deceleration; starts the vehicle's new turn.",
    inputs=(
        sheet_input("vehicle", "Vehicle"),
        IntInput("speed", "New speed (mph)", 0, 0, 100, help="a multiple of 10"),
        BoolInput("reverse", "Reverse", False, help="cars only, 10 or 20 mph"),
        D2,
    ),
    resolve_fn=_resolve,
    odds_fn=_odds,
)
