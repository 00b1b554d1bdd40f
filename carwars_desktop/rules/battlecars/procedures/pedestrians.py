"""Procedures: leaving the car, commandeering, running over, pedestrian speed (§2.16, §2.18)."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import IntInput, Procedure, Result, SheetChange, Step, Values
from carwars_desktop.rules.battlecars.options import options_from
from carwars_desktop.rules.battlecars.pedestrians import (
    RULE_PEDESTRIANS,
    commandeer,
    commandeer_problems,
    leave_car,
    leave_problems,
    run_over,
)
from carwars_desktop.rules.battlecars.pieces import PedestrianSheet
from carwars_desktop.rules.battlecars.procedures.common import (
    RULESET,
    car_input,
    certain,
    decisions,
    pedestrian_input,
    refuse,
)
from carwars_desktop.rules.battlecars.tables import PEDESTRIAN_MAX_SPEED


def _leave_resolve(values: Values, dice: DiceSource) -> Result:
    car, walker, steps = leave_car(values["vehicle"], values["pedestrian"])
    return Result(f"{walker.name} is on foot", steps, True,
                  [SheetChange("vehicle", car, "vacated"),
                   SheetChange("pedestrian", walker, f"damage {walker.damage}/3, 3 MG rounds")])


LEAVE_CAR = Procedure(
    id="battlecars.leave_car",
    aliases={"car": "vehicle"},
    title="Driver leaves the car",
    ruleset=RULESET,
    rule=f"{RULE_PEDESTRIANS} steps 1–2 · BC-D28",
    summary="Only at speed 0: the driver becomes a pedestrian with 3 MG rounds and his damage.",
    inputs=(car_input(), pedestrian_input()),
    resolve_fn=_leave_resolve,
    odds_fn=lambda values: certain("on foot", "no dice"),
    check_fn=lambda values: refuse(leave_problems(values["vehicle"])),
)


def _commandeer_resolve(values: Values, dice: DiceSource) -> Result:
    car, steps = commandeer(values["vehicle"], values["pedestrian"])
    return Result(f"{values['pedestrian'].name} drives {car.name} from next Turn", steps, True,
                  [SheetChange("vehicle", car, f"new driver, damage {car.driver_hits}/3")])


COMMANDEER = Procedure(
    id="battlecars.commandeer",
    aliases={"car": "vehicle"},
    title="Commandeer a car",
    ruleset=RULESET,
    rule=f"{RULE_PEDESTRIANS} step 4 · §2.16 step 3",
    summary="A pedestrian boards a stationary car that can move and was vacated or whose "
            "driver is dead.",
    inputs=(car_input(), pedestrian_input())
    + decisions("bc_d22_interior_only", "bc_d24_stack_reductions"),
    resolve_fn=_commandeer_resolve,
    odds_fn=lambda values: certain("commandeered", "no dice"),
    check_fn=lambda values: refuse(commandeer_problems(values["vehicle"], values["pedestrian"],
                                                       options_from(values))),
)


def _run_over_resolve(values: Values, dice: DiceSource) -> Result:
    dead, step = run_over(values["pedestrian"])
    return Result(f"{dead.name} is killed", [step], True,
                  [SheetChange("pedestrian", dead, "killed")])


RUN_OVER = Procedure(
    id="battlecars.run_over",
    title="Run over a pedestrian",
    ruleset=RULESET,
    rule=f"{RULE_PEDESTRIANS} step 5",
    summary="A car moving onto or across a pedestrian's point kills him; the car is unharmed.",
    inputs=(pedestrian_input(),),
    resolve_fn=_run_over_resolve,
    odds_fn=lambda values: certain("killed", "automatic"),
    check_fn=lambda values: refuse([f"{values['pedestrian'].name} is already dead"]
                                   if values["pedestrian"].dead else []),
)


def _speed_resolve(values: Values, dice: DiceSource) -> Result:
    walker: PedestrianSheet = values["pedestrian"]
    after = replace(walker, speed=values["speed"])
    return Result(f"{walker.name}: speed {values['speed']}",
                  [Step(f"a pedestrian may change speed by any amount, up to "
                        f"{PEDESTRIAN_MAX_SPEED} on all surfaces, and has no turning limits; "
                        "he passes freely through Oil, Spikes, Mines and Smoke",
                        f"{RULE_PEDESTRIANS} step 3")], True,
                  [SheetChange("pedestrian", after, f"speed {values['speed']}")])


PEDESTRIAN_SPEED = Procedure(
    id="battlecars.pedestrian_speed",
    title="Pedestrian speed",
    ruleset=RULESET,
    rule=f"{RULE_PEDESTRIANS} step 3",
    summary="Any speed 0–2, whatever the previous speed.",
    inputs=(pedestrian_input(), IntInput("speed", "New speed", 0, 0, PEDESTRIAN_MAX_SPEED)),
    resolve_fn=_speed_resolve,
    odds_fn=lambda values: certain("allowed", "any speed 0–2"),
    check_fn=lambda values: refuse([f"{values['pedestrian'].name} is dead"]
                                   if values["pedestrian"].dead else []),
)
