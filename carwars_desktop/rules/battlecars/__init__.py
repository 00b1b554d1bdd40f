"""Battlecars (Games Workshop, 1983): the rules engine.

Spec: the digest ``battlecars.md`` (decisions BC-D1…BC-D50 are configurable defaults in
:mod:`.options`); source: the Battlecars rulebook. One eight-sided die: "1 Die" is 1d8.
The rulebook has no card data: cards are entered by the GM; the shipped TEST-1 card is
an invented, clearly labelled example (digest Appendix A).
"""

from collections.abc import Mapping
from typing import Any

from carwars_desktop.rules.battlecars.card import Armour, Card, Component, HitLocation, Loading
from carwars_desktop.rules.battlecars.catalog import (
    EXAMPLE_CARD_NAME,
    BoardSheet,
    card_catalog,
    example_card,
    load_piece,
)
from carwars_desktop.rules.battlecars.errors import (
    BattlecarsError,
    CardError,
    IllegalActionError,
    SheetError,
)
from carwars_desktop.rules.battlecars.kinds import VEHICLE_KIND
from carwars_desktop.rules.battlecars.options import (
    DECISIONS,
    DEFAULT_OPTIONS,
    CounterSizes,
    Options,
)
from carwars_desktop.rules.battlecars.phases import TURN_WORD, phases
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet, Piece
from carwars_desktop.rules.battlecars.procedures import PROCEDURES
from carwars_desktop.rules.battlecars.reference import reference_tables
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.builtin import BATTLECARS
from carwars_desktop.rules.ruleset import Ruleset, play_from


def _sheet_for(design: Card) -> CarSheet:
    if not isinstance(design, Card):
        raise CardError(f"expected a Battlecars card, got {type(design).__name__}")
    return CarSheet.fresh(design)


def _load_sheet(data: Mapping[str, Any]) -> BoardSheet:
    return load_piece(data)


RULESET: Ruleset[Card, BoardSheet, Options] = Ruleset(
    entry=BATTLECARS,
    dice="d8",
    digest="battlecars.md",
    procedures=PROCEDURES,
    tables=reference_tables(),
    catalog=card_catalog,
    kinds=(VEHICLE_KIND,),
    sheet_type=CarSheet,
    sheet_from_json=_load_sheet,
    sheet_for_design=_sheet_for,
    phases=phases,
    play=play_from("carwars_desktop.rules.battlecars.play"),
    turn_word=TURN_WORD,
    options_type=Options,
    decisions=DECISIONS,
    victory="battlecars.winner",
)

__all__ = [
    "DEFAULT_OPTIONS",
    "EXAMPLE_CARD_NAME",
    "RULESET",
    "Armour",
    "BattlecarsError",
    "Card",
    "CarSheet",
    "CardError",
    "Component",
    "CounterSizes",
    "HitLocation",
    "IllegalActionError",
    "Loading",
    "ObstacleSheet",
    "Options",
    "PedestrianSheet",
    "Piece",
    "SheetError",
    "example_card",
]
