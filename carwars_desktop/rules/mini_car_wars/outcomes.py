"""Exact outcome odds of one or more hits on a vehicle side (Mini Car Wars §2.10–§2.12).

Enumerates every to-hit result, damage total and interior roll over the small
:class:`~carwars_desktop.rules.mini_car_wars.damage.Hull` state, merging equal
states as it goes, with integer weights: the probabilities are exact fractions
and sum to exactly 1.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from carwars_desktop.dice import Distribution
from carwars_desktop.procedures import EffectCategory, EffectOdds, Outcome
from carwars_desktop.rules.mini_car_wars.damage import (
    NO_ROLL,
    SLOT_OF,
    HullState,
    hull_of,
    next_hull,
)
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import INTERIOR_LOCATION

_COMPONENT_WAYS = tuple((SLOT_OF[component], len(faces)) for faces, component in INTERIOR_LOCATION)
_INTERIOR_TOTAL = sum(ways for _, ways in _COMPONENT_WAYS)


@dataclass(frozen=True)
class Attempt:
    """One shot (or one collision's damage): ``hit_ways`` out of ``hit_total``, then damage."""

    hit_ways: int
    hit_total: int
    damage: Distribution


@dataclass(frozen=True)
class DamageOdds:
    """The exact outcome distribution of a series of attempts on one side."""

    outcomes: tuple[Outcome, ...]
    expected: tuple[tuple[str, Fraction], ...]
    categories: tuple[tuple[EffectCategory, Fraction], ...] = ()
    """The chance of each effect category (not exclusive), in :class:`EffectCategory` order."""

    def effects(self, subject: str) -> tuple[EffectOdds, ...]:
        """The categories' odds, as those of the vehicle named ``subject``."""
        return tuple(EffectOdds(subject, category, p) for category, p in self.categories)


def categories_of(before: MiniSheet, after: MiniSheet, side: Side) -> frozenset[EffectCategory]:
    """What a resolved hit or crash on ``side`` did to a vehicle (tags of its effect)."""
    return categories_between(hull_of(before, side), hull_of(after, side))


def categories_between(start: HullState, end: HullState) -> frozenset[EffectCategory]:
    """What happened to a vehicle between two hull states (see :class:`EffectCategory`).

    Tuple fields: side, opposite, driver body, driver hits, gunner body, gunner hits, plant.
    """
    found = set()
    if end[0] == 0 and end != start:
        found.add(EffectCategory.ARMOR_BREACHED)
    if end[3] > start[3] or end[5] > start[5]:
        found.add(EffectCategory.CREW_HURT)
    if (end[3] >= 3 > start[3]) or (end[6] == 0 < start[6]):
        found.add(EffectCategory.WRECKED)
    return frozenset(found)


def _severity(side: Side) -> tuple[str, ...]:
    breached = "top armor gone (turret weapons destroyed)" if side is Side.TOP \
        else f"{side.label} armor gone (its weapons destroyed)"
    opposite = side.opposite
    return ("miss", "driver killed", "driver unconscious", "power plant destroyed",
            "driver wounded (control roll)", "gunner killed", "gunner unconscious",
            "gunner wounded", "body armor hit", "power plant damaged", breached,
            f"damage passed through to the {opposite.label if opposite else 'other side'}",
            f"{side.label} armor damaged", "no effect")


def damage_label(before: MiniSheet, after: MiniSheet, side: Side, hit: bool = True) -> str:
    """The odds outcome (of :func:`damage_odds`) a resolved hit on ``side`` is: its worst
    effect from ``before`` to ``after``, or ``miss``."""
    labels = _severity(side)
    if not hit:
        return labels[0]
    return _label(labels, hull_of(before, side), hull_of(after, side))


def _label(labels: tuple[str, ...], start: HullState, end: HullState) -> str:
    """The worst thing that happened between ``start`` and ``end`` (after at least one hit).

    Tuple fields: side, opposite, driver body, driver hits, gunner body, gunner hits, plant.
    """
    side, opposite, d_body, d_hits, g_body, g_hits, plant = start
    e_side, e_opposite, e_d_body, e_d_hits, e_g_body, e_g_hits, e_plant = end
    if e_d_hits >= 3 > d_hits:
        return labels[1]
    if e_d_hits >= 2 > d_hits:
        return labels[2]
    if e_plant == 0 < plant:
        return labels[3]
    if e_d_hits > d_hits:
        return labels[4]
    if e_g_hits >= 3 > g_hits:
        return labels[5]
    if e_g_hits >= 2 > g_hits:
        return labels[6]
    if e_g_hits > g_hits:
        return labels[7]
    if e_d_body < d_body or e_g_body < g_body:
        return labels[8]
    if e_plant < plant:
        return labels[9]
    if e_side == 0 < side:
        return labels[10]
    if e_opposite < opposite:
        return labels[11]
    if e_side < side:
        return labels[12]
    return labels[13]


def damage_odds(sheet: MiniSheet, side: Side, attempts: Sequence[Attempt]) -> DamageOdds:
    """Exact odds of the worst effect of ``attempts``, applied in order to ``side``.

    Weapons are not part of the state, so MCW-D20 does not change these odds.
    """
    top = side is Side.TOP
    start: HullState = hull_of(sheet, side)
    unhit = 1
    states: dict[HullState, int] = {}
    denominator = 1
    for attempt in attempts:
        miss_ways = attempt.hit_total - attempt.hit_ways
        scale = attempt.damage.total * _INTERIOR_TOTAL
        damages = tuple(attempt.damage.ways.items())
        following: defaultdict[HullState, int] = defaultdict(int)
        sources = [(start, unhit)] if unhit else []
        for hull, weight in states.items():
            following[hull] += weight * miss_ways * scale
            sources.append((hull, weight))
        if attempt.hit_ways:
            for hull, weight in sources:
                base = weight * attempt.hit_ways
                armor = hull[0]
                for damage, ways in damages:
                    if top or damage <= armor:
                        following[next_hull(hull, damage, NO_ROLL, top)] += \
                            base * ways * _INTERIOR_TOTAL
                        continue
                    for slot, slot_ways in _COMPONENT_WAYS:
                        following[next_hull(hull, damage, slot, top)] += base * ways * slot_ways
        unhit *= miss_ways * scale
        states = following
        denominator *= attempt.hit_total * scale
    labels = _severity(side)
    by_label: dict[str, int] = defaultdict(int)
    by_label[labels[0]] = unhit
    armor_lost = interior = 0
    tagged: dict[EffectCategory, int] = dict.fromkeys(EffectCategory, 0)
    for hull, weight in states.items():
        by_label[_label(labels, start, hull)] += weight
        for category in categories_between(start, hull):
            tagged[category] += weight
        armor_lost += weight * (start[0] + start[1] - hull[0] - hull[1])
        interior += weight * _interior_taken(start, hull)
    outcomes = tuple(Outcome(label, Fraction(by_label[label], denominator))
                     for label in labels if by_label.get(label))
    expected_hits = sum((Fraction(a.hit_ways, a.hit_total) for a in attempts), Fraction(0))
    expected_damage = sum((Fraction(a.hit_ways, a.hit_total) * a.damage.mean()
                           for a in attempts), Fraction(0))
    expected = (("hits", expected_hits), ("damage", expected_damage),
                ("armor lost", Fraction(armor_lost, denominator)),
                ("interior damage", Fraction(interior, denominator)))
    return DamageOdds(outcomes, expected, tuple((category, Fraction(weight, denominator))
                                                for category, weight in tagged.items()))


def _interior_taken(start: HullState, end: HullState) -> int:
    """Points absorbed by the crew (body armor and own boxes) and the power plant."""
    gunner = (end[5] - start[5]) if start[5] >= 0 else 0
    return start[2] - end[2] + end[3] - start[3] + start[4] - end[4] + gunner + start[6] - end[6]
