"""AUTOpower: Car Wars played with OverPower hero and power cards (digest `autopower.md`).

Pure Python. A car is a hero card (:class:`Car`); its live state is an
immutable :class:`CarSheet`; every procedure of §2 is declared in
:mod:`.procedures`. The digest's decisions are configurable defaults: the
switches of :class:`Options` (also inputs of the procedures that use them:
AP-D2, AP-D7, AP-D9, AP-D10, AP-D13, AP-D14, AP-D15, AP-D17, AP-D22, AP-D25,
AP-D27). The others are fixed readings named where they apply: AP-D1 (2d6,
``tables.DICE_*``), AP-D3 (no Intelligence → 0, ``Car.iq``), AP-D4 (procedures act
on the active car), AP-D5/D6 (rawSpeed = E + cards in play), AP-D8 (cap on added
Strength), AP-D11/D29 (played cards leave the hand), AP-D12 (penalty for the next
own turn, ``CarSheet.next_turn_penalty``), AP-D16 (2d6 roll-off), AP-D18 (deck
piles are not tracked), AP-D19 (``turns.winner``), AP-D20 (ram cards from the
hand), AP-D21 (base I), AP-D23 (Strength cards stay), AP-D24 (up to four cars in
turn order), AP-D26 (no hand limit), AP-D28 (an attack needs a card).
"""

from __future__ import annotations

from carwars_desktop.rules.autopower.car import Car
from carwars_desktop.rules.autopower.cards import Icon, IconValue, PlayedCard, PowerCard
from carwars_desktop.rules.autopower.catalog import example_sheets, sample_cars, sheet_catalog
from carwars_desktop.rules.autopower.deck import Deck
from carwars_desktop.rules.autopower.kinds import CAR_KIND, DECK_KIND
from carwars_desktop.rules.autopower.options import DECISIONS, DiscardChoice, Options
from carwars_desktop.rules.autopower.phases import phases
from carwars_desktop.rules.autopower.procedures import PROCEDURES, procedures_for
from carwars_desktop.rules.autopower.reference import reference_tables
from carwars_desktop.rules.autopower.sheet import CarSheet, new_sheet
from carwars_desktop.rules.autopower.tables import ControlPenalty
from carwars_desktop.rules.builtin import AUTOPOWER
from carwars_desktop.rules.ruleset import Ruleset, play_from

RULESET: Ruleset[Car, CarSheet, Options] = Ruleset(
    entry=AUTOPOWER,
    dice="2d6",
    digest="autopower.md",
    procedures=PROCEDURES,
    tables=reference_tables(),
    catalog=sample_cars,
    kinds=(CAR_KIND, DECK_KIND),
    sheet_type=CarSheet,
    sheet_from_json=CarSheet.from_json,
    sheet_for_design=new_sheet,
    phases=phases,
    play=play_from("carwars_desktop.rules.autopower.play"),
    options_type=Options,
    decisions=DECISIONS,
    victory="autopower.victory",
)

__all__ = [
    "RULESET",
    "Car",
    "CarSheet",
    "ControlPenalty",
    "Deck",
    "DiscardChoice",
    "Icon",
    "IconValue",
    "Options",
    "PlayedCard",
    "PowerCard",
    "example_sheets",
    "new_sheet",
    "procedures_for",
    "sample_cars",
    "sheet_catalog",
]
