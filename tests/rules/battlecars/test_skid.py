"""The skid test (digest §2.5, §3.3, §3.4)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.options import Options
from carwars_desktop.rules.battlecars.procedures.movement import SKID
from carwars_desktop.rules.battlecars.skid import (
    drift_row,
    resolve_skid,
    skid_probabilities,
    speed_difference,
)
from carwars_desktop.rules.battlecars.terms import Weapon


@pytest.mark.parametrize(("speed", "p_continue"), [
    (0, Fraction(1, 2)), (3, Fraction(1, 2)), (4, Fraction(3, 8)), (5, Fraction(1, 4)),
    (6, Fraction(1, 4)), (7, Fraction(1, 8)), (9, Fraction(1, 8))])
def test_probability_the_car_continues(speed: int, p_continue: Fraction) -> None:
    odds = skid_probabilities(1, speed, None)
    assert odds["continues"] == p_continue and sum(odds.values()) == 1


def test_speed_difference_sources() -> None:
    assert speed_difference(2, markers=(Weapon.OIL,))[0] == 5
    assert speed_difference(7, markers=(Weapon.OIL,))[0] == 7
    assert speed_difference(1, markers=(Weapon.SMOKE,))[0] == 3
    assert speed_difference(1, markers=(Weapon.SPIKES,))[0] == 2
    assert speed_difference(6, driver_killed=True)[0] == 6
    assert speed_difference(4, corner_excess=2)[0] == 2
    sd, causes = speed_difference(1, 4, (Weapon.SMOKE, Weapon.SPIKES))
    assert sd == 4 and len(causes) == 3   # the greatest of several


def test_bc_d10_sd_above_8() -> None:
    assert drift_row(9) == drift_row(8)
    extended = drift_row(10, Options(bc_d10_cap_sd=False))
    assert extended.distance is not None and extended.distance.modifier == 1
    assert extended.tyre_damage == 2


def test_drift_and_tyre_damage(car: CarSheet) -> None:
    sheet = replace(car, speed=7)
    result = resolve_skid(sheet, 7, 7, EnteredDice([5, 6]))
    # SD 7: drift 1d8 − 2 = 3; 2 damage on every tyre: all four destroyed → max speed 1
    assert result.drift == 3 and result.facing == 9 and not result.continues
    assert all(result.sheet.destroyed(t) for t in ("Tyre FL", "Tyre FR", "Tyre RL", "Tyre RR"))
    assert result.sheet.max_speed() == 1 and result.sheet.speed == 0
    texts = [s.text for s in result.steps]
    assert "Tyre FL takes 2 → 2 covered" in texts
    assert "final facing: rolled 6 +3 for speed 7 → 9 (BC-D11 fallback: 180°)" in texts


def test_negative_drift_counts_as_zero(car: CarSheet) -> None:
    result = resolve_skid(replace(car, speed=2), 2, 2, EnteredDice([3, 4]))
    assert result.drift == 0 and result.continues
    assert "(negative counts as 0, BC-D1)" in result.steps[0].text


def test_drifting_into_an_obstruction_stops_before_it(car: CarSheet) -> None:
    result = resolve_skid(replace(car, speed=8), 8, 8, EnteredDice([8]), clear_points=2)
    assert result.collided and result.facing is None and result.sheet.speed == 0
    assert "battlecars.crash or battlecars.ram" in result.steps[1].text
    odds = skid_probabilities(8, 8, 2)
    assert odds["drifts into the obstruction"] == Fraction(5, 8)   # 1d8 − 1 ≥ 3
    assert sum(odds.values()) == 1


def test_skid_procedure_with_oil_and_smoke(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=2), "oil": True, "smoke": True}
    resolution = SKID.resolve(values, EnteredDice([8, 2]))
    texts = [s.text for s in resolution.steps]
    assert texts[0] == "SD from Smoke: max(3, speed 2) = 3"
    assert texts[1] == "SD from Oil: max(5, speed 2) = 5"
    assert texts[2] == "several causes on one point: the greatest, SD 5"
    assert "Drift Table SD 5: 1d8-4 → rolled 8 → drift 4 points" in texts
    assert resolution.values["drift"] == 4 and resolution.success is True
    sheet = resolution.effects[0].sheet
    assert all(sheet.hits(t) == 1 for t in ("Tyre FL", "Tyre FR", "Tyre RL", "Tyre RR"))
    odds = SKID.odds(values)
    assert odds.probability("continues") == Fraction(1, 2)
    assert dict(odds.expected)["P(any drift)"] == Fraction(4, 8)


def test_skid_procedure_driver_killed(car: CarSheet) -> None:
    dead = replace(car.with_hits("Driver", 3), speed=5)
    resolution = SKID.resolve({"vehicle": dead, "driver_killed": True}, EnteredDice([1, 1]))
    assert resolution.effects[0].sheet.speed == 0 and resolution.success is False
    assert any("nobody drives the car on" in s.text for s in resolution.steps)
    assert SKID.odds({"vehicle": dead, "driver_killed": True}).probability("stops") == 1


def test_skid_procedure_needs_a_cause(car: CarSheet) -> None:
    with pytest.raises(ValueError, match="no cause of a skid"):
        SKID.resolve({"vehicle": car}, EnteredDice([]))


def test_sd_1_rolls_only_the_facing(car: CarSheet) -> None:
    values = {"vehicle": replace(car, speed=5), "corner_excess": 1}
    assert [d.purpose for d in SKID.dice_needed(values)] == ["final facing"]
    resolution = SKID.resolve(values, EnteredDice([2]))
    assert resolution.steps[1].text == "Drift Table SD 1: no drift, no tyre damage"
    assert resolution.values["facing"] == 4 and resolution.success is True
