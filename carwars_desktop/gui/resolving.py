"""Resolving a procedure from what the GM typed: shared by the Resolver and the Table's dialogs."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from carwars_desktop.dice import DiceError, EnteredDice, SeededDice, parse_dice_values
from carwars_desktop.gui.theme import muted_colour
from carwars_desktop.procedures import InputError, Procedure, Resolution, RulesRefusal
from carwars_desktop.session import GameError


class ResolveError(ValueError):
    """Why nothing was resolved (bad dice, a refused input, dice left over).

    ``refused`` is set when the rules refused the inputs (a :class:`RulesRefusal`):
    its message is the refusal's text, as the log and the command line show it.
    """

    def __init__(self, message: str, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


def resolve_typed(procedure: Procedure, values: Mapping[str, Any], typed: str,
                  roll: bool = False) -> tuple[Resolution, int | None]:
    """Resolve with the typed dice (and, with ``roll``, a seeded RNG for the rest).

    Returns the resolution and the seed (None when every die was typed). Dice typed
    but not needed are refused: the GM probably mistyped, so nothing is resolved.
    """
    try:
        seeded = SeededDice() if roll else None
        dice = EnteredDice(parse_dice_values(typed), seeded)
        resolution = procedure.resolve(values, dice)
    except RulesRefusal as refused:
        raise ResolveError(refused.refusal.text(), refused=True) from None
    except (InputError, DiceError, GameError) as error:
        raise ResolveError(str(error)) from None
    unused = dice.unused()
    if unused:
        were = "die was" if len(unused) == 1 else "dice were"
        raise ResolveError(f"{len(unused)} typed {were} not needed: "
                           f"{' '.join(map(str, unused))}. Nothing was resolved.")
    return resolution, (seeded.seed if seeded is not None else None)


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
