"""Showing a procedure's dice and result: shared by the Resolver and the Table's dialogs.

Resolving itself is the Table service's (:meth:`carwars_desktop.services.TableService.resolve`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape
from typing import Any

from carwars_desktop.gui.theme import muted_colour
from carwars_desktop.procedures import REFUSED, Odds, Outcome, Procedure, Resolution

REFUSED_HINT = "No dice: the rules refuse it as it stands."
"""The dice hint of a move the rules refuse (its odds say why)."""


def refused_odds(reason: str) -> Odds:
    """The odds of a roll the rules refuse at this moment of play: ``not allowed``,
    certainly."""
    return Odds(outcomes=(Outcome(REFUSED, Fraction(1)),), summary=f"{REFUSED}: {reason}")


def dice_hint(procedure: Procedure, values: Mapping[str, Any]) -> str:
    needs = procedure.dice_needed(values)
    if not needs:
        return "No dice: press Enter to resolve."
    return "Dice, in order: " + " → ".join(str(need) for need in needs)


def explanation_html(resolution: Resolution, seed: int | None = None,
                     effect_names: bool = True) -> str:
    """The outcome, the dice (rolled ones starred), each step with its rule, the effects."""
    dice = " ".join(f"{d.value}" + ("" if d.entered else "*") for d in resolution.dice)
    muted = muted_colour()
    rows = "".join(f"<li>{escape(step.text)} <span style='color:{muted}'>[{escape(step.rule)}]"
                   "</span></li>" for step in resolution.steps)
    effects = "".join(
        f"<li>{escape(e.input_name) + ': ' if effect_names else ''}{escape(e.summary)}</li>"
        for e in resolution.effects)
    seed_text = f" (* rolled with seed {seed})" if seed is not None else ""
    headline = resolution.refusal.text() if resolution.refusal else resolution.outcome
    return (f"<p><b>{escape(headline)}</b></p><p>Dice: {dice or 'none'}{seed_text}</p>"
            f"<ol>{rows}</ol>" + (f"<p>Effects:</p><ul>{effects}</ul>" if effects else ""))
