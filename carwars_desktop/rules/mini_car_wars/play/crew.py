"""Who fires and with what, by default at the Table (Mini Car Wars §1.2, §1.3, §2.9 step 3).

Each person aboard fires once a turn and each weapon once a turn (§1.2, §1.3): the fire
dialog and the quick line default to a person who can still fire (the driver, else the
gunner) and to the first weapon that can still fire, as the engine's own
:func:`~carwars_desktop.rules.mini_car_wars.firing.fire_restriction` judges them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.firing import fire_restriction
from carwars_desktop.rules.mini_car_wars.model import Role
from carwars_desktop.rules.ruleset import RecordSheet

FIRE = "mini.fire"


def can_fire(sheet: MiniSheet, role: Role) -> bool:
    """The person can still fire some weapon this turn (§1.2, §2.9 step 3)."""
    return any(fire_restriction(sheet, role, (index,), 0) is None
               for index in range(len(sheet.weapons)))


def first_weapon(sheet: MiniSheet, role: Role) -> int | None:
    """The first weapon ``role`` can fire this turn (index), or ``None``."""
    for index in range(len(sheet.weapons)):
        if fire_restriction(sheet, role, (index,), 0) is None:
            return index
    return None


def table_defaults(procedure_id: str, vehicles: Mapping[str, tuple[str, RecordSheet]],
                   clock: Clock) -> Mapping[str, Any]:
    """A shot defaults to the driver, or the gunner once the driver has fired (or is
    down), and to the first weapon not fired, destroyed or spent (§1.2, §1.3)."""
    if procedure_id != FIRE or "firer" not in vehicles:
        return {}
    sheet = vehicles["firer"][1]
    if not isinstance(sheet, MiniSheet):
        return {}
    for role in (Role.DRIVER, Role.GUNNER):
        index = first_weapon(sheet, role)
        if index is not None:
            return {"person": role.value, "weapon": str(index + 1)}
    return {}
