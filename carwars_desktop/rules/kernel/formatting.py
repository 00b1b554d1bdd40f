"""Numbers written one way in every ruleset: money, signed values, percentages."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.procedures import odds_text, percent

MINUS = "−"
"""U+2212, the minus sign of every printed negative number."""


def money(amount: int) -> str:
    """``13300`` → ``'$13,300'``; ``-950`` → ``'−$950'``."""
    return f"{MINUS if amount < 0 else ''}${abs(amount):,}"


def money_change(amount: int) -> str:
    """A change in cost: ``10200`` → ``'+$10,200'``; ``-950`` → ``'−$950'``."""
    return ("+" if amount > 0 else "") + money(amount)


def signed(value: int | Fraction) -> str:
    """A modifier: ``3`` → ``'+3'``, ``-2`` → ``'−2'``, ``0`` → ``'±0'``."""
    if value == 0:
        return "±0"
    return f"{MINUS if value < 0 else '+'}{abs(value)}"


__all__ = ["MINUS", "money", "money_change", "odds_text", "percent", "signed"]
