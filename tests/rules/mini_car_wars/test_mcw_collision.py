"""Collisions (digest §2.8, §3.6), incl. MCW-E5, cycles' third (MCW-D6) and D31."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.mini_car_wars import stock_sheet
from carwars_desktop.rules.mini_car_wars.collision import (
    average_speed,
    collision_speed,
    cycle_share,
    damage_dice,
)
from carwars_desktop.rules.mini_car_wars.decisions import Rounding
from carwars_desktop.rules.mini_car_wars.model import CollisionKind
from carwars_desktop.rules.mini_car_wars.procedures import COLLISION


def test_e5_head_on_thirty_and_twenty_does_five_dice_to_each_front() -> None:
    rocket = replace(stock_sheet("Rocket Special"), speed=30)
    courier = replace(stock_sheet("Courier"), speed=20)
    resolution = COLLISION.resolve({"mover": rocket, "other": courier, "kind": "head-on"},
                                   EnteredDice([1, 1, 1, 1, 1, 2, 2, 2, 2, 2]))
    assert resolution.values["collision_speed"] == 50 and resolution.values["dice"] == 5
    assert resolution.steps[0].text == ("head-on: CS = 30 + 20 = 50 mph → 5 dice of damage each "
                                        "(rolled separately, MCW-D8)")
    hit_rocket, hit_courier = (e.sheet for e in resolution.effects)
    assert hit_rocket.armor.front == 35 and hit_courier.armor.front == 20
    assert hit_rocket.speed == 0 and hit_courier.speed == 0
    assert "MCW-D24" in resolution.steps[-1].text


def test_collision_arithmetic() -> None:
    assert collision_speed(CollisionKind.HEAD_ON, 30, 20) == 50
    assert collision_speed(CollisionKind.SAME_DIRECTION, 30, 60) == 30
    assert collision_speed(CollisionKind.T_BONE, 40, 90) == 40
    assert collision_speed(CollisionKind.FIXED_OBJECT, 70) == 70
    assert damage_dice(50) == 5 and damage_dice(0) == 0
    assert average_speed(60, 30) == 50 and average_speed(60, 40) == 50
    assert [cycle_share(14, r) for r in Rounding] == [4, 5, 5]
    assert [cycle_share(13, r) for r in Rounding] == [4, 4, 5]


def test_rear_end_equalises_speeds_and_hits_front_and_back() -> None:
    courier = replace(stock_sheet("Courier"), speed=60)
    kart = replace(stock_sheet("Killer Kart"), speed=30)
    resolution = COLLISION.resolve({"mover": courier, "other": kart, "kind": "same-direction"},
                                   EnteredDice([1, 2, 3, 2, 2, 2, 5]))
    after_courier, after_kart = (e.sheet for e in resolution.effects)
    assert after_courier.armor.front == 24 and after_kart.armor.back == 0
    assert after_kart.power_plant == 6  # 2 points inside, interior roll 5 → power plant
    assert after_courier.speed == 50 and after_kart.speed == 50
    assert "average, rounded up to 10 mph (MCW-D7)" in resolution.steps[-1].text


def test_car_hitting_a_cycle_takes_a_third_d6() -> None:
    courier = replace(stock_sheet("Courier"), speed=40)
    bike = replace(stock_sheet("Shogun 100"), speed=20)
    values = {"mover": courier, "other": bike, "kind": "t-bone", "other_side": "R"}
    resolution = COLLISION.resolve(values, EnteredDice([6, 6, 6, 5, 1, 1, 1, 1, 1]))
    assert resolution.values["mover_damage"] == 7 and resolution.values["other_damage"] == 4
    assert "a third, rounded down → 7 (MCW-D6)" in resolution.steps[1].text
    after_bike = resolution.effects[1].sheet
    assert after_bike.driver.is_dead and after_bike.speed == 0
    striker_only = {**values, "mcw_d6_cycle_third_whichever_moved": False}
    full = COLLISION.resolve(striker_only, EnteredDice([6, 6, 6, 5, 1, 1, 1, 1, 1]))
    assert full.values["mover_damage"] == 23


def test_fixed_object_d31() -> None:
    kart = replace(stock_sheet("Killer Kart"), speed=50)
    resolution = COLLISION.resolve({"mover": kart, "kind": "fixed-object"},
                                   EnteredDice([1, 1, 1, 1, 1]))
    assert resolution.values["collision_speed"] == 50
    (change,) = resolution.effects
    assert change.sheet.speed == 0 and change.sheet.armor.front == 1
    alternative = COLLISION.resolve({"mover": kart, "kind": "fixed-object",
                                     "mcw_d31_fixed_object_stops": False},
                                    EnteredDice([1, 1, 1, 1, 1]))
    assert alternative.effects[0].sheet.speed == 30


@pytest.mark.parametrize(("values", "message"), [
    ({"kind": "t-bone", "other": "Courier"}, "say which side"),
    ({"kind": "fixed-object", "other": "Courier"}, "a fixed object has no record sheet"),
    ({"kind": "head-on"}, "needs the other vehicle"),
])
def test_collision_input_errors(values: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        COLLISION.bind({"mover": "Killer Kart", **values})


def test_collision_odds() -> None:
    kart = replace(stock_sheet("Killer Kart"), speed=10)
    odds = COLLISION.odds({"mover": kart, "other": kart, "kind": "head-on"})
    assert odds.summary == "CS 20 mph → 2d6 each"
    assert sum(o.probability for o in odds.outcomes) == 1
    label = "Killer Kart: front armor damaged · Killer Kart: front armor damaged"
    assert odds.probability(label) == Fraction(10, 36) ** 2
    assert dict(odds.expected)["damage to Killer Kart"] == 7
    still = COLLISION.odds({"mover": kart, "other": kart, "kind": "same-direction"})
    assert still.outcomes[0].label == "no damage" and still.outcomes[0].probability == 1
