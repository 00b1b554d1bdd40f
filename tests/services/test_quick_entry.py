"""The quick-entry grammar: shots, damage, dice, and errors that point at the wrong word."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carwars_desktop.rules.autopower.play.table import QUICK as AP
from carwars_desktop.rules.battlecars.play.table import QUICK as BC
from carwars_desktop.rules.mini_car_wars.play.table import QUICK as MCW
from carwars_desktop.services.quick_entry import (
    QuickEntryError,
    Word,
    match_choice,
    missing_target,
    parse,
    presets,
    words,
)

KEYS = ["v1", "v2", "v3", "v4"]
MINI_WEAPONS = [("1", "1: MG (F)"), ("2", "2: RL (F) — destroyed"), ("3", "3: RL (B)")]


def _error(line: str, rules=MCW, selected: int | None = None) -> QuickEntryError:  # type: ignore[no-untyped-def]
    with pytest.raises(QuickEntryError) as caught:
        parse(line, rules, 4, selected)
    return caught.value


def test_the_example_shot_reads() -> None:
    command = parse("2 mg 1 f 5", MCW, 4)
    assert command.procedure_id == "mini.fire" and command.kind == "shot"
    assert command.vehicles == {"firer": 2, "target": 1}
    assert command.values == {"side": "F", "range": "5"}
    assert command.weapon == Word("mg", 2, 4)
    given_presets = presets(command, KEYS, MCW, lambda name, vehicles: MINI_WEAPONS)
    assert given_presets == {"firer": "v2", "target": "v1", "side": "F", "range": "5",
                             "weapon": "1"}


def test_side_and_range_are_optional_and_fractions_are_ranges() -> None:
    assert parse("1 rl 3", MCW, 4).values == {}
    assert parse("1 rl 3 3/4", MCW, 4).values == {"range": "3/4"}
    assert parse("1 rl 3 B 7.5", MCW, 4).values == {"side": "B", "range": "7.5"}


def test_dice_after_a_colon() -> None:
    assert parse("2 mg 1 f 5 : 543", MCW, 4).dice == "543"
    assert parse("7 f:62", MCW, 4, selected=3).dice == "62"


def test_damage_to_the_selected_vehicle_or_a_named_one() -> None:
    command = parse("7 f", MCW, 4, selected=3)
    assert command.kind == "damage" and command.procedure_id == "mini.damage"
    assert command.vehicles == {"vehicle": 3}
    assert command.values == {"damage": 7, "side": "F"}
    assert parse("1 7 l", MCW, 4).vehicles == {"vehicle": 1}
    assert parse("12 lf", BC, 4, selected=1).values == {"amount": 12, "area": "left-front"}


def test_a_weapon_word_matches_a_usable_weapon_first() -> None:
    rl = Word("rl", 0, 2)
    assert match_choice(rl, MINI_WEAPONS, MCW) == "3"  # the front one is destroyed
    assert match_choice(Word("rk", 0, 2), [("Pod A", "Pod A (rocket, rocket)"),
                                           ("Turret", "Turret (mg, mg)")], BC) == "Pod A"
    with pytest.raises(QuickEntryError, match="not one of the firer's weapons"):
        match_choice(Word("laser", 0, 5), MINI_WEAPONS, MCW)


def test_autopower_attacks_by_word_with_their_cards() -> None:
    variants = {"AP-ramming": True, "AP-lasers": True}  # (off, neither is offered)
    command = parse("1 ram 2 5 3", AP, 2, house=variants)
    assert command.procedure_id == "autopower.ram"
    assert command.vehicles == {"rammer": 1, "target": 2}
    assert command.values == {"cards": "5, 3"}
    assert command.weapon is None
    assert parse("2 laser 1", AP, 2, house=variants).procedure_id == "autopower.laser"
    error = _error("1 punch 2", AP)
    assert error.word == Word("punch", 2, 7) and "not an attack here" in str(error)


@pytest.mark.parametrize(("line", "wrong", "says"), [
    ("5 mg 1", "5", "there is no vehicle 5"),
    ("x mg 1", "x", "not a vehicle number"),
    ("2 mg 2 f", "2", "cannot be its own target"),
    ("2 mg 1 q", "q", "not a side"),
    ("2 mg 1 5 f", "f", "the side comes before the range"),
    ("2 mg 1 f 5 6", "6", "one range only"),
    ("2 mg 1 f f", "f", "not understood here"),
    ("1 7 q", "q", "not a side"),
    ("1 0 f", "0", "not an amount of damage"),
    ("2 mg 1 : 5x", "5x", "only the dice"),
])
def test_an_error_points_at_the_wrong_word(line: str, wrong: str, says: str) -> None:
    error = _error(line, selected=1)
    assert says in str(error)
    assert error.word is not None and line[error.start:error.end] == wrong
    assert error.pointer() == " " * error.start + "^" * len(wrong)


def test_a_line_that_ends_early_points_at_its_end() -> None:
    for line in ("", "2"):
        error = _error(line)
        assert error.word is None and error.start == len(line)
    assert "select a vehicle first" in str(_error("7 f"))
    # A weapon named without a target: an error unless the weapon aims at no one.
    command = parse("2 mg", MCW, 4)
    missing = missing_target(command, MCW, frozenset(), "2 mg")
    assert missing is not None and missing.word is None and missing.start == len("2 mg")
    assert str(missing) == "name the target by its number next"
    error = _error("2 attack", AP)
    assert error.word is None and str(error) == "name the target by its number next"


def test_a_smokescreen_line_names_no_target() -> None:
    """Mini Car Wars §2.13: a smokescreen aims at no one; ``4 smoke`` is the whole shot."""
    command = parse("4 smoke", MCW, 4)
    assert command.kind == "shot" and command.vehicles == {"firer": 4}
    assert command.values == {} and command.weapon == Word("smoke", 2, 7)
    weapons = [("1", "1: MG (F)"), ("2", "2: MG (F)"), ("3", "3: Smokescreen (B)")]
    assert presets(command, KEYS, MCW, lambda name, vehicles: weapons) == {
        "firer": "v4", "weapon": "3"}
    assert missing_target(command, MCW, {"target", "side", "range"}) is None
    assert parse("4 smoke : ", MCW, 4).vehicles == {"firer": 4}


# --- properties -------------------------------------------------------------------------
VEHICLE = st.integers(1, 4)
SIDE = st.sampled_from(sorted(MCW.sides))
RANGE = st.one_of(st.integers(0, 40).map(str), st.builds(lambda a, b: f"{a}/{b}",
                                                         st.integers(1, 9), st.integers(1, 9)))


@given(VEHICLE, VEHICLE, st.sampled_from(["mg", "rl", "hr", "laser"]), SIDE, RANGE,
       st.text("123456", max_size=6), st.sampled_from([" ", "  ", "\t"]))
def test_every_well_formed_shot_reads_back(firer: int, target: int, weapon: str, side: str,
                                           inches: str, dice: str, gap: str) -> None:
    line = gap.join([str(firer), weapon, str(target), side, inches]) + (
        f" : {dice}" if dice else "")
    if firer == target:
        assert "own target" in str(_error(line))
        return
    command = parse(line, MCW, 4)
    assert command.vehicles == {"firer": firer, "target": target}
    assert command.values == {"side": MCW.sides[side], "range": inches}
    assert command.weapon is not None and line[command.weapon.start:command.weapon.end] == weapon
    assert command.dice == dice


@given(st.text(max_size=30))
def test_any_line_reads_or_names_where_it_is_wrong(line: str) -> None:
    try:
        command = parse(line, MCW, 4, selected=2)
    except QuickEntryError as error:
        assert 0 <= error.start <= error.end <= len(line)
        if error.word is not None:
            assert line[error.start:error.end] == error.word.text
        return
    assert command.kind in ("shot", "damage")
    assert all(1 <= n <= 4 for n in command.vehicles.values())


@given(st.lists(st.text("ab1 ", min_size=1, max_size=4), max_size=6))
def test_words_keep_their_places(parts: list[str]) -> None:
    line = " ".join(parts)
    for word in words(line):
        assert line[word.start:word.end] == word.text and word.text.strip() == word.text


def test_compact_dice_when_every_die_is_single_digit() -> None:
    from carwars_desktop.services import ResolveError, typed_dice

    assert typed_dice("543", sides=(6, 6, 6)).entered == (5, 4, 3)
    assert typed_dice("54 3", sides=(6, 6, 6, 6)).entered == (5, 4, 3)
    assert typed_dice("54", sides=(20,)).entered == (54,)  # a d20: 54 is one (wrong) die
    assert typed_dice("5 4").entered == (5, 4)
    with pytest.raises(ResolveError, match="not a die value"):
        typed_dice("5x", sides=(6,))


@pytest.mark.parametrize("line", ["2 mg 1 f 5 : ٥٤٣", "٢ mg 1 f 5", "2 mg 1 f ٥"])
def test_digits_of_other_scripts_are_not_read_as_numbers(line: str) -> None:
    """Python's int() reads Arabic-Indic digits; the quick entry takes 0–9 only."""
    _error(line)


def test_a_number_and_a_word_need_no_space_between_them() -> None:
    """#28 §3: ``1mg2f5:543`` is ``1 mg 2 f 5 : 543`` (the quick line in 12 keys)."""
    compact, spaced = parse("1mg2f5:543", MCW, 4), parse("1 mg 2 f 5 : 543", MCW, 4)
    assert compact == spaced or (compact.vehicles, compact.values, compact.dice) == (
        spaced.vehicles, spaced.values, spaced.dice)
    assert compact.weapon == Word("mg", 1, 3)  # its place in the line, for the pointer
    assert parse("2mg1f7.5", MCW, 4).values == {"side": "F", "range": "7.5"}
    assert parse("1rk2lf3", BC, 4).values["area"] == "left-front"
    assert [w.text for w in words("2ram1 5 3")] == ["2", "ram", "1", "5", "3"]
    assert _error("1mg9f5").pointer() == "   ^"  # vehicle 9, under the 9
