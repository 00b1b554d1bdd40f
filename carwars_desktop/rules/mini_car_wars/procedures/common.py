"""Shared pieces of the Mini Car Wars procedures: sheet inputs, decision switches, refusals."""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

from carwars_desktop.procedures import (
    BoolInput,
    ChoiceInput,
    Odds,
    Outcome,
    SheetInput,
    Values,
)
from carwars_desktop.rules.kernel.refusal import refused, refused_odds
from carwars_desktop.rules.mini_car_wars.catalog import sheet_catalog
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules, Rounding
from carwars_desktop.rules.mini_car_wars.model import SIDES, Side
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet

RULESET = "mini_car_wars"
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

D2 = BoolInput("mcw_d2_skid_carries_over", "MCW-D2: skid on the last move skips next turn's "
               "first move", DEFAULT_RULES.d2_skid_carries_over,
               help="off, the digest's default: nothing carries into the next turn")
D3 = BoolInput("mcw_d3_skid_from_post_maneuver", "MCW-D3: skid starts where the maneuver ended",
               DEFAULT_RULES.d3_skid_from_post_maneuver)
D5 = BoolInput("mcw_d5_roll_only_when_wounded_conscious", "MCW-D5: wounded-driver control roll "
               "only when he is left wounded and conscious",
               DEFAULT_RULES.d5_roll_only_when_wounded_conscious)
D6_ROUNDING = ChoiceInput("mcw_d6_cycle_rounding", "MCW-D6: rounding of a cycle's third",
                          tuple(r.value for r in Rounding), DEFAULT_RULES.d6_cycle_rounding.value)
D6_WHICHEVER = BoolInput("mcw_d6_cycle_third_whichever_moved", "MCW-D6: a cycle does a third "
                         "whichever vehicle moved", DEFAULT_RULES.d6_cycle_third_whichever_moved)
D13 = BoolInput("mcw_d13_cycle_front_rear", "MCW-D13: front/rear −1 also on cycles",
                DEFAULT_RULES.d13_cycle_front_rear)
D14 = BoolInput("mcw_d14_turret_only_minus_two", "MCW-D14: a turret shot takes only the −2",
                DEFAULT_RULES.d14_turret_only_minus_two)
D20 = BoolInput("mcw_d20_bare_side_loses_weapons", "MCW-D20: weapons on a 0-armor side are lost "
                "to the first damage there", DEFAULT_RULES.d20_bare_side_loses_weapons)
D31 = BoolInput("mcw_d31_fixed_object_stops", "MCW-D31: hitting a fixed object stops the vehicle",
                DEFAULT_RULES.d31_fixed_object_stops)

__all__ = ["refused", "refused_odds"]

_FIELDS = {f.name for f in fields(MiniRules)}


def rules_from(values: Values) -> MiniRules:
    """The :class:`MiniRules` of a procedure's ``mcw_*`` inputs (others stay default)."""
    changes: dict[str, Any] = {}
    for key, value in values.items():
        field_name = key.removeprefix("mcw_")
        if key.startswith("mcw_") and field_name in _FIELDS:
            changes[field_name] = Rounding(value) if field_name == "d6_cycle_rounding" else value
    return replace(DEFAULT_RULES, **changes)


def certain(label: str, summary: str) -> Odds:
    """Odds of a procedure with no dice: one outcome, probability 1."""
    return Odds(outcomes=(Outcome(label, Fraction(1)),), summary=summary)
