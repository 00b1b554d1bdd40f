"""Shared pieces of the Mini Car Wars procedures: sheet inputs, decision switches, refusals."""

from __future__ import annotations

from fractions import Fraction

from carwars_desktop.procedures import (
    Odds,
    Outcome,
    SheetInput,
    Values,
)
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.kernel.refusal import refused, refused_odds
from carwars_desktop.rules.mini_car_wars.catalog import sheet_catalog
from carwars_desktop.rules.mini_car_wars.decisions import DECISIONS, MiniRules
from carwars_desktop.rules.mini_car_wars.model import SIDES, Side
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

RULESET = MINI_CAR_WARS.id
SIDE_KEYS: tuple[str, ...] = tuple(side.value for side in SIDES)
BODY_SIDE_KEYS: tuple[str, ...] = tuple(side.value for side in SIDES if side is not Side.TOP)


def sheet_input(name: str, label: str, help: str = "", optional: bool = False) -> SheetInput:
    """A Mini Car Wars record sheet: a catalog name ("Courier (b)"), JSON or @file."""
    return SheetInput(name, label, MiniSheet, MiniSheet.from_json, sheet_catalog,
                      help=help or "a catalog vehicle (e.g. Courier) or a saved sheet",
                      optional=optional)


def get_sheet(values: Values, name: str) -> MiniSheet:
    sheet = values[name]
    if not isinstance(sheet, MiniSheet):
        raise TypeError(f"{name}: expected a MiniSheet, got {type(sheet).__name__}")
    return sheet


def get_optional_sheet(values: Values, name: str) -> MiniSheet | None:
    return None if values.get(name) is None else get_sheet(values, name)


# --- decisions as inputs (named after their IDs, MCW digest §5.2) ------------------

D2 = DECISIONS.input("MCW-D2")
D3 = DECISIONS.input("MCW-D3")
D5 = DECISIONS.input("MCW-D5")
D6_ROUNDING = DECISIONS.input("MCW-D6a")
D6_WHICHEVER = DECISIONS.input("MCW-D6b")
D13 = DECISIONS.input("MCW-D13")
D14 = DECISIONS.input("MCW-D14")
D20 = DECISIONS.input("MCW-D20")
D31 = DECISIONS.input("MCW-D31")
A4 = DECISIONS.input("MCW-A4")
DEBRIS = DECISIONS.input("MCW-debris")
OFF_ROAD = DECISIONS.input("MCW-off-road")

__all__ = ["refused", "refused_odds"]

def rules_from(values: Values) -> MiniRules:
    """The :class:`MiniRules` of a procedure's decision inputs (others stay default)."""
    return DECISIONS.from_inputs(values)


def certain(label: str, summary: str) -> Odds:
    """Odds of a procedure with no dice: one outcome, probability 1."""
    return Odds(outcomes=(Outcome(label, Fraction(1)),), summary=summary)
