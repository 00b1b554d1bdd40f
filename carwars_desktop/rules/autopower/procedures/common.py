"""What the AUTOpower procedures share: sheet and card inputs, option switches, checks."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from carwars_desktop.procedures import (
    BoolInput,
    ChoiceInput,
    InputError,
    Modifier,
    Refusal,
    RulesRefusal,
    SheetChange,
    SheetInput,
    TextInput,
    Values,
)
from carwars_desktop.rules.autopower.cards import parse_card_values
from carwars_desktop.rules.autopower.catalog import sheet_catalog
from carwars_desktop.rules.autopower.errors import AutopowerError
from carwars_desktop.rules.autopower.options import DiscardChoice, Options
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule

T = TypeVar("T")

RULESET = "autopower"


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


IQ_CARDS_IN_USE = BoolInput(
    "iq_cards_in_use", "IQ cards in use (§2.1)", True,
    help="pre-game choice; when off no IQ card may be played, base I still counts (AP-D22)")
CONTROL_ROLLS = BoolInput(
    "control_rolls", "Control roll variant (§2.8)", False,
    help="a car that takes damage then rolls for control (autopower.control)")
DRAWING_ON_SKILLS = BoolInput(
    "drawing_on_skills", "Drawing on Skills variant (§2.11)", False,
    help="draw max(1, I) cards instead of refilling to seven")
ONE_BIG_DECK = BoolInput(
    "one_big_deck", "One Big Deck (§2.1)", True,
    help="with one shared deck the draw order matters; with own decks everybody draws at once")
AP_D7 = ChoiceInput(
    "ap_d7_discard", "AP-D7: Energy card lost on a failed push",
    tuple(choice.value for choice in DiscardChoice), DiscardChoice.NEWEST.value,
    help="the owner's choice: the newest (last played), oldest, largest or smallest card")
AP_D9 = BoolInput(
    "ap_d9_capped_damage", "AP-D9: damage counts as capped", True,
    help="the kill check adds the capped damage (off: the card total)")
AP_D10 = BoolInput(
    "ap_d10_defender_iq_cards", "AP-D10: defender may play IQ cards", False,
    help="off: only rams let the defender play IQ cards; on: they raise the to-hit here too")
AP_D13 = BoolInput(
    "ap_d13_ram_subtracts_intelligence", "AP-D13: subtract rammer's base I", False,
    help="off (as the Darkseid example): a ram's to-hit has no Intelligence term")
AP_D14 = BoolInput(
    "ap_d14_laser_damage_cap", "AP-D14: laser damage capped at 2F", True,
    help="\"players still roll against their Fighting number\"")
AP_D15 = BoolInput(
    "ap_d15_natural_two_fails_control", "AP-D15: natural 2 fails a control roll", False,
    help="off: a natural 2 is special only in attacks, and a target ≤ 2 needs no roll")
AP_D17 = BoolInput(
    "ap_d17_opening_push_roll", "AP-D17: opening speed needs a push roll", True,
    help="the setup plays use the normal accelerate rules")
AP_D25 = BoolInput(
    "ap_d25_both_cars_control", "AP-D25: both cars roll for control after a ram", True,
    help="off: only the rammed car rolls")
AP_D27 = BoolInput(
    "ap_d27_speed_after_armor_penalty", "AP-D27: Speed after the armor penalty", True,
    help="the speed opponents see; off: rawSpeed")


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


def to_hit_summary(base_label: str, base: int, modifiers: tuple[Modifier, ...],
                   need: str) -> str:
    """``'Fighting 9, Booster Gold Intelligence −3, Two Face Speed +6 → need 12+ · …'``."""
    parts = [f"{base_label} {base}"]
    parts += [f"{m.label} {'+' if m.value >= 0 else '−'}{abs(m.value)}" for m in modifiers]
    return f"{', '.join(parts)} → {need}"
