"""What the AUTOpower procedures share: sheet and card inputs, option switches, checks."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from carwars_desktop.procedures import (
    InputError,
    Modifier,
    Odds,
    Outcome,
    Refusal,
    RulesRefusal,
    SheetChange,
    SheetInput,
    TextInput,
    Values,
)
from carwars_desktop.rules.autopower.cards import cards_text, parse_card_values
from carwars_desktop.rules.autopower.catalog import sheet_catalog
from carwars_desktop.rules.autopower.combat import PlannedAttack, need_text
from carwars_desktop.rules.autopower.errors import AutopowerError
from carwars_desktop.rules.autopower.odds import attack_chart, p_attack_hit
from carwars_desktop.rules.autopower.options import DECISIONS, Options
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule
from carwars_desktop.rules.builtin import AUTOPOWER

T = TypeVar("T")

RULESET = AUTOPOWER.id


def car_input(name: str, label: str, help: str = "", optional: bool = False) -> SheetInput:
    """A car's live sheet: a sample car or example situation by name, or its JSON."""
    return SheetInput(name, label, CarSheet, CarSheet.from_json, sheet_catalog,
                      help=help or "a sample car by name (\"Booster Gold\"), or the sheet's JSON",
                      optional=optional)


def cards_input(name: str, label: str, help: str) -> TextInput:
    """The values of the cards played, as ``3, 6`` (empty: none)."""
    return TextInput(name, label, "", help=help, validate=parse_card_values)


def cards(values: Values, name: str) -> tuple[int, ...]:
    text: str = values[name]
    return parse_card_values(text)


IQ_CARDS_IN_USE = DECISIONS.input("AP-iq-cards")
CONTROL_ROLLS = DECISIONS.input("AP-control-rolls")
DRAWING_ON_SKILLS = DECISIONS.input("AP-drawing-on-skills")
ONE_BIG_DECK = DECISIONS.input("AP-one-big-deck")
AP_D7 = DECISIONS.input("AP-D7")
AP_D9 = DECISIONS.input("AP-D9")
AP_D10 = DECISIONS.input("AP-D10")
AP_D13 = DECISIONS.input("AP-D13")
AP_D14 = DECISIONS.input("AP-D14")
AP_D15 = DECISIONS.input("AP-D15")
AP_D17 = DECISIONS.input("AP-D17")
AP_D25 = DECISIONS.input("AP-D25")
AP_D27 = DECISIONS.input("AP-D27")

RAMMING = DECISIONS.requirement("AP-ramming")
"""autopower.ram is offered only with the Ramming variant on (§2.1 step 4, §2.9)."""
LASERS = DECISIONS.requirement("AP-lasers")
"""autopower.laser is offered only with the Lasers variant on (§2.1 step 4, §2.10)."""
CONTROL_ROLLS_ON = DECISIONS.requirement("AP-control-rolls")
"""autopower.control is offered only with the Control Rolls variant on (§2.1 step 4, §2.8:
"Variant: Control rolls"); attacks and rams read the same decision to chain the roll."""


def options_of(values: Values) -> Options:
    """The options named among a procedure's inputs; the defaults for the rest."""
    try:
        return Options.from_values(values)
    except AutopowerError as error:
        raise InputError(str(error)) from None


def planned(plan: Callable[[Values], T]) -> Callable[[Values], T]:
    """A procedure's plan function: ``plan``, with any rule error raised as a refusal.

    The framework runs it once when the inputs are bound (it is the check, too);
    resolve and odds read its result back with ``plan_of``.
    """
    def plan_fn(values: Values) -> T:
        try:
            return plan(values)
        except AutopowerError as error:
            raise RulesRefusal(Refusal(str(error), _cited(error))) from None
    return plan_fn


def _cited(error: AutopowerError) -> str:
    """The section an AUTOpower error message cites (``… (§2.5)``), as a citation."""
    found = re.findall(r"§(\d+\.\d+)", str(error))
    return rule(found[-1]) if found else ""


def change(input_name: str, sheet: CarSheet, summary: str) -> SheetChange:
    return SheetChange(input_name, sheet, summary)


def attack_odds(plan: PlannedAttack, cards_word: str, section: str, hit_label: str,
                chart_title: str, damage: tuple[str, int]) -> Odds:
    """An attack's odds: ``hit_label`` or a miss on 2d6 against the plan's to-hit, built up
    from the total of its ``cards_word`` cards (AUTOpower §``section``), and the damage
    ``(what, amount)`` a hit does, expected."""
    p = p_attack_hit(plan.to_hit)
    base = Modifier(f"{cards_word} cards {cards_text(plan.cards)}", plan.base, rule(section))
    summary = to_hit_summary(cards_word, plan.base, plan.modifiers, need_text(plan.to_hit))
    what, amount = damage
    return Odds((Outcome(hit_label, p), Outcome("miss", 1 - p)), summary,
                (base, *plan.modifiers), need=plan.to_hit,
                chart=attack_chart(chart_title, plan.to_hit), expected=((what, p * amount),))


def to_hit_summary(base_label: str, base: int, modifiers: tuple[Modifier, ...],
                   need: str) -> str:
    """``'Fighting 9, Booster Gold Intelligence −3, Two Face Speed +6 → need 12+ · …'``."""
    parts = [f"{base_label} {base}"]
    parts += [f"{m.label} {'+' if m.value >= 0 else '−'}{abs(m.value)}" for m in modifiers]
    return f"{', '.join(parts)} → {need}"
