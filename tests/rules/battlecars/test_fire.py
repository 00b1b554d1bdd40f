"""Missile fire resolved with entered dice, its explanation and exact odds (digest §2.9–§2.15)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import InputError
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.catalog import obstacle_catalog
from carwars_desktop.rules.battlecars.pieces import PedestrianSheet
from carwars_desktop.rules.battlecars.procedures.fire import FIRE
from carwars_desktop.rules.battlecars.terms import Block, Weapon


def fire(values: dict[str, Any], dice: list[int]) -> Any:
    entered = EnteredDice(dice)
    resolution = FIRE.resolve(values, entered)
    assert entered.unused() == (), "every entered die is used"
    return resolution


def texts(resolution: Any) -> list[str]:
    return [s.text for s in resolution.steps]


def test_rocket_hits_the_front(car: CarSheet, other: CarSheet) -> None:
    values = {"firer": car, "mount": "Pod A", "target": other, "area": "front",
              "points_between": 3}
    resolution = fire(values, [5, 4, 6, 6, 3])
    assert texts(resolution) == [
        f"{car.name} fires Rocket from Pod A at {other.name} front (bearing ahead), 3 points "
        "between",
        "the Rocket counter is removed from Pod A: spent",
        f"{car.name} has fired at 1 of 3 targets this Turn",
        "to hit (Rocket 2d8, Gunnery Computer +1 vs range 3 → need 2+ on 2d8 · 1 · 100%): "
        "rolled 5 + 4 +1 Gunnery Computer = 10 ≥ 3 → hit",
        "damage 2d8 − range 3: rolled 6 + 6 − 3 = 9",
        "front armour: 6 boxes left, 9 damage → 6 covered, breached; 3 into the front interior",
        "front hit location d8 3 → Pod A: 3 boxes covered, counters hit: Rocket",
        "a working Gunnery Computer stops detonation: Rocket (Pod A) destroyed",
    ]
    assert all(s.rule.startswith(("Battlecars §", "BC-")) for s in resolution.steps)
    firer, target = (e.sheet for e in resolution.effects)
    assert firer.load("Pod A") == (Weapon.ROCKET,)
    assert firer.targets_this_turn == (other.name,)
    assert target.load("Pod A") == (Weapon.ROCKET,) and target.hits("Pod A") == 3
    assert resolution.success is True and resolution.values["damage"] == 9


def test_rocket_odds_by_hand(car: CarSheet, other: CarSheet) -> None:
    values = {"firer": car, "mount": "Pod A", "target": other, "area": "front",
              "points_between": 3}
    odds = FIRE.odds(values)
    # sure hit (2d8 + 1 ≥ 3); damage 2d8 − 3: 0 on totals 2–3, armour only on 4–9
    assert odds.probability("hit: no damage") == Fraction(3, 64)
    assert odds.probability("hit: armour only") == Fraction(33, 64)
    assert odds.probability("hit: interior damage") == Fraction(28, 64)
    assert odds.need == 3 and [m.label for m in odds.modifiers] == ["Gunnery Computer"]
    assert dict(odds.expected)["damage"] == Fraction(385, 64)   # 6, plus 1/64 for 2d8 = 2


def test_mg_through_smoke_odds(car: CarSheet, other: CarSheet) -> None:
    values = {"firer": car, "mount": "Turret", "target": other, "area": "left-centre",
              "bearing": "side", "points_between": 3, "smoke": True}
    odds = FIRE.odds(values)
    assert odds.probability("miss") == Fraction(5, 8)      # 1d8 + 1 − 4 ≥ 3: 6+
    assert odds.summary.startswith("MG 1d8, Gunnery Computer +1, line of fire obscured by "
                                   "Smoke -4 vs range 3 → need 6+ on 1d8 · 3/8 · 37.5%")
    assert sum(o.probability for o in odds.outcomes) == 1


def test_a_moving_car_whose_driver_is_killed(car: CarSheet, other: CarSheet) -> None:
    target = replace(other.with_armour_hits(Block.LEFT_CENTRE, 4), speed=5)
    values = {"firer": car, "mount": "Turret", "target": target, "area": "left-centre",
              "bearing": "side", "points_between": 0}
    resolution = fire(values, [1, 8, 1, 3])   # 1d8 − 2 = 6: the Driver, then 3 on the Turret
    assert resolution.outcome.endswith("— the driver is killed")
    note = next(s for s in resolution.steps if "BC-D30" in s.rule)
    assert "skids with SD = its speed when its next Turn comes" in note.text


def test_mg_kills_a_pedestrian(car: CarSheet) -> None:
    walker = PedestrianSheet("Ann", damage=1)
    values = {"firer": car, "mount": "Turret", "target": walker, "points_between": 1}
    resolution = fire(values, [4, 6])
    assert texts(resolution)[-1] == "Ann takes 2 (3/3) — killed"
    assert resolution.effects[1].sheet.dead
    odds = FIRE.odds(values)   # sure hit; 1d8 − 3: 0 on 1–3, 1 on 4 (wounded), ≥ 2 kills
    assert odds.probability("hit: no damage") == Fraction(3, 8)
    assert odds.probability("hit: wounded") == Fraction(1, 8)
    assert odds.probability("hit: killed") == Fraction(4, 8)


def test_flame_on_a_damaged_fuel_tank_explodes(car: CarSheet, other: CarSheet) -> None:
    target = other.with_hits("Fire Extinguisher", 2).with_hits("Fuel Tank", 1)
    values = {"firer": car, "mount": "Pod B", "target": target, "area": "rear",
              "bearing": "behind", "points_between": 2}
    assert [d.purpose for d in FIRE.dice_needed(values)][:2] == ["damage", "hit location"]
    resolution = fire(values, [4, 6])
    lines = texts(resolution)
    assert "Flame at range 2 (≤ 3): automatic hit" in lines
    assert "damage 1d8+3 − range 2: rolled 4 +3 − 2 = 5" in lines
    assert lines[-2] == ("Flame hit the rear section of a car with a damaged fuel tank: "
                         "fuel-tank check rolled 6 + 1 = 7 ≥ 7 → the fuel tank EXPLODES: the "
                         "car is totally destroyed and the driver killed")
    assert lines[-1].startswith(f"{other.name} is now a Wreck")
    exploded = resolution.effects[1].sheet
    assert exploded.exploded and exploded.driver_dead and exploded.max_speed() == 0
    # with 12 boxes of rear armour the flame (1d8 + 1) never gets inside: 1d8 + 1 ≥ 7 explodes
    thick = replace(target.card, armour=tuple(replace(a, boxes=12) if a.block is Block.REAR
                                              else a for a in target.card.armour))
    armoured = replace(target, card=thick)
    odds = FIRE.odds(values | {"target": armoured})
    assert odds.probability("hit: fuel tank explodes") == Fraction(3, 8)
    assert odds.probability("hit: armour only") == Fraction(5, 8)


def test_flame_reaching_an_undamaged_tank(car: CarSheet, other: CarSheet) -> None:
    target = other.with_hits("Fire Extinguisher", 2).with_armour_hits(Block.LEFT_REAR, 4)
    values = {"firer": car, "mount": "Pod B", "target": target, "area": "left-rear",
              "bearing": "side", "points_between": 3}
    resolution = fire(values, [1, 5, 1])   # 1 damage onto the fuel tank; check 1 + 1 = 2
    assert texts(resolution)[-1].startswith("Flame damage reached a previously undamaged fuel "
                                            "tank: fuel-tank check rolled 1 + 1 = 2 < 7")


def test_rocket_reaching_the_fuel_tank_bc_d19(car: CarSheet, other: CarSheet) -> None:
    target = other.with_hits("Fire Extinguisher", 2).with_armour_hits(Block.REAR, 6)
    values = {"firer": car, "mount": "Pod A", "target": target, "area": "rear",
              "bearing": "behind", "points_between": 0}
    resolution = fire(values, [1, 1, 2, 1, 5, 5])
    assert texts(resolution)[-1] == ("the rocket damage reached the fuel tank: fuel-tank check "
                                     "rolled 5 + 3 − 2 = 6 < 7 → no explosion")
    before = fire(values | {"bc_d19_count_after_hit": False}, [1, 1, 2, 1, 5, 8])
    assert texts(before)[-1].startswith("the rocket damage reached the fuel tank: fuel-tank "
                                        "check rolled 8 + 0 − 2 = 6 < 7")


def test_extinguisher_prevents_the_check(car: CarSheet, other: CarSheet) -> None:
    target = other.with_hits("Fuel Tank", 1)
    values = {"firer": car, "mount": "Pod B", "target": target, "area": "rear",
              "bearing": "behind", "points_between": 2}
    resolution = fire(values, [4])
    assert "a working Fire Extinguisher prevents the check" in texts(resolution)[-1]
    assert FIRE.odds(values).probability("hit: fuel tank explodes") == 0


def test_shell_detonates_turret_rounds(car: CarSheet, other: CarSheet) -> None:
    target = other.with_hits("Gunnery Computer", 2).with_armour_hits(Block.LEFT_CENTRE, 4)
    values = {"firer": car, "mount": "Pod D", "target": target, "area": "left-centre",
              "bearing": "side", "points_between": 0}
    resolution = fire(values, [1, 2, 3, 7, 5, 2])
    lines = texts(resolution)
    assert "centre hit location d8 3 → Turret: 2 boxes covered, counters hit: MG, MG" in lines
    assert ("MG in Turret: rolled 7 (7–8) → detonates, fires off direction die 5 → right"
            in lines)
    assert "MG in Turret: rolled 2 → destroyed without detonating" in lines
    assert resolution.values["fired_off"] == [
        "MG from Turret fires off to the right: resolve battlecars.fire in detonation mode (no "
        "Gunnery Computer; the target chooses the area)"]
    assert resolution.outcome.endswith("— 1 round detonated")


def test_a_miss_carries_on_to_the_next_target(car: CarSheet, other: CarSheet) -> None:
    building = obstacle_catalog()["small building"]
    values = {"firer": car, "mount": "Pod A", "target": other, "area": "front",
              "points_between": 10, "next_target": building, "next_points_between": 12}
    resolution = fire(values, [1, 2, 8, 8, 8, 7])
    lines = texts(resolution)
    assert any(t.endswith("= 4 < 10 → miss") for t in lines)
    assert f"the missile carries on along the line to {building.name}" in lines
    assert "small building absorbs 3 (3/4)" in lines
    assert resolution.outcome == "missed; hit small building: 3 damage, 3 absorbed"
    assert [e.input_name for e in resolution.effects] == ["firer", "next_target"]
    odds = FIRE.odds(values)
    p_miss = 1 - Fraction(36, 64)   # a hit needs 2d8 + 1 ≥ 10, i.e. 2d8 ≥ 9
    p_next = Fraction(21, 64)       # 2d8 + 1 ≥ 12
    assert odds.probability("miss") == p_miss * (1 - p_next)
    assert sum(o.probability for o in odds.outcomes) == 1


def test_bc_d4_no_roll_beyond_reach(car: CarSheet, other: CarSheet) -> None:
    walker = PedestrianSheet("Bob")
    values = {"firer": car, "mount": "Turret", "target": other, "area": "front",
              "points_between": 5, "next_target": walker, "next_points_between": 10}
    resolution = fire(values, [3])
    assert texts(resolution)[-1] == ("the missile carries on to Bob at range 10: out of reach "
                                     "(best total 9) → no further effect")
    rolled = fire(values | {"bc_d4_only_if_possible": False}, [3, 8])
    assert rolled.outcome == "miss"


def test_return_fire_and_target_limits(car: CarSheet, other: CarSheet) -> None:
    busy = replace(car, targets_this_turn=("a", "b", "c"))
    values = {"firer": busy, "mount": "Turret", "target": other, "area": "front",
              "points_between": 1}
    with pytest.raises(InputError, match="already fired at 3 targets this Turn"):
        FIRE.resolve(values, EnteredDice([]))
    returned = fire(values | {"mode": "return-fire"}, [5, 5])
    assert "return fire: one round, only at the attacker" in texts(returned)[2]
    assert returned.effects[0].sheet.targets_this_turn == ("a", "b", "c")
    no_gc = replace(car.with_hits("Gunnery Computer", 2), targets_this_turn=("a", "b"))
    with pytest.raises(InputError, match=r"limit 2"):
        FIRE.resolve(values | {"firer": no_gc}, EnteredDice([]))
    again = replace(car, targets_this_turn=(other.name,))
    with pytest.raises(InputError, match="one round per target"):
        FIRE.resolve(values | {"firer": again}, EnteredDice([]))


@pytest.mark.parametrize(("change", "message"), [
    ({"mount": "Pod B", "points_between": 4}, "Flame has a maximum range of 3"),
    ({"mount": "Pod C"}, "Pod C holds no missile round"),
    ({"mount": "Engine"}, "Engine is a engine, not a pod or turret"),
    ({"mount": None}, "name the pod or turret"),
    ({"area": None}, "nominate the area"),
    ({"area": "rear"}, "from bearing ahead only the nearest areas may be nominated"),
    ({"weapon": "mg"}, "Pod A holds Rocket, not MG"),
    ({"mode": "detonation", "mount": None}, "a detonated round needs its weapon"),
])
def test_illegal_shots_are_refused(car: CarSheet, other: CarSheet, change: dict[str, Any],
                                   message: str) -> None:
    values = {"firer": car, "mount": "Pod A", "target": other, "area": "front",
              "points_between": 1} | change
    with pytest.raises(InputError, match=message):
        FIRE.resolve(values, EnteredDice([]))


def test_stunned_firer_and_self_target(car: CarSheet) -> None:
    values = {"firer": replace(car, stunned=True), "mount": "Turret", "target": car,
              "area": "front", "points_between": 1}
    with pytest.raises(InputError, match="stunned.*cannot fire at itself"):
        FIRE.resolve(values, EnteredDice([]))


def test_detonation_mode_has_no_gunnery_computer(car: CarSheet, other: CarSheet) -> None:
    values = {"firer": car, "mode": "detonation", "weapon": "shell", "target": other,
              "area": "front", "points_between": 5}
    odds = FIRE.odds(values)
    assert odds.modifiers == () and odds.probability("miss") == Fraction(1, 8)  # 1d8 + 3 ≥ 5
    resolution = fire(values, [2, 5])
    assert resolution.effects[0].input_name == "target"   # the firer's load is untouched
    assert "a detonated round fires off: no Gunnery Computer applies" in texts(resolution)


def test_pedestrian_fires_mg(car: CarSheet) -> None:
    walker = PedestrianSheet("Ann", mg_rounds=1)
    values = {"firer": walker, "target": car, "area": "left-rear", "bearing": "side",
              "points_between": 0}
    resolution = fire(values, [2, 8, 3])   # 6 damage: 4 armour, 2 on the Engine
    assert resolution.effects[0].sheet.mg_rounds == 0
    assert resolution.effects[1].sheet.hits("Engine") == 2
    assert resolution.effects[1].sheet.armour_left(Block.LEFT_REAR) == 0
    with pytest.raises(InputError, match="no MG rounds left"):
        FIRE.resolve(values | {"firer": replace(walker, mg_rounds=0)}, EnteredDice([]))


def test_fire_at_a_building_with_a_pedestrian_in_cover(car: CarSheet) -> None:
    """BC-E3: a car may fire at a building; the surplus reaches a pedestrian in cover."""
    building = replace(obstacle_catalog()["small building"], hits=3)
    walker = PedestrianSheet("Ann")
    values = {"firer": car, "mount": "Pod A", "target": building, "points_between": 0,
              "sheltering": walker}
    resolution = fire(values, [1, 1, 2, 1])
    assert [e.input_name for e in resolution.effects] == ["firer", "target", "sheltering"]
    assert resolution.effects[2].sheet.damage == 2
    odds = FIRE.odds(values)   # 2d8 damage, 1 absorbed: surplus ≥ 3 kills
    assert odds.probability("hit: pedestrian in cover killed") == Fraction(64 - 1 - 2, 64)
