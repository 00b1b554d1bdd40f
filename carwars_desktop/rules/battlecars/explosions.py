"""Fuel-tank explosions and ammunition detonation (digest §2.14–§2.15, BC-D19, BC-D21)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from carwars_desktop.dice import DiceSource, die
from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.damage import DamageReport
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import (
    AMMUNITION_DETONATES_ON,
    DIE,
    FUEL_TANK_EXPLODES_ON,
    FUEL_TANK_MISSILE_PENALTY,
    POD_DETONATION,
    TURRET_DETONATION,
)
from carwars_desktop.rules.battlecars.terms import Block, Kind, Source, Weapon

RULE_FUEL = bc("§2.15")
RULE_AMMO = bc("§2.14")


@dataclass(frozen=True)
class FuelCheck:
    """One fuel-tank check: 1d8 + damage on the tank (− 2 for Rocket or Shell) ≥ 7."""

    reason: str
    damage: int
    penalty: int
    extinguisher: bool

    @property
    def need(self) -> int:
        """The die face needed to explode."""
        return FUEL_TANK_EXPLODES_ON - self.damage + self.penalty

    def p_explode(self) -> Fraction:
        if self.extinguisher:
            return Fraction(0)
        return die(DIE).p_ge(self.need)

    def describe(self) -> str:
        if self.extinguisher:
            return f"{self.reason}, but a working Fire Extinguisher prevents the check"
        penalty = f" − {self.penalty} (Rocket or Shell)" if self.penalty else ""
        return (f"{self.reason}: fuel-tank check 1d8 + {self.damage} damage{penalty} ≥ 7 → "
                f"need {max(self.need, 1)}+ · {self.p_explode() * DIE}/8")


def fuel_tank_of(sheet: CarSheet) -> str | None:
    tanks = sheet.card.of_kind(Kind.FUEL_TANK)
    return tanks[0].name if tanks else None


def fuel_check_after_hit(before: CarSheet, after: CarSheet, report: DamageReport,
                         options: Options = DEFAULT_OPTIONS) -> FuelCheck | None:
    """The check a recorded hit triggers, or ``None`` (see :func:`fuel_check`)."""
    return fuel_check(before, after, report.source, report.area, options)


def fuel_check(before: CarSheet, after: CarSheet, source: Source, area: Block | None,
               options: Options = DEFAULT_OPTIONS) -> FuelCheck | None:
    """The check a hit triggers (§2.15 steps 1–2), or ``None``.

    Flame: it hits the tank's section of a car whose tank is already damaged, or its
    damage reaches a previously undamaged tank. Rocket or Shell: its damage reaches the
    tank. BC-D19: the damage counted includes this hit's (alternative: before it).
    """
    tank = fuel_tank_of(after)
    if tank is None or source not in (Source.FLAME, Source.ROCKET, Source.SHELL):
        return None
    reached = after.hits(tank) > before.hits(tank)
    damaged_before = before.hits(tank) > 0
    section = after.card.component(tank).section
    if source is Source.FLAME:
        struck = {c.section for c, old, new in zip(after.card.components,
                                                   before.component_hits,
                                                   after.component_hits, strict=True)
                  if new != old}
        if area is not None:
            struck.add(area.section)
        if damaged_before and section in struck:
            reason = f"Flame hit the {section.value} section of a car with a damaged fuel tank"
        elif reached and not damaged_before:
            reason = "Flame damage reached a previously undamaged fuel tank"
        else:
            return None
    elif reached:
        reason = f"the {source.value} damage reached the fuel tank"
    else:
        return None
    counted = after.hits(tank) if options.bc_d19_count_after_hit else before.hits(tank)
    penalty = 0 if source is Source.FLAME else FUEL_TANK_MISSILE_PENALTY
    return FuelCheck(reason, counted, penalty, after.working(Kind.FIRE_EXTINGUISHER))


def roll_fuel_check(sheet: CarSheet, check: FuelCheck, dice: DiceSource
                    ) -> tuple[CarSheet, bool, Step]:
    if check.extinguisher:
        return sheet, False, Step(check.describe(), RULE_FUEL.more("", "BC-D19"))
    face = dice.roll(DIE, 1, "fuel tank")[0]
    total = face + check.damage - check.penalty
    exploded = total >= FUEL_TANK_EXPLODES_ON
    penalty = f" − {check.penalty}" if check.penalty else ""
    text = (f"{check.reason}: fuel-tank check rolled {face} + {check.damage}{penalty} = {total}"
            + (" ≥ 7 → the fuel tank EXPLODES: the car is totally destroyed and the driver "
               "killed" if exploded else " < 7 → no explosion"))
    if exploded:
        sheet = explode(sheet)
    return sheet, exploded, Step(text, RULE_FUEL.more("", "BC-D19"))


def explode(sheet: CarSheet) -> CarSheet:
    return replace(sheet, exploded=True, speed=0)


@dataclass(frozen=True)
class FiredOff:
    """A detonated round that fires off from the car (§2.14 step 4)."""

    mount: str
    weapon: Weapon
    direction: str

    def to_json(self) -> dict[str, str]:
        """``{"mount": "Turret", "weapon": "mg", "direction": "right"}`` (``fired_off_items``)."""
        return {"mount": self.mount, "weapon": self.weapon.value, "direction": self.direction}

    def describe(self) -> str:
        return (f"{self.weapon.label} from {self.mount} fires off to the {self.direction}: "
                "resolve battlecars.fire in detonation mode (no Gunnery Computer; the target "
                "chooses the area)")


def detonation_direction(sheet: CarSheet, mount: str, dice: DiceSource) -> tuple[str, str]:
    """Pod: 90° out of its side or end. Turret: 1d8 on the turret detonation diagram."""
    component = sheet.card.component(mount)
    if component.kind is Kind.TURRET:
        face = dice.roll(DIE, 1, "turret detonation direction")[0]
        return TURRET_DETONATION[face], f"direction die {face} → {TURRET_DETONATION[face]}"
    assert component.facing is not None
    direction = POD_DETONATION[component.facing]
    return direction, f"out of the {direction} at 90°"


def ammunition_check(sheet: CarSheet, rounds: tuple[tuple[str, Weapon], ...], source: Source,
                     dice: DiceSource) -> tuple[tuple[FiredOff, ...], tuple[Step, ...]]:
    """§2.14 steps 2–5 for the counters a hit destroyed."""
    steps: list[Step] = []
    passives = [(m, w) for m, w in rounds if w.is_passive]
    missiles = [(m, w) for m, w in rounds if w.is_missile]
    if passives:
        steps.append(Step(f"passive counters hit are discarded: "
                          f"{', '.join(f'{w.label} ({m})' for m, w in passives)}",
                          RULE_AMMO.more("step 2")))
    if not missiles:
        return (), tuple(steps)
    listed = ", ".join(f"{w.label} ({m})" for m, w in missiles)
    if not source.detonates_ammunition:
        steps.append(Step(f"missile rounds hit by {source.value} are destroyed without a roll: "
                          f"{listed}", RULE_AMMO.more("", "BC-D21")))
        return (), tuple(steps)
    if sheet.working(Kind.GUNNERY_COMPUTER):
        steps.append(Step(f"a working Gunnery Computer stops detonation: {listed} destroyed",
                          RULE_AMMO.more("step 3")))
        return (), tuple(steps)
    fired: list[FiredOff] = []
    for mount, weapon in missiles:
        face = dice.roll(DIE, 1, f"ammunition ({weapon.label} in {mount})")[0]
        if face in AMMUNITION_DETONATES_ON:
            direction, how = detonation_direction(sheet, mount, dice)
            fired.append(FiredOff(mount, weapon, direction))
            steps.append(Step(f"{weapon.label} in {mount}: rolled {face} (7–8) → detonates, "
                              f"fires off {how}", RULE_AMMO.more("steps 3–4")))
        else:
            steps.append(Step(f"{weapon.label} in {mount}: rolled {face} → destroyed without "
                              "detonating", RULE_AMMO.more("steps 3, 5")))
    return tuple(fired), tuple(steps)


def p_any_detonation(rounds: int) -> Fraction:
    """1 − (3/4)^n: at least one of n rounds rolls 7–8."""
    safe = Fraction(DIE - len(AMMUNITION_DETONATES_ON), DIE)
    return 1 - safe ** rounds
