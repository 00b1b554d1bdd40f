"""Speed selection and the movement schedule (digest §2.3–§2.4), incl. MCW-E3."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.mini_car_wars import MiniSheet, stock_sheet
from carwars_desktop.rules.mini_car_wars.errors import SpeedListError
from carwars_desktop.rules.mini_car_wars.movement import (
    Velocity,
    legal_velocities,
    parse_movers,
)
from carwars_desktop.rules.mini_car_wars.procedures import SCHEDULE, SPEED_SELECTION


def test_e3_thirty_mph_moves_in_phases_one_to_three() -> None:
    resolution = SCHEDULE.resolve({"speeds": "car=30"}, EnteredDice([]))
    assert resolution.values["phases"] == (("car",),) * 3 + ((),) * 7
    steps = [s.text for s in resolution.steps]
    assert steps[0] == "move order (fastest first): car (30, phases 1–3)"
    assert steps[1] == "phase 1: car (30)" and steps[4] == "phase 4: nobody moves"


def test_fastest_moves_first_in_each_phase() -> None:
    resolution = SCHEDULE.resolve({"speeds": "Roadie=40, Carter=60, Kart=30, Wreck=0"},
                                  EnteredDice([]))
    phases = resolution.values["phases"]
    assert phases[0] == ("Carter", "Roadie", "Kart")
    assert phases[3] == ("Carter", "Roadie") and phases[5] == ("Carter",) and phases[6] == ()
    assert "not moving: Wreck" in resolution.steps[0].text


def test_ties_rolled_with_rerolls() -> None:
    values = {"speeds": "A=40, B=40, C=60", "roll_ties": True}
    resolution = SCHEDULE.resolve(values, EnteredDice([3, 3, 1, 6]))
    assert resolution.values["order"] == ("C", "B", "A")
    assert [str(n) for n in SCHEDULE.dice_needed(values)] == [
        "2d6 tie order at 40 mph (one per tied vehicle; equal dice roll again)"]
    odds = SCHEDULE.odds(values)
    assert {o.label: o.probability for o in odds.outcomes} == {
        "C, A, B": Fraction(1, 2), "C, B, A": Fraction(1, 2)}
    fixed = SCHEDULE.odds({"speeds": "A=40, B=40"})
    assert fixed.outcomes[0].probability == 1 and "ties in the order given" in fixed.summary


def test_many_ties_give_leader_odds() -> None:
    speeds = ", ".join(f"c{n}=80" for n in range(7))
    odds = SCHEDULE.odds({"speeds": speeds, "roll_ties": True})
    assert odds.summary == "5040 equally likely orders"
    assert len(odds.outcomes) == 7 and sum(o.probability for o in odds.outcomes) == 1


@pytest.mark.parametrize(("text", "message"), [
    ("A=35", "multiples of 10"), ("A=30R", "reverse is 10 or 20"), ("A=40, A=50", "twice"),
    ("", "no speeds"), ("A=fast", "not a speed"), ("A=110", "multiples of 10 mph, 0–100"),
])
def test_bad_speed_lists(text: str, message: str) -> None:
    with pytest.raises(SpeedListError, match=message):
        parse_movers(text)


def test_unnamed_speeds() -> None:
    assert [(m.name, str(m.velocity)) for m in parse_movers("40, 20R")] == [
        ("vehicle 1", "40"), ("vehicle 2", "20R")]


@pytest.mark.parametrize(("current", "legal"), [
    (Velocity(0), ["0", "10", "10R"]), (Velocity(10), ["0", "10", "20"]),
    (Velocity(50), ["30", "40", "50", "60"]), (Velocity(100), ["80", "90", "100"]),
    (Velocity(10, True), ["0", "10R", "20R"]), (Velocity(20, True), ["0", "10R", "20R"]),
])
def test_legal_speed_table(current: Velocity, legal: list[str]) -> None:
    assert [str(v) for v in legal_velocities(current)] == legal


def test_forced_deceleration_and_cycles() -> None:
    assert [str(v) for v in legal_velocities(Velocity(60), plant_destroyed=True)] == ["40", "50"]
    assert [str(v) for v in legal_velocities(Velocity(0), plant_destroyed=True)] == ["0"]
    assert [str(v) for v in legal_velocities(Velocity(60), driver_down=True)] == ["50"]
    assert [str(v) for v in legal_velocities(Velocity(20, True), driver_down=True)] == ["10R"]
    assert [str(v) for v in legal_velocities(Velocity(0), cycle=True)] == ["0", "10"]
    assert [str(v) for v in legal_velocities(Velocity(70), wrecked=True)] == ["0"]


def test_speed_procedure_starts_the_turn(roadie: MiniSheet) -> None:
    fired = replace(roadie, phases_used=4, maneuvers=2,
                    driver=replace(roadie.driver, fired=True))
    resolution = SPEED_SELECTION.resolve({"vehicle": fired, "speed": 50}, EnteredDice([]))
    assert resolution.success and resolution.outcome == "Roadie: 40 mph → 50 mph"
    new = resolution.effects[0].sheet
    assert (new.speed, new.previous_speed, new.phases_used, new.maneuvers) == (50, 40, 0, 0)
    assert not new.driver.fired
    assert resolution.steps[0].text == ("Roadie was at 40 mph: legal new speeds 20, 30, 40, 50 "
                                        "(R = reverse)")
    assert "phases 1–5" in resolution.steps[1].text


def test_illegal_speed_changes_nothing(roadie: MiniSheet) -> None:
    resolution = SPEED_SELECTION.resolve({"vehicle": roadie, "speed": 70}, EnteredDice([]))
    assert not resolution.success and resolution.effects == ()
    assert resolution.outcome == "70 mph is not allowed"
    odds = SPEED_SELECTION.odds({"vehicle": roadie, "speed": 70})
    assert odds.outcomes[0].label == "not allowed"


def test_forced_deceleration_in_the_procedure(roadie: MiniSheet) -> None:
    dead_plant = replace(roadie, power_plant=0)
    steps = SPEED_SELECTION.resolve({"vehicle": dead_plant, "speed": 40}, EnteredDice([])).steps
    assert "must lose at least 10 mph" in steps[0].text and "legal new speeds 20, 30" in \
        steps[1].text


def test_reverse_needs_a_turn_at_zero_and_cycles_never_reverse() -> None:
    car = stock_sheet("Courier")
    backing = SPEED_SELECTION.resolve({"vehicle": car, "speed": 10, "reverse": True},
                                      EnteredDice([]))
    sheet = backing.effects[0].sheet
    assert sheet.reverse and sheet.speed == 10
    forward = SPEED_SELECTION.resolve({"vehicle": sheet, "speed": 10}, EnteredDice([]))
    assert not forward.success
    bike = SPEED_SELECTION.resolve({"vehicle": stock_sheet("Shogun 100"), "speed": 10,
                          "reverse": True}, EnteredDice([]))
    assert not bike.success and "cycles cannot reverse" in bike.steps[-1].text


def test_speed_input_range() -> None:
    with pytest.raises(InputError, match="out of range"):
        SPEED_SELECTION.bind({"vehicle": "Courier", "speed": 110})


@pytest.mark.parametrize(("mph", "words"), [(10, "moves in phase 1 this turn"),
                                            (20, "moves in phases 1–2 this turn"),
                                            (0, "moves in no phase (stopped) this turn")])
def test_the_speed_step_names_the_phases_in_words(roadie: MiniSheet, mph: int,
                                                  words: str) -> None:
    """One phase in the singular: it read "moves in phases 1 this turn"."""
    slow = replace(roadie, speed=min(roadie.speed, 10))
    resolution = SPEED_SELECTION.resolve({"vehicle": slow, "speed": mph}, EnteredDice([]))
    assert resolution.success, resolution.outcome
    assert resolution.steps[1].text == f"new speed {mph} mph: {words}"
