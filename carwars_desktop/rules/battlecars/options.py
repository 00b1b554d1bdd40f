"""The digest's decisions (BC-Dn) as configurable defaults.

A decision is *not* a rule: it fills a gap in the text (digest §5). Each field is
named after its decision ID; the procedures that depend on a decision expose it as
an input of the same name, so a GM can switch to the alternative reading per roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.tables import STATED_COUNTER_SIZES
from carwars_desktop.rules.battlecars.terms import Weapon
from carwars_desktop.rules.kernel.decisions import DecisionMaker, DecisionSet

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

_BC = bc("§5")


_d = DecisionMaker("BC-D", _BC)


DECISIONS: DecisionSet[Options] = DecisionSet(Options, (
    _d(2, "bc_d2_range", "BC-D2 range counts",
       "between: points strictly between (adjacent 0); steps: adjacent 1",
       choices=tuple(r.value for r in RangeReading)),
    _d(4, "bc_d4_only_if_possible", "BC-D4 carry on only if a hit is possible",
       "a missed missile checks the next target only if its best roll reaches it"),
    _d(10, "bc_d10_cap_sd", "BC-D10 SD above 8 uses column 8",
       "off: extend the drift pattern 1d8 − (9 − SD)"),
    _d(11, "bc_d11_fallback_facing", "BC-D11 fallback facing",
       "also give the digital fallback turn for the facing number"),
    _d(12, "bc_d12_turn_to_intended", "BC-D12 corner after 1–4",
       "the car turns its intended corner without another test"),
    _d(16, "bc_d16_one_roll", "BC-D16 one damage roll per collision",
       "off: the rammer rolls its own damage"),
    _d(17, "bc_d17_stun_all", "BC-D17 stun every driver", "off: RV ≥ 14 stuns the target only"),
    _d(18, "bc_d18_extend_table", "BC-D18 extend the damage table",
       "RV > 18 continues the pattern; off: use the RV 18 row"),
    _d(19, "bc_d19_count_after_hit", "BC-D19 count this hit",
       "the fuel-tank check counts this hit's damage"),
    _d(22, "bc_d22_interior_only", "BC-D22 section destroyed = interior destroyed",
       "off: its armour must be covered too"),
    _d(24, "bc_d24_stack_reductions", "BC-D24 speed losses add up",
       "off: only the larger of engine and tyre losses counts"),
    _d(25, "bc_d25_cap_at_max_speed", "BC-D25 max speed beats deceleration",
       "off: the deceleration limit still holds"),
    _d(27, "bc_d27_marker_occupies", "BC-D27 a marker occupies its point",
       "on: markers never share a point"),
    _d(34, "bc_d34_as_printed", "BC-D34 car 4 missions as printed",
       "off: read car 4's 3–4 as car 2"),
    _d(44, "bc_d44_previous_speed_zero", "BC-D44 reverse only from speed 0",
       "off: when the car can stop this Round"),
    _d(48, "bc_d48_reverse_limits", "BC-D48 limits apply in reverse",
       "off: any reverse speed up to the reverse cap"),
    _d(49, "bc_d49_fuel_first", "BC-D49 fuel check first", "off: the ammunition check first"),
))
"""Every Battlecars house rule, declared once (forms, editor, command line, log)."""


def options_from(values: Mapping[str, Any]) -> Options:
    """Options with every decision input present in ``values`` applied over the defaults."""
    return DECISIONS.from_inputs(values)
