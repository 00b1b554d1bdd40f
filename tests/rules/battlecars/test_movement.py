"""Speed selection, reversing, three-point turns and cornering (digest §2.3–§2.4, §3.1–§3.2)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.movement import corner_check, speed_range
from carwars_desktop.rules.battlecars.options import Options
from carwars_desktop.rules.battlecars.procedures.movement import CORNER, SPEED, THREE_POINT_TURN
from carwars_desktop.rules.battlecars.terms import Direction, Surface

F, R, G = Direction.FORWARD, Surface.ROAD, Surface.GRASS


def plain(car: CarSheet) -> CarSheet:
    """TEST-1 without Super-Charger, Power Brakes and Auto-Steer."""
    return car.with_hits("Super-Charger", 2).with_hits("Power Brakes", 2).with_hits(
        "Auto-Steer", 2)


@pytest.mark.parametrize(("surface", "extras", "low", "high"), [
    (R, False, 2, 7), (G, False, 3, 6), (R, True, 1, 8), (G, True, 2, 7)])
def test_acceleration_and_deceleration_limits(car: CarSheet, surface: Surface, extras: bool,
                                              low: int, high: int) -> None:
    sheet = replace(car if extras else plain(car), speed=5)
    limits = speed_range(sheet, F, surface)
    assert (limits.low, limits.high) == (low, high)


def test_max_speed_caps_and_deceleration_stops_at_zero(car: CarSheet) -> None:
    fast = replace(car, speed=8)
    assert (speed_range(fast, F, R).low, speed_range(fast, F, R).high) == (4, 9)
    slow = replace(car, speed=1)
    assert speed_range(slow, F, R).low == 0


def test_bc_d25_a_reduced_max_speed_beats_deceleration(car: CarSheet) -> None:
    crippled = replace(car.with_hits("Engine", 4).with_hits("Tyre FL", 2), speed=9)  # max 3
    limits = speed_range(crippled, F, R)
    assert (limits.low, limits.high) == (3, 3)
    assert "BC-D25" in limits.steps[-1].rule
    strict = speed_range(crippled, F, R, Options(bc_d25_cap_at_max_speed=False))
    assert (strict.low, strict.high) == (5, 5)


def test_reverse_needs_speed_zero_bc_d44(car: CarSheet) -> None:
    moving = replace(car, speed=2)
    limits = speed_range(moving, Direction.REVERSE, R)
    assert limits.refusal is not None and not limits.allows(0)
    relaxed = speed_range(moving, Direction.REVERSE, R, Options(bc_d44_previous_speed_zero=False))
    assert relaxed.refusal is None and (relaxed.low, relaxed.high) == (0, 3)
    too_fast = speed_range(replace(car, speed=6), Direction.REVERSE, R,
                           Options(bc_d44_previous_speed_zero=False))
    assert too_fast.refusal is not None


@pytest.mark.parametrize(("surface", "top"), [(R, 3), (G, 2)])
def test_reverse_caps(car: CarSheet, surface: Surface, top: int) -> None:
    backing = replace(plain(car), speed=2, direction=Direction.REVERSE)
    assert speed_range(backing, Direction.REVERSE, surface).high == top


def test_bc_d48_limits_apply_in_reverse(car: CarSheet) -> None:
    stopped = plain(car)
    assert speed_range(stopped, Direction.REVERSE, R).high == 2
    assert speed_range(stopped, Direction.REVERSE, G).high == 1
    free = speed_range(stopped, Direction.REVERSE, R, Options(bc_d48_reverse_limits=False))
    assert (free.low, free.high) == (0, 3)


def test_stunned_or_dead_driver_keeps_the_speed(car: CarSheet) -> None:
    stunned = replace(car, speed=4, stunned=True)
    assert (speed_range(stunned, F, R).low, speed_range(stunned, F, R).high) == (4, 4)
    dead = replace(car.with_hits("Driver", 3), speed=6)
    assert (speed_range(dead, F, R).low, speed_range(dead, F, R).high) == (6, 6)


def test_speed_procedure_records_the_new_speed(car: CarSheet) -> None:
    resolution = SPEED.resolve({"vehicle": replace(car, speed=3), "speed": 6}, EnteredDice([]))
    assert resolution.success is True and resolution.outcome == "speed 6 forward: allowed"
    sheet = resolution.effects[0].sheet
    assert (sheet.speed, sheet.previous_speed) == (6, 3)
    assert resolution.steps[0].text == ("on road: max acceleration 3, max deceleration 4 "
                                        "(Super-Charger +1 acceleration, Power Brakes +1 "
                                        "deceleration)")
    assert resolution.steps[1].text == "from 3: 0–6 (max speed 9)"
    assert SPEED.odds({"vehicle": car, "speed": 2}).outcomes[0].probability == 1


def test_speed_procedure_refuses_too_much_acceleration(car: CarSheet) -> None:
    resolution = SPEED.resolve({"vehicle": plain(car), "speed": 3}, EnteredDice([]))
    assert resolution.success is False and resolution.effects == ()
    assert resolution.outcome == "speed 3 forward: not allowed (outside 0–2)"
    odds = SPEED.odds({"vehicle": plain(car), "speed": 3, "surface": "grass"})
    assert odds.outcomes[0].label == "not allowed"
    assert "forward 0–1" in odds.summary and "reverse 0–1" in odds.summary


def test_three_point_turn(car: CarSheet) -> None:
    assert THREE_POINT_TURN.resolve({"vehicle": car}, EnteredDice([])).success is True
    moving = THREE_POINT_TURN.resolve({"vehicle": replace(car, speed=1)}, EnteredDice([]))
    assert moving.success is False and "needs speed 0" in moving.outcome


@pytest.mark.parametrize(("angle", "surface", "plain_safe", "steer_safe"), [
    (45, R, 8, 9), (45, G, 4, 6), (90, R, 4, 6), (90, G, 2, 3), (135, R, 2, 3), (135, G, 1, 2)])
def test_corner_safe_speeds(car: CarSheet, angle: int, surface: Surface, plain_safe: int,
                            steer_safe: int) -> None:
    assert corner_check(plain(car), angle, surface, 5).safe == plain_safe
    assert corner_check(car, angle, surface, 5).safe == steer_safe
    check = corner_check(plain(car), angle, surface, 5)
    assert check.speed_difference == 5 - plain_safe and check.skids is (plain_safe < 5)


def test_corner_at_a_safe_speed_needs_no_dice(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=6), "angle": "90"}
    resolution = CORNER.resolve(values, EnteredDice([]))
    assert resolution.success is True and resolution.outcome == "90° corner at speed 6: safe"
    assert CORNER.dice_needed(values) == ()
    assert CORNER.odds(values).outcomes[0].label == "safe"


def test_corner_too_fast_makes_the_skid_test(car: CarSheet) -> None:
    values = {"vehicle": replace(plain(car), speed=7), "angle": "90"}   # safe 4 → SD 3
    odds = CORNER.odds(values)
    # SD 3: drift 1d8 − 6; final facing 1d8 + 3 at speed 7: continues on 1 only
    assert odds.probability("continues") == Fraction(1, 8)
    assert odds.probability("stops") == Fraction(7, 8)
    assert [d.purpose for d in CORNER.dice_needed(values)] == ["drift", "final facing"]
    resolution = CORNER.resolve(values, EnteredDice([8, 1]))
    texts = [s.text for s in resolution.steps]
    assert "90° corner on road, no Auto-Steer: safe speed 4; speed 7 > 4 → skid test, SD 3" \
        in texts
    assert "Drift Table SD 3: 1d8-6 → rolled 8 → drift 2 points" in texts
    assert "final facing: rolled 1 +3 for speed 7 → 4 (BC-D11 fallback: unchanged)" in texts
    assert any("turning the intended 90° corner without another test (BC-D12)" in t
               for t in texts)
    assert resolution.success is True and resolution.effects[0].sheet.speed == 7
