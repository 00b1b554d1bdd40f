"""Hypothesis properties: boxes never over-covered, damage conserved, odds sum to 1, speed ≥ 0."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from carwars_desktop.dice import SeededDice
from carwars_desktop.rules.battlecars import CarSheet, example_card
from carwars_desktop.rules.battlecars.catalog import example_car_name
from carwars_desktop.rules.battlecars.chance import DicePicker
from carwars_desktop.rules.battlecars.damage import record_damage
from carwars_desktop.rules.battlecars.options import Options
from carwars_desktop.rules.battlecars.procedures.collisions import CRASH, RAM
from carwars_desktop.rules.battlecars.procedures.fire import FIRE
from carwars_desktop.rules.battlecars.procedures.movement import SKID
from carwars_desktop.rules.battlecars.terms import BLOCKS, Bearing, Block, Line, Source

CAR = CarSheet.fresh(example_card(), example_car_name(1))
TARGET = CarSheet.fresh(example_card(), example_car_name(2))

hits = st.lists(st.tuples(st.sampled_from(BLOCKS), st.integers(0, 20), st.sampled_from(Line)),
                min_size=1, max_size=8)


def assert_sound(sheet: CarSheet) -> None:
    for block, covered in zip(BLOCKS, sheet.armour_hits, strict=True):
        assert 0 <= covered <= sheet.card.armour_boxes(block)
    for component, covered in zip(sheet.card.components, sheet.component_hits, strict=True):
        assert 0 <= covered <= component.boxes
        if component.kind.is_mount:
            assert sheet.empty_slots(component.name) >= 0


@settings(max_examples=60, deadline=None)
@given(hits, st.integers(0, 10_000), st.booleans())
def test_boxes_never_exceed_and_damage_is_conserved(
        sequence: list[tuple[Block, int, Line]], seed: int, interior_only: bool) -> None:
    sheet = CAR
    dice = SeededDice(seed)
    options = Options(bc_d22_interior_only=interior_only)
    for area, amount, line in sequence:
        before = sheet
        sheet, report = record_damage(sheet, area, amount, line, Source.ROCKET,
                                      DicePicker(dice), options)
        assert report.amount == report.armour + report.components + report.lost
        assert sum(sheet.armour_hits) - sum(before.armour_hits) == report.armour
        assert sum(sheet.component_hits) - sum(before.component_hits) == report.components
        assert_sound(sheet)
        assert sheet.max_speed(options) >= 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=17, max_size=17), st.booleans())
def test_max_speed_is_never_negative(raw: list[int], stack: bool) -> None:
    sheet = CAR
    for component, value in zip(CAR.card.components, raw, strict=True):
        sheet = sheet.with_hits(component.name, min(value, component.boxes))
    speed = sheet.max_speed(Options(bc_d24_stack_reductions=stack))
    assert 0 <= speed <= CAR.card.speed_track_max


mounts = st.sampled_from(["Pod A", "Pod B", "Pod D", "Turret"])
areas = st.sampled_from([(Block.FRONT, Bearing.AHEAD), (Block.LEFT_CENTRE, Bearing.SIDE),
                         (Block.RIGHT_REAR, Bearing.REAR_45), (Block.REAR, Bearing.BEHIND)])


@settings(max_examples=25, deadline=None)
@given(mounts, areas, st.integers(0, 3), st.booleans(), st.integers(0, 12))
def test_fire_odds_sum_to_one(mount: str, area: tuple[Block, Bearing], range_: int,
                              smoke: bool, damage: int) -> None:
    target = TARGET.with_armour_hits(area[0], min(damage, TARGET.card.armour_boxes(area[0])))
    values = {"firer": CAR, "mount": mount, "target": target, "area": area[0].value,
              "bearing": area[1].value, "points_between": range_, "smoke": smoke}
    odds = FIRE.odds(values)
    assert sum(o.probability for o in odds.outcomes) == 1
    assert all(o.probability > 0 for o in odds.outcomes)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.sampled_from(["front", "left-side", "rear"]))
def test_collision_odds_sum_to_one(speed: int, other: int, approach: str) -> None:
    crash = CRASH.odds({"vehicle": replace(CAR, speed=speed)})
    assert sum(o.probability for o in crash.outcomes) == 1
    ram = RAM.odds({"rammer": replace(CAR, speed=speed), "target": replace(TARGET, speed=other),
                    "approach": approach})
    assert sum(o.probability for o in ram.outcomes) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.booleans(), st.booleans(),
       st.one_of(st.none(), st.integers(0, 8)))
def test_skid_odds_sum_to_one(speed: int, excess: int, oil: bool, cap: bool,
                              clear: int | None) -> None:
    values = {"vehicle": CAR, "speed": speed, "corner_excess": excess, "oil": oil,
              "smoke": not oil, "clear_points": clear, "bc_d10_cap_sd": cap}
    odds = SKID.odds(values)
    assert sum((o.probability for o in odds.outcomes), Fraction(0)) == 1
