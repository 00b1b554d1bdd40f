from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carwars_desktop.dice import DiceExpressionError, DiceValueError, dice_sum, parse


@pytest.mark.parametrize(
    ("text", "groups", "modifier"),
    [
        ("2d6", [(2, 6, 1)], 0),
        ("1d8+3", [(1, 8, 1)], 3),
        ("3d6", [(3, 6, 1)], 0),
        ("2d8-4", [(2, 8, 1)], -4),
        ("1d6-2", [(1, 6, 1)], -2),
        ("d8", [(1, 8, 1)], 0),
        (" 2D6 + 1 ", [(2, 6, 1)], 1),
        ("3d6+1d8-2", [(3, 6, 1), (1, 8, 1)], -2),
        ("1d20-1d4", [(1, 20, 1), (1, 4, -1)], 0),
        ("5", [], 5),
    ],
)
def test_parse_valid(text: str, groups: list[tuple[int, int, int]], modifier: int) -> None:
    expression = parse(text)
    assert [(g.count, g.sides, g.sign) for g in expression.groups] == groups
    assert expression.modifier == modifier


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2d0", "at least 2 sides, not 0"),
        ("d", "'d' must be followed by the number of sides"),
        ("3x6", "unexpected 'x' at position 2"),
        ("1000000d6", "at most 100 dice in one roll, not 1000000"),
        ("0d6", "cannot roll zero dice"),
        ("2d6+", "ends with an operator"),
        ("", "empty dice expression"),
        ("2d1000", "at most 100 sides"),
        ("2d6 3", "unexpected ' ' at position 4"),
        ("60d6+60d6", "at most 100 dice"),
    ],
)
def test_parse_errors_say_why(text: str, reason: str) -> None:
    with pytest.raises(DiceExpressionError) as error:
        parse(text)
    assert reason in str(error.value)


def test_str_round_trips() -> None:
    for text in ["2d6", "1d8+3", "2d8-4", "3d6+1d8-2", "1d20-1d4"]:
        assert str(parse(text)) == text


def test_2d6_exact() -> None:
    distribution = parse("2d6").distribution()
    assert distribution.total == 36
    assert distribution.p_ge(7) == Fraction(7, 12)
    assert distribution.p_eq(7) == Fraction(6, 36)
    assert distribution.p_le(4) == Fraction(6, 36)
    assert distribution.mean() == 7


def test_natural_two_always_misses() -> None:
    two_d6 = parse("2d6")
    # MCW §3.3: need 8 → 15/36; need ≤3 → 35/36, the natural 2 still misses.
    assert two_d6.p_success(8, frozenset({2})) == Fraction(15, 36)
    assert two_d6.p_success(3, frozenset({2})) == Fraction(35, 36)
    assert two_d6.p_success(-5, frozenset({2})) == Fraction(35, 36)
    assert two_d6.p_success(13, frozenset({2})) == 0
    # With a +3 modifier, a natural 2 (total 5) still misses a need of 5.
    assert parse("2d6+3").p_success(5, frozenset({2})) == Fraction(35, 36)


def test_modifiers_and_subtraction() -> None:
    assert parse("1d8+3").distribution().values() == list(range(4, 12))
    assert parse("2d8-4").distribution().p_eq(-2) == Fraction(1, 64)
    assert parse("1d20-1d4").distribution().minimum == -3


def test_thirty_d8_exact() -> None:
    distribution = parse("30d8").distribution()
    assert distribution.total == 8**30
    assert distribution.p_eq(30) == Fraction(1, 8**30)
    assert distribution.mean() == 135
    assert sum(distribution.probabilities().values()) == 1


def test_natural_checks_each_die() -> None:
    expression = parse("2d6+1")
    assert expression.total((5, 4)) == 10
    with pytest.raises(DiceValueError, match="a d6 cannot show 7"):
        expression.natural((5, 7))
    with pytest.raises(DiceValueError, match="needs 2 dice, got 1"):
        expression.natural((5,))


@given(st.integers(1, 12), st.sampled_from([2, 4, 6, 8, 10, 12, 20]), st.integers(-20, 20))
def test_probabilities_sum_to_one_and_mean(count: int, sides: int, modifier: int) -> None:
    expression = parse(f"{count}d{sides}{modifier:+d}")
    distribution = expression.distribution()
    assert sum(distribution.probabilities().values()) == 1
    assert distribution.mean() == Fraction(count * (sides + 1), 2) + modifier
    assert distribution.minimum == count + modifier
    assert distribution.maximum == count * sides + modifier


@given(st.integers(1, 10), st.sampled_from([6, 8]), st.integers(-10, 80))
def test_ge_and_le_complement(count: int, sides: int, k: int) -> None:
    distribution = dice_sum(count, sides)
    assert distribution.p_ge(k) + distribution.p_le(k - 1) == 1
    assert distribution.p_eq(k) == distribution.p_le(k) - distribution.p_le(k - 1)


def test_modifiers_are_bounded_in_total() -> None:
    with pytest.raises(DiceExpressionError, match="modifiers add up to 20000"):
        parse("2d6+10000+10000")


@pytest.mark.parametrize("text", ["٢d٦", "2d٦", "２d6", "1d8+３", "२d6", "2d6+٣"])
def test_digits_of_other_scripts_are_refused(text: str) -> None:
    """Only the digits 0–9 the user guide shows (Python's int() reads the others)."""
    with pytest.raises(DiceExpressionError, match="digit of another script.*0–9 only"):
        parse(text)
