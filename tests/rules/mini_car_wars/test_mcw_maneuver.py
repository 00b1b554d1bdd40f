"""Maneuvers and control rolls (digest §2.5–§2.7, §3.4), incl. MCW-E4 and optional hazards."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.mini_car_wars import MiniSheet, stock_sheet
from carwars_desktop.rules.mini_car_wars.control import control_result
from carwars_desktop.rules.mini_car_wars.model import ControlResult
from carwars_desktop.rules.mini_car_wars.procedures import CONTROL, HAZARD, MANEUVER


def test_e4_second_maneuver_rolls_twelve_and_skids(roadie: MiniSheet) -> None:
    """MCW-E4: 40 mph, phases 1–2 used (one maneuver); swerve in phase 3; roll 10 + 2 = 12 →
    Skid; phase 4 is skipped and the Courier does not move again this turn."""
    sheet = replace(roadie, phases_used=2, maneuvers=1)
    resolution = MANEUVER.resolve({"vehicle": sheet, "maneuver": "swerve"}, EnteredDice([4, 6]))
    steps = [s.text for s in resolution.steps]
    assert steps[0].startswith("phase 3: swerve")
    assert steps[2] == "control roll (maneuver 2): 10 +2 (speed 40 mph) = 12 → Skid"
    assert "from where the maneuver ended, keeping its facing (MCW-D3)" in steps[3]
    assert steps[4] == "it skips its next phase of movement (phase 4)"
    skidded = resolution.effects[0].sheet
    assert skidded.skip_next_move and skidded.maneuvers == 2
    phase4 = MANEUVER.resolve({"vehicle": skidded}, EnteredDice([]))
    assert phase4.outcome == "phase 4: skipped (skid)"
    after = phase4.effects[0].sheet
    assert after.moves_left == 0
    done = MANEUVER.resolve({"vehicle": after}, EnteredDice([]))
    assert done.outcome.startswith("not allowed") and "no move left" in done.steps[0].text
    at_fifty = MANEUVER.resolve({"vehicle": replace(after, speed=50)}, EnteredDice([]))
    assert at_fifty.outcome == "phase 5: straight"


def test_twelve_on_the_control_table_is_a_skid() -> None:
    assert control_result(12) is ControlResult.SKID
    assert [control_result(t).value for t in (2, 10, 11, 13, 14, 20)] == [
        "No effect", "No effect", "Fishtail", "Fishtail and Skid", "Crash and Burn",
        "Crash and Burn"]


def test_first_maneuver_is_free(roadie: MiniSheet) -> None:
    resolution = MANEUVER.resolve({"vehicle": roadie, "maneuver": "drift"}, EnteredDice([]))
    assert resolution.outcome == "phase 1: drift, no control roll" and resolution.dice == ()
    assert MANEUVER.dice_needed({"vehicle": roadie, "maneuver": "drift"}) == ()
    assert MANEUVER.odds({"vehicle": roadie, "maneuver": "drift"}).outcomes[0].label == \
        "no control roll"


def test_control_odds_at_forty_mph(roadie: MiniSheet) -> None:
    """2d6+2: no effect on 2–8 naturals (26/36), fishtail 9 (4/36), skid 10 (3/36),
    fishtail and skid 11 (2/36), crash 12 (1/36)."""
    sheet = replace(roadie, maneuvers=1)
    odds = MANEUVER.odds({"vehicle": sheet, "maneuver": "swerve"})
    assert [(o.label, o.probability) for o in odds.outcomes] == [
        ("No effect", Fraction(26, 36)), ("Fishtail", Fraction(4, 36)), ("Skid", Fraction(3, 36)),
        ("Fishtail and Skid", Fraction(2, 36)), ("Crash and Burn", Fraction(1, 36))]
    assert odds.summary == "2d6 +2: no effect on 8 or less · 13/18 · 72.2%"


def test_fishtail_rolls_for_the_corner(roadie: MiniSheet) -> None:
    resolution = CONTROL.resolve({"vehicle": roadie}, EnteredDice([4, 5, 5]))
    steps = [s.text for s in resolution.steps]
    assert steps[0] == "control roll (wounded driver (MCW-D5)): 9 +2 (speed 40 mph) = 11 → Fishtail"
    assert "move the rear-right corner 2 squares" in steps[1]
    assert [d.purpose for d in resolution.dice] == ["control roll", "control roll",
                                                   "fishtail corner"]


def test_cycle_crashes_and_burns() -> None:
    bike = replace(stock_sheet("Shogun 100"), speed=100)
    resolution = CONTROL.resolve({"vehicle": bike, "reason": "other"}, EnteredDice([3, 4]))
    assert resolution.outcome == "14 → Crash and Burn" and not resolution.success
    wreck = resolution.effects[0].sheet
    assert wreck.wrecked and wreck.speed == 0 and wreck.driver.is_dead and wreck.is_out
    again = CONTROL.resolve({"vehicle": wreck}, EnteredDice([]))
    assert "already a wreck" in again.outcome


def test_skid_on_the_last_move_does_not_carry_over_d2(roadie: MiniSheet) -> None:
    last = replace(roadie, phases_used=3, maneuvers=1)
    resolution = MANEUVER.resolve({"vehicle": last, "maneuver": "swerve"}, EnteredDice([5, 5]))
    assert not resolution.effects[0].sheet.skip_next_move
    assert "nothing carries into the next turn (MCW-D2)" in resolution.steps[-1].text
    carried = MANEUVER.resolve({"vehicle": last, "maneuver": "swerve",
                                "mcw_d2_skid_carries_over": True}, EnteredDice([5, 5]))
    assert carried.effects[0].sheet.skip_next_move


@pytest.mark.parametrize(("change", "reason"), [
    ({"speed": 20, "maneuver": "pivot"}, "a pivot is allowed only at 10 mph"),
    ({"speed": 0}, "is not moving this turn"),
    ({"uncontrolled": True, "maneuver": "drift"}, "straight ahead with no maneuvers"),
])
def test_maneuver_refusals(roadie: MiniSheet, change: dict[str, object], reason: str) -> None:
    sheet = replace(roadie, speed=int(change.get("speed", 40)))  # type: ignore[call-overload]
    if change.get("uncontrolled"):
        sheet = replace(sheet, driver=sheet.driver.killed())
    values = {"vehicle": sheet, "maneuver": change.get("maneuver", "straight")}
    resolution = MANEUVER.resolve(values, EnteredDice([]))
    assert not resolution.success and reason in resolution.steps[0].text
    assert MANEUVER.odds(values).outcomes[0].label == "not allowed"


def test_pivot_at_ten_mph_never_needs_a_roll() -> None:
    slow = replace(stock_sheet("Killer Kart"), speed=10, maneuvers=0)
    resolution = MANEUVER.resolve({"vehicle": slow, "maneuver": "pivot"}, EnteredDice([]))
    assert resolution.outcome == "phase 1: pivot, no control roll"


def test_debris_section_roll() -> None:
    debris = HAZARD.resolve({"hazard": "new section"}, EnteredDice([6]))
    clear = HAZARD.resolve({"hazard": "new section"}, EnteredDice([5]))
    assert debris.success and debris.outcome == "6: debris-littered road section"
    assert not clear.success
    odds = HAZARD.odds({"hazard": "new section"})
    assert odds.probability("debris-littered") == Fraction(1, 6)


def test_debris_and_off_road_control_rolls(roadie: MiniSheet) -> None:
    resolution = HAZARD.resolve({"hazard": "debris", "vehicle": roadie}, EnteredDice([6, 6, 1]))
    assert resolution.outcome == "14 → Crash and Burn"
    assert "ran over debris (MCW-D25" in resolution.steps[0].text
    off = HAZARD.odds({"hazard": "off-road", "vehicle": roadie})
    assert off.probability("No effect") == Fraction(26, 36)
    with pytest.raises(InputError, match="needs the vehicle"):
        HAZARD.odds({"hazard": "off-road"})
