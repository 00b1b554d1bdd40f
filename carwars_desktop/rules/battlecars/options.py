"""The digest's decisions (BC-Dn) as configurable defaults.

A decision is *not* a rule: it fills a gap in the text (digest §5). Each field is
named after its decision ID; the procedures that depend on a decision expose it as
an input of the same name, so a GM can switch to the alternative reading per roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from carwars_desktop.rules.battlecars.tables import STATED_COUNTER_SIZES
from carwars_desktop.rules.battlecars.terms import Weapon

BC_D9_SPEED_TRACK = 9
"""BC-D9: the top speed when a card's Speed Track is not known (the facing modifiers stop at
9 and the ram table's 18 = 9 + 9)."""


class RangeReading(StrEnum):
    """BC-D2: how "the number of points showing between" is counted."""

    BETWEEN = "between"
    """Points strictly between firer and target: adjacent = 0 (the default)."""
    STEPS = "steps"
    """Steps along the line: adjacent = 1, i.e. points between + 1."""


@dataclass(frozen=True)
class CounterSizes:
    """BC-D37: counter sizes the text leaves out (Rocket 4 and Shell 2 are rules)."""

    mg: int = 1
    flame: int = 2
    smoke: int = 2
    oil: int = 2
    spikes: int = 2
    mines: int = 2

    def size(self, weapon: Weapon) -> int:
        stated = STATED_COUNTER_SIZES.get(weapon)
        if stated is not None:
            return stated
        size: int = getattr(self, weapon.value)
        return size

    def to_json(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def is_default(self) -> bool:
        return self == CounterSizes()


@dataclass(frozen=True)
class Options:
    """Every configurable decision of the Battlecars digest, with its default."""

    bc_d2_range: RangeReading = RangeReading.BETWEEN
    """BC-D2: range counts the points strictly between (alternative: steps, adjacent = 1)."""
    bc_d4_only_if_possible: bool = True
    """BC-D4: a missile that misses checks a further target only if a hit is possible."""
    bc_d10_cap_sd: bool = True
    """BC-D10: SD above 8 uses the SD 8 column (alternative: extend 1d8 − (9 − SD))."""
    bc_d11_fallback_facing: bool = True
    """BC-D11: also give the digital fallback turn for the final facing number."""
    bc_d12_turn_to_intended: bool = True
    """BC-D12: after facing 1–4 the car turns to its intended heading without another test."""
    bc_d16_one_roll: bool = True
    """BC-D16: one damage roll per collision (alternative: the rammer rolls its own)."""
    bc_d17_stun_all: bool = True
    """BC-D17: RV ≥ 14 stuns every driver in the collision (alternative: the target only)."""
    bc_d18_extend_table: bool = True
    """BC-D18: RV > 18 continues the table's pattern (alternative: use the RV 18 row)."""
    bc_d19_count_after_hit: bool = True
    """BC-D19: the fuel-tank check counts this hit's damage (alternative: damage before it)."""
    bc_d22_interior_only: bool = True
    """BC-D22: a section is destroyed when all its interior components are (alternative:
    its armour blocks must be fully covered too; until then surplus damage is lost)."""
    bc_d24_stack_reductions: bool = True
    """BC-D24: engine and tyre speed losses add up (alternative: only the larger counts)."""
    bc_d25_cap_at_max_speed: bool = True
    """BC-D25: a speed above a reduced max speed drops to it even beyond the deceleration
    limit (alternative: the deceleration limit still applies)."""
    bc_d27_marker_occupies: bool = False
    """BC-D27: a marker does not make a point occupied (alternative: it does)."""
    bc_d34_as_printed: bool = True
    """BC-D34: car 4's missions 3–4 and 5–6 both name car 3, as printed (alternative: read
    3–4 as car 2)."""
    bc_d44_previous_speed_zero: bool = True
    """BC-D44: forward ↔ reverse only when the previous speed was 0 (alternative: when the
    car could stop this Round, i.e. previous speed ≤ max deceleration)."""
    bc_d48_reverse_limits: bool = True
    """BC-D48: acceleration and deceleration limits apply in reverse, on the magnitude."""
    bc_d49_fuel_first: bool = True
    """BC-D49: after a hit, the fuel-tank check comes before the ammunition check."""


DEFAULT_OPTIONS = Options()

_OPTION_NAMES = frozenset(f.name for f in fields(Options))


def options_from(values: Mapping[str, Any]) -> Options:
    """Options with every decision input present in ``values`` applied over the defaults."""
    changes: dict[str, Any] = {}
    for name in _OPTION_NAMES & set(values):
        value = values[name]
        if name == "bc_d2_range":
            value = RangeReading(value)
        changes[name] = value
    return replace(DEFAULT_OPTIONS, **changes)
