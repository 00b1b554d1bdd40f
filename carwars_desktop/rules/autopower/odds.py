"""Exact 2d6 odds of AUTOpower's three kinds of roll (digest §3.3, §3.4).

* attack rolls (standard, ram, laser): hit when the roll ≥ the to-hit and the
  roll is not a natural 2 (§0);
* push and control rolls: succeed when the roll (plus IQ cards, for control)
  ≥ the target; a natural 2 is not special there (AP-D15).
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.dice import DiceSource
from carwars_desktop.procedures import Chart, odds_text
from carwars_desktop.rules.autopower.tables import (
    DICE_COUNT,
    DICE_SIDES,
    NATURAL_MISS,
    two_dice,
)


def attack_hits(natural: int, to_hit: int) -> bool:
    """§2.6 step 6: a natural 2 always misses; otherwise hit when the roll ≥ the to-hit."""
    return natural != NATURAL_MISS and natural >= to_hit


def p_attack_hit(to_hit: int) -> Fraction:
    """§3.3: P(hit) for a to-hit number (35/36 at 3 or less, 0 at 13 or more)."""
    return two_dice().p_where(lambda natural: attack_hits(natural, to_hit))


def p_at_least(target: int) -> Fraction:
    """§3.4: P(2d6 ≥ target) with no natural-2 rule (push and control rolls)."""
    return two_dice().p_ge(target)


def attack_chart(title: str, to_hit: int) -> Chart:
    values = frozenset(v for v in two_dice().values() if attack_hits(v, to_hit))
    return Chart(title, two_dice(), values, "2d6 roll")


def at_least_chart(title: str, target: int) -> Chart:
    values = frozenset(v for v in two_dice().values() if v >= target)
    return Chart(title, two_dice(), values, "2d6 roll")


def chance(p: Fraction) -> str:
    """``'15/36 · 41.7%'``: a 2d6 probability in 36ths."""
    return odds_text(p)


def roll_two_dice(dice: DiceSource, purpose: str) -> tuple[tuple[int, ...], int]:
    """Take one 2d6 throw from the dice source: the faces and their natural total."""
    faces = dice.roll(DICE_SIDES, DICE_COUNT, purpose)
    return faces, sum(faces)


def num(value: int) -> str:
    """A whole number with a true minus sign: ``-1`` → ``'−1'``."""
    return f"−{-value}" if value < 0 else str(value)


def roll_text(faces: tuple[int, ...]) -> str:
    """``(4, 4)`` → ``'4 + 4 = 8'``."""
    return f"{' + '.join(map(str, faces))} = {sum(faces)}"

