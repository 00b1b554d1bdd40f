"""Drivers on foot: leaving the car, commandeering, being run over (digest §2.16, §2.18)."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.pieces import PedestrianSheet
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import PEDESTRIAN_BOXES, PEDESTRIAN_MG_ROUNDS

RULE_PEDESTRIANS = bc("§2.18")


def leave_problems(car: CarSheet) -> list[str]:
    problems: list[str] = []
    if not car.occupied:
        problems.append(f"nobody is in {car.name}")
    elif car.driver_dead:
        problems.append(f"the driver of {car.name} is dead")
    if car.speed != 0:
        problems.append(f"{car.name} is at speed {car.speed}: a driver leaves only at speed 0")
    return problems


def leave_car(car: CarSheet, pedestrian: PedestrianSheet
              ) -> tuple[CarSheet, PedestrianSheet, tuple[Step, ...]]:
    """§2.18 steps 1–2, BC-D28: the driver's damage carries over; 3 MG rounds."""
    walker = replace(pedestrian, damage=car.driver_hits, mg_rounds=PEDESTRIAN_MG_ROUNDS,
                     speed=0, stunned=car.stunned, targets_this_turn=())
    steps = (
        Step(f"the driver leaves {car.name} (speed 0) at the start of his Turn onto an "
             "adjacent unoccupied point; the pedestrian moves from the next Round",
             RULE_PEDESTRIANS.more("step 1", "BC-D28")),
        Step(f"{walker.name}: damage {walker.damage}/{PEDESTRIAN_BOXES} carried over, "
             f"{PEDESTRIAN_MG_ROUNDS} MG rounds", RULE_PEDESTRIANS.more("step 2")),
    )
    return replace(car, occupied=False), walker, steps


def commandeer_problems(car: CarSheet, pedestrian: PedestrianSheet,
                        options: Options = DEFAULT_OPTIONS) -> list[str]:
    problems: list[str] = []
    if pedestrian.dead:
        problems.append(f"{pedestrian.name} is dead")
    elif pedestrian.stunned:
        problems.append(f"{pedestrian.name} is stunned")
    if car.occupied and not car.driver_dead:
        problems.append(f"{car.name} still has a living driver")
    if car.speed != 0:
        problems.append(f"{car.name} is moving (speed {car.speed}): only a stationary car")
    if car.is_wreck(options):
        problems.append(f"{car.name} cannot move (a wreck): only a car capable of movement")
    return problems


def commandeer(car: CarSheet, pedestrian: PedestrianSheet) -> tuple[CarSheet, tuple[Step, ...]]:
    """§2.16 step 3, §2.18 step 4: the pedestrian enters and may drive off next Turn."""
    after = replace(car.with_hits(car.driver.name, pedestrian.damage), occupied=True,
                    stunned=False, previous_speed=0, targets_this_turn=(), drops_this_turn=())
    return after, (Step(f"{pedestrian.name} enters {car.name} (driver damage "
                        f"{pedestrian.damage}/3) and may drive off next Turn; remove the "
                        "pedestrian counter", RULE_PEDESTRIANS.more("step 4 · §2.16")),)


def run_over(pedestrian: PedestrianSheet) -> tuple[PedestrianSheet, Step]:
    """§2.18 step 5: a car moving onto or across the point kills the pedestrian."""
    return (replace(pedestrian, damage=PEDESTRIAN_BOXES),
            Step(f"a car moves onto or across {pedestrian.name}'s point: killed automatically; "
                 "the car is unharmed", RULE_PEDESTRIANS.more("step 5")))
