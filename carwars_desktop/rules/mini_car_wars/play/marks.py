"""The GM's hand marks on a Mini Car Wars sheet, each made with the engine's own functions.

Crossing armor boxes is damage to that side (``apply_damage``): a side that
reaches 0 takes its weapons with it (§2.11). Clearing boxes is a correction
and says so. Crew, power plant, weapons and speed are set on the sheet's own
values; the statuses they bring (uncontrolled, out…) are the engine's.
"""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.rules.mini_car_wars import MiniSheet, apply_damage
from carwars_desktop.rules.mini_car_wars.errors import MiniCarWarsError
from carwars_desktop.rules.mini_car_wars.model import Role, Side
from carwars_desktop.rules.mini_car_wars.movement import parse_velocity, sheet_velocities
from carwars_desktop.rules.mini_car_wars.play import mini_sheet, status
from carwars_desktop.rules.mini_car_wars.tables import BODY_ARMOR, PERSON_BOXES
from carwars_desktop.rules.play import Mark, MarkError, status_changes
from carwars_desktop.rules.ruleset import RecordSheet


def _mark(before: MiniSheet, after: MiniSheet, summary: str, steps: list[str]) -> Mark:
    if after == before:
        raise MarkError("that mark changes nothing on the sheet")
    return Mark(after, summary, tuple(steps + status_changes(status(before), status(after))))


def set_armor(record: RecordSheet, side_key: str, left: int) -> Mark:
    """Leave ``left`` armor on a side: fewer is damage (the engine's), more is a correction."""
    sheet = mini_sheet(record)
    side = Side(side_key)
    now = sheet.armor.get(side)
    most = max(sheet.starting_armor.get(side), now)
    if not 0 <= left <= most:
        raise MarkError(f"{side.label} armor can be 0–{most}, not {left}")
    if left < now:
        damage = now - left
        try:
            after, report = apply_damage(sheet, damage, side)
        except MiniCarWarsError as error:
            raise MarkError(str(error)) from None
        steps = [str(step) for step in report.steps]
        return _mark(sheet, after, f"{damage} damage crossed off the {side.label} "
                                   f"({now} → {left})", steps)
    after = replace(sheet, armor=sheet.armor.with_side(side, left))
    return _mark(sheet, after, f"correction: {side.label} armor {now} → {left}",
                 ["boxes cleared by the GM; weapons lost with the side stay lost "
                  "(mark them back by hand if that was wrong)"])


def set_crew(record: RecordSheet, role_key: str, crossed: int) -> Mark:
    """Cross ``crossed`` of a person's boxes: body armor boxes first, then his own (MCW-D21)."""
    sheet = mini_sheet(record)
    role = Role(role_key)
    person = sheet.person(role)
    if person is None:
        raise MarkError(f"{sheet.name} has no {role.value}")
    armor_boxes = BODY_ARMOR.boxes if person.wears_body_armor else 0
    if not 0 <= crossed <= armor_boxes + PERSON_BOXES:
        raise MarkError(f"the {role.value} has {armor_boxes + PERSON_BOXES} boxes")
    hits = max(0, crossed - armor_boxes)
    changed = replace(person, body_armor=armor_boxes - min(crossed, armor_boxes), hits=hits)
    after = sheet.with_person(changed)
    return _mark(sheet, after, f"{role.value}: {person.state.value} → {changed.state.value}",
                 [f"{person.describe()} → {changed.describe()}"])


def set_power_plant(record: RecordSheet, dp: int) -> Mark:
    sheet = mini_sheet(record)
    if not 0 <= dp <= sheet.power_plant_max:
        raise MarkError(f"the power plant has 0–{sheet.power_plant_max} DP, not {dp}")
    after = replace(sheet, power_plant=dp)
    return _mark(sheet, after, f"power plant {sheet.power_plant} → {dp} DP", [])


def set_weapon(record: RecordSheet, index: int, *, destroyed: bool | None = None,
               fired: bool | None = None, shots_left: int | None = None) -> Mark:
    """Mark a weapon destroyed (or back), fired this turn (or not), or its shots left."""
    sheet = mini_sheet(record)
    if not 0 <= index < len(sheet.weapons):
        raise MarkError(f"{sheet.name} has no weapon {index + 1}")
    weapon = sheet.weapons[index]
    changed = weapon
    what: list[str] = []
    if destroyed is not None:
        changed = replace(changed, destroyed=destroyed)
        what.append("destroyed" if destroyed else "repaired (correction)")
    if fired is not None:
        changed = replace(changed, fired=fired)
        what.append("fired this turn" if fired else "not fired this turn")
    if shots_left is not None:
        if weapon.shots_left is None:
            raise MarkError(f"{weapon.label} does not count its shots")
        try:
            changed = replace(changed, shots_left=shots_left)
        except MiniCarWarsError as error:
            raise MarkError(str(error)) from None
        what.append(f"shots left {weapon.shots_left} → {shots_left}")
    after = sheet.with_weapon(index, changed)
    return _mark(sheet, after, f"{weapon.label}: {', '.join(what)}", [])


def set_speed(record: RecordSheet, text: str) -> Mark:
    """The GM sets the speed now (a collision, a ruling); the turn's count is kept."""
    sheet = mini_sheet(record)
    try:
        velocity = parse_velocity(text)
    except MiniCarWarsError as error:
        raise MarkError(str(error)) from None
    if velocity.reverse and sheet.is_cycle:
        raise MarkError("cycles cannot reverse (§2.3)")
    try:
        after = replace(sheet, speed=velocity.mph, reverse=velocity.reverse)
    except MiniCarWarsError as error:
        raise MarkError(str(error)) from None
    legal = sheet_velocities(sheet)
    steps = [] if velocity in legal else [
        f"not one of the turn-start changes from {sheet.velocity} "
        f"({', '.join(str(v) for v in legal)}): the GM's ruling"]
    return _mark(sheet, after, f"speed {sheet.velocity} → {velocity.text}", steps)


def wreck(record: RecordSheet) -> Mark:
    """Crash and burn (§2.7): the engine stops the car and kills everyone aboard."""
    sheet = mini_sheet(record)
    if sheet.wrecked:
        raise MarkError(f"{sheet.name} is already a wreck")
    return _mark(sheet, sheet.crashed_and_burned(), "crashed and burned",
                 ["a wreck at 0 mph; every occupant is killed (§2.7)"])
