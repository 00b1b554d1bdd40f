"""Crashes and rams (digest §2.6–§2.8, §3.5)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.catalog import obstacle_catalog
from carwars_desktop.rules.battlecars.collision import (
    Approach,
    RamKind,
    crash_damage_distribution,
    ram_kind,
    relative_velocity,
)
from carwars_desktop.rules.battlecars.pieces import PedestrianSheet
from carwars_desktop.rules.battlecars.procedures.collisions import CRASH, RAM
from carwars_desktop.rules.battlecars.terms import Block, Direction


def test_bc_d15_ram_classification() -> None:
    assert ram_kind(Approach.FRONT) is RamKind.HEAD_ON
    assert ram_kind(Approach.FRONT_45) is RamKind.HEAD_ON
    assert ram_kind(Approach.LEFT_SIDE) is RamKind.SIDE
    assert ram_kind(Approach.RIGHT_SIDE) is RamKind.SIDE
    assert ram_kind(Approach.REAR_45) is RamKind.SHUNT
    assert ram_kind(Approach.REAR) is RamKind.SHUNT


def test_relative_velocity() -> None:
    assert relative_velocity(RamKind.HEAD_ON, 3, 4) == 7    # both speeds added
    assert relative_velocity(RamKind.SIDE, 5, 9) == 5       # the rammer's speed
    assert relative_velocity(RamKind.SHUNT, 2, 6) == 4      # higher − lower
    assert relative_velocity(RamKind.SHUNT, 6, 2) == 4


FRONT_6 = {"amount": 6, "area": "front", "armour_left": 6, "armour": 6, "armour_left_after": 0,
           "interior": 0, "hits": [], "passed": [], "lost": 0}
"""The damage record of 6 points on a fresh front armour of 6 boxes."""


def test_crash_into_a_building(car: CarSheet) -> None:
    building = obstacle_catalog()["small building"]
    values = {"vehicle": replace(car, speed=5), "obstacle": building}
    resolution = CRASH.resolve(values, EnteredDice([4]))
    texts = [s.text for s in resolution.steps]
    assert texts[1] == "the small building takes 1 damage automatically (1/4)"
    assert texts[2] == "crash: RV = the car's speed = 5; damage on its front"
    assert texts[3] == "RV 5: 1d8+2 → rolled 4 +2 = 6"
    assert texts[4] == "front armour: 6 boxes left, 6 damage → 6 covered (0 left)"
    sheet = resolution.effects[0].sheet
    assert sheet.speed == 0 and sheet.armour_left(Block.FRONT) == 0 and not sheet.stunned
    assert resolution.effects[1].sheet.hits == 1
    assert resolution.values == {"rv": 5, "damage": 6, "stunned": False,
                                 "damage_formula": "1d8+2", "damage_dice": 1,
                                 "damage_modifier": 2, "damage_record": FRONT_6,
                                 "speed_after": 0}


def test_crash_in_reverse_damages_the_rear_and_stuns_from_14(car: CarSheet) -> None:
    backing = replace(car, speed=3, direction=Direction.REVERSE)
    resolution = CRASH.resolve({"vehicle": backing, "speed": 14}, EnteredDice([1, 1, 1]))
    sheet = resolution.effects[0].sheet
    assert sheet.armour_left(Block.REAR) == 2 and sheet.stunned
    assert any(s.text.endswith("RV ≥ 14: driver stunned") for s in resolution.steps)
    assert resolution.outcome == "crash at RV 14: 4 damage, driver stunned"


def test_crash_into_a_full_wreck_hurts_the_driver_sheltering(car: CarSheet) -> None:
    wreck = replace(obstacle_catalog()["wreck"], hits=2)
    walker = PedestrianSheet("Ann", damage=2)
    resolution = CRASH.resolve({"vehicle": replace(car, speed=1), "obstacle": wreck,
                                "sheltering": walker}, EnteredDice([3]))
    assert resolution.effects[2].sheet.dead
    assert "already full" in resolution.steps[1].text


def test_crash_odds(car: CarSheet) -> None:
    odds = CRASH.odds({"vehicle": replace(car, speed=3)})   # 1d8 on 6 front armour boxes
    assert odds.probability("armour only") == Fraction(3, 4)
    assert odds.probability("interior damage") == Fraction(1, 4)
    assert sum(o.probability for o in odds.outcomes) == 1
    assert dict(odds.expected)["damage"] == Fraction(9, 2)
    assert CRASH.odds({"vehicle": car}).outcomes[0].label == "no damage"   # RV 0 (BC-D18)
    assert CRASH.dice_needed({"vehicle": car})[0].purpose == "hit location"


def test_head_on_ram_both_take_full(car: CarSheet, other: CarSheet) -> None:
    values = {"rammer": replace(car, speed=3), "target": replace(other, speed=4),
              "approach": "front"}
    resolution = RAM.resolve(values, EnteredDice([2]))
    assert resolution.values == {"kind": "head-on", "rv": 7, "target_damage": 6,
                                 "rammer_damage": 6, "damage_formula": "1d8+4",
                                 "damage_dice": 1, "damage_modifier": 4, "rammer_speed": 3,
                                 "target_speed": 4, "stun_rv": 14, "target_record": FRONT_6,
                                 "rammer_record": FRONT_6, "speed_after": 0}
    target, rammer = (e.sheet for e in resolution.effects)
    assert target.armour_left(Block.FRONT) == 0 and rammer.armour_left(Block.FRONT) == 0
    assert target.speed == 0 and rammer.speed == 0
    texts = [s.text for s in resolution.steps]
    assert "front approach → head-on ram (BC-D15); RV = 3 + 4 = 7" in texts
    assert f"{other.name} is struck on its front: no location roll" in texts
    assert any("BC-D50" in s.rule for s in resolution.steps)


def test_side_ram_rolls_the_area_and_the_rammer_takes_half(car: CarSheet,
                                                          other: CarSheet) -> None:
    values = {"rammer": replace(car, speed=5), "target": other, "approach": "left-side"}
    assert [d.purpose for d in RAM.dice_needed(values)] == [
        "side-ram area", "ram damage", "hit location"]
    resolution = RAM.resolve(values, EnteredDice([4, 3, 5]))
    # area 4 → side-centre; RV 5: 1d8 + 2 = 5 → 4 armour + 1 inside (5 → Fire Extinguisher)
    target, rammer = (e.sheet for e in resolution.effects)
    assert target.armour_left(Block.LEFT_CENTRE) == 0 and target.hits("Fire Extinguisher") == 1
    assert rammer.armour_left(Block.FRONT) == 4   # half of 5, rounded down
    assert "side ram area: rolled 4 → left side-centre" in [s.text for s in resolution.steps]


def test_shunt_and_stun_bc_d17(car: CarSheet, other: CarSheet) -> None:
    values = {"rammer": replace(car, speed=9), "target": replace(other, speed=9),
              "approach": "front"}   # head-on, RV 18: 4d8, everyone stunned
    resolution = RAM.resolve(values, EnteredDice([1, 1, 1, 1]))
    assert all(e.sheet.stunned for e in resolution.effects)
    target_only = RAM.resolve(values | {"bc_d17_stun_all": False}, EnteredDice([1, 1, 1, 1]))
    assert [e.sheet.stunned for e in target_only.effects] == [True, False]
    shunt = RAM.resolve({"rammer": replace(car, speed=6), "target": replace(other, speed=2),
                         "approach": "rear"}, EnteredDice([7, 3]))
    target, rammer = (e.sheet for e in shunt.effects)
    assert shunt.values["rv"] == 4 and shunt.values["target_damage"] == 8
    assert target.hits("Engine") == 2 and rammer.armour_left(Block.FRONT) == 2


def test_bc_d16_alternative_rolls_for_the_rammer(car: CarSheet, other: CarSheet) -> None:
    values = {"rammer": replace(car, speed=6), "target": other, "approach": "rear",
              "bc_d16_one_roll": False}
    resolution = RAM.resolve(values, EnteredDice([2, 6]))   # RV 6: 1d8 + 3 each
    assert resolution.values["target_damage"] == 5
    assert resolution.values["rammer_damage"] == 4          # its own 9, halved
    one_roll = RAM.resolve(values | {"bc_d16_one_roll": True}, EnteredDice([2]))
    assert one_roll.values["rammer_damage"] == 2


def test_ram_at_rv_0_does_nothing(car: CarSheet, other: CarSheet) -> None:
    values = {"rammer": replace(car, speed=3), "target": replace(other, speed=3),
              "approach": "rear"}
    resolution = RAM.resolve(values, EnteredDice([]))
    assert resolution.values["target_damage"] == 0
    assert "RV 0: no damage (BC-D18)" in [s.text for s in resolution.steps]


def test_ram_odds(car: CarSheet, other: CarSheet) -> None:
    values = {"rammer": replace(car, speed=1), "target": replace(other, speed=1),
              "approach": "front"}   # RV 2: 1d8 − 1
    odds = RAM.odds(values)
    assert odds.probability("no damage") == Fraction(1, 8)
    assert odds.probability("armour only") == Fraction(6, 8)
    assert odds.probability("interior damage") == Fraction(1, 8)
    side = RAM.odds({"rammer": replace(car, speed=8), "target": other,
                     "approach": "right-side"})
    assert sum(o.probability for o in side.outcomes) == 1
    assert dict(side.expected)["rammer damage"] == \
        crash_damage_distribution(8).map(lambda v: v // 2).mean()


@pytest.mark.parametrize("rv", [1, 2, 7, 13, 18, 22])
def test_crash_damage_distribution_is_floored(rv: int) -> None:
    damage = crash_damage_distribution(rv)
    assert damage.minimum >= 0 and sum(damage.probabilities().values()) == 1
