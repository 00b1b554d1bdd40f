"""The worked examples of the rulebook, as restated in digest §4 (BC-E1 … BC-E3)."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.battlecars import CarSheet, Loading
from carwars_desktop.rules.battlecars.catalog import obstacle_catalog
from carwars_desktop.rules.battlecars.fire import FireOrder, Shot, shot_problems
from carwars_desktop.rules.battlecars.options import CounterSizes
from carwars_desktop.rules.battlecars.procedures.fire import FIRE
from carwars_desktop.rules.battlecars.tables import STANDARD_POD_BOXES, TARGET_AREAS
from carwars_desktop.rules.battlecars.terms import Bearing, Block, Weapon


def test_bc_e1_rocket_4_boxes_shell_2_boxes(car: CarSheet) -> None:
    """"The standard eight box Weapon Pod may carry two Rockets, four Shells"."""
    sizes = CounterSizes()
    assert STANDARD_POD_BOXES // 2 == sizes.size(Weapon.ROCKET) == 4
    assert STANDARD_POD_BOXES // 4 == sizes.size(Weapon.SHELL) == 2
    full = replace(car.card, loadout=(Loading("Pod A", (Weapon.ROCKET,) * 2),
                                      Loading("Pod D", (Weapon.SHELL,) * 4)))
    assert full.problems() == ()
    assert CarSheet.fresh(full).empty_slots("Pod A") == 0


def test_bc_e2_targeting_at_45_degrees(car: CarSheet, other: CarSheet) -> None:
    """"A may fire at the side-front or side-centre of side 3, or the front of C": at 45° the
    target's end and the two nearest side sections."""
    at_45 = TARGET_AREAS[Bearing.FRONT_45]
    assert {Block.FRONT, Block.LEFT_FRONT, Block.LEFT_CENTRE} <= at_45
    assert Block.LEFT_REAR not in at_45 and Block.REAR not in at_45
    order = FireOrder(car, "Turret", Shot(other, 2, Block.LEFT_REAR, Bearing.FRONT_45))
    assert shot_problems(order.shot, car, "target")


def test_bc_e2_targeting_side_on(car: CarSheet, other: CarSheet) -> None:
    """"C may fire at the side-front, side-centre or side-rear of side 3 of B"."""
    side_on = TARGET_AREAS[Bearing.SIDE]
    assert {Block.RIGHT_FRONT, Block.RIGHT_CENTRE, Block.RIGHT_REAR} <= side_on
    assert Block.FRONT not in side_on and Block.REAR not in side_on
    for block in (Block.RIGHT_FRONT, Block.RIGHT_CENTRE, Block.RIGHT_REAR):
        assert shot_problems(Shot(other, 1, block, Bearing.SIDE), car, "target") == []


def test_bc_e3_a_building_may_be_fired_at(car: CarSheet) -> None:
    """"A may not fire at B ... but could fire at C or at the building"."""
    building = obstacle_catalog()["medium building"]
    resolution = FIRE.resolve({"firer": car, "mount": "Turret", "target": building,
                               "points_between": 1}, EnteredDice([4, 8]))
    assert resolution.effects[1].sheet.hits == 5   # MG 1d8 − 2 − 1 = 5
