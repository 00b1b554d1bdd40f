"""The live car sheet: derived values (§1.2), invariants, immutability and JSON."""

import dataclasses
import json

import pytest

from carwars_desktop.rules.autopower import Car, CarSheet, ControlPenalty, Options, new_sheet
from carwars_desktop.rules.autopower.errors import (
    OptionsFormatError,
    SheetFormatError,
    SheetStateError,
)

MANHUNTER = Car("Martian Manhunter", 4, 4, 7, 2)


def test_derived_values() -> None:
    sheet = CarSheet(MANHUNTER, energy_in_play=(3,), strength_in_play=(5, 6), damage_taken=(8,))
    assert sheet.raw_speed == 7 and sheet.speed == 6 and sheet.armor == 18
    assert sheet.armor_cap == 40 and not sheet.pushing and sheet.push_target is None
    assert sheet.seen_speed(after_armor_penalty=False) == 7
    assert sheet.total_damage == 8 and not sheet.killed


def test_speed_never_below_zero() -> None:
    slow = CarSheet(Car("Tank", 2, 1, 1), declared_speed=0, strength_in_play=(10, 10))
    assert slow.speed_penalty == 2 and slow.speed == 0


def test_pushing_from_declared_or_cards() -> None:
    assert CarSheet(Car("Rhino", 2, 1, 1), energy_in_play=(6,)).push_target == 10


def test_fresh_sheet_has_drawn_seven_and_declares_e() -> None:
    sheet = new_sheet(MANHUNTER)
    assert sheet.hand_size == 7 and sheet.declared_speed == 4 and sheet.speed == 4


@pytest.mark.parametrize(("changes", "message"), [
    ({"strength_in_play": (20, 15, 6)}, "exceed the cap 10 × E4 = 40"),
    ({"declared_speed": 5}, "declared speed 5 is outside 0–4"),
    ({"hand_size": -1}, "a hand of -1 cards"),
    ({"damage_taken": (20,)}, "damage 20 exceeds Armor 7, so the car is killed"),
    ({"damage_taken": (-1,)}, "negative damage"),
    ({"energy_in_play": (0,)}, "Energy card 0 is not a card value"),
    ({"car": Car("Bad", -1, 1, 1)}, "energy -1 is below 0"),
])
def test_unreachable_states_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SheetStateError, match=message):
        dataclasses.replace(new_sheet(MANHUNTER), **changes)  # type: ignore[arg-type]


def test_killed_car_may_carry_any_damage() -> None:
    dead = dataclasses.replace(new_sheet(MANHUNTER), damage_taken=(20,), killed=True)
    assert dead.killed


def test_sheets_are_immutable() -> None:
    sheet = new_sheet(MANHUNTER)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.hand_size = 3  # type: ignore[misc]


def test_json_round_trip_exactly() -> None:
    sheet = CarSheet(MANHUNTER, hand_size=4, declared_speed=2, energy_in_play=(3, 1),
                     strength_in_play=(5,), damage_taken=(2, 3),
                     next_turn_penalty=ControlPenalty.MINUS_6,
                     penalty_this_turn=ControlPenalty.MINUS_3, attacked_this_turn=True)
    data = json.loads(json.dumps(sheet.to_json()))
    assert CarSheet.from_json(data) == sheet
    assert CarSheet.from_json(data).to_json() == sheet.to_json()


@pytest.mark.parametrize(("changes", "message"), [
    ({"hand_size": "7"}, "hand_size must be a whole number"),
    ({"energy_in_play": [1, "2"]}, "energy_in_play must be a list of whole numbers"),
    ({"killed": 0}, "killed must be true or false"),
    ({"next_turn_penalty": "-4"}, "next_turn_penalty must be one of"),
    ({"speed": 3}, "unknown field speed"),
    ({"car": {"name": "X"}}, "car: missing energy"),
])
def test_malformed_json_is_refused(changes: dict[str, object], message: str) -> None:
    data = {**new_sheet(MANHUNTER).to_json(), **changes}
    with pytest.raises(SheetFormatError, match=message):
        CarSheet.from_json(data)


def test_missing_fields_are_named() -> None:
    data = new_sheet(MANHUNTER).to_json()
    del data["killed"]
    with pytest.raises(SheetFormatError, match="missing killed"):
        CarSheet.from_json(data)


def test_json_state_is_checked_too() -> None:
    data = {**new_sheet(MANHUNTER).to_json(), "strength_in_play": [20, 20, 5]}
    with pytest.raises(SheetStateError, match="exceed the cap"):
        CarSheet.from_json(data)


def test_options_round_trip_and_refusals() -> None:
    options = Options(division=20, control_rolls=True, ap_d9_capped_damage=False)
    assert Options.from_json(options.to_json()) == options
    assert Options.from_json({}) == Options()
    with pytest.raises(OptionsFormatError, match="division must be one of 15, 20, 25"):
        Options(division=18)
    with pytest.raises(OptionsFormatError, match="unknown option lasers_on"):
        Options.from_json({"lasers_on": True})
    with pytest.raises(OptionsFormatError, match="ap_d7_discard must be one of"):
        Options.from_json({"ap_d7_discard": "random"})
    with pytest.raises(OptionsFormatError, match="ramming must be true or false"):
        Options.from_json({"ramming": "yes"})


def test_a_hit_leaves_the_control_roll_due_until_it_is_rolled() -> None:
    """§2.8 (variant on): the hit car's control roll is due on its sheet (kept in its JSON)
    until autopower.control is resolved; without the variant nothing is due."""
    from carwars_desktop.dice import EnteredDice
    from carwars_desktop.rules import find_procedure
    from carwars_desktop.rules.autopower import new_sheet, sample_cars
    from carwars_desktop.rules.autopower.sheet import CarSheet as Sheet

    cars = sample_cars()
    attack = find_procedure("autopower.attack")
    inputs = {"firer": new_sheet(cars["Longshot"]), "target": new_sheet(cars["Darkseid"]),
              "cards": "4, 4"}
    off = attack.resolve(inputs, EnteredDice([6, 5]))
    hit = attack.resolve(inputs, EnteredDice([6, 5]), {"AP-control-rolls": True})
    [before] = [e.sheet for e in off.effects if e.input_name == "target"]
    [after] = [e.sheet for e in hit.effects if e.input_name == "target"]
    assert isinstance(after, Sheet) and isinstance(before, Sheet)
    assert before.control_due is None and "control_due" not in before.to_json()
    assert after.control_due == 8 and Sheet.from_json(after.to_json()) == after
    control = find_procedure("autopower.control")
    rolled = control.resolve({"vehicle": after, "damage": 8}, EnteredDice([6, 6]),
                             {"AP-control-rolls": True})
    assert rolled.effects[0].sheet.control_due is None  # type: ignore[attr-defined]
