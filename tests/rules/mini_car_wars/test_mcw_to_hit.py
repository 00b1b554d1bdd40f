"""To-hit modifiers and need (digest §2.10, §3.2): MCW-E6 and MCW-E7 with their numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
from carwars_desktop.rules.mini_car_wars.errors import RangeFormatError
from carwars_desktop.rules.mini_car_wars.model import Side, Size, WeaponType
from carwars_desktop.rules.mini_car_wars.to_hit import (
    Shot,
    is_hit,
    modifier_text,
    modifiers,
    need,
    parse_inches,
    range_modifier,
)


def test_e7_modifier_example_totals_minus_two() -> None:
    """MCW-E7: front of a moving compact −1 −1, range 7" −1, shooter stationary +1 = −2;
    an MG then needs 9."""
    shot = Shot(WeaponType.MG, Fraction(7), Size.COMPACT, Side.FRONT, firer_speed=0,
                target_speed=40)
    stack = modifiers(shot)
    assert sum(m.value for m in stack) == -2
    assert sorted(m.value for m in stack) == [-1, -1, -1, 1]
    assert need(shot) == 9


def test_e6_roadie_needs_nine_and_carter_needs_seven() -> None:
    roadie = Shot(WeaponType.MG, Fraction(5), Size.LUXURY, Side.FRONT, 40, 60)
    assert need(roadie) == 9
    assert modifier_text(modifiers(roadie)) == 'range 5" −1, front −1'
    carter = Shot(WeaponType.LASER, Fraction(5), Size.LUXURY, Side.LEFT, 60, 40)
    assert need(carter) == 7
    assert is_hit(8, 7) and is_hit(7, 7) and not is_hit(6, 7)
    assert not is_hit(7 - 2, 7)  # the gunner's 7 modified to 5 misses


@pytest.mark.parametrize(("inches", "modifier"), [
    ("0", 4), ("0.99", 4), ("1", 0), ("3.99", 0), ("4", -1), ("7.99", -1), ("8", -2),
    ("11.99", -2), ("12", -3), ("15.99", -3), ("16", -4), ("3/4", 4),
])
def test_range_bands(inches: str, modifier: int) -> None:
    assert range_modifier(parse_inches(inches)) == modifier


@pytest.mark.parametrize("text", ["-1", "far", "", "1/0"])
def test_bad_ranges_are_refused(text: str) -> None:
    with pytest.raises(RangeFormatError):
        parse_inches(text)


def test_cycle_front_and_rear_d13() -> None:
    shot = Shot(WeaponType.MG, Fraction(2), Size.CYCLE, Side.BACK, 50, 50)
    assert sum(m.value for m in modifiers(shot)) == -3
    assert sum(m.value for m in modifiers(shot, MiniRules(d13_cycle_front_rear=False))) == -2
    side = Shot(WeaponType.MG, Fraction(2), Size.CYCLE, Side.LEFT, 50, 50)
    assert sum(m.value for m in modifiers(side)) == -2


def test_turret_only_minus_two_d14() -> None:
    """A compact's top is −2 only; the alternative adds the body-size −1."""
    shot = Shot(WeaponType.RL, Fraction(2), Size.COMPACT, Side.TOP, 50, 50)
    assert [m.value for m in modifiers(shot)] == [0, -2]
    alt = MiniRules(d14_turret_only_minus_two=False)
    assert [m.value for m in modifiers(shot, alt)] == [0, -2, -1]


def test_stationary_smoke_computer_and_point_blank() -> None:
    shot = Shot(WeaponType.HR, Fraction(1, 2), Size.SUBCOMPACT, Side.RIGHT, 0, 0,
                smoke_clouds=2, computer_bonus=2)
    labels = {m.label: m.value for m in modifiers(shot)}
    assert labels == {'point-blank, range 0.5"': 4, "subcompact body": -1, "neither moving": 2,
                      "2 smoke clouds": -4, "targeting computer": 2}
    assert need(shot) == 9 - 3
    target_still = Shot(WeaponType.MG, Fraction(2), Size.LUXURY, Side.LEFT, 30, 0)
    assert {m.label: m.value for m in modifiers(target_still)}["target not moving"] == 1


def test_natural_two_always_misses() -> None:
    assert not is_hit(2, -10)
    assert is_hit(3, -10)


def test_a_house_rule_that_changes_a_step_says_so() -> None:
    """Issue 28 §2: with MCW-D13 off the explanation does not just omit the cycle's front
    −1, it says the house rule took it away; MCW-D14 off names itself on the small-body
    line it adds to a turret shot. The digest's defaults read as before."""
    back = Shot(WeaponType.MG, Fraction(2), Size.CYCLE, Side.BACK, 50, 50)
    off = modifiers(back, MiniRules(d13_cycle_front_rear=False))
    assert 'back: no −1 on a cycle (house rule MCW-D13 off) ±0' in modifier_text(off)
    assert any(m.rule.endswith("MCW-D13") and m.value == 0 for m in off)
    assert "house rule" not in modifier_text(modifiers(back))
    turret = Shot(WeaponType.RL, Fraction(2), Size.COMPACT, Side.TOP, 50, 50)
    assert "compact body (house rule MCW-D14 off) −1" in modifier_text(
        modifiers(turret, MiniRules(d14_turret_only_minus_two=False)))
    assert "house rule" not in modifier_text(modifiers(turret))
