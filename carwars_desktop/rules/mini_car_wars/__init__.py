"""Mini Car Wars (Steve Jackson Games, 1987): the pure-Python rules engine.

Implements the digest ``mini-car-wars.md`` (seed ``004_cbe4df32a991e749.txt``):
tables as data, the vehicle designer, live record sheets with damage
allocation, and every procedure of play with exact odds. Decisions MCW-Dn are
configurable defaults (:class:`MiniRules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars.catalog import catalog, sheet_catalog, stock_sheet
from carwars_desktop.rules.mini_car_wars.damage import DamageReport, apply_damage
from carwars_desktop.rules.mini_car_wars.decisions import (
    DECISIONS,
    DEFAULT_RULES,
    MiniRules,
    Rounding,
)
from carwars_desktop.rules.mini_car_wars.design import MiniDesign, PersonKit
from carwars_desktop.rules.mini_car_wars.kinds import VEHICLE_KIND
from carwars_desktop.rules.mini_car_wars.phases import phases
from carwars_desktop.rules.mini_car_wars.procedures import PROCEDURES
from carwars_desktop.rules.mini_car_wars.reference import reference_tables
from carwars_desktop.rules.mini_car_wars.scenarios import purchase_problems
from carwars_desktop.rules.mini_car_wars.sheet import CrewMember, MiniSheet, WeaponState
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.rules.ruleset import Ruleset


def _sheet_from_json(data: Mapping[str, Any]) -> MiniSheet:
    return MiniSheet.from_json(data)


def _sheet_for_design(design: MiniDesign) -> MiniSheet:
    if not isinstance(design, MiniDesign):
        raise TypeError(f"expected a MiniDesign, got {type(design).__name__}")
    return MiniSheet.from_design(design)


def _house_sheet(design: MiniDesign, rules: MiniRules) -> MiniSheet:
    if not isinstance(design, MiniDesign):
        raise TypeError(f"expected a MiniDesign, got {type(design).__name__}")
    return MiniSheet.from_design(design, rules)


def _catalog() -> Mapping[str, MiniDesign]:
    return catalog()


def _play() -> PlayRules:
    from carwars_desktop.rules.mini_car_wars.play import RULES

    return RULES


RULESET: Ruleset[MiniDesign, MiniSheet, MiniRules] = Ruleset(
    entry=MINI_CAR_WARS,
    dice="d6",
    digest="mini-car-wars.md",
    procedures=PROCEDURES,
    tables=reference_tables(),
    catalog=_catalog,
    kinds=(VEHICLE_KIND,),
    sheet_type=MiniSheet,
    sheet_from_json=_sheet_from_json,
    sheet_for_design=_sheet_for_design,
    phases=phases,
    play=_play,
    options_type=MiniRules,
    decisions=DECISIONS,
    house_sheet=_house_sheet,
    victory="mini.victory",
)

__all__ = [
    "DEFAULT_RULES", "RULESET", "CrewMember", "DamageReport", "MiniDesign", "MiniRules",
    "MiniSheet", "PersonKit", "Rounding", "WeaponState", "apply_damage", "catalog",
    "purchase_problems", "sheet_catalog", "stock_sheet",
]
