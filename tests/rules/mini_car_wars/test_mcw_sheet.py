"""The record sheet: built from a design, immutable, JSON round trip (digest §1.1–§1.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from carwars_desktop.rules.mini_car_wars import (
    CrewMember,
    MiniDesign,
    MiniSheet,
    PersonKit,
    sheet_catalog,
    stock_sheet,
)
from carwars_desktop.rules.mini_car_wars.decisions import MiniRules
from carwars_desktop.rules.mini_car_wars.errors import SheetFormatError
from carwars_desktop.rules.mini_car_wars.model import Armor, CrewState, Role, Side, WeaponType


def test_e2_damaged_courier_record_sheet(roadie: MiniSheet) -> None:
    """MCW-E2: R 20 → 0 and the right MG gone; F 30 − 6 = 24; PP 12 − 3 = 9; 3 boxes each."""
    assert roadie.armor == Armor(24, 0, 20, 25, 0)
    assert [w.label for w in roadie.weapons if w.destroyed] == ["MG (R)"]
    assert roadie.power_plant == 9 and roadie.power_plant_max == 12
    assert roadie.driver.boxes_left == 3 and roadie.gunner is not None
    assert roadie.gunner.boxes_left == 3


def test_sheet_from_design_carries_crew_and_accessories() -> None:
    design = MiniDesign.stock_design("courier", "a", driver=PersonKit(1, 0, True),
                                     gunner=PersonKit(0, 1, False))
    sheet = MiniSheet.from_design(design)
    assert sheet.driver == CrewMember(Role.DRIVER, 0, 3, True, 1)
    assert sheet.gunner == CrewMember(Role.GUNNER, 0, 0, False, 2)
    assert sheet.driver.boxes_left == 6
    hr = next(w for w in sheet.weapons if w.kind is WeaponType.HR)
    assert hr.shots_left == 1
    assert all(w.shots_left is None for w in sheet.weapons if w.kind is not WeaponType.HR)
    assert sheet.speed == 0 and not sheet.turret and sheet.starting_armor == sheet.armor


def test_limited_ammunition_under_the_d15_alternative() -> None:
    sheet = MiniSheet.from_design(MiniDesign.stock_design("killer_kart"),
                                  MiniRules(d15_shots=20))
    assert sheet.weapons[0].shots_left == 20


def test_crew_states() -> None:
    person = CrewMember(Role.DRIVER)
    assert [replace(person, hits=h).state for h in range(4)] == [
        CrewState.UNHURT, CrewState.WOUNDED, CrewState.UNCONSCIOUS, CrewState.DEAD]
    assert replace(person, hits=2).is_down and not replace(person, hits=1).is_down


def test_derived_status_flags(roadie: MiniSheet) -> None:
    assert not roadie.uncontrolled and not roadie.is_out and not roadie.power_plant_destroyed
    assert replace(roadie, power_plant=0).power_plant_destroyed
    assert replace(roadie, driver=replace(roadie.driver, hits=2)).uncontrolled
    gunner = roadie.gunner
    assert gunner is not None
    both_down = replace(roadie, driver=roadie.driver.killed(), gunner=replace(gunner, hits=2))
    assert both_down.is_out
    wreck = roadie.crashed_and_burned()
    assert wreck.wrecked and wreck.is_out and wreck.speed == 0 and wreck.driver.is_dead


def test_only_turret_cars_expose_the_top() -> None:
    assert stock_sheet("Rocket Special").can_be_targeted(Side.TOP)
    assert stock_sheet("Rocket Special (b)").can_be_targeted(Side.TOP)
    assert not stock_sheet("Courier").can_be_targeted(Side.TOP)


def test_new_turn_resets_per_turn_state(roadie: MiniSheet) -> None:
    busy = replace(roadie, phases_used=3, maneuvers=2, skip_next_move=True,
                   driver=replace(roadie.driver, fired=True),
                   weapons=tuple(replace(w, fired=True) for w in roadie.weapons))
    fresh = busy.started_turn(50, False)
    assert (fresh.speed, fresh.previous_speed, fresh.phases_used, fresh.maneuvers) == (50, 40, 0, 0)
    assert not fresh.skip_next_move and not fresh.driver.fired
    assert not any(w.fired for w in fresh.weapons)
    assert busy.started_turn(50, False, keep_skip=True).skip_next_move


def test_sheet_json_round_trip(roadie: MiniSheet) -> None:
    for sheet in [*sheet_catalog().values(), roadie]:
        assert MiniSheet.from_json(sheet.to_json()) == sheet
        assert MiniSheet.from_json(sheet.to_json()).to_json() == sheet.to_json()


@pytest.mark.parametrize(("path", "value", "message"), [
    (("speed",), 35, "not a multiple of 10"),
    (("reverse",), True, "reverse is only for cars"),
    (("power_plant",), 13, "power plant 13 not in 0–12"),
    (("armor", "L"), -1, "armor L is negative"),
    (("driver", "hits"), 4, "hits 4 not in 0–3"),
    (("driver", "body_armor"), 3, "body armor 3 not in 0–0"),
    (("weapons", 0, "mount"), "Roof", "unknown mount 'Roof'"),
    (("weapons", 0, "type"), "Flamer", "unknown weapon 'Flamer'"),
    (("weapons", 0, "mount"), "Turret", "turret weapon on a vehicle without a turret"),
    (("size",), "Van", "unknown size 'Van'"),
    (("kind",), "design", "not a Mini Car Wars record sheet"),
    (("gunner", "role"), "driver", "the gunner slot holds a driver"),
    (("weapons",), {}, "expected a list"),
])
def test_malformed_sheet_json_is_refused(path: tuple[object, ...], value: object,
                                         message: str) -> None:
    data = stock_sheet("Courier").to_json()
    target: object = data
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    with pytest.raises(SheetFormatError, match=message):
        MiniSheet.from_json(data)


def test_unknown_sheet_field_is_refused() -> None:
    data = {**stock_sheet("Courier").to_json(), "fuel": 3}
    with pytest.raises(SheetFormatError, match="unknown field fuel"):
        MiniSheet.from_json(data)
