"""Dice expressions: ``2d6``, ``1d8+3``, ``2d8-4``, ``d6``, ``3d6+1d8-2``.

Grammar: ``term (('+' | '-') term)*`` where a term is ``[N]dS`` or an integer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from carwars_desktop.dice.distribution import Distribution, dice_sum
from carwars_desktop.dice.errors import DiceExpressionError, DiceValueError

MAX_DICE = 100
"""The most dice one expression may roll (no table game needs more)."""
MAX_SIDES = 100
MAX_CONSTANT = 10_000
_MAX_DIGITS = 12
"""Longer numbers are refused before ``int()`` (which refuses beyond 4,300 digits in
Python's own words): every limit above has far fewer digits."""


def _number(digits: str, source: str) -> int:
    significant = digits.lstrip("0") or "0"
    if len(significant) > _MAX_DIGITS:
        raise DiceExpressionError(
            f"{source[:40]!r}…: a number of {len(significant):,} digits is far beyond any "
            "dice limit")
    return int(significant)

_TERM = re.compile(r"(?P<count>[0-9]*)d(?P<sides>[0-9]*)|(?P<const>[0-9]+)")
"""Digits are ASCII's 0–9 only (as the user guide lists them): another script's digits
(Arabic-Indic two U+0662, full-width two U+FF12…) are refused, by :func:`_foreign_digit`."""


def _foreign_digit(text: str) -> None:
    for position, char in enumerate(text, start=1):
        if char.isdigit() and char not in "0123456789":
            raise DiceExpressionError(
                f"{text[:40]!r}: {char!r} at position {position} is a digit of another "
                "script; dice expressions take the digits 0–9 only, as in 2d6+1")


@dataclass(frozen=True)
class DiceGroup:
    """``count`` dice of ``sides`` faces, added (sign +1) or subtracted (sign -1)."""

    count: int
    sides: int
    sign: int = 1

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True)
class DiceExpression:
    """A parsed dice expression: groups of dice plus a constant modifier."""

    groups: tuple[DiceGroup, ...]
    modifier: int = 0

    def faces(self) -> tuple[int, ...]:
        """The sides of each die to throw, in order (``3d6+1d8`` → 6, 6, 6, 8)."""
        return tuple(g.sides for g in self.groups for _ in range(g.count))

    def natural_distribution(self) -> Distribution:
        """The distribution of the dice alone, before the modifier."""
        result = Distribution.constant(0)
        for g in self.groups:
            part = dice_sum(g.count, g.sides)
            result = result + (part if g.sign > 0 else -part)
        return result

    def distribution(self) -> Distribution:
        return self.natural_distribution() + self.modifier

    def natural(self, values: tuple[int, ...]) -> int:
        """The natural (unmodified) total of thrown dice, checked against the faces."""
        faces = self.faces()
        if len(values) != len(faces):
            raise DiceValueError(
                f"{self} needs {len(faces)} {'die' if len(faces) == 1 else 'dice'}, "
                f"got {len(values)}"
            )
        total = 0
        index = 0
        for g in self.groups:
            for _ in range(g.count):
                value = values[index]
                if not 1 <= value <= g.sides:
                    raise DiceValueError(
                        f"a d{g.sides} cannot show {value} (die {index + 1} must be 1–{g.sides})"
                    )
                total += g.sign * value
                index += 1
        return total

    def total(self, values: tuple[int, ...]) -> int:
        return self.natural(values) + self.modifier

    def mean(self) -> Fraction:
        return self.distribution().mean()

    def p_success(self, need: int, auto_miss_naturals: frozenset[int] = frozenset()) -> Fraction:
        """P(total ≥ need) where a natural total in ``auto_miss_naturals`` always fails."""
        nat = self.natural_distribution()
        return nat.p_where(lambda n: n not in auto_miss_naturals and n + self.modifier >= need)

    def __str__(self) -> str:
        text = ""
        for g in self.groups:
            sign = "-" if g.sign < 0 else ("+" if text else "")
            text += f"{sign}{g}"
        if self.modifier:
            text += f"{self.modifier:+d}" if text else str(self.modifier)
        return text or "0"


def parse(text: str) -> DiceExpression:
    """Parse a dice expression, or raise :class:`DiceExpressionError` saying why."""
    source = text
    _foreign_digit(text)
    cleaned = re.sub(r"\s*([+-])\s*", r"\1", text.strip().lower().replace("−", "-"))
    if not cleaned:
        raise DiceExpressionError("empty dice expression: write something like 2d6 or 1d8+3")
    groups: list[DiceGroup] = []
    modifier = 0
    position = 0
    sign = 1
    expect_term = True
    while position < len(cleaned):
        char = cleaned[position]
        if not expect_term:
            if char not in "+-":
                raise DiceExpressionError(
                    f"{source!r}: unexpected {char!r} at position {position + 1}; "
                    "terms are joined with + or -"
                )
            sign = 1 if char == "+" else -1
            position += 1
            expect_term = True
            continue
        match = _TERM.match(cleaned, position)
        if not match or match.end() == position:
            raise DiceExpressionError(
                f"{source!r}: expected dice like 2d6 or a number at position {position + 1}, "
                f"found {char!r}"
            )
        if match.group("const") is not None:
            value = _number(match.group("const"), source)
            if value > MAX_CONSTANT:
                raise DiceExpressionError(
                    f"{source!r}: modifier {value} is larger than {MAX_CONSTANT}"
                )
            modifier += sign * value
        else:
            count_text, sides_text = match.group("count"), match.group("sides")
            if not sides_text:
                raise DiceExpressionError(
                    f"{source!r}: 'd' must be followed by the number of sides, as in d6"
                )
            count = _number(count_text, source) if count_text else 1
            sides = _number(sides_text, source)
            if count == 0:
                raise DiceExpressionError(f"{source!r}: cannot roll zero dice")
            if sides < 2:
                raise DiceExpressionError(f"{source!r}: a die needs at least 2 sides, not {sides}")
            if sides > MAX_SIDES:
                raise DiceExpressionError(f"{source!r}: at most {MAX_SIDES} sides, not {sides}")
            if count > MAX_DICE or sum(g.count for g in groups) + count > MAX_DICE:
                raise DiceExpressionError(
                    f"{source!r}: at most {MAX_DICE} dice in one roll, not {count}"
                )
            groups.append(DiceGroup(count, sides, sign))
        position = match.end()
        expect_term = False
    if expect_term:
        raise DiceExpressionError(f"{source!r}: ends with an operator; add a term after it")
    if abs(modifier) > MAX_CONSTANT:
        raise DiceExpressionError(
            f"{source!r}: the modifiers add up to {modifier}, more than ±{MAX_CONSTANT}"
        )
    return DiceExpression(tuple(groups), modifier)
