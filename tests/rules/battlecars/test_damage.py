"""Recording damage: armour → hit location → carry-over → pass-through (digest §2.13–§2.14)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.chance import DicePicker
from carwars_desktop.rules.battlecars.damage import (
    DamageReport,
    cover_component,
    interior_outcomes,
    next_section,
    record_damage,
    record_interior,
)
from carwars_desktop.rules.battlecars.options import Options
from carwars_desktop.rules.battlecars.outcomes import car_hit_odds
from carwars_desktop.rules.battlecars.terms import Block, Line, Section, Source, Weapon


def record(sheet: CarSheet, area: Block, amount: int, dice: list[int],
           line: Line = Line.FROM_FRONT, options: Options | None = None
           ) -> tuple[CarSheet, DamageReport]:
    source = EnteredDice(dice)
    after, report = record_damage(sheet, area, amount, line, Source.COLLISION,
                                  DicePicker(source), options or Options())
    assert source.unused() == ()
    return after, report


def destroy(sheet: CarSheet, section: Section) -> CarSheet:
    for component in sheet.card.components_in(section):
        sheet = sheet.with_hits(component.name, component.boxes)
    return sheet


def test_armour_soaks_damage_first(car: CarSheet) -> None:
    after, report = record(car, Block.FRONT, 4, [])
    assert after.armour_left(Block.FRONT) == 2
    assert (report.armour, report.components, report.lost) == (4, 0, 0)
    assert report.steps[0].text == "front armour: 6 boxes left, 4 damage → 4 covered (2 left)"
    assert report.steps[0].rule == "Battlecars §2.13"


def test_breach_carries_into_the_interior(car: CarSheet) -> None:
    after, report = record(car, Block.LEFT_CENTRE, 7, [4, 5], Line.RIGHT_ANGLE)
    assert after.armour_left(Block.LEFT_CENTRE) == 0
    assert after.hits("Gunnery Computer") == 2 and after.hits("Fire Extinguisher") == 1
    assert [(h.name, h.boxes, h.destroyed) for h in report.hits] == [
        ("Gunnery Computer", 2, True), ("Fire Extinguisher", 1, False)]
    assert (report.armour, report.components, report.lost) == (4, 3, 0)
    texts = [s.text for s in report.steps]
    assert texts[0] == ("left side-centre armour: 4 boxes left, 7 damage → 4 covered, breached; "
                        "3 into the centre interior")
    assert texts[1] == ("centre hit location d8 4 → Gunnery Computer: 2 boxes covered — "
                        "Gunnery Computer destroyed; 1 carried over")


def test_breached_block_passes_everything_inside(car: CarSheet) -> None:
    breached = car.with_armour_hits(Block.REAR, 6)
    after, report = record(breached, Block.REAR, 2, [3], Line.FROM_REAR)
    assert report.armour == 0 and after.hits("Engine") == 2
    assert after.max_speed() == 7
    assert "max speed 9 → 7" in report.steps[-1].text
    assert report.steps[0].text.startswith("rear armour already breached")


def test_destroyed_components_are_re_rolled(car: CarSheet) -> None:
    hurt = car.with_armour_hits(Block.LEFT_CENTRE, 4).with_hits("Driver", 2)
    after, report = record(hurt, Block.LEFT_CENTRE, 3, [1, 1, 2, 5], Line.RIGHT_ANGLE)
    # 1 → Driver (1 box left): covered, dead; surplus 2: 1 and 2 → Driver destroyed, re-roll;
    # 5 → Fire Extinguisher takes 2
    assert after.driver_dead and after.hits("Fire Extinguisher") == 2
    assert report.hits[1].faces == (1, 2, 5)
    assert "re-rolled destroyed: 1, 2" in report.steps[2].text
    assert "the driver is dead" in report.steps[1].text


def test_destroyed_section_passes_damage_along_the_line(car: CarSheet) -> None:
    wrecked = destroy(car.with_armour_hits(Block.FRONT, 6), Section.FRONT)
    after, report = record(wrecked, Block.FRONT, 3, [3])
    assert report.passed == ((Section.CENTRE, 3),)
    assert after.hits("Turret") == 3
    assert "passes on to the centre interior" in report.steps[1].text
    assert report.steps[1].rule == "Battlecars §2.13 step 3 · BC-D22 · BC-D23"


def test_right_angle_damage_stops_at_a_destroyed_section(car: CarSheet) -> None:
    wrecked = destroy(car.with_armour_hits(Block.LEFT_FRONT, 4), Section.FRONT)
    after, report = record(wrecked, Block.LEFT_FRONT, 5, [], Line.RIGHT_ANGLE)
    assert (report.lost, report.components) == (5, 0) and after == wrecked
    assert "right angles" in report.steps[-1].text


def test_damage_beyond_the_last_section_is_lost(car: CarSheet) -> None:
    wrecked = destroy(car.with_armour_hits(Block.REAR, 6), Section.REAR)
    _, report = record(wrecked, Block.REAR, 4, [])
    assert report.lost == 4 and "passes out beyond the rear section" in report.steps[-1].text
    _, report = record(wrecked, Block.REAR, 4, [8], Line.FROM_REAR)
    assert report.passed == ((Section.CENTRE, 4),) and report.lost == 0


def test_bc_d22_alternative_keeps_damage_in_an_armoured_section(car: CarSheet) -> None:
    gutted = destroy(car, Section.FRONT).with_armour_hits(Block.FRONT, 6)
    options = Options(bc_d22_interior_only=False)
    _, report = record(gutted, Block.FRONT, 2, [], options=options)
    assert report.lost == 2 and "BC-D22 alternative" in report.steps[-1].text


def test_next_section_along_the_long_axis() -> None:
    assert next_section(Section.FRONT, Line.FROM_FRONT) is Section.CENTRE
    assert next_section(Section.CENTRE, Line.FROM_FRONT) is Section.REAR
    assert next_section(Section.REAR, Line.FROM_FRONT) is None
    assert next_section(Section.REAR, Line.FROM_REAR) is Section.CENTRE
    assert next_section(Section.FRONT, Line.FROM_REAR) is None
    assert next_section(Section.CENTRE, Line.RIGHT_ANGLE) is None


def test_pod_empty_slots_are_hit_first(car: CarSheet) -> None:
    fired = car.without_round("Pod A", Weapon.ROCKET)   # 4 empty boxes
    after, covered, counters = cover_component(fired, "Pod A", 5)
    assert (covered, counters) == (5, (Weapon.ROCKET,))
    assert after.load("Pod A") == () and after.empty_slots("Pod A") == 3


def test_bc_d20_a_hit_counter_frees_its_other_boxes(car: CarSheet) -> None:
    after, covered, counters = cover_component(car, "Pod D", 3)   # four Shells, full
    assert counters == (Weapon.SHELL, Weapon.SHELL)  # 1st point: a shell; 2nd: its free box
    assert after.load("Pod D") == (Weapon.SHELL, Weapon.SHELL) and after.hits("Pod D") == 3
    assert after.empty_slots("Pod D") == 1


def test_passive_counters_in_a_pod(car: CarSheet) -> None:
    after, _, counters = cover_component(car, "Pod C", 2)
    assert counters == (Weapon.MINES,)
    assert after.load("Pod C") == (Weapon.SMOKE, Weapon.OIL, Weapon.SPIKES)


def test_zero_damage_records_nothing(car: CarSheet) -> None:
    after, report = record(car, Block.FRONT, 0, [])
    assert after == car and report.amount == 0


def test_interior_with_a_pre_rolled_component(car: CarSheet) -> None:
    dice = EnteredDice([7])
    after, report = record_interior(car, Section.REAR, 10, Line.RIGHT_ANGLE, Source.MINES,
                                    DicePicker(dice), first=("Fuel Tank", (5,)))
    assert after.hits("Fuel Tank") == 3 and after.hits("Pod D") == 7
    assert [h.name for h in report.hits] == ["Fuel Tank", "Pod D"]


def test_interior_outcomes_sum_to_one_and_match_the_dice(car: CarSheet) -> None:
    breached = car.with_armour_hits(Block.LEFT_CENTRE, 4)
    outcomes = dict(interior_outcomes(breached, Section.CENTRE, 8, Line.RIGHT_ANGLE))
    assert sum(outcomes.values()) == 1
    # every end state is one the dice can produce: 1 → Driver (3), 3 → Turret (4), 4 → GC (1)
    rolled, _ = record(breached, Block.LEFT_CENTRE, 8, [1, 3, 4], Line.RIGHT_ANGLE)
    assert rolled in outcomes
    # Driver then Turret then GC, or Turret then Driver then GC: (2/8)(2/6)(1/4) × 2
    assert outcomes[rolled] == 2 * Fraction(2, 8) * Fraction(2, 6) * Fraction(1, 4)


def test_odds_driver_killed_by_a_side_hit(car: CarSheet) -> None:
    # 7 on the left-centre: 4 armour, 3 inside; the driver (faces 1–2 of 8, 3 boxes) dies only
    # when he is the first component rolled.
    odds = dict(car_hit_odds(car, Block.LEFT_CENTRE, 7, Line.RIGHT_ANGLE, Source.COLLISION))
    assert odds == {"interior damage": Fraction(3, 4), "driver killed": Fraction(1, 4)}


def test_odds_ammunition_detonation_without_a_gunnery_computer(car: CarSheet) -> None:
    no_gc = car.with_hits("Gunnery Computer", 2)   # 7 live faces left in the centre
    odds = dict(car_hit_odds(no_gc, Block.LEFT_CENTRE, 7, Line.RIGHT_ANGLE, Source.ROCKET))
    quarter = Fraction(1, 4)
    turret = 1 - (1 - quarter) ** 3          # 3 MG rounds hit
    after_extinguisher = Fraction(2, 6) * quarter + Fraction(1, 6) * quarter
    pod_b = 1 - (1 - quarter) ** 2           # 2 Flame counters hit
    ammo = Fraction(2, 7) * turret + Fraction(1, 7) * after_extinguisher + Fraction(1, 7) * pod_b
    assert odds["driver killed"] == Fraction(2, 7)
    assert odds["ammunition detonates"] == ammo
    assert odds["interior damage"] == 1 - Fraction(2, 7) - ammo


def test_odds_of_armour_only_and_no_damage(car: CarSheet) -> None:
    assert car_hit_odds(car, Block.FRONT, 0, Line.FROM_FRONT, Source.MG) == (
        ("no damage", 1),)
    assert car_hit_odds(car, Block.FRONT, 6, Line.FROM_FRONT, Source.MG) == (
        ("armour only", 1),)


@pytest.mark.parametrize("amount", [7, 12, 20])
def test_odds_fuel_tank_explosion_without_extinguisher(car: CarSheet, amount: int) -> None:
    bare = car.with_hits("Fire Extinguisher", 2).with_armour_hits(Block.REAR, 6)
    odds = dict(car_hit_odds(bare, Block.REAR, amount, Line.FROM_REAR, Source.ROCKET))
    assert sum(odds.values()) == 1
    assert odds.get("fuel tank explodes", 0) > 0
