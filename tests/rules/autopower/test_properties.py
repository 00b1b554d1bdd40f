"""Hypothesis properties: odds sum to 1, armor and speed never negative, the dead stay dead,
sheets round-trip through JSON."""

from dataclasses import replace
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from carwars_desktop.dice import SeededDice
from carwars_desktop.procedures import InputError, Odds
from carwars_desktop.rules.autopower import RULESET, Car, CarSheet, ControlPenalty
from carwars_desktop.rules.autopower.armor import play_armor
from carwars_desktop.rules.autopower.damage import take_damage
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.turns import start_turn

PROCEDURES = {p.id: p for p in RULESET.procedures}
VARIANTS_ON = {"AP-ramming": True, "AP-lasers": True}
"""The ram and laser are the §2.9 and §2.10 variants: played with them switched on."""
FAST = settings(max_examples=60, deadline=None)

card = st.integers(min_value=1, max_value=8)
cards = st.lists(card, max_size=3).map(tuple)
ammunition = st.lists(card, min_size=1, max_size=3).map(tuple)
penalties = st.sampled_from([ControlPenalty.NONE, ControlPenalty.NONE, ControlPenalty.MINUS_3,
                             ControlPenalty.MINUS_6, ControlPenalty.NO_ATTACK])


@st.composite
def cars(draw: st.DrawFn) -> Car:
    return Car("Car", draw(st.integers(0, 8)), draw(st.integers(0, 8)), draw(st.integers(0, 10)),
               draw(st.none() | st.integers(0, 6)))


@st.composite
def sheets(draw: st.DrawFn, alive: bool = True) -> CarSheet:
    car = draw(cars())
    strength: list[int] = []
    for value in draw(st.lists(card, max_size=5)):
        if sum(strength) + value <= 10 * car.energy:
            strength.append(value)
    armor = car.strength + sum(strength)
    damage: list[int] = []
    for value in draw(st.lists(st.integers(0, 16), max_size=3)):
        if sum(damage) + value <= armor:
            damage.append(value)
    killed = not alive and draw(st.booleans())
    if killed:
        damage.append(armor + 1)
    return CarSheet(
        car=car,
        hand_size=draw(st.integers(3, 9)),
        declared_speed=draw(st.integers(0, car.energy)),
        energy_in_play=draw(cards),
        strength_in_play=tuple(strength),
        damage_taken=tuple(damage),
        killed=killed,
        next_turn_penalty=draw(st.sampled_from(ControlPenalty)),
        penalty_this_turn=draw(penalties),
        attacked_this_turn=False,
    )


def assert_exact(odds: Odds) -> None:
    assert sum((o.probability for o in odds.outcomes), Fraction(0)) == 1
    assert all(isinstance(o.probability, Fraction) and 0 <= o.probability <= 1
               for o in odds.outcomes)


def assert_sane(sheet: CarSheet) -> None:
    assert sheet.armor >= 0 and sheet.speed >= 0 and sheet.raw_speed >= 0
    assert sheet.added_armor <= sheet.armor_cap
    assert sheet.killed == (sheet.killed or sheet.total_damage > sheet.armor)


def check_procedure(procedure_id: str, values: dict[str, Any], seed: int) -> list[CarSheet]:
    """Odds sum to 1 and a seeded resolution gives sane sheets; illegal plays are refused."""
    procedure = PROCEDURES[procedure_id]
    try:
        odds = procedure.odds(values, VARIANTS_ON)
    except InputError:
        return []
    assert_exact(odds)
    resolution = procedure.resolve(values, SeededDice(seed), VARIANTS_ON)
    assert len(resolution.dice) <= sum(need.count for need in procedure.dice_needed(values,
                                                                                   VARIANTS_ON))
    after = [effect.sheet for effect in resolution.effects]
    for sheet in after:
        assert isinstance(sheet, CarSheet)
        assert_sane(sheet)
    return after


@FAST
@given(sheets(), cards, st.booleans(), st.integers(0, 10**6))
def test_accelerate_and_push(sheet: CarSheet, play: tuple[int, ...], drop: bool,
                             seed: int) -> None:
    values = {"vehicle": sheet, "play": ", ".join(map(str, play)), "discard": "all" if drop else ""}
    for after in check_procedure("autopower.accelerate", values, seed):
        if after.pushing and not sheet.penalty_this_turn.forbids_attack_and_push:
            assert after.push_target is not None and after.push_target <= 12
        elif sheet.penalty_this_turn.forbids_attack_and_push:
            assert not after.pushing
    check_procedure("autopower.push", {"vehicle": sheet}, seed)


@FAST
@given(sheets(), sheets(), ammunition, cards, st.integers(0, 10**6),
       st.sampled_from(["autopower.attack", "autopower.laser", "autopower.ram"]))
def test_attacks(attacker: CarSheet, target: CarSheet, played: tuple[int, ...],
                 iq: tuple[int, ...], seed: int, procedure_id: str) -> None:
    first = PROCEDURES[procedure_id].inputs[0].name  # firer, or rammer
    values = {first: attacker, "target": target, "cards": ", ".join(map(str, played)),
              "iq_cards": ", ".join(map(str, iq)), "control_rolls": True}
    after = check_procedure(procedure_id, values, seed)
    for sheet in after:
        assert sheet.total_damage >= 0


@FAST
@given(sheets(), st.integers(0, 30), cards, st.booleans(), st.integers(0, 10**6))
def test_control(sheet: CarSheet, damage: int, iq: tuple[int, ...], strict: bool,
                 seed: int) -> None:
    values = {"vehicle": sheet, "damage": damage, "iq_cards": ", ".join(map(str, iq)),
              "ap_d15_natural_two_fails_control": strict}
    for after in check_procedure("autopower.control", values, seed):
        assert after.next_turn_penalty.severity >= sheet.next_turn_penalty.severity


@FAST
@given(sheets(), cards, st.booleans())
def test_armor_and_draw(sheet: CarSheet, strength: tuple[int, ...], skills: bool) -> None:
    check_procedure("autopower.armor",
                    {"vehicle": sheet, "cards": ", ".join(map(str, strength))}, 1)
    for after in check_procedure("autopower.draw", {"vehicle": sheet, "drawing_on_skills": skills},
                                 1):
        assert after.hand_size == max(sheet.hand_size, 7) or skills


@FAST
@given(st.lists(sheets(), min_size=2, max_size=4), st.integers(0, 10**6))
def test_turn_order_odds(cars_in_play: list[CarSheet], seed: int) -> None:
    values = dict(zip(("car_a", "car_b", "car_c", "car_d"), cars_in_play, strict=False))
    for procedure_id in ("autopower.draw_order", "autopower.first_player"):
        assert_exact(PROCEDURES[procedure_id].odds(values))
        order = PROCEDURES[procedure_id].resolve(values, SeededDice(seed)).values["order"]
        assert len(order) == len(cars_in_play)


OPERATIONS = st.lists(st.tuples(st.sampled_from(["damage", "armor", "turn"]),
                                st.integers(0, 12)), max_size=12)


@FAST
@given(sheets(), OPERATIONS)
def test_a_killed_car_stays_killed(sheet: CarSheet, operations: list[tuple[str, int]]) -> None:
    was_killed = sheet.killed
    for operation, amount in operations:
        try:
            if operation == "damage":
                sheet, _ = take_damage(sheet, amount)
            elif operation == "armor" and amount:
                sheet, _ = play_armor(replace(sheet, hand_size=max(1, sheet.hand_size)),
                                      (amount,))
            else:
                sheet, _ = start_turn(sheet)
        except IllegalPlayError:
            assert sheet.killed or operation == "armor"
        assert_sane(sheet)
        if was_killed:
            assert sheet.killed
        was_killed = sheet.killed


@FAST
@given(sheets(alive=False))
def test_sheets_round_trip_through_json(sheet: CarSheet) -> None:
    assert CarSheet.from_json(sheet.to_json()) == sheet
    assert CarSheet.from_json(sheet.to_json()).to_json() == sheet.to_json()
