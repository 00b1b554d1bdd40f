"""The shipped example card and the named sheets the command line can refer to.

The rulebook has no card data (BC-D8). TEST-1 is the INVENTED reference vehicle of the
digest's Appendix A, shipped as a clearly labelled example: it is not an official
Battlecar card. Its weapon load is invented as well, to exercise every loading rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carwars_desktop.rules.battlecars.card import Armour, Card, Component, HitLocation, Loading
from carwars_desktop.rules.battlecars.errors import SheetError
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet, Piece
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.terms import (
    Block,
    Facing,
    Kind,
    ObstacleKind,
    ObstacleSize,
    Section,
    Weapon,
)

EXAMPLE_CARD_NAME = "TEST-1 (example card, not official)"
EXAMPLE_NOTE = ("INVENTED example from the rules digest, Appendix A: not an official "
                "Battlecar card. Enter the real cards from the box (BC-D8).")

_F, _C, _R = Section.FRONT, Section.CENTRE, Section.REAR

BoardSheet = CarSheet | PedestrianSheet | ObstacleSheet
"""Any Battlecars record sheet: a car's, a pedestrian's or an obstacle's."""


def example_card() -> Card:
    """TEST-1 (digest Appendix A): an invented vehicle for examples and tests."""
    side = 4
    return Card(
        name=EXAMPLE_CARD_NAME,
        speed_track_max=9,
        armour=(Armour(Block.FRONT, 6), Armour(Block.LEFT_FRONT, side),
                Armour(Block.RIGHT_FRONT, side), Armour(Block.LEFT_CENTRE, side),
                Armour(Block.RIGHT_CENTRE, side), Armour(Block.LEFT_REAR, side),
                Armour(Block.RIGHT_REAR, side), Armour(Block.REAR, 6)),
        components=(
            Component("Tyre FL", Kind.TYRE, _F, 2),
            Component("Tyre FR", Kind.TYRE, _F, 2),
            Component("Pod A", Kind.POD, _F, 8, Facing.FRONT),
            Component("Power Brakes", Kind.POWER_BRAKES, _F, 2),
            Component("Auto-Steer", Kind.AUTO_STEER, _F, 2),
            Component("Driver", Kind.DRIVER, _C, 3),
            Component("Turret", Kind.TURRET, _C, 4),
            Component("Gunnery Computer", Kind.GUNNERY_COMPUTER, _C, 2),
            Component("Fire Extinguisher", Kind.FIRE_EXTINGUISHER, _C, 2),
            Component("Pod B", Kind.POD, _C, 8, Facing.LEFT),
            Component("Pod C", Kind.POD, _C, 8, Facing.RIGHT),
            Component("Engine", Kind.ENGINE, _R, 4),
            Component("Fuel Tank", Kind.FUEL_TANK, _R, 3),
            Component("Super-Charger", Kind.SUPER_CHARGER, _R, 2),
            Component("Tyre RL", Kind.TYRE, _R, 2),
            Component("Tyre RR", Kind.TYRE, _R, 2),
            Component("Pod D", Kind.POD, _R, 8, Facing.REAR),
        ),
        hit_locations=(
            HitLocation(_F, ("Tyre FL", "Tyre FR", "Pod A", "Pod A", "Pod A", "Power Brakes",
                             "Auto-Steer", "Pod A")),
            HitLocation(_C, ("Driver", "Driver", "Turret", "Gunnery Computer",
                             "Fire Extinguisher", "Pod B", "Pod C", "Turret")),
            HitLocation(_R, ("Tyre RL", "Tyre RR", "Engine", "Engine", "Fuel Tank",
                             "Super-Charger", "Pod D", "Pod D")),
        ),
        loadout=(
            Loading("Pod A", (Weapon.ROCKET, Weapon.ROCKET)),
            Loading("Turret", (Weapon.MG,) * 4),
            Loading("Pod B", (Weapon.FLAME,) * 4),
            Loading("Pod C", (Weapon.SMOKE, Weapon.OIL, Weapon.SPIKES, Weapon.MINES)),
            Loading("Pod D", (Weapon.SHELL,) * 4),
        ),
        note=EXAMPLE_NOTE,
    )


def card_catalog() -> dict[str, Card]:
    """The designs the ruleset ships: only the labelled example."""
    card = example_card()
    return {card.name: card}


EXAMPLE_CARS = 4


def example_car_name(number: int) -> str:
    return f"car {number} (TEST-1 example, not official)"


def car_catalog() -> dict[str, CarSheet]:
    """Fresh sheets by name: each shipped card, and cars 1–4 on the example card, so that
    ``--set firer="car 1 (TEST-1 example, not official)"`` can fire at car 2."""
    sheets = {name: CarSheet.fresh(card) for name, card in card_catalog().items()}
    card = example_card()
    for number in range(1, EXAMPLE_CARS + 1):
        name = example_car_name(number)
        sheets[name] = CarSheet.fresh(card, name)
    return sheets


def pedestrian_catalog() -> dict[str, PedestrianSheet]:
    return {"pedestrian": PedestrianSheet("pedestrian")}


def obstacle_catalog() -> dict[str, ObstacleSheet]:
    sheets: dict[str, ObstacleSheet] = {}
    for kind in (ObstacleKind.BUILDING, ObstacleKind.TREE):
        for size in ObstacleSize:
            name = f"{size.value} {kind.value}"
            sheets[name] = ObstacleSheet(name, kind, size)
    sheets["wreck"] = ObstacleSheet("wreck", ObstacleKind.WRECK, None)
    return sheets


def piece_catalog() -> dict[str, Piece]:
    """Every named sheet a target input accepts: example cars, a pedestrian, obstacles."""
    pieces: dict[str, Piece] = {}
    pieces.update(car_catalog())
    pieces.update(pedestrian_catalog())
    pieces.update(obstacle_catalog())
    return pieces


def load_piece(data: Mapping[str, Any]) -> BoardSheet:
    """Read any Battlecars record sheet by its ``kind``."""
    kind = data.get("kind") if isinstance(data, Mapping) else None
    if kind == "battlecars.car":
        return CarSheet.from_json(data)
    if kind == "battlecars.pedestrian":
        return PedestrianSheet.from_json(data)
    if kind == "battlecars.obstacle":
        return ObstacleSheet.from_json(data)
    raise SheetError(f"kind must be battlecars.car, battlecars.pedestrian or "
                     f"battlecars.obstacle, not {kind!r}")
