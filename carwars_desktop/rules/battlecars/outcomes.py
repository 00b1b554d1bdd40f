"""Exact outcome odds of damage to a car, pedestrian or obstacle.

The car ladder uses the same armour, cover and pass-through code as a resolution,
branching over every hit-location choice (re-rolls included exactly, equal end states
merged), then adds the fuel-tank and ammunition checks in closed form. Each outcome is
the worst thing that happens.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from carwars_desktop.dice import Distribution
from carwars_desktop.rules.battlecars.damage import interior_outcomes
from carwars_desktop.rules.battlecars.explosions import fuel_check, p_any_detonation
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.pieces import ObstacleSheet, PedestrianSheet, Piece
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import PEDESTRIAN_BOXES
from carwars_desktop.rules.battlecars.terms import BLOCKS, Block, Kind, Line, Source

NO_DAMAGE = "no damage"
ARMOUR_ONLY = "armour only"
INTERIOR = "interior damage"
AMMUNITION = "ammunition detonates"
DRIVER_KILLED = "driver killed"
EXPLODES = "fuel tank explodes"
CAR_LADDER = (NO_DAMAGE, ARMOUR_ONLY, INTERIOR, AMMUNITION, DRIVER_KILLED, EXPLODES)
WOUNDED = "wounded"
KILLED = "killed"
ABSORBED = "absorbed by the cover"
SHELTER_WOUNDED = "pedestrian in cover wounded"
SHELTER_KILLED = "pedestrian in cover killed"

Odds = dict[str, Fraction]


def _add(odds: Odds, label: str, p: Fraction) -> None:
    if p:
        odds[label] = odds.get(label, Fraction(0)) + p


def missiles_lost(before: CarSheet, after: CarSheet) -> int:
    """Missile counters a hit destroyed (the loads only shrink while damage is recorded)."""
    return sum(sum(1 for w in old if w.is_missile) - sum(1 for w in new if w.is_missile)
               for old, new in zip(before.loads, after.loads, strict=True))


def car_outcome(before: CarSheet, after: CarSheet, amount: int, armour: int,
                exploded: bool = False, detonated: bool = False) -> str:
    """The worst thing ``amount`` points did to a car (a :data:`CAR_LADDER` label): ``after``
    is the car once the damage is recorded (``armour`` of it on the armour block), with the
    fuel tank ``exploded`` or a round ``detonated`` by the checks that followed."""
    if amount <= 0:
        return NO_DAMAGE
    if exploded:
        return EXPLODES
    if after.driver_dead and not before.driver_dead:
        return DRIVER_KILLED
    if detonated:
        return AMMUNITION
    if after.component_hits != before.component_hits:
        return INTERIOR
    return ARMOUR_ONLY if armour else NO_DAMAGE


@lru_cache(maxsize=4096)
def car_hit_odds(sheet: CarSheet, area: Block, amount: int, line: Line, source: Source,
                 options: Options = DEFAULT_OPTIONS) -> tuple[tuple[str, Fraction], ...]:
    """The worst-outcome odds of ``amount`` points on ``area`` (sums to 1)."""
    if amount <= 0:
        return ((car_outcome(sheet, sheet, amount, 0), Fraction(1)),)
    armour = min(amount, sheet.armour_left(area))
    armoured = sheet.with_armour_hits(area, sheet.armour_hits[BLOCKS.index(area)] + armour)
    odds: Odds = {}
    for after, weight in interior_outcomes(armoured, area.section, amount - armour, line,
                                           options):
        check = fuel_check(sheet, after, source, area, options)
        p_fire = check.p_explode() if check is not None else Fraction(0)
        p_ammo = Fraction(0)
        if source.detonates_ammunition and not after.working(Kind.GUNNERY_COMPUTER):
            p_ammo = p_any_detonation(missiles_lost(sheet, after))
        _add(odds, car_outcome(sheet, after, amount, armour, exploded=True), weight * p_fire)
        _add(odds, car_outcome(sheet, after, amount, armour, detonated=True),
             weight * (1 - p_fire) * p_ammo)
        _add(odds, car_outcome(sheet, after, amount, armour),
             weight * (1 - p_fire) * (1 - p_ammo))
    return tuple((label, odds[label]) for label in CAR_LADDER if label in odds)


def car_damage_odds(sheet: CarSheet, area: Block, line: Line, source: Source,
                    damage: Distribution, options: Options = DEFAULT_OPTIONS) -> Odds:
    odds: Odds = {}
    for amount, p in damage.probabilities().items():
        for label, q in car_hit_odds(sheet, area, amount, line, source, options):
            _add(odds, label, p * q)
    return odds


def pedestrian_outcome(pedestrian: PedestrianSheet, amount: int) -> str:
    """What ``amount`` points do to ``pedestrian`` (as it was before them)."""
    if amount <= 0:
        return NO_DAMAGE
    return KILLED if pedestrian.damage + amount >= PEDESTRIAN_BOXES else WOUNDED


def pedestrian_damage_odds(pedestrian: PedestrianSheet, damage: Distribution) -> Odds:
    odds: Odds = {}
    for amount, p in damage.probabilities().items():
        _add(odds, pedestrian_outcome(pedestrian, amount), p)
    return odds


def obstacle_outcome(obstacle: ObstacleSheet, sheltering: PedestrianSheet | None,
                     amount: int) -> str:
    """What ``amount`` points do to ``obstacle`` and whoever shelters there (both as they
    were before them)."""
    surplus = max(0, amount - (obstacle.capacity - obstacle.hits))
    if amount <= 0:
        return NO_DAMAGE
    if surplus == 0 or sheltering is None:
        return ABSORBED
    if sheltering.damage + surplus >= PEDESTRIAN_BOXES:
        return SHELTER_KILLED
    return SHELTER_WOUNDED


def obstacle_damage_odds(obstacle: ObstacleSheet, sheltering: PedestrianSheet | None,
                         damage: Distribution) -> Odds:
    odds: Odds = {}
    for amount, p in damage.probabilities().items():
        _add(odds, obstacle_outcome(obstacle, sheltering, amount), p)
    return odds


def piece_damage_odds(piece: Piece, area: Block | None, line: Line, source: Source,
                      damage: Distribution, sheltering: PedestrianSheet | None,
                      options: Options = DEFAULT_OPTIONS) -> Odds:
    """Outcome odds of ``damage`` on any target (a car needs its ``area``)."""
    if isinstance(piece, CarSheet):
        assert area is not None
        return car_damage_odds(piece, area, line, source, damage, options)
    if isinstance(piece, PedestrianSheet):
        return pedestrian_damage_odds(piece, damage)
    assert isinstance(piece, ObstacleSheet)
    return obstacle_damage_odds(piece, sheltering, damage)
