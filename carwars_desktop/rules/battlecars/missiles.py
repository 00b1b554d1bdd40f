"""Missile to-hit and damage formulas (digest §2.11, §3.7): exact distributions."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from carwars_desktop.dice import Distribution, dice_sum
from carwars_desktop.procedures import Modifier, odds_text
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options, RangeReading
from carwars_desktop.rules.battlecars.tables import (
    DIE,
    GUNNERY_COMPUTER_TO_HIT,
    MISSILE_TABLE,
    SMOKE_TO_HIT,
    MissileRow,
)
from carwars_desktop.rules.battlecars.terms import Weapon

RULE_FIRE = bc("§2.11")


def effective_range(points_between: int, options: Options = DEFAULT_OPTIONS) -> int:
    """BC-D2: the points strictly between (adjacent = 0); alternative: steps (adjacent = 1)."""
    if options.bc_d2_range is RangeReading.STEPS:
        return points_between + 1
    return points_between


@dataclass(frozen=True)
class ToHit:
    """§2.11 step 4: roll (MG 1d8 | Shell 1d8+3 | Rocket 2d8) +1 GC −4 smoke ≥ range."""

    weapon: Weapon
    range: int
    gunnery_computer: bool = False
    smoke: bool = False

    @property
    def row(self) -> MissileRow:
        return MISSILE_TABLE[self.weapon]

    @property
    def automatic(self) -> bool:
        """Flame hits automatically, within its maximum range of 3 (§2.11 step 4)."""
        return self.row.to_hit is None

    def modifiers(self) -> tuple[Modifier, ...]:
        if self.automatic:
            return ()
        found: list[Modifier] = []
        if self.gunnery_computer:
            found.append(Modifier("Gunnery Computer", GUNNERY_COMPUTER_TO_HIT,
                                  bc("§1.3 · §2.11")))
        if self.smoke:
            found.append(Modifier("line of fire obscured by Smoke", SMOKE_TO_HIT,
                                  bc("§2.11", "BC-D5")))
        return tuple(found)

    @property
    def modifier(self) -> int:
        """Everything added to the dice: the weapon's own +3 (Shell), GC, smoke."""
        base = 0 if self.row.to_hit is None else self.row.to_hit.modifier
        return base + sum(m.value for m in self.modifiers())

    @property
    def dice(self) -> int:
        return 0 if self.row.to_hit is None else self.row.to_hit.count

    def distribution(self) -> Distribution:
        """The to-hit total (dice plus every modifier)."""
        return dice_sum(self.dice, DIE) + self.modifier

    def in_flame_range(self) -> bool:
        max_range = self.row.max_range
        return max_range is None or self.range <= max_range

    def p_hit(self) -> Fraction:
        if self.automatic:
            return Fraction(1) if self.in_flame_range() else Fraction(0)
        return self.distribution().p_ge(self.range)

    def possible(self) -> bool:
        """BC-D4: "within range of the weapon" means a hit is possible at all."""
        if self.automatic:
            return self.in_flame_range()
        return self.distribution().maximum >= self.range

    def hits(self, total: int) -> bool:
        return total >= self.range

    def need(self) -> int:
        """The natural dice total needed (may be ≤ the minimum: a sure hit)."""
        return self.range - self.modifier

    def summary(self) -> str:
        if self.automatic:
            return (f"{self.weapon.label} hits automatically within 3 · range {self.range} · "
                    f"{odds_text(self.p_hit())}")
        parts = [f"{self.weapon.label} {self.row.to_hit}"]
        parts += [f"{m.label} {m.value:+d}" for m in self.modifiers()]
        need = max(self.need(), self.dice)
        return (f"{', '.join(parts)} vs range {self.range} → need {need}+ on {self.dice}d8 · "
                f"{odds_text(self.p_hit())}")


def damage_distribution(weapon: Weapon, range_: int) -> Distribution:
    """§2.11 step 5: MG 1d8−2−R, Flame 1d8+3−R, Shell 1d8−R, Rocket 2d8−R, floored at 0."""
    row = MISSILE_TABLE[weapon]
    raw = dice_sum(row.damage.count, DIE) + (row.damage.modifier - range_)
    return raw.map(lambda v: max(0, v))


def damage_text(weapon: Weapon, range_: int) -> str:
    row = MISSILE_TABLE[weapon]
    return f"{row.damage} − range {range_}"
