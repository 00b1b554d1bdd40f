"""Scenario set-up rolls and victory (digest §2.15; MCW-D23, D26, D27)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.mini_car_wars import stock_sheet
from carwars_desktop.rules.mini_car_wars.procedures import (
    PACK_ATTACK_SETUP,
    ROAD_DUEL_SETUP,
    VICTORY,
)


def test_road_duel_setup_rolls_front_car_and_gap() -> None:
    values = {"car_a": "Courier", "car_b": "Rocket Special"}
    resolution = ROAD_DUEL_SETUP.resolve(values, EnteredDice([5, 3, 4]))
    assert resolution.outcome == "Rocket Special in front, 7\" ahead"
    assert resolution.values == {"front": "car_b", "behind": "car_a", "gap": 7, "front_roll": 5,
                                 "car_a_front_on": [1, 2, 3], "car_b_front_on": [4, 5, 6],
                                 "speed": 60}
    assert "(MCW-D27)" in resolution.steps[1].text
    assert all(e.sheet.speed == 60 for e in resolution.effects)
    odds = ROAD_DUEL_SETUP.odds(values)
    assert odds.probability("car A in front") == Fraction(1, 2)
    assert dict(odds.expected)["gap (inches)"] == 7


def test_pack_attack_setup_puts_everyone_at_eighty() -> None:
    cycles = {f"cycle_{n}": "Shogun 100" for n in range(1, 6)}
    resolution = PACK_ATTACK_SETUP.resolve({"car": "Courier", **cycles}, EnteredDice([]))
    assert len(resolution.effects) == 6 and all(e.sheet.speed == 80 for e in resolution.effects)
    assert resolution.outcome == "Courier 12\" ahead of 5 cycles, all at 80 mph"


@pytest.mark.parametrize(("values", "message"), [
    ({"car": "Courier", **{f"cycle_{n}": "Shogun 100" for n in range(1, 5)}},
     "at least 5 cycles"),
    ({"car": "Shogun 220", **{f"cycle_{n}": "Shogun 100" for n in range(1, 6)}},
     "is a cycle"),
    ({"car": "Courier", **{f"cycle_{n}": "Killer Kart" for n in range(1, 6)}}, "is not a cycle"),
])
def test_pack_attack_setup_checks(values: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        PACK_ATTACK_SETUP.bind(values)


def test_road_duel_victory() -> None:
    courier = stock_sheet("Courier")
    dead = replace(stock_sheet("Killer Kart"), driver=stock_sheet("Killer Kart").driver.killed())
    resolution = VICTORY.resolve({"scenario": "road_duel", "side_a": courier, "side_b": dead},
                                 EnteredDice([]))
    assert resolution.outcome == "Courier wins (the survivor)"
    assert VICTORY.odds({"scenario": "road_duel", "side_a": courier,
                         "side_b": courier}).outcomes[0].label == "no winner yet"


def test_pack_attack_victory_by_lead_of_more_than_thirty() -> None:
    cycles = {f"cycle_{n}": "Shogun 100" for n in range(2, 6)}
    base = {"scenario": "pack_attack", "side_a": "Courier", "side_b": "Shogun 100", **cycles}
    assert VICTORY.resolve({**base, "lead": "30"}, EnteredDice([])).outcome == "no winner yet"
    assert VICTORY.resolve({**base, "lead": "30.25"}, EnteredDice([])).outcome.startswith(
        "the car wins: its lead is more than 30\"")
    wreck = stock_sheet("Courier").crashed_and_burned()
    assert VICTORY.resolve({**base, "side_a": wreck}, EnteredDice([])).outcome == \
        "the cycles win: the car is out"
