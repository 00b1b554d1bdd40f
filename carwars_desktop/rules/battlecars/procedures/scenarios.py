"""Procedures: Mission Accomplished, the street-combat winner, arena re-arming (§2.19, §3.10)."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import (
    DiceNeed,
    IntInput,
    Odds,
    Outcome,
    Procedure,
    Result,
    SheetChange,
    Step,
    Values,
    odds_text,
)
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    car_input,
    certain,
    decisions,
    need,
)
from carwars_desktop.rules.battlecars.scenarios import (
    RULE_SCENARIOS,
    mission_for,
    rearm,
    street_winner,
)
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import DIE

CARS = ("car1", "car2", "car3", "car4")


def _mission_resolve(values: Values, dice: DiceSource) -> Result:
    car = values["car"]
    face = dice.roll(DIE, 1, f"mission (car {car})")[0]
    mission = mission_for(car, face, options_from(values))
    steps = [Step(f"car {car} rolls {face} → {mission.goal}. {mission.story}", bc("§3.10", "BC-D34")
                  if car == 4 else bc("§3.10")),
             Step("keep it hidden until accomplished; a kill or immobilisation counts only if "
                  "this player's car caused it", RULE_SCENARIOS.more("", "BC-D33"))]
    return Result(mission.goal, steps, None, values={"face": face, "mission": mission.goal})


def _mission_odds(values: Values) -> Odds:
    odds: dict[str, Fraction] = {}
    options = options_from(values)
    for face in range(1, DIE + 1):
        goal = mission_for(values["car"], face, options).goal
        odds[goal] = odds.get(goal, Fraction(0)) + Fraction(1, DIE)
    return Odds(outcomes=tuple(Outcome(k, p) for k, p in odds.items()),
                summary=" · ".join(f"{k} {odds_text(p)}" for k, p in odds.items()))


MISSION = Procedure(
    id="battlecars.mission",
    title="Mission Accomplished: mission roll",
    ruleset=RULESET,
    rule=bc("§2.19 · §3.10"),
    summary="Each player secretly rolls 1d8 on the mission plot of their car number.",
    inputs=(IntInput("car", "Car number", 1, 1, 4),) + decisions("bc_d34_as_printed"),
    resolve_fn=_mission_resolve,
    odds_fn=_mission_odds,
    dice_fn=lambda values: [DiceNeed("mission", 1, DIE)],
)


def _cars(values: Values) -> tuple[CarSheet, ...]:
    return tuple(values[name] for name in CARS if values[name] is not None)


def _winner_resolve(values: Values, dice: DiceSource) -> Result:
    verdict, steps = street_winner(_cars(values), options_from(values))
    return Result(verdict, steps, None)


WINNER = Procedure(
    id="battlecars.winner",
    title="Street combat winner",
    ruleset=RULESET,
    rule=RULE_SCENARIOS.more("", "BC-D32", "BC-D45"),
    summary="The driver occupying the last mobile Battlecar wins; none left is a draw.",
    inputs=tuple(car_input(name, f"Car {i}", optional=i > 2) for i, name in enumerate(CARS, 1))
    + decisions("bc_d22_interior_only", "bc_d24_stack_reductions"),
    resolve_fn=_winner_resolve,
    odds_fn=lambda values: certain(street_winner(_cars(values), options_from(values))[0],
                                   "no dice"),
    check_fn=lambda values: need([] if len(_cars(values)) >= 2 else ["give at least 2 cars"]),
)


def _rearm_resolve(values: Values, dice: DiceSource) -> Result:
    sheet: CarSheet = values["vehicle"]
    after, steps = rearm(sheet)
    return Result(f"{sheet.name} re-armed; re-enters at speed {after.speed}", steps, True,
                  [SheetChange("vehicle", after, "weapons restored, speed 3")], label="re-armed",
                  values={"mounts": _restored(sheet, after), "turns_missed": 1,
                          "entry_speed": after.speed})


def _restored(before: CarSheet, after: CarSheet) -> list[dict[str, object]]:
    """Per mount that had counters: ``{mount, original, restored, left_out}``."""
    items: list[dict[str, object]] = []
    for mount in before.mounts():
        original = len(before.card.load_of(mount.name))
        if original:
            restored = len(after.load(mount.name))
            items.append({"mount": mount.name, "original": original, "restored": restored,
                          "left_out": original - restored})
    return items


REARM = Procedure(
    id="battlecars.rearm",
    aliases={"car": "vehicle"},
    title="Arena: leave, re-arm and re-enter",
    ruleset=RULESET,
    rule=RULE_SCENARIOS.more("(Arena variations)", "BC-D38"),
    summary="A car leaving by its entry point misses 1 Turn, gets its original weapon counters "
            "back (not its damage) and re-enters at speed 3.",
    inputs=(car_input(),),
    resolve_fn=_rearm_resolve,
    odds_fn=lambda values: certain("re-armed", "no dice"),
)
