"""Fresh designs for "New", and renaming: the starting points the Workshop offers.

A new design is deliberately incomplete where the player must choose (a new
Battlecars card has only its driver): the validation lists what is missing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from carwars_desktop.library.kinds import DECK, VEHICLE, design_kind
from carwars_desktop.rules import Design

DEFAULT_NAMES = {
    ("mini_car_wars", VEHICLE): "New vehicle",
    ("battlecars", VEHICLE): "New card",
    ("autopower", VEHICLE): "New car",
    ("autopower", DECK): "New deck",
}


def new_design(ruleset_id: str, kind: str = VEHICLE, name: str | None = None) -> Design:
    """A new design of ``ruleset_id``/``kind`` called ``name`` (default: ``New vehicle``…)."""
    design_kind(ruleset_id, kind)
    name = name if name is not None else DEFAULT_NAMES[(ruleset_id, kind)]
    if ruleset_id == "mini_car_wars":
        from carwars_desktop.rules.mini_car_wars import MiniDesign

        return MiniDesign.stock_design("killer_kart", name=name)
    if ruleset_id == "battlecars":
        return _new_card(name)
    if kind == DECK:
        from carwars_desktop.rules.autopower import Deck

        return Deck(name, ())
    from carwars_desktop.rules.autopower import Car

    return Car(name, 0, 0, 0, 0)


def _new_card(name: str) -> Design:
    from carwars_desktop.rules.battlecars import Armour, Card, Component, HitLocation
    from carwars_desktop.rules.battlecars.tables import DIE, DRIVER_BOXES
    from carwars_desktop.rules.battlecars.terms import BLOCKS, Kind, Section

    driver = Component("Driver", Kind.DRIVER, Section.CENTRE, DRIVER_BOXES)
    return Card(name, 1, tuple(Armour(block, 1) for block in BLOCKS), (driver,),
                (HitLocation(Section.CENTRE, (driver.name,) * DIE),))


def renamed(design: Design, name: str) -> Design:
    """The same design with another name (every engine's design has a ``name`` field)."""
    result: Any = replace(design, name=name)  # type: ignore[type-var]
    assert isinstance(result, type(design))
    return result
