"""Battlecars designs as the library keeps them: one kind, the card.

Cards have no price; their class is the Speed Track maximum. A new card has only
its driver: the validation lists what the player must still choose.
"""

from __future__ import annotations

from carwars_desktop.rules.battlecars.card import Armour, Card, Component, HitLocation
from carwars_desktop.rules.battlecars.options import Options
from carwars_desktop.rules.battlecars.tables import DIE, DRIVER_BOXES
from carwars_desktop.rules.battlecars.terms import BLOCKS, Kind, Section
from carwars_desktop.rules.builtin import BATTLECARS
from carwars_desktop.rules.ruleset import VEHICLE, DesignFigures, DesignKind


def _figures(card: Card) -> DesignFigures:
    return DesignFigures(None, card.speed_track_max)


def class_text(class_value: int | None) -> str:
    return "—" if class_value is None else f"top speed {class_value}"


def new_card(name: str) -> Card:
    driver = Component("Driver", Kind.DRIVER, Section.CENTRE, DRIVER_BOXES)
    return Card(name, 1, tuple(Armour(block, 1) for block in BLOCKS), (driver,),
                (HitLocation(Section.CENTRE, (driver.name,) * DIE),))


VEHICLE_KIND: DesignKind[Card, Options] = DesignKind(
    ruleset=BATTLECARS, kind=VEHICLE, title="Card",
    default_name="New card", design_type=Card, reader=Card.from_json, new=new_card,
    figures=_figures, class_text=class_text,
)
