from fractions import Fraction

import pytest

from carwars_desktop.dice import EnteredDice, SeededDice
from carwars_desktop.procedures import (
    BoolInput,
    ChoiceInput,
    InputError,
    IntInput,
    TextInput,
    odds_text,
)
from carwars_desktop.procedures.dice_roll import DICE_ROLL


def test_dice_roll_against_target_explained() -> None:
    resolution = DICE_ROLL.resolve({"expression": "2d6+1", "target": 8}, EnteredDice([5, 4]))
    assert resolution.success is True
    assert resolution.values["total"] == 10
    assert resolution.explain().splitlines()[0].startswith("2d6+1: dice 5 4 → natural 9, +1 → 10")
    assert resolution.to_json()["dice"][0] == {
        "sides": 6, "value": 5, "purpose": "2d6+1", "entered": True}


def test_natural_two_misses_whatever_the_total() -> None:
    values = {"expression": "2d6+9", "target": 8, "natural_two_misses": True}
    resolution = DICE_ROLL.resolve(values, EnteredDice([1, 1]))
    assert resolution.success is False
    assert "natural 2 always misses" in resolution.explain()
    odds = DICE_ROLL.odds(values)
    assert odds.probability("success") == Fraction(35, 36)
    assert odds.chart is not None and 11 not in odds.chart.success


def test_natural_two_switch_ignored_for_other_dice() -> None:
    odds = DICE_ROLL.odds({"expression": "1d8", "target": 1, "natural_two_misses": True})
    assert odds.probability("success") == 1


def test_odds_sum_to_one_and_summary() -> None:
    odds = DICE_ROLL.odds({"expression": "2d6", "target": 9})
    assert sum(o.probability for o in odds.outcomes) == 1
    assert odds.summary == "need 9+ · 5/18 · 27.8%"
    plain = DICE_ROLL.odds({"expression": "3d6"})
    assert sum(o.probability for o in plain.outcomes) == 1
    assert plain.expected == (("total", Fraction(21, 2)),)


def test_inputs_are_checked() -> None:
    with pytest.raises(InputError, match="expression: '2d0'"):
        DICE_ROLL.resolve({"expression": "2d0"}, SeededDice(1))
    with pytest.raises(InputError, match="has no input colour"):
        DICE_ROLL.bind({"colour": "red"})
    with pytest.raises(InputError, match="out of range"):
        DICE_ROLL.bind({"target": 5000})


def test_input_parsing() -> None:
    assert IntInput("n", "N", 1, 0, 10).parse(" 7 ") == 7
    with pytest.raises(InputError, match="not a whole number"):
        IntInput("n", "N", 1, 0, 10).parse("seven")
    assert IntInput("n", "N", None, 0, 10, optional=True).parse("") is None
    assert ChoiceInput("side", "Side", ("front", "back"), "front").parse("BACK") == "back"
    with pytest.raises(InputError, match="not one of front, back"):
        ChoiceInput("side", "Side", ("front", "back"), "front").parse("top")
    assert BoolInput("b", "B", False).parse("yes") is True
    with pytest.raises(InputError):
        BoolInput("b", "B", False).parse("maybe")
    assert TextInput("t", "T", "x").parse("hello") == "hello"


def test_describe_lists_everything() -> None:
    described = DICE_ROLL.describe()
    assert described["id"] == "dice.roll"
    names = [i["name"] for i in described["inputs"]]
    assert names == ["expression", "target", "natural_two_misses"]
    assert described["inputs"][1]["range"] == [-1000, 1000]


def test_odds_text() -> None:
    """Reduced fractions (64/64 → 1, 4/8 → 1/2) and no misleading "0.0%" or "100.0%"."""
    assert odds_text(Fraction(10, 36)) == "5/18 · 27.8%"
    assert odds_text(Fraction(1, 3)) == "1/3 · 33.3%"
    assert odds_text(Fraction(64, 64)) == "1 · 100%"
    assert odds_text(Fraction(4, 8)) == "1/2 · 50.0%"
    assert odds_text(Fraction(1, 2048)) == "1/2048 · < 0.1%"
    assert odds_text(Fraction(2047, 2048)) == "2047/2048 · > 99.9%"
    assert odds_text(Fraction(0)) == "0 · 0%"
