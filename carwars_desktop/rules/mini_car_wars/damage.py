"""Damage allocation exactly as Mini Car Wars §2.11–§2.12 (decisions MCW-D5, D9, D20, D21).

The allocation itself works on a small tuple (:class:`Hull`) and is cached, so
the exact odds can run it over every roll; :func:`apply_damage` maps a record
sheet onto it and back, and explains each step. Damage is conserved: every
point dealt is absorbed by armor, crew or power plant, or lost.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from carwars_desktop.procedures import Step
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.decisions import DEFAULT_RULES, MiniRules
from carwars_desktop.rules.mini_car_wars.errors import DamageInputError, IllegalTargetError
from carwars_desktop.rules.mini_car_wars.model import Component, Role, Side
from carwars_desktop.rules.mini_car_wars.sheet import CrewMember, MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import INTERIOR_LOCATION, PERSON_BOXES

ALLOCATION = mcw("§2.11")
EFFECTS = mcw("§2.12")
NO_GUNNER = -1


HullState = tuple[int, int, int, int, int, int, int]
"""(side, opposite, driver body armor, driver hits, gunner body armor, gunner hits, plant)."""


class Hull(NamedTuple):
    """What one hit can change: the side hit, its opposite, the crew, the power plant.

    ``gunner_hits`` is -1 when there is no gunner (the component is missing).
    """

    side: int
    opposite: int
    driver_body: int
    driver_hits: int
    gunner_body: int
    gunner_hits: int
    plant: int


class Allocation(NamedTuple):
    """Where the points of one hit went: absorbed by each part, or lost."""

    hull: Hull
    side_absorbed: int
    opposite_absorbed: int
    driver_absorbed: int
    gunner_absorbed: int
    plant_absorbed: int
    lost: int
    side_weapons_lost: bool
    opposite_weapons_lost: bool
    interior: int
    passed: int
    component_missing: bool


def component_for(roll: int) -> Component:
    """The interior location table (§3.5): 1–2 driver, 3–4 gunner, 5–6 power plant."""
    for faces, component in INTERIOR_LOCATION:
        if roll in faces:
            return component
    raise DamageInputError(f"interior roll {roll} is not a d6 face (1–6)")


def reaches_interior(side_armor: int, damage: int, top: bool) -> bool:
    """True when the hit needs the interior roll: damage beyond the side's armor (§2.11)."""
    return not top and damage > side_armor


NO_ROLL, DRIVER_SLOT, GUNNER_SLOT, PLANT_SLOT = 0, 1, 2, 3
_SLOTS = {None: NO_ROLL, Component.DRIVER: DRIVER_SLOT, Component.GUNNER: GUNNER_SLOT,
          Component.POWER_PLANT: PLANT_SLOT}
SLOT_OF: dict[Component, int] = {c: slot for c, slot in _SLOTS.items() if c is not None}


def next_hull(hull: HullState, damage: int, slot: int, top: bool) -> HullState:
    """The hull after one hit of ``damage`` (§2.11 steps 2–7): the allocation kernel.

    ``slot`` is the interior roll's component (``NO_ROLL`` when none was rolled); it is
    read only when the damage gets past the armor. Body armor first (MCW-D21); a
    missing or destroyed component passes everything to the opposite side, whose
    armor takes what it can; the rest is lost (MCW-D9). Kept free of caches and
    objects: the exact odds call it for every roll.
    """
    side, opposite, d_body, d_hits, g_body, g_hits, plant = hull
    if damage < side:
        return (side - damage, opposite, d_body, d_hits, g_body, g_hits, plant)
    rest = damage - side
    if top or rest == 0:
        return (0, opposite, d_body, d_hits, g_body, g_hits, plant)
    if slot == NO_ROLL:
        raise DamageInputError(f"{rest} damage reaches the interior: an interior roll is needed")
    if slot == DRIVER_SLOT and d_hits < PERSON_BOXES:
        taken = min(rest, d_body)
        own = min(rest - taken, PERSON_BOXES - d_hits)
        d_body, d_hits, rest = d_body - taken, d_hits + own, rest - taken - own
    elif slot == GUNNER_SLOT and 0 <= g_hits < PERSON_BOXES:
        taken = min(rest, g_body)
        own = min(rest - taken, PERSON_BOXES - g_hits)
        g_body, g_hits, rest = g_body - taken, g_hits + own, rest - taken - own
    elif slot == PLANT_SLOT and plant > 0:
        taken = min(rest, plant)
        plant, rest = plant - taken, rest - taken
    if rest:
        opposite = opposite - rest if rest < opposite else 0
    return (0, opposite, d_body, d_hits, g_body, g_hits, plant)


def allocate(hull: Hull, damage: int, component: Component | None, top: bool,
             bare_side_loses_weapons: bool) -> Allocation:
    """One hit on ``hull``, accounted point by point (§2.11; MCW-D20 for bare sides).

    The accounting is read off the kernel's before/after states; ``lost`` is counted
    separately (beyond the top, or beyond the opposite armor), so absorbed + lost =
    dealt is a real check of the kernel, not a definition.
    """
    after = Hull(*next_hull(hull, damage, _SLOTS[component], top))
    side_absorbed = hull.side - after.side
    opposite_absorbed = hull.opposite - after.opposite
    driver = hull.driver_body - after.driver_body + after.driver_hits - hull.driver_hits
    gunner = hull.gunner_body - after.gunner_body + after.gunner_hits - hull.gunner_hits
    plant = hull.plant - after.plant
    interior = damage - hull.side if reaches_interior(hull.side, damage, top) else 0
    passed = interior - driver - gunner - plant if interior else 0
    lost = max(0, damage - hull.side) if top else max(0, passed - hull.opposite)
    side_lost = damage >= hull.side and (hull.side > 0 or (damage >= 1
                                                           and bare_side_loses_weapons))
    return Allocation(after, side_absorbed, opposite_absorbed, driver, gunner, plant, lost,
                      side_lost, passed > 0, interior, passed,
                      interior > 0 and driver + gunner + plant == 0)


def hull_of(sheet: MiniSheet, side: Side) -> Hull:
    opposite = side.opposite
    gunner = sheet.gunner
    return Hull(sheet.armor.get(side), 0 if opposite is None else sheet.armor.get(opposite),
                sheet.driver.body_armor, sheet.driver.hits,
                0 if gunner is None else gunner.body_armor,
                NO_GUNNER if gunner is None else gunner.hits, sheet.power_plant)


@dataclass(frozen=True)
class DamageReport:
    """What one hit did, point by point, with its consequences (§2.11 step 8, §2.12)."""

    vehicle: str
    side: Side
    dealt: int
    armor_absorbed: int
    opposite_absorbed: int
    driver_absorbed: int
    gunner_absorbed: int
    plant_absorbed: int
    lost: int
    interior_roll: int | None
    component: Component | None
    passed_through: int
    weapons_destroyed: tuple[str, ...]
    control_roll: bool
    became_uncontrolled: bool
    plant_destroyed: bool
    became_out: bool
    steps: tuple[Step, ...]

    @property
    def absorbed(self) -> int:
        return (self.armor_absorbed + self.opposite_absorbed + self.driver_absorbed
                + self.gunner_absorbed + self.plant_absorbed)

    def to_json(self) -> dict[str, Any]:
        return {
            "vehicle": self.vehicle, "side": self.side.value, "dealt": self.dealt,
            "armor_absorbed": self.armor_absorbed, "opposite_absorbed": self.opposite_absorbed,
            "driver_absorbed": self.driver_absorbed, "gunner_absorbed": self.gunner_absorbed,
            "plant_absorbed": self.plant_absorbed, "lost": self.lost,
            "interior_roll": self.interior_roll,
            "component": None if self.component is None else self.component.value,
            "passed_through": self.passed_through,
            "pass_through_side": (self.side.opposite.value if self.passed_through
                                  and self.side.opposite is not None else None),
            "interior_damage": self.dealt - self.armor_absorbed,
            "weapons_destroyed": list(self.weapons_destroyed),
            "control_roll": self.control_roll, "became_uncontrolled": self.became_uncontrolled,
            "plant_destroyed": self.plant_destroyed, "became_out": self.became_out,
            "steps": [s.to_json() for s in self.steps],
        }


def check_target(sheet: MiniSheet, side: Side) -> None:
    if not sheet.can_be_targeted(side):
        raise IllegalTargetError(f"{sheet.name} has no turret: its top cannot be hit (§2.9)")


def needs_interior_roll(sheet: MiniSheet, damage: int, side: Side) -> bool:
    """Whether ``damage`` on ``side`` gets past the armor to the interior roll."""
    return reaches_interior(sheet.armor.get(side), damage, side is Side.TOP)


def apply_damage(sheet: MiniSheet, damage: int, side: Side, interior_roll: int | None = None,
                 rules: MiniRules = DEFAULT_RULES) -> tuple[MiniSheet, DamageReport]:
    """Apply one hit of ``damage`` to ``side`` (§2.11) → (new sheet, report).

    ``interior_roll`` (1d6) is needed only when the damage gets past the armor
    (:func:`needs_interior_roll`); it is ignored otherwise.
    """
    if damage < 0:
        raise DamageInputError(f"damage cannot be negative ({damage})")
    check_target(sheet, side)
    top = side is Side.TOP
    component: Component | None = None
    if reaches_interior(sheet.armor.get(side), damage, top):
        if interior_roll is None:
            raise DamageInputError(f"{damage} damage gets past {sheet.armor.get(side)} "
                                   f"{side.label} armor: an interior roll (1d6) is needed")
        component = component_for(interior_roll)
    else:
        interior_roll = None
    hull = hull_of(sheet, side)
    result = allocate(hull, damage, component, top, rules.d20_bare_side_loses_weapons)
    new, destroyed = _updated(sheet, side, result)
    steps = _explain(sheet, new, side, damage, result, interior_roll, component, destroyed)
    driver_before, driver_after = sheet.driver, new.driver
    if rules.d5_roll_only_when_wounded_conscious:
        control = driver_before.hits == 0 and driver_after.hits == 1
    else:
        control = driver_after.hits > driver_before.hits
    uncontrolled = not sheet.uncontrolled and new.uncontrolled
    plant = not sheet.power_plant_destroyed and new.power_plant_destroyed
    out = not sheet.is_out and new.is_out
    steps += _consequences(new, control, uncontrolled, plant, out, rules)
    report = DamageReport(
        sheet.name, side, damage, result.side_absorbed, result.opposite_absorbed,
        result.driver_absorbed, result.gunner_absorbed, result.plant_absorbed, result.lost,
        interior_roll, component, result.passed,
        tuple(label for labels in destroyed.values() for label in labels), control,
        uncontrolled, plant, out,
        tuple(steps))
    return new, report


def _updated(sheet: MiniSheet, side: Side,
             result: Allocation) -> tuple[MiniSheet, dict[Side, list[str]]]:
    hull = result.hull
    armor = sheet.armor.with_side(side, hull.side)
    opposite = side.opposite
    if opposite is not None:
        armor = armor.with_side(opposite, hull.opposite)
    lost_sides = ([side] if result.side_weapons_lost else []) + (
        [opposite] if result.opposite_weapons_lost and opposite is not None else [])
    weapons = list(sheet.weapons)
    destroyed: dict[Side, list[str]] = {}
    for lost_side in lost_sides:
        destroyed[lost_side] = []
        for index in sheet.weapons_on(lost_side):
            if not weapons[index].destroyed:
                weapons[index] = replace(weapons[index], destroyed=True)
                destroyed[lost_side].append(weapons[index].label)
    driver = replace(sheet.driver, body_armor=hull.driver_body, hits=hull.driver_hits)
    gunner: CrewMember | None = None
    if sheet.gunner is not None:
        gunner = replace(sheet.gunner, body_armor=hull.gunner_body, hits=hull.gunner_hits)
    new = replace(sheet, armor=armor, weapons=tuple(weapons), driver=driver, gunner=gunner,
                  power_plant=hull.plant)
    return new, destroyed


def _explain(before: MiniSheet, after: MiniSheet, side: Side, damage: int, result: Allocation,
             roll: int | None, component: Component | None,
             destroyed: dict[Side, list[str]]) -> list[Step]:
    lost_here = destroyed.get(side, [])
    old, new = before.armor.get(side), after.armor.get(side)
    text = (f"{damage} {'hit' if damage == 1 else 'hits'} on the {side.label}: "
            f"{side.label} armor {old} → {new} (absorbs {result.side_absorbed})")
    if result.side_weapons_lost:
        what = "turret weapons" if side is Side.TOP else f"{side.label} weapons"
        text += f"; {what} destroyed: {', '.join(lost_here) or 'none left'}"
        if old == 0:
            text += " (bare side, MCW-D20)"
    steps = [Step(text, ALLOCATION)]
    if side is Side.TOP and result.lost:
        steps.append(Step(f"{result.lost} more pass over the car with no effect", ALLOCATION))
    if component is None or roll is None:
        return steps
    steps.append(Step(f"{result.interior} reach the interior: interior roll {roll} → "
                      f"{component.value}", mcw("§2.11, §3.5")))
    steps.append(_component_step(before, after, component, result))
    if result.opposite_weapons_lost:
        opposite = side.opposite
        assert opposite is not None
        gone = destroyed.get(opposite, [])
        text = (f"{result.passed} pass through to the {opposite.label}: {opposite.label} weapons "
                f"destroyed ({', '.join(gone) or 'none left'}); {opposite.label} armor "
                f"{before.armor.get(opposite)} → {after.armor.get(opposite)} "
                f"(absorbs {result.opposite_absorbed})")
        if result.lost:
            text += f"; {result.lost} fly out of the car (MCW-D9)"
        steps.append(Step(text, ALLOCATION))
    return steps


def _component_step(before: MiniSheet, after: MiniSheet, component: Component,
                    result: Allocation) -> Step:
    if result.component_missing:
        reason = {Component.DRIVER: "the driver is already dead",
                  Component.GUNNER: "there is no gunner" if before.gunner is None
                  else "the gunner is already dead",
                  Component.POWER_PLANT: "the power plant is already destroyed"}[component]
        return Step(f"{reason}: all {result.interior} go to the opposite side", ALLOCATION)
    if component is Component.POWER_PLANT:
        return Step(f"power plant takes {result.plant_absorbed}: {before.power_plant} → "
                    f"{after.power_plant} DP", ALLOCATION)
    role = Role.DRIVER if component is Component.DRIVER else Role.GUNNER
    was, now = before.person(role), after.person(role)
    assert was is not None and now is not None
    taken = result.driver_absorbed if role is Role.DRIVER else result.gunner_absorbed
    armor = was.body_armor - now.body_armor
    detail = f"body armor {armor}, own boxes {now.hits - was.hits}" if was.wears_body_armor \
        else "no body armor"
    return Step(f"{role.value} takes {taken} ({detail}, MCW-D21): {was.state.value} → "
                f"{now.state.value}", mcw("§1.2"))


def _consequences(sheet: MiniSheet, control: bool, uncontrolled: bool, plant: bool, out: bool,
                  rules: MiniRules) -> list[Step]:
    steps: list[Step] = []
    if control:
        when = "wounded and conscious" if rules.d5_roll_only_when_wounded_conscious else "hit"
        steps.append(Step(f"driver {when}: a control roll is needed now (mini.control, MCW-D5)",
                          EFFECTS))
    if uncontrolled:
        gunner = " A gunner may still fire." if sheet.gunner and not sheet.gunner.is_down else ""
        steps.append(Step(f"driver {sheet.driver.state.value}: {sheet.name} is uncontrolled — "
                          f"straight ahead, no maneuvers, −10 mph per turn.{gunner}", EFFECTS))
    if plant:
        steps.append(Step("power plant destroyed: the driver may still steer, but the vehicle "
                          "must lose at least 10 mph every turn", EFFECTS))
    if out:
        steps.append(Step(f"{sheet.name} is out of the game: every occupant is down (MCW-D23)",
                          EFFECTS))
    return steps
