"""Scenarios and pedestrians: missions, the winner, re-arming, on foot (§2.16–§2.19, §3.10)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.pieces import PedestrianSheet
from carwars_desktop.rules.battlecars.procedures.pedestrians import (
    COMMANDEER,
    LEAVE_CAR,
    PEDESTRIAN_SPEED,
    RUN_OVER,
)
from carwars_desktop.rules.battlecars.procedures.scenarios import MISSION, REARM, WINNER
from carwars_desktop.rules.battlecars.terms import Weapon


@pytest.mark.parametrize(("car", "face", "goal"), [
    (1, 2, "Kill the driver of car 2"), (2, 8, "Immobilise two cars"),
    (3, 4, "Kill the driver of car 2"), (4, 6, "Kill the driver of car 3"),
    (4, 7, "Kill at least one driver")])
def test_mission_roll(car: int, face: int, goal: str) -> None:
    resolution = MISSION.resolve({"car": car}, EnteredDice([face]))
    assert resolution.outcome == goal
    assert resolution.steps[0].text.startswith(f"car {car} rolls {face} → {goal}. ")
    assert "BC-D33" in resolution.steps[1].rule


def test_bc_d34_car_4(car: CarSheet) -> None:
    odds = MISSION.odds({"car": 4})
    assert odds.probability("Kill the driver of car 3") == Fraction(1, 2)
    alternative = MISSION.odds({"car": 4, "bc_d34_as_printed": False})
    assert alternative.probability("Kill the driver of car 2") == Fraction(1, 4)
    assert MISSION.resolve({"car": 4, "bc_d34_as_printed": False},
                           EnteredDice([3])).outcome == "Kill the driver of car 2"


def test_street_combat_winner(car: CarSheet, other: CarSheet) -> None:
    dead = other.with_hits("Driver", 3)
    resolution = WINNER.resolve({"car1": car, "car2": dead}, EnteredDice([]))
    assert resolution.outcome == f"{car.name} wins: the last mobile Battlecar with a driver"
    draw = WINNER.resolve({"car1": car.with_hits("Engine", 4).with_hits("Tyre FL", 2)
                           .with_hits("Tyre FR", 2).with_hits("Tyre RL", 2), "car2": dead},
                          EnteredDice([]))
    assert draw.outcome.startswith("a draw")   # BC-D45
    assert "immobilised: max speed 0" in draw.steps[0].text
    going = WINNER.resolve({"car1": car, "car2": other}, EnteredDice([]))
    assert going.outcome.startswith("no winner yet: 2 mobile Battlecars")


def test_rearm_bc_d38(car: CarSheet) -> None:
    used = (car.without_round("Pod A", Weapon.ROCKET).without_round("Pod A", Weapon.ROCKET)
            .with_hits("Pod A", 5).with_hits("Engine", 1))
    resolution = REARM.resolve({"vehicle": used}, EnteredDice([]))
    sheet = resolution.effects[0].sheet
    assert sheet.load("Pod A") == ()   # 3 boxes left: no room for a 4-box Rocket
    assert sheet.load("Pod D") == (Weapon.SHELL,) * 4
    assert sheet.hits("Engine") == 1 and sheet.speed == 3
    assert "Pod A: 0 of 2 counters restored (2 no longer fit the damaged boxes)" in [
        s.text for s in resolution.steps]


def test_leave_the_car(car: CarSheet) -> None:
    hurt = car.with_hits("Driver", 2)
    resolution = LEAVE_CAR.resolve({"vehicle": hurt, "pedestrian": PedestrianSheet("Ann")},
                                   EnteredDice([]))
    vacated, walker = (e.sheet for e in resolution.effects)
    assert not vacated.occupied and (walker.damage, walker.mg_rounds) == (2, 3)
    with pytest.raises(InputError, match="leaves only at speed 0"):
        LEAVE_CAR.resolve({"vehicle": replace(car, speed=2), "pedestrian": "pedestrian"},
                          EnteredDice([]))


def test_commandeer(car: CarSheet) -> None:
    dead = car.with_hits("Driver", 3)
    resolution = COMMANDEER.resolve({"vehicle": dead, "pedestrian": PedestrianSheet("Bo", 1)},
                                    EnteredDice([]))
    sheet = resolution.effects[0].sheet
    assert sheet.occupied and sheet.driver_hits == 1 and not sheet.driver_dead
    with pytest.raises(InputError, match="still has a living driver"):
        COMMANDEER.resolve({"vehicle": car, "pedestrian": PedestrianSheet("Bo")}, EnteredDice([]))
    immobile = dead.with_hits("Engine", 4).with_hits("Tyre FL", 2).with_hits(
        "Tyre FR", 2).with_hits("Tyre RL", 2)
    with pytest.raises(InputError, match="a wreck"):
        COMMANDEER.resolve({"vehicle": immobile, "pedestrian": PedestrianSheet("Bo")},
                           EnteredDice([]))


def test_run_over_and_pedestrian_speed() -> None:
    resolution = RUN_OVER.resolve({"pedestrian": PedestrianSheet("Ann")}, EnteredDice([]))
    assert resolution.effects[0].sheet.dead
    with pytest.raises(InputError, match="already dead"):
        RUN_OVER.resolve({"pedestrian": PedestrianSheet("Ann", 3)}, EnteredDice([]))
    moved = PEDESTRIAN_SPEED.resolve({"pedestrian": PedestrianSheet("Ann"), "speed": 2},
                                     EnteredDice([]))
    assert moved.effects[0].sheet.speed == 2
    with pytest.raises(InputError, match="out of range"):
        PEDESTRIAN_SPEED.resolve({"pedestrian": PedestrianSheet("Ann"), "speed": 3},
                                 EnteredDice([]))
