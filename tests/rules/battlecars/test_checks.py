"""Fuel-tank explosion, ammunition detonation and recording damage as procedures (§2.13–§2.15)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.procedures.checks import DAMAGE, DETONATION, FUEL_TANK
from carwars_desktop.rules.battlecars.terms import Block


def bare(car: CarSheet) -> CarSheet:
    return car.with_hits("Fire Extinguisher", 2).with_hits("Gunnery Computer", 2)


@pytest.mark.parametrize(("trigger", "tank_hits", "p"), [
    ("flame", 0, Fraction(2, 8)), ("flame", 1, Fraction(3, 8)), ("flame", 3, Fraction(5, 8)),
    ("rocket", 1, Fraction(1, 8)), ("shell", 3, Fraction(3, 8)), ("rocket", 0, Fraction(0)),
])
def test_fuel_tank_check_odds(car: CarSheet, trigger: str, tank_hits: int, p: Fraction) -> None:
    values = {"vehicle": bare(car).with_hits("Fuel Tank", tank_hits), "trigger": trigger}
    odds = FUEL_TANK.odds(values)
    assert odds.probability("explodes") == p
    assert odds.probability("explodes") + odds.probability("no explosion") == 1


def test_fuel_tank_explodes(car: CarSheet) -> None:
    values = {"vehicle": bare(car).with_hits("Fuel Tank", 3), "trigger": "shell"}
    resolution = FUEL_TANK.resolve(values, EnteredDice([6]))
    assert resolution.steps[0].text == (
        "Shell triggers the check: fuel-tank check rolled 6 + 3 − 2 = 7 ≥ 7 → the fuel tank "
        "EXPLODES: the car is totally destroyed and the driver killed")
    assert resolution.effects[0].sheet.exploded and resolution.success is True
    quiet = FUEL_TANK.resolve(values, EnteredDice([5]))
    assert quiet.effects == () and quiet.outcome == "fuel tank: no explosion"


def test_fire_extinguisher_prevents_the_check(car: CarSheet) -> None:
    values = {"vehicle": car.with_hits("Fuel Tank", 3), "trigger": "flame"}
    assert FUEL_TANK.dice_needed(values) == ()
    resolution = FUEL_TANK.resolve(values, EnteredDice([]))
    assert resolution.outcome == "fuel tank: no check (Fire Extinguisher)"
    assert FUEL_TANK.odds(values).probability("explodes") == 0


def test_fuel_tank_refusals(car: CarSheet) -> None:
    with pytest.raises(InputError, match="already exploded"):
        FUEL_TANK.resolve({"vehicle": replace(car, exploded=True)}, EnteredDice([]))


def test_detonation_of_pod_rounds(car: CarSheet) -> None:
    values = {"vehicle": bare(car), "mount": "Pod A", "weapon": "rocket", "rounds": 2}
    resolution = DETONATION.resolve(values, EnteredDice([8, 6]))
    texts = [s.text for s in resolution.steps]
    assert texts[0] == "Rocket in Pod A: rolled 8 (7–8) → detonates, fires off out of the front " \
        "at 90°"
    assert texts[1] == "Rocket in Pod A: rolled 6 → destroyed without detonating"
    assert resolution.outcome == "1 of 2 round(s) detonate"
    odds = DETONATION.odds(values)
    assert odds.probability("0 detonate") == Fraction(9, 16)
    assert odds.probability("1 detonate") == Fraction(6, 16)
    assert odds.probability("2 detonate") == Fraction(1, 16)


def test_detonation_of_turret_rounds_rolls_a_direction(car: CarSheet) -> None:
    values = {"vehicle": bare(car), "mount": "Turret", "weapon": "mg", "rounds": 1}
    assert [d.purpose for d in DETONATION.dice_needed(values)] == [
        "ammunition", "turret detonation direction"]
    resolution = DETONATION.resolve(values, EnteredDice([7, 2]))
    assert "fires off direction die 2 → front-left" in resolution.steps[0].text


def test_no_detonation_with_a_gunnery_computer_or_other_sources(car: CarSheet) -> None:
    values = {"vehicle": car, "mount": "Turret", "weapon": "mg", "rounds": 3}
    resolution = DETONATION.resolve(values, EnteredDice([]))
    assert resolution.steps[0].text.startswith("a working Gunnery Computer stops detonation")
    assert DETONATION.odds(values).probability("0 detonate") == 1
    mg = DETONATION.resolve({"vehicle": bare(car), "mount": "Turret", "weapon": "mg", "rounds": 1,
                             "hit_by": "mg"}, EnteredDice([]))
    assert "without a roll" in mg.steps[0].text and "BC-D21" in mg.steps[0].rule
    with pytest.raises(InputError, match="not a pod or turret"):
        DETONATION.resolve(values | {"mount": "Engine"}, EnteredDice([]))


def test_record_damage_procedure(car: CarSheet) -> None:
    values = {"vehicle": car, "area": "left-centre", "amount": 6, "line": "right-angle"}
    resolution = DAMAGE.resolve(values, EnteredDice([1]))
    assert resolution.outcome == "6 damage on left side-centre: 4 armour, 2 interior, 0 lost"
    assert resolution.effects[0].sheet.hits("Driver") == 2
    odds = DAMAGE.odds(values)   # 2 points inside never kill the 3-box driver
    assert odds.probability("interior damage") == 1


def test_record_damage_with_rocket_checks(car: CarSheet) -> None:
    sheet = bare(car).with_armour_hits(Block.REAR, 6)
    values = {"vehicle": sheet, "area": "rear", "amount": 3, "line": "from-rear",
              "source": "rocket"}
    resolution = DAMAGE.resolve(values, EnteredDice([5, 8]))
    assert resolution.effects[0].sheet.exploded
    assert "fuel tank exploded" in resolution.outcome
