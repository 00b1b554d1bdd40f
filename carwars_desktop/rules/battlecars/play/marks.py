"""The GM's hand marks on a Battlecar, each made with the engine's own functions.

Covering component boxes is the engine's ``cover_component`` (a pod loses the
counters its slots held, BC-D20); its consequences (max speed, a dead driver)
are the engine's ``effects_text``. Clearing boxes is a correction and says so.
"""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.damage import cover_component, effects_text
from carwars_desktop.rules.battlecars.errors import BattlecarsError
from carwars_desktop.rules.battlecars.movement import speed_range
from carwars_desktop.rules.battlecars.play import car_sheet, status
from carwars_desktop.rules.battlecars.terms import Block, Direction, Surface, Weapon
from carwars_desktop.rules.play import Mark, MarkError, status_changes
from carwars_desktop.rules.ruleset import RecordSheet


def _mark(before: CarSheet, after: CarSheet, summary: str, steps: list[str]) -> Mark:
    if after == before:
        raise MarkError("that mark changes nothing on the sheet")
    effects = effects_text(before, after)
    return Mark(after, summary, tuple(steps + ([effects] if effects else [])
                                      + status_changes(status(before), status(after))))


def set_armour(record: RecordSheet, block_key: str, covered: int) -> Mark:
    """Cover ``covered`` boxes of an armour block (fewer is a correction)."""
    sheet = car_sheet(record)
    block = Block(block_key)
    boxes = sheet.card.armour_boxes(block)
    if not 0 <= covered <= boxes:
        raise MarkError(f"the {block.label} armour has {boxes} boxes")
    now = boxes - sheet.armour_left(block)
    after = sheet.with_armour_hits(block, covered)
    steps = []
    if covered == boxes:
        steps.append(f"the {block.label} block is breached: damage there now goes to the "
                     f"{block.section.value} section's Hit Location Table (battlecars.damage)")
    word = "correction: " if covered < now else ""
    return _mark(sheet, after, f"{word}{block.label} armour {now} → {covered} of {boxes} "
                               "boxes covered", steps)


def set_component(record: RecordSheet, name: str, covered: int) -> Mark:
    """Cover a component's boxes up to ``covered`` (the engine's cover rules for pods)."""
    sheet = car_sheet(record)
    try:
        component = sheet.card.component(name)
    except KeyError as error:
        raise MarkError(str(error)) from None
    if not 0 <= covered <= component.boxes:
        raise MarkError(f"{name} has {component.boxes} boxes")
    now = sheet.hits(name)
    if covered > now:
        after, boxes, hit = cover_component(sheet, name, covered - now)
        steps = [f"{name}: {boxes} box(es) covered ({now} → {now + boxes} of "
                 f"{component.boxes})"]
        if hit:
            steps.append(f"counters destroyed in {name}: "
                         + ", ".join(w.label for w in hit) + " (BC-D20)")
        return _mark(sheet, after, f"{name}: {boxes} box(es) covered", steps)
    after = sheet.with_hits(name, covered)
    return _mark(sheet, after, f"correction: {name} {now} → {covered} boxes covered",
                 ["boxes cleared by the GM; counters lost stay lost"])


def take_round(record: RecordSheet, mount: str, weapon_key: str) -> Mark:
    """A round leaves a pod or turret (fired or dropped by hand)."""
    sheet = car_sheet(record)
    weapon = Weapon(weapon_key)
    try:
        after = sheet.without_round(mount, weapon)
    except (BattlecarsError, KeyError) as error:
        raise MarkError(str(error)) from None
    left = sum(1 for w in after.load(mount) if w is weapon)
    return _mark(sheet, after, f"{mount}: one {weapon.label} round used ({left} left)", [])


def set_stunned(record: RecordSheet, stunned: bool) -> Mark:
    sheet = car_sheet(record)
    return _mark(sheet, replace(sheet, stunned=stunned),
                 "driver stunned" if stunned else "correction: not stunned", [])


def set_occupied(record: RecordSheet, occupied: bool) -> Mark:
    sheet = car_sheet(record)
    return _mark(sheet, replace(sheet, occupied=occupied),
                 "driver back aboard" if occupied else "the driver leaves the car", [])


def set_speed(record: RecordSheet, speed: int, direction_key: str) -> Mark:
    """The GM sets the speed now (a collision, a ruling), noting when outside the limits."""
    sheet = car_sheet(record)
    direction = Direction(direction_key)
    if speed < 0:
        raise MarkError("a speed is 0 or more")
    limits = speed_range(sheet, direction, Surface.ROAD)
    after = replace(sheet, speed=speed, direction=direction)
    steps = [] if limits.allows(speed) else [
        f"outside this Round's choice on road ({limits}): the GM's ruling"]
    return _mark(sheet, after, f"speed {sheet.speed} → {speed} {direction.value}", steps)
