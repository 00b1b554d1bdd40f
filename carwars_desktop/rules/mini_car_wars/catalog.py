"""Every stock vehicle and each of its options as a ready design and a fresh sheet (§1.5).

Names are the stock name, with the option letter for an option: "Courier",
"Courier (a)", "Firelight Deluxe (opt)". An option's added armor sits on the
front in these ready designs (MCW-D18 lets the player move it anywhere).
"""

from __future__ import annotations

from functools import cache

from carwars_desktop.rules.mini_car_wars.design import MiniDesign
from carwars_desktop.rules.mini_car_wars.errors import UnknownVehicleError
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import STOCK_CARS


@cache
def _designs() -> tuple[MiniDesign, ...]:
    designs: list[MiniDesign] = []
    for vehicle in STOCK_CARS:
        designs.append(MiniDesign.stock_design(vehicle.key))
        designs += [MiniDesign.stock_design(vehicle.key, option.key) for option in vehicle.options]
    return tuple(designs)


def catalog() -> dict[str, MiniDesign]:
    """Every stock vehicle and option, by name, in Stock Car List order."""
    return {design.name: design for design in _designs()}


@cache
def _sheets() -> tuple[MiniSheet, ...]:
    return tuple(MiniSheet.from_design(design) for design in _designs())


def sheet_catalog() -> dict[str, MiniSheet]:
    """A fresh record sheet (0 mph, undamaged) for each catalog design, by name."""
    return {sheet.name: sheet for sheet in _sheets()}


def stock_sheet(name: str) -> MiniSheet:
    """The fresh sheet of a catalog vehicle ("Courier (b)"); refuses unknown names."""
    sheets = sheet_catalog()
    if name not in sheets:
        raise UnknownVehicleError(f"no catalog vehicle {name!r} (known: {', '.join(sheets)})")
    return sheets[name]
