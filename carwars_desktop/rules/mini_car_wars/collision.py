"""Collision speed, damage dice and speeds afterwards (Mini Car Wars §2.8, §3.6).

Decisions: MCW-D6 (a cycle's third), MCW-D7 (averages rounded up to 10 mph),
MCW-D8 (dice rolled per vehicle, applied like weapon damage), MCW-D24 (the
mover stops at contact), MCW-D31 (a fixed object stops the vehicle).
"""

from __future__ import annotations

from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules, Rounding
from carwars_desktop.rules.mini_car_wars.model import CollisionKind
from carwars_desktop.rules.mini_car_wars.tables import (
    COLLISION_MPH_PER_DIE,
    CYCLE_DAMAGE_DIVISOR,
    SPEED,
)


def collision_speed(kind: CollisionKind, mover: int, other: int = 0) -> int:
    """CS (§2.8 step 1): difference, sum, the most recent mover's speed, or own speed.

    ``mover`` is the speed of the vehicle that moved most recently (the striker).
    """
    if kind is CollisionKind.SAME_DIRECTION:
        return abs(mover - other)
    if kind is CollisionKind.HEAD_ON:
        return mover + other
    return mover


def damage_dice(speed: int) -> int:
    """One d6 per 10 mph of collision speed (§2.8 step 2)."""
    return speed // COLLISION_MPH_PER_DIE


def cycle_share(roll: int, rounding: Rounding) -> int:
    """A cycle does 1/3 of the damage it would do (§2.8 step 3, MCW-D6 rounding)."""
    if rounding is Rounding.DOWN:
        return roll // CYCLE_DAMAGE_DIVISOR
    if rounding is Rounding.UP:
        return -(-roll // CYCLE_DAMAGE_DIVISOR)
    return (2 * roll + CYCLE_DAMAGE_DIVISOR) // (2 * CYCLE_DAMAGE_DIVISOR)


def thirds_apply(hitter_is_cycle: bool, hitter_moved: bool, rules: MiniRules) -> bool:
    """Whether the damage done *by* ``hitter`` is cut to a third (MCW-D6)."""
    return hitter_is_cycle and (hitter_moved or rules.d6_cycle_third_whichever_moved)


def average_speed(first: int, second: int) -> int:
    """The average of two speeds, rounded up to the next multiple of 10 mph (MCW-D7)."""
    step = SPEED.step
    return -(-(first + second) // (2 * step)) * step


def speeds_after(kind: CollisionKind, mover: int, other: int = 0,
                 rules: MiniRules = DEFAULT_RULES) -> tuple[int, int]:
    """Speeds after the collision (§2.8 step 4): average, or both 0; MCW-D31 for objects."""
    if kind is CollisionKind.SAME_DIRECTION:
        average = average_speed(mover, other)
        return average, average
    if kind is CollisionKind.FIXED_OBJECT and not rules.d31_fixed_object_stops:
        return average_speed(mover, 0), 0
    return 0, 0
