"""Damage and the kill check (digest §2.6 step 7, §2.7, §2.9 step 6, AP-D9).

A car's damage is the sum of what successful attacks inflicted (and of the ram
piles it was in). It is killed when that sum exceeds its current Armor; a
killed car stays killed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from carwars_desktop.procedures import Step
from carwars_desktop.rules.autopower.errors import IllegalPlayError
from carwars_desktop.rules.autopower.sheet import CarSheet
from carwars_desktop.rules.autopower.tables import rule


def is_killed(damage: int, armor: int) -> bool:
    """§2.7: killed ⇔ damage > Armor (strictly; equal values survive)."""
    return damage > armor


@dataclass(frozen=True)
class DamageReport:
    """What one hit did to a car."""

    name: str
    amount: int
    damage_before: int
    damage_after: int
    armor: int
    killed_now: bool

    @property
    def text(self) -> str:
        verdict = ("killed" if self.killed_now
                   else "survives" if self.damage_after <= self.armor else "already killed")
        sign = ">" if self.damage_after > self.armor else "≤"
        return (f"{self.name}: damage {self.damage_before} + {self.amount} = "
                f"{self.damage_after} {sign} Armor {self.armor} → {verdict}")


def take_damage(sheet: CarSheet, amount: int, section: str = "2.6") -> tuple[CarSheet, Step]:
    """The sheet after ``amount`` damage, with the kill check explained.

    Raises:
        IllegalPlayError: negative damage.
    """
    if amount < 0:
        raise IllegalPlayError(f"damage cannot be negative ({amount})")
    after = sheet.total_damage + amount
    killed_now = not sheet.killed and is_killed(after, sheet.armor)
    report = DamageReport(sheet.name, amount, sheet.total_damage, after, sheet.armor, killed_now)
    changed = replace(sheet, damage_taken=(*sheet.damage_taken, amount),
                      killed=sheet.killed or killed_now)
    return changed, Step(report.text, rule(section, "2.7", "AP-D9"))
