"""The live record sheet: derived values, component effects, JSON (digest §1.2–§1.3, §2.17)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from carwars_desktop.rules.battlecars import CarSheet, IllegalActionError, SheetError
from carwars_desktop.rules.battlecars.catalog import (
    car_catalog,
    example_car_name,
    load_piece,
    obstacle_catalog,
)
from carwars_desktop.rules.battlecars.options import Options
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet
from carwars_desktop.rules.battlecars.terms import (
    Block,
    Direction,
    Kind,
    ObstacleKind,
    ObstacleSize,
    Section,
    Surface,
    Weapon,
)


def test_fresh_sheet(car: CarSheet) -> None:
    assert car.name == example_car_name(1)
    assert car.speed == 0 and car.direction is Direction.FORWARD  # BC-D7
    assert car.max_speed() == 9
    assert car.load("Pod A") == (Weapon.ROCKET, Weapon.ROCKET)
    assert car.empty_slots("Pod A") == 0 and car.empty_slots("Turret") == 0
    assert car.armour_left(Block.FRONT) == 6
    assert car.target_limit == 3 and not car.driver_dead
    assert car.mobile_with_driver()


def test_engine_box_costs_1_and_tyre_destroyed_costs_2(car: CarSheet) -> None:
    assert car.with_hits("Engine", 1).max_speed() == 8
    assert car.with_hits("Engine", 3).max_speed() == 6
    assert car.with_hits("Tyre FL", 1).max_speed() == 9   # damaged, not destroyed
    assert car.with_hits("Tyre FL", 2).max_speed() == 7
    both = car.with_hits("Tyre FL", 2).with_hits("Engine", 2)
    assert both.max_speed() == 3 + 2  # 9 − 2 − 2 (BC-D24: cumulative)
    assert both.max_speed(Options(bc_d24_stack_reductions=False)) == 7


def test_max_speed_floors_at_zero(car: CarSheet) -> None:
    wrecked = car.with_hits("Engine", 4)
    for tyre in ("Tyre FL", "Tyre FR", "Tyre RL"):
        wrecked = wrecked.with_hits(tyre, 2)
    assert wrecked.max_speed() == 0
    assert wrecked.immobilised() and wrecked.is_wreck()  # BC-D32
    assert replace(car, exploded=True).max_speed() == 0


def test_components_work_until_totally_destroyed(car: CarSheet) -> None:
    assert car.max_acceleration(Surface.ROAD) == 3 and car.max_acceleration(Surface.GRASS) == 2
    assert car.max_deceleration(Surface.ROAD) == 4 and car.max_deceleration(Surface.GRASS) == 3
    assert car.safe_speed(90, Surface.ROAD) == 6
    damaged = (car.with_hits("Super-Charger", 1).with_hits("Power Brakes", 1)
               .with_hits("Auto-Steer", 1).with_hits("Gunnery Computer", 1))
    assert damaged.max_acceleration(Surface.ROAD) == 3 and damaged.target_limit == 3
    assert damaged.safe_speed(90, Surface.ROAD) == 6
    gone = (car.with_hits("Super-Charger", 2).with_hits("Power Brakes", 2)
            .with_hits("Auto-Steer", 2).with_hits("Gunnery Computer", 2)
            .with_hits("Fire Extinguisher", 2))
    assert gone.max_acceleration(Surface.ROAD) == 2 and gone.max_deceleration(Surface.ROAD) == 3
    assert gone.safe_speed(90, Surface.ROAD) == 4 and gone.target_limit == 2
    assert not gone.working(Kind.FIRE_EXTINGUISHER)


def test_driver_dead_at_three(car: CarSheet) -> None:
    assert not car.with_hits("Driver", 2).driver_dead
    dead = car.with_hits("Driver", 3)
    assert dead.driver_dead and dead.cannot_act() is not None
    assert not dead.mobile_with_driver()
    assert replace(car, stunned=True).cannot_act() == f"the driver of {car.name} is stunned " \
        "until the end of the Round"


def test_section_destroyed_bc_d22(car: CarSheet) -> None:
    front = car
    for component in car.card.components_in(Section.FRONT):
        front = front.with_hits(component.name, component.boxes)
    assert front.section_destroyed(Section.FRONT)
    assert not front.section_destroyed(Section.FRONT, Options(bc_d22_interior_only=False))
    for block in (Block.FRONT, Block.LEFT_FRONT, Block.RIGHT_FRONT):
        front = front.with_armour_hits(block, car.card.armour_boxes(block))
    assert front.section_destroyed(Section.FRONT, Options(bc_d22_interior_only=False))


def test_without_round(car: CarSheet) -> None:
    fired = car.without_round("Pod A", Weapon.ROCKET)
    assert fired.load("Pod A") == (Weapon.ROCKET,) and fired.empty_slots("Pod A") == 4
    assert car.load("Pod A") == (Weapon.ROCKET, Weapon.ROCKET)  # immutable
    with pytest.raises(IllegalActionError, match="holds no Shell"):
        car.without_round("Pod A", Weapon.SHELL)


def test_json_round_trip(car: CarSheet) -> None:
    played = replace(car.with_hits("Engine", 2).with_armour_hits(Block.REAR, 5)
                     .without_round("Pod D", Weapon.SHELL), speed=4, previous_speed=3,
                     direction=Direction.FORWARD, stunned=True, targets_this_turn=("x",),
                     drops_this_turn=("Pod C",))
    data = json.loads(json.dumps(played.to_json()))
    assert CarSheet.from_json(data) == played
    assert CarSheet.from_json(data).to_json() == data
    assert load_piece(data) == played


def _sheet_json(car: CarSheet, **change: Any) -> dict[str, Any]:
    return car.to_json() | change


@pytest.mark.parametrize(("change", "message"), [
    ({"kind": "battlecars.pedestrian"}, "kind must be 'battlecars.car'"),
    ({"armour": {"front": 7}}, "front must be at most 6"),
    ({"components": {"Engine": -1}}, "Engine must be at least 0"),
    ({"components": {"Wings": 1}}, "no component called Wings"),
    ({"loads": {"Engine": []}}, "Engine is not a pod or turret"),
    ({"loads": {"Turret": ["rocket"]}}, "turret: it holds MG rounds only"),
    ({"loads": {"Pod A": ["rocket"] * 3}}, "no room for counters needing 12"),
    ({"speed": -1}, "speed must be at least 0"),
    ({"direction": "sideways"}, "'sideways' is not one of"),
    ({"stunned": "no"}, "stunned must be true or false"),
    ({"card": {"name": "x"}}, "missing armour, components, hit_locations"),
    ({"targets_this_turn": [1]}, "targets_this_turn must list names"),
])
def test_from_json_refuses_malformed_sheets(car: CarSheet, change: dict[str, Any],
                                            message: str) -> None:
    with pytest.raises(SheetError, match=message):
        CarSheet.from_json(_sheet_json(car, **change))


def test_covered_pod_boxes_leave_less_room(car: CarSheet) -> None:
    data = car.to_json()
    data["components"]["Pod A"] = 1
    with pytest.raises(SheetError, match="1 covered: no room for counters needing 8"):
        CarSheet.from_json(data)


def test_a_card_with_problems_cannot_enter_play(car: CarSheet) -> None:
    with pytest.raises(IllegalActionError, match="cannot enter play"):
        CarSheet.fresh(replace(car.card, speed_track_max=0))
    data = car.to_json()
    data["card"]["speed_track_max"] = 0
    with pytest.raises(SheetError, match="its card has problems"):
        CarSheet.from_json(data)


def test_catalog_names_four_example_cars() -> None:
    cars = car_catalog()
    assert len(cars) == 5
    assert {example_car_name(i) for i in range(1, 5)} <= set(cars)


def test_pedestrian_sheet() -> None:
    walker = PedestrianSheet("Ann", damage=1)
    hurt, absorbed = walker.wound(5)
    assert (hurt.damage, absorbed.taken, absorbed.surplus, hurt.dead) == (3, 2, 3, True)
    assert PedestrianSheet.from_json(walker.to_json()) == walker
    with pytest.raises(SheetError, match="damage must be at most 3"):
        PedestrianSheet.from_json(walker.to_json() | {"damage": 4})
    with pytest.raises(SheetError, match="mg_rounds must be at most 3"):
        PedestrianSheet.from_json(walker.to_json() | {"mg_rounds": 4})
    with pytest.raises(SheetError, match="speed must be at most 2"):
        PedestrianSheet.from_json(walker.to_json() | {"speed": 3})


def test_obstacle_sheets() -> None:
    obstacles = obstacle_catalog()
    assert obstacles["small building"].capacity == 4
    assert obstacles["medium tree"].capacity == 8
    assert obstacles["large building"].capacity == 16
    assert obstacles["wreck"].capacity == 2
    full, absorbed = obstacles["wreck"].absorb(5)
    assert (full.hits, absorbed.taken, absorbed.surplus, full.full) == (2, 2, 3, True)
    for sheet in obstacles.values():
        assert ObstacleSheet.from_json(sheet.to_json()) == sheet
    bad = ObstacleSheet("w", ObstacleKind.WRECK, None).to_json() | {"size": "small"}
    with pytest.raises(SheetError, match="a wreck has no size"):
        ObstacleSheet.from_json(bad)
    tree = ObstacleSheet("t", ObstacleKind.TREE, ObstacleSize.SMALL).to_json() | {"hits": 5}
    with pytest.raises(SheetError, match="hits must be at most 4"):
        ObstacleSheet.from_json(tree)
    with pytest.raises(SheetError, match="kind must be"):
        load_piece({"kind": "mini.vehicle"})
