"""Refusals: "the rules do not allow this", the same value everywhere.

A procedure whose rules refuse the inputs either returns :func:`refused` (its
resolution then carries the :class:`Refusal`, takes no dice and has no effects)
or, when the refusal is known while checking the inputs, raises
:class:`RulesRefusal`. Both show :meth:`Refusal.text`; the command line exits 3.
"""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.procedures import REFUSED, Odds, Outcome, Refusal, Result, RulesRefusal


def refused(reason: str, rule: str = "", outcome: str = "") -> Result:
    """A procedure that cannot be carried out: no dice, no effect, the reason explained."""
    return Result.refused(Refusal(reason, rule, outcome))


def refused_odds(reason: str) -> Odds:
    """The odds of a refused procedure: ``not allowed``, certainly."""
    return Odds(outcomes=(Outcome(REFUSED, Fraction(1)),), summary=f"{REFUSED}: {reason}")


def refuse(reason: str, rule: str = "") -> RulesRefusal:
    """The exception to raise from a check or a plan: ``raise refuse(why, rule)``."""
    return RulesRefusal(Refusal(reason, rule))


__all__ = ["REFUSED", "Refusal", "RulesRefusal", "refuse", "refused", "refused_odds"]
