"""autopower.victory: is the game over? (AUTOpower §2.12, AP-D19)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Odds, Outcome, Procedure, Result, Step, Values
from carwars_desktop.rules.autopower.procedures.common import RULESET, car_input
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule
from carwars_desktop.rules.autopower.turns import winner

CARS = ("car_a", "car_b", "car_c", "car_d")


def _verdict(values: Values) -> tuple[str, list[Step]]:
    sheets: list[CarSheet] = [values[name] for name in CARS if values[name] is not None]
    steps = [Step(f"{s.name}: damage {s.total_damage} vs Armor {s.armor} → "
                  f"{'killed' if s.killed else 'alive'}", rule("2.7")) for s in sheets]
    state, name = winner(sheets)
    if state == "won":
        outcome = f"{name} wins: the last car not killed"
    elif state == "draw":
        outcome = "draw: the last cars were killed together"
    else:
        alive = [s.name for s in sheets if not s.killed]
        outcome = f"the game goes on: {', '.join(alive)} still running"
    steps.append(Step(outcome, rule("2.12", "AP-D19")))
    return outcome, steps


def _resolve(values: Values, dice: DiceSource) -> Result:
    outcome, steps = _verdict(values)
    cars = [{"name": s.name, "damage": s.total_damage, "armor": s.armor, "killed": s.killed}
            for s in (values[name] for name in CARS) if s is not None]
    return Result(outcome=outcome, steps=steps, values={"verdict": outcome, "cars": cars})


def _odds(values: Values) -> Odds:
    outcome, _ = _verdict(values)
    return Odds((Outcome(outcome, Fraction(1)),), f"{outcome}: no roll")


VICTORY = Procedure(
    id="autopower.victory",
    title="Victory check (last car running, or a draw)",
    ruleset=RULESET,
    rule=rule("2.12"),
    summary="The last car not killed wins; if the last cars die together (a ram) it is a draw.",
    inputs=(car_input("car_a", "First car"), car_input("car_b", "Second car"),
            car_input("car_c", "Third car", optional=True),
            car_input("car_d", "Fourth car", optional=True)),
    resolve_fn=_resolve,
    odds_fn=_odds,
)
