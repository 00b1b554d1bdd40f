"""Damage allocation exactly as digest §2.11–§2.12 (MCW-D5, D9, D20, D21), incl. MCW-E6."""

from __future__ import annotations

from dataclasses import replace

import pytest

from carwars_desktop.rules.mini_car_wars import MiniSheet, apply_damage, stock_sheet
from carwars_desktop.rules.mini_car_wars.damage import DamageReport, needs_interior_roll
from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
from carwars_desktop.rules.mini_car_wars.errors import DamageInputError, IllegalTargetError
from carwars_desktop.rules.mini_car_wars.model import Armor, Component, CrewState, Side


def conserved(report: DamageReport) -> bool:
    return report.absorbed + report.lost == report.dealt


def test_e6_lasers_through_roadies_left_side(roadie: MiniSheet) -> None:
    """MCW-E6 step 4: 11 then 17 to the left; L 20 → 9 → 0, MG (L) lost, 8 inside,
    interior 2 → driver takes 3 and dies, 5 fly out the bare right side."""
    first, report = apply_damage(roadie, 11, Side.LEFT)
    assert first.armor.left == 9 and report.interior_roll is None and conserved(report)
    second, report = apply_damage(first, 17, Side.LEFT, interior_roll=2)
    assert second.armor.left == 0 and report.armor_absorbed == 9
    assert report.weapons_destroyed == ("MG (L)",)
    assert report.component is Component.DRIVER and report.driver_absorbed == 3
    assert second.driver.state is CrewState.DEAD
    assert report.passed_through == 5 and report.opposite_absorbed == 0 and report.lost == 5
    assert report.became_uncontrolled and second.uncontrolled and not report.control_roll
    assert second.gunner is not None and not second.gunner.is_down  # the gunner may still fire
    assert conserved(report)
    text = [s.text for s in report.steps]
    assert text[0] == ("17 hits on the left: left armor 9 → 0 (absorbs 9); left weapons "
                       "destroyed: MG (L)")
    assert text[1] == "8 reach the interior: interior roll 2 → driver"
    assert "5 fly out of the car (MCW-D9)" in text[3]
    assert "right weapons destroyed (none left)" in text[3]
    assert all(s.rule.startswith("Mini Car Wars §") for s in report.steps)


def test_damage_below_the_armor_stays_in_the_armor() -> None:
    courier = stock_sheet("Courier")
    new, report = apply_damage(courier, 2, Side.FRONT)
    assert new.armor.front == 28 and report.absorbed == 2 and report.weapons_destroyed == ()


def test_damage_equal_to_the_armor_destroys_the_side_weapons_only() -> None:
    courier = stock_sheet("Courier")
    new, report = apply_damage(courier, 20, Side.RIGHT)
    assert new.armor.right == 0 and report.weapons_destroyed == ("MG (R)",)
    assert report.component is None and new.driver.hits == 0


def test_missing_gunner_sends_everything_to_the_opposite_side() -> None:
    """Interior 3–4 on a car with no gunner: step 6 with all of D (front weapons lost)."""
    carter = stock_sheet("Courier (b)")
    bare = replace(carter, armor=carter.armor.with_side(Side.BACK, 0))
    new, report = apply_damage(bare, 7, Side.BACK, interior_roll=3)
    assert report.component is Component.GUNNER and report.passed_through == 7
    assert new.armor.front == 23 and report.opposite_absorbed == 7
    assert report.weapons_destroyed == ("Laser (F)", "Laser (F)")
    assert "there is no gunner: all 7 go to the opposite side" in report.steps[2].text


def test_destroyed_power_plant_and_dead_driver_pass_damage_on() -> None:
    kart = stock_sheet("Killer Kart")
    kart = replace(kart, power_plant=0, driver=kart.driver.killed(),
                   armor=Armor(6, 4, 0, 4, 0))
    for roll in (1, 5):
        new, report = apply_damage(kart, 3, Side.LEFT, interior_roll=roll)
        assert report.passed_through == 3 and new.armor.right == 1 and conserved(report)


def test_power_plant_absorbs_and_is_destroyed() -> None:
    kart = replace(stock_sheet("Killer Kart"), armor=Armor(6, 4, 0, 4, 0))
    new, report = apply_damage(kart, 10, Side.LEFT, interior_roll=6)
    assert report.plant_absorbed == 8 and new.power_plant_destroyed and report.plant_destroyed
    assert new.armor.right == 2 and report.passed_through == 2
    assert any("must lose at least 10 mph" in s.text for s in report.steps)


def test_body_armor_is_filled_first_and_spares_the_control_roll() -> None:
    """MCW-D21 and MCW-D5: 3 hits on body armor: not wounded, no control roll."""
    kart = stock_sheet("Killer Kart")
    kart = replace(kart, armor=Armor(6, 4, 0, 4, 0),
                   driver=replace(kart.driver, body_armor=3, wears_body_armor=True))
    new, report = apply_damage(kart, 3, Side.LEFT, interior_roll=1)
    assert new.driver.body_armor == 0 and new.driver.hits == 0 and not report.control_roll
    new, report = apply_damage(new, 1, Side.LEFT, interior_roll=2)
    assert new.driver.state is CrewState.WOUNDED and report.control_roll


def test_no_control_roll_when_the_driver_is_knocked_out_at_once() -> None:
    kart = replace(stock_sheet("Killer Kart"), armor=Armor(6, 4, 0, 4, 0))
    new, report = apply_damage(kart, 2, Side.LEFT, interior_roll=1)
    assert new.driver.state is CrewState.UNCONSCIOUS and not report.control_roll
    assert report.became_uncontrolled and report.became_out
    alt = MiniRules(d5_roll_only_when_wounded_conscious=False)
    _, report = apply_damage(kart, 2, Side.LEFT, interior_roll=1, rules=alt)
    assert report.control_roll


def test_top_hits_destroy_turret_weapons_and_pass_over() -> None:
    rocket = stock_sheet("Rocket Special")
    new, report = apply_damage(rocket, 36, Side.TOP)
    assert new.armor.top == 0 and report.weapons_destroyed == ("MG (Turret)",)
    assert report.lost == 6 and report.component is None and conserved(report)
    assert not needs_interior_roll(rocket, 99, Side.TOP)


def test_top_of_a_car_without_turret_cannot_be_hit() -> None:
    with pytest.raises(IllegalTargetError, match="no turret"):
        apply_damage(stock_sheet("Courier"), 3, Side.TOP)


def test_bare_side_weapons_lost_to_first_damage_d20() -> None:
    """MCW-D20: a cycle's R has 0 armor; any damage there destroys weapons on it."""
    kart = stock_sheet("Killer Kart")
    bare_front = replace(kart, armor=kart.armor.with_side(Side.FRONT, 0))
    new, report = apply_damage(bare_front, 1, Side.FRONT, interior_roll=5)
    assert report.weapons_destroyed == ("MG (F)",) and "bare side, MCW-D20" in report.steps[0].text
    alt = MiniRules(d20_bare_side_loses_weapons=False)
    new, report = apply_damage(bare_front, 1, Side.FRONT, interior_roll=5, rules=alt)
    assert report.weapons_destroyed == () and not new.weapons[0].destroyed


def test_missing_interior_roll_and_bad_damage_are_refused() -> None:
    kart = stock_sheet("Killer Kart")
    with pytest.raises(DamageInputError, match="an interior roll"):
        apply_damage(kart, 9, Side.FRONT)
    with pytest.raises(DamageInputError, match="not a d6 face"):
        apply_damage(kart, 9, Side.FRONT, interior_roll=7)
    with pytest.raises(DamageInputError, match="negative"):
        apply_damage(kart, -1, Side.FRONT)


def test_sheets_are_immutable_snapshots(roadie: MiniSheet) -> None:
    before = roadie.to_json()
    apply_damage(roadie, 17, Side.LEFT, interior_roll=2)
    assert roadie.to_json() == before
