"""Inputs and helpers shared by the Battlecars procedures."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from carwars_desktop.procedures import (
    BoolInput,
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
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, RangeReading
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet, Piece
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.terms import BLOCKS, Surface

RULESET = "battlecars"


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


def _bool(name: str, label: str, help: str) -> BoolInput:
    default = getattr(DEFAULT_OPTIONS, name)
    assert isinstance(default, bool)
    return BoolInput(name, label, default, help=help)


DECISIONS: Mapping[str, Input] = {
    "bc_d2_range": ChoiceInput("bc_d2_range", "BC-D2 range counts",
                               tuple(r.value for r in RangeReading), RangeReading.BETWEEN.value,
                               help="between: points strictly between (adjacent 0); steps: "
                                    "adjacent 1"),
    "bc_d4_only_if_possible": _bool("bc_d4_only_if_possible", "BC-D4 carry on only if a hit "
                                    "is possible", "a missed missile checks the next target only "
                                    "if its best roll reaches it"),
    "bc_d10_cap_sd": _bool("bc_d10_cap_sd", "BC-D10 SD above 8 uses column 8",
                           "off: extend the drift pattern 1d8 − (9 − SD)"),
    "bc_d11_fallback_facing": _bool("bc_d11_fallback_facing", "BC-D11 fallback facing",
                                    "also give the digital fallback turn for the facing number"),
    "bc_d12_turn_to_intended": _bool("bc_d12_turn_to_intended", "BC-D12 corner after 1–4",
                                     "the car turns its intended corner without another test"),
    "bc_d16_one_roll": _bool("bc_d16_one_roll", "BC-D16 one damage roll per collision",
                             "off: the rammer rolls its own damage"),
    "bc_d17_stun_all": _bool("bc_d17_stun_all", "BC-D17 stun every driver",
                             "off: RV ≥ 14 stuns the target only"),
    "bc_d18_extend_table": _bool("bc_d18_extend_table", "BC-D18 extend the damage table",
                                 "RV > 18 continues the pattern; off: use the RV 18 row"),
    "bc_d19_count_after_hit": _bool("bc_d19_count_after_hit", "BC-D19 count this hit",
                                    "the fuel-tank check counts this hit's damage"),
    "bc_d22_interior_only": _bool("bc_d22_interior_only", "BC-D22 section destroyed = "
                                  "interior destroyed", "off: its armour must be covered too"),
    "bc_d24_stack_reductions": _bool("bc_d24_stack_reductions", "BC-D24 speed losses add up",
                                     "off: only the larger of engine and tyre losses counts"),
    "bc_d25_cap_at_max_speed": _bool("bc_d25_cap_at_max_speed", "BC-D25 max speed beats "
                                     "deceleration", "off: the deceleration limit still holds"),
    "bc_d27_marker_occupies": _bool("bc_d27_marker_occupies", "BC-D27 a marker occupies its "
                                    "point", "on: markers never share a point"),
    "bc_d34_as_printed": _bool("bc_d34_as_printed", "BC-D34 car 4 missions as printed",
                               "off: read car 4's 3–4 as car 2"),
    "bc_d44_previous_speed_zero": _bool("bc_d44_previous_speed_zero", "BC-D44 reverse only "
                                        "from speed 0", "off: when the car can stop this Round"),
    "bc_d48_reverse_limits": _bool("bc_d48_reverse_limits", "BC-D48 limits apply in reverse",
                                   "off: any reverse speed up to the reverse cap"),
    "bc_d49_fuel_first": _bool("bc_d49_fuel_first", "BC-D49 fuel check first",
                               "off: the ammunition check first"),
}


def decisions(*names: str) -> tuple[Input, ...]:
    return tuple(DECISIONS[name] for name in names)


def certain(label: str, summary: str) -> Odds:
    """The odds of a procedure without dice: one outcome, probability 1."""
    return Odds(outcomes=(Outcome(label, Fraction(1)),), summary=summary)


def outcomes(odds: Mapping[str, Fraction]) -> tuple[Outcome, ...]:
    return tuple(Outcome(label, p) for label, p in odds.items())


def odds_line(odds: Mapping[str, Fraction], total: int | None = None) -> str:
    return " · ".join(f"{label} {odds_text(p, total)}" for label, p in odds.items())


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
