"""Inputs and helpers shared by the Battlecars procedures."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from carwars_desktop.procedures import (
    ChoiceInput,
    Input,
    InputError,
    IntInput,
    Odds,
    Outcome,
    Refusal,
    RulesRefusal,
    SheetInput,
    Values,
    odds_text,
)
from carwars_desktop.rules.battlecars.catalog import (
    car_catalog,
    load_piece,
    obstacle_catalog,
    pedestrian_catalog,
    piece_catalog,
)
from carwars_desktop.rules.battlecars.options import DECISIONS as OPTION_DECISIONS
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet, Piece
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.terms import BLOCKS, Surface
from carwars_desktop.rules.builtin import BATTLECARS

RULESET = BATTLECARS.id


def car_input(name: str = "vehicle", label: str = "Battlecar", help: str = "",
              optional: bool = False) -> SheetInput:
    return SheetInput(name, label, CarSheet, CarSheet.from_json, car_catalog,
                      help=help or "the car's record sheet", optional=optional)


def pedestrian_input(name: str = "pedestrian", label: str = "Pedestrian", help: str = "",
                     optional: bool = False) -> SheetInput:
    return SheetInput(name, label, PedestrianSheet, PedestrianSheet.from_json,
                      pedestrian_catalog, help=help or "the Pedestrian card", optional=optional)


def obstacle_input(name: str = "obstacle", label: str = "Obstacle", help: str = "",
                   optional: bool = False) -> SheetInput:
    return SheetInput(name, label, ObstacleSheet, ObstacleSheet.from_json, obstacle_catalog,
                      help=help or "a building, tree or wreck", optional=optional)


def piece_input(name: str, label: str, help: str = "", optional: bool = False) -> SheetInput:
    return SheetInput(name, label, Piece, load_piece, piece_catalog,
                      help=help or "a car, pedestrian, building, tree or wreck",
                      optional=optional)


def surface_input(name: str = "surface", label: str = "Surface", help: str = "") -> ChoiceInput:
    return ChoiceInput(name, label, tuple(s.value for s in Surface), Surface.ROAD.value,
                       help=help or "road or grass at the car's point (BC-D31)")


def area_input(name: str = "area", label: str = "Area", optional: bool = True) -> ChoiceInput:
    return ChoiceInput(name, label, tuple(b.value for b in BLOCKS), None, optional=optional,
                       help="the armour block aimed at: front, left-front (left side-front), …")


def speed_override(name: str = "speed", label: str = "Speed") -> IntInput:
    return IntInput(name, label, None, 0, 30, optional=True,
                    help="the car's speed this turn (empty: the speed on its sheet)")


def clear_points_input() -> IntInput:
    return IntInput("clear_points", "Clear points ahead", None, 0, 30, optional=True,
                    help="points the car can drift before a car, wreck, building or tree "
                         "(empty: open ground)")


DECISIONS: Mapping[str, Input] = {decision.input_name: OPTION_DECISIONS.input(decision.id)
                                  for decision in OPTION_DECISIONS}


def decisions(*names: str) -> tuple[Input, ...]:
    return tuple(DECISIONS[name] for name in names)


def certain(label: str, summary: str) -> Odds:
    """The odds of a procedure without dice: one outcome, probability 1."""
    return Odds(outcomes=(Outcome(label, Fraction(1)),), summary=summary)


def outcomes(odds: Mapping[str, Fraction]) -> tuple[Outcome, ...]:
    return tuple(Outcome(label, p) for label, p in odds.items())


def odds_line(odds: Mapping[str, Fraction]) -> str:
    return " · ".join(f"{label} {odds_text(p)}" for label, p in odds.items())


def refuse(problems: Iterable[str], rule: str = "") -> None:
    """The rules refuse these inputs, for the ``problems`` given (none: nothing refused)."""
    found = list(problems)
    if found:
        raise RulesRefusal(Refusal("; ".join(found), rule))


def need(problems: Iterable[str]) -> None:
    """Inputs that are missing or malformed (bad input, not a refusal of the rules)."""
    found = list(problems)
    if found:
        raise InputError("; ".join(found))


def speed_of(values: Values, sheet: CarSheet, name: str = "speed") -> int:
    value: Any = values.get(name)
    return sheet.speed if value is None else int(value)
