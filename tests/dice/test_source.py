import pytest

from carwars_desktop.dice import DiceValueError, EnteredDice, NotEnoughDiceError, SeededDice


def test_entered_dice_in_order_with_purpose() -> None:
    dice = EnteredDice([5, 4, 3])
    assert dice.roll(6, 2, "to hit") == (5, 4)
    assert dice.roll(6, 1, "damage") == (3,)
    assert [(d.value, d.purpose, d.entered) for d in dice.used] == [
        (5, "to hit", True), (4, "to hit", True), (3, "damage", True)]
    assert dice.unused() == ()


def test_entered_die_out_of_range_is_refused() -> None:
    dice = EnteredDice([5, 7])
    with pytest.raises(DiceValueError, match="die 2 for to hit is a d6: it cannot show 7"):
        dice.roll(6, 2, "to hit")


def test_missing_dice_refused_without_seed() -> None:
    dice = EnteredDice([5, 4])
    dice.roll(6, 2, "to hit")
    with pytest.raises(NotEnoughDiceError, match="needs another d6 for damage"):
        dice.roll(6, 1, "damage")


def test_missing_dice_rolled_from_seed() -> None:
    dice = EnteredDice([5, 4], SeededDice(42))
    values = dice.roll(6, 3, "mixed")
    assert values[:2] == (5, 4)
    assert [d.entered for d in dice.used] == [True, True, False]
    assert values[2] == SeededDice(42).roll(6)[0]


def test_seed_replays() -> None:
    first = SeededDice(1234).roll(8, 10)
    again = SeededDice(1234).roll(8, 10)
    assert first == again
    assert all(1 <= v <= 8 for v in first)


def test_new_seed_is_chosen_and_shown() -> None:
    dice = SeededDice()
    assert dice.seed > 0
    assert SeededDice(dice.seed).roll(6, 5) == dice.roll(6, 5)


def test_typed_faces_parsed_or_refused() -> None:
    from carwars_desktop.dice import parse_dice_values

    assert parse_dice_values(" 5, 4 3 ") == [5, 4, 3]
    assert parse_dice_values("54", faces=(6, 6)) == [5, 4]
    assert parse_dice_values("54", faces=(20,)) == [54]
    for typed in ("²", "5 x", "9" * 50, "٣"):
        with pytest.raises(DiceValueError, match="is not a die value"):
            parse_dice_values(typed)
