"""Who may fire what (Mini Car Wars §1.2, §1.3, §2.9, §2.13; MCW-D15, MCW-D16).

Each weapon fires once per turn; each character once per turn, except one
trigger of a linked pair; an HR fires once per game; a laser never through
smoke; a destroyed weapon or a person who is down cannot fire.
"""

from __future__ import annotations

import re
from dataclasses import replace

from carwars_desktop.rules.mini_car_wars.errors import WeaponChoiceError
from carwars_desktop.rules.mini_car_wars.model import Mount, Role, WeaponType
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import WEAPONS

_TYPE_NAMES: dict[str, WeaponType] = {}
for _kind, _spec in WEAPONS.items():
    for _alias in (_spec.abbreviation, _spec.name, _kind.value, _spec.name.replace(" ", "")):
        _TYPE_NAMES[_alias.lower()] = _kind
_TYPE_NAMES["smoke"] = WeaponType.SMOKESCREEN
_MOUNT_NAMES = {"f": Mount.FRONT, "front": Mount.FRONT, "r": Mount.RIGHT, "right": Mount.RIGHT,
                "l": Mount.LEFT, "left": Mount.LEFT, "b": Mount.BACK, "back": Mount.BACK,
                "rear": Mount.BACK, "t": Mount.TURRET, "turret": Mount.TURRET,
                "top": Mount.TURRET}


def weapon_list(sheet: MiniSheet) -> str:
    return ", ".join(f"{i + 1}={w.label}" for i, w in enumerate(sheet.weapons)) or "no weapons"


def find_weapon(sheet: MiniSheet, text: str) -> int:
    """The index of the weapon ``text`` names: its number on the sheet (1 = first) or its
    type and mount ("MG L", "laser F", "HR back"); among equals, the first still usable."""
    cleaned = text.strip().lower()
    if cleaned.isdigit():
        number = int(cleaned)
        if not 1 <= number <= len(sheet.weapons):
            raise WeaponChoiceError(f"{sheet.name} has no weapon {number} "
                                    f"({weapon_list(sheet)})")
        return number - 1
    for spec in WEAPONS.values():
        cleaned = cleaned.replace(spec.name.lower(), spec.abbreviation.lower())
    words = [w for w in re.split(r"[\s,@()\-]+", cleaned) if w]
    kinds = [_TYPE_NAMES[w] for w in words if w in _TYPE_NAMES]
    mounts = [_MOUNT_NAMES[w] for w in words if w in _MOUNT_NAMES]
    if len(kinds) != 1 or len(mounts) > 1 or len(kinds) + len(mounts) != len(words):
        raise WeaponChoiceError(f"{text!r}: name a weapon by number or as type and mount, "
                                f"e.g. 'MG L' ({weapon_list(sheet)})")
    matches = [i for i, w in enumerate(sheet.weapons)
               if w.kind is kinds[0] and (not mounts or w.mount is mounts[0])]
    if not matches:
        raise WeaponChoiceError(f"{sheet.name} has no {text.strip()} ({weapon_list(sheet)})")
    usable = [i for i in matches if not (sheet.weapons[i].destroyed or sheet.weapons[i].fired)]
    return (usable or matches)[0]


def weapons_fired(sheet: MiniSheet, index: int, linked: bool) -> tuple[int, ...]:
    """The weapon, and its linked partner when the pair is fired together (§1.3)."""
    if not linked:
        return (index,)
    partners = sheet.link_partners(index)
    if not partners:
        raise WeaponChoiceError(f"{sheet.weapons[index].label} on {sheet.name} is not linked")
    return (index, *partners)


def fire_restriction(sheet: MiniSheet, role: Role, indices: tuple[int, ...],
                     smoke_clouds: int) -> str | None:
    """Why this shot is not allowed (§2.9 step 3), or None."""
    person = sheet.person(role)
    if person is None:
        return f"{sheet.name} has no gunner"
    if sheet.wrecked:
        return f"{sheet.name} is a wreck"
    if person.is_down:
        return f"the {role.value} is {person.state.value}"
    if person.fired:
        return f"the {role.value} has already fired this turn (once per turn, §1.2)"
    for index in indices:
        weapon = sheet.weapons[index]
        if weapon.destroyed:
            return f"{weapon.label} is destroyed"
        if weapon.fired:
            return f"{weapon.label} has already fired this turn (once per turn, §1.3)"
        if weapon.spent:
            what = "the HR fires only once per game" if weapon.kind is WeaponType.HR \
                else "no shots left (MCW-D15)"
            return f"{weapon.label}: {what}"
        if smoke_clouds and not weapon.spec.fires_through_smoke:
            return f"{weapon.label}: a laser cannot fire through smoke (§2.13)"
    return None


def mark_fired(sheet: MiniSheet, role: Role, indices: tuple[int, ...]) -> MiniSheet:
    """The firer's sheet after the shot: weapons fired (HR spent), the person has acted."""
    for index in indices:
        weapon = sheet.weapons[index]
        shots = None if weapon.shots_left is None else weapon.shots_left - 1
        sheet = sheet.with_weapon(index, replace(weapon, fired=True, shots_left=shots))
    person = sheet.person(role)
    assert person is not None
    return sheet.with_person(replace(person, fired=True))
