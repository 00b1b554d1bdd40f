"""Recording damage on a Battlecar: armour → interior → pass-through (digest §2.13–§2.14).

Every point is accounted for: ``amount = armour + components + lost``, where damage
passing from a destroyed section into the next is counted where it lands.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.chance import LocationPicker, live_entries
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.terms import (
    BLOCKS,
    SECTIONS,
    Block,
    Kind,
    Line,
    Section,
    Source,
    Weapon,
)

RULE_RECORD = bc("§2.13")
RULE_PODS = bc("§2.14")


@dataclass(frozen=True)
class ComponentHit:
    """One interior component struck: boxes covered, the faces rolled, counters hit."""

    name: str
    section: Section
    boxes: int
    faces: tuple[int, ...]
    destroyed: bool
    counters: tuple[Weapon, ...] = ()
    carried_over: int = 0
    max_speed_before: int | None = None
    max_speed_after: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"component": self.name, "section": self.section.value, "boxes": self.boxes,
                "faces": list(self.faces), "destroyed": self.destroyed,
                "counters": [w.label for w in self.counters],
                "carried_over": self.carried_over, "max_speed_before": self.max_speed_before,
                "max_speed_after": self.max_speed_after}


@dataclass(frozen=True)
class DamageReport:
    """Where ``amount`` points went. ``passed`` lists damage moving on into a section."""

    amount: int
    area: Block | None
    source: Source
    armour: int
    hits: tuple[ComponentHit, ...]
    passed: tuple[tuple[Section, int], ...]
    lost: int
    steps: tuple[Step, ...]
    armour_left: int = 0
    """The area's armour boxes left before the damage."""

    def to_json(self) -> dict[str, object]:
        """The numbers of the record: ``armour_left`` boxes, ``armour`` covered, the
        ``interior`` damage past it, each component hit, what ``passed`` on and was ``lost``."""
        return {"amount": self.amount, "area": None if self.area is None else self.area.label,
                "armour_left": self.armour_left, "armour": self.armour,
                "armour_left_after": self.armour_left - self.armour,
                "interior": self.amount - self.armour,
                "hits": [hit.to_json() for hit in self.hits],
                "passed": [{"section": section.value, "damage": damage}
                           for section, damage in self.passed], "lost": self.lost}

    @property
    def components(self) -> int:
        return sum(hit.boxes for hit in self.hits)

    @property
    def counters_hit(self) -> tuple[tuple[str, Weapon], ...]:
        return tuple((hit.name, w) for hit in self.hits for w in hit.counters)


def next_section(section: Section, line: Line) -> Section | None:
    """BC-D23: the adjacent section further from the firer along the car's long axis."""
    if line is Line.RIGHT_ANGLE:
        return None
    index = section.order + (1 if line is Line.FROM_FRONT else -1)
    return SECTIONS[index] if 0 <= index < len(SECTIONS) else None


def cover_component(sheet: CarSheet, name: str, points: int) -> tuple[CarSheet, int,
                                                                     tuple[Weapon, ...]]:
    """Cover up to ``points`` boxes of one component; returns boxes covered, counters hit.

    §2.14 step 1: in a pod or turret each point covers an empty slot first, then a slot
    holding a counter. BC-D20: one point on a counter destroys it, the owner choosing
    which (here: the last loaded); its other boxes become empty slots.
    """
    component = sheet.card.component(name)
    covered = min(points, sheet.remaining(name))
    if not component.kind.is_mount:
        return sheet.with_hits(name, sheet.hits(name) + covered), covered, ()
    hit: list[Weapon] = []
    for _ in range(covered):
        if sheet.empty_slots(name) <= 0:
            load = sheet.load(name)
            hit.append(load[-1])
            sheet = sheet.with_load(name, load[:-1])
        sheet = sheet.with_hits(name, sheet.hits(name) + 1)
    return sheet, covered, tuple(hit)


def effects_text(before: CarSheet, after: CarSheet, options: Options = DEFAULT_OPTIONS) -> str:
    """The component effects of a change, in the game's words (§1.3)."""
    notes: list[str] = []
    for component in after.card.components:
        if component.kind is Kind.DRIVER:
            continue
        if not before.destroyed(component.name) and after.destroyed(component.name):
            notes.append(f"{component.name} destroyed")
    if after.max_speed(options) != before.max_speed(options):
        notes.append(f"max speed {before.max_speed(options)} → {after.max_speed(options)}")
    if after.driver_dead and not before.driver_dead:
        notes.append("the driver is dead")
    return "; ".join(notes)


def aftermath(before: CarSheet, after: CarSheet, options: Options = DEFAULT_OPTIONS
              ) -> list[Step]:
    """What a change means beyond the boxes: a dead driver's coming skid, a new Wreck."""
    steps: list[Step] = []
    if after.driver_dead and not before.driver_dead and not after.exploded and after.speed:
        steps.append(Step(f"the driver of {after.name} is dead at speed {after.speed}: the car "
                          "moves no further this Turn and skids with SD = its speed when its "
                          "next Turn comes (battlecars.start_turn)",
                          bc("§2.16 step 2", "BC-D30")))
    if after.is_wreck(options) and not before.is_wreck(options):
        steps.append(Step(f"{after.name} is now a Wreck: it blocks movement and fire like a "
                          "building and absorbs 2 damage (a 'wreck' obstacle sheet)",
                          bc("§2.17", "BC-D32")))
    return steps


def record_damage(sheet: CarSheet, area: Block, amount: int, line: Line, source: Source,
                  picker: LocationPicker, options: Options = DEFAULT_OPTIONS
                  ) -> tuple[CarSheet, DamageReport]:
    """§2.13: the nominated area's armour block, then its section's interior."""
    amount = max(0, amount)
    left = sheet.armour_left(area)
    armour = min(amount, left)
    steps: list[Step] = []
    if amount == 0:
        steps.append(Step(f"{area.label}: no damage to record", RULE_RECORD))
        return sheet, DamageReport(0, area, source, 0, (), (), 0, tuple(steps))
    sheet = sheet.with_armour_hits(area, sheet.armour_hits[BLOCKS.index(area)] + armour)
    surplus = amount - armour
    if surplus == 0:
        steps.append(Step(f"{area.label} armour: {left} boxes left, {amount} damage → "
                          f"{armour} covered ({left - armour} left)", RULE_RECORD))
        return sheet, DamageReport(amount, area, source, armour, (), (), 0, tuple(steps),
                                   left)
    if left == 0:
        steps.append(Step(f"{area.label} armour already breached: {amount} damage goes to "
                          f"the {area.section.value} interior", RULE_RECORD))
    else:
        steps.append(Step(f"{area.label} armour: {left} boxes left, {amount} damage → "
                          f"{armour} covered, breached; {surplus} into the "
                          f"{area.section.value} interior", RULE_RECORD))
    sheet, interior = record_interior(sheet, area.section, surplus, line, source, picker,
                                      options)
    return sheet, DamageReport(amount, area, source, armour, interior.hits, interior.passed,
                               interior.lost, tuple(steps) + interior.steps, left)


def record_interior(sheet: CarSheet, section: Section, amount: int, line: Line, source: Source,
                    picker: LocationPicker, options: Options = DEFAULT_OPTIONS,
                    first: tuple[str, tuple[int, ...]] | None = None
                    ) -> tuple[CarSheet, DamageReport]:
    """§2.13 steps 2–3: hit-location rolls with re-rolls and carry-over, then pass-through.

    ``first`` is a component already rolled for (Mines roll the location before damage).
    """
    steps: list[Step] = []
    hits: list[ComponentHit] = []
    passed: list[tuple[Section, int]] = []
    lost = 0
    remaining = max(0, amount)
    current = section
    while remaining > 0:
        if not live_entries(sheet, current):
            destination = onward(sheet, current, line, options)
            if destination is None:
                lost += remaining
                steps.append(Step(_lost_reason(sheet, current, line, remaining, options),
                                  bc("§2.13 step 3", "BC-D22")))
                break
            passed.append((destination, remaining))
            steps.append(Step(f"the {current.value} section is destroyed: {remaining} damage "
                              f"passes on to the {destination.value} interior",
                              bc("§2.13 step 3", "BC-D22", "BC-D23")))
            current = destination
            continue
        purpose = f"hit location ({current.value})"
        name, faces = first if first is not None else picker.pick(sheet, current, purpose)
        first = None
        before = sheet
        sheet, covered, counters = cover_component(sheet, name, remaining)
        remaining -= covered
        hit = ComponentHit(name, current, covered, faces, sheet.destroyed(name), counters,
                           remaining, before.max_speed(options), sheet.max_speed(options))
        hits.append(hit)
        steps.append(Step(_hit_text(before, sheet, hit, remaining, options),
                          RULE_PODS if counters else RULE_RECORD))
    return sheet, DamageReport(amount, None, source, 0, tuple(hits), tuple(passed), lost,
                               tuple(steps))


def onward(sheet: CarSheet, section: Section, line: Line, options: Options) -> Section | None:
    """Where damage goes from a section with no live component: on into the next section if
    this one is destroyed and the line runs along the car, else nowhere (lost)."""
    if not sheet.section_destroyed(section, options):
        return None
    return next_section(section, line)


@lru_cache(maxsize=8192)
def interior_outcomes(sheet: CarSheet, section: Section, amount: int, line: Line,
                      options: Options = DEFAULT_OPTIONS) -> tuple[tuple[CarSheet, Fraction], ...]:
    """Every sheet :func:`record_interior` can leave, with its exact probability.

    Re-rolling until a live component comes up is choosing a live entry with probability
    (its faces) / (all live faces); equal end states are merged, so this stays small.
    """
    if amount <= 0:
        return ((sheet, Fraction(1)),)
    entries = live_entries(sheet, section)
    if not entries:
        destination = onward(sheet, section, line, options)
        if destination is None:
            return ((sheet, Fraction(1)),)
        return interior_outcomes(sheet, destination, amount, line, options)
    faces = sum(count for _, count in entries)
    merged: dict[CarSheet, Fraction] = {}
    for name, count in entries:
        after, covered, _ = cover_component(sheet, name, amount)
        for end, p in interior_outcomes(after, section, amount - covered, line, options):
            merged[end] = merged.get(end, Fraction(0)) + p * Fraction(count, faces)
    return tuple(merged.items())


def damage_tyre(sheet: CarSheet, name: str, points: int) -> tuple[CarSheet, int]:
    """Damage placed directly on one tyre; any excess is lost (§2.5 step 4, §2.12)."""
    covered = min(max(points, 0), sheet.remaining(name))
    return sheet.with_hits(name, sheet.hits(name) + covered), covered


def working_tyres(sheet: CarSheet) -> tuple[str, ...]:
    return tuple(c.name for c in sheet.card.of_kind(Kind.TYRE) if not sheet.destroyed(c.name))


def _hit_text(before: CarSheet, after: CarSheet, hit: ComponentHit, remaining: int,
              options: Options) -> str:
    rolled = ", ".join(str(f) for f in hit.faces)
    rerolls = f" (re-rolled destroyed: {', '.join(map(str, hit.faces[:-1]))})" \
        if len(hit.faces) > 1 else ""
    text = (f"{hit.section.value} hit location d8 {hit.faces[-1] if hit.faces else rolled}"
            f"{rerolls} → {hit.name}: {hit.boxes} box{'es' if hit.boxes != 1 else ''} covered")
    if hit.counters:
        text += f", counters hit: {', '.join(w.label for w in hit.counters)}"
    effects = effects_text(before, after, options)
    if effects:
        text += f" — {effects}"
    if remaining:
        text += f"; {remaining} carried over"
    return text


def _lost_reason(sheet: CarSheet, section: Section, line: Line, amount: int,
                 options: Options) -> str:
    if not sheet.section_destroyed(section, options):
        return (f"no live component left in the {section.value} section while its armour "
                f"holds (BC-D22 alternative): {amount} damage lost")
    if line is Line.RIGHT_ANGLE:
        return (f"the {section.value} section is destroyed and the damage came at right "
                f"angles to the side: {amount} damage has no further effect")
    return f"the damage passes out beyond the {section.value} section: {amount} lost"
