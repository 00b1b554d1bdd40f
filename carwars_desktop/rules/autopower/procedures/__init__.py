"""AUTOpower's declared procedures (one module each)."""

from __future__ import annotations

from carwars_desktop.procedures import Procedure
from carwars_desktop.rules.autopower.options import Options
from carwars_desktop.rules.autopower.procedures.accelerate import ACCELERATE, PUSH
from carwars_desktop.rules.autopower.procedures.armor import ARMOR
from carwars_desktop.rules.autopower.procedures.attack import ATTACK, LASER
from carwars_desktop.rules.autopower.procedures.control import CONTROL
from carwars_desktop.rules.autopower.procedures.draw import DRAW
from carwars_desktop.rules.autopower.procedures.ram import RAM
from carwars_desktop.rules.autopower.procedures.turn_order import DRAW_ORDER, FIRST_PLAYER
from carwars_desktop.rules.autopower.procedures.victory import VICTORY

PROCEDURES: tuple[Procedure, ...] = (
    DRAW_ORDER, FIRST_PLAYER, DRAW, ACCELERATE, PUSH, ARMOR, ATTACK, CONTROL, RAM, LASER,
    VICTORY,
)
"""Every AUTOpower procedure, in the order of a turn."""

VARIANT_PROCEDURES: dict[str, str] = {
    "autopower.control": "control_rolls",
    "autopower.ram": "ramming",
    "autopower.laser": "lasers",
}
"""The procedures of the §2.8–§2.10 variants and the option that switches each on."""


def procedures_for(options: Options) -> tuple[Procedure, ...]:
    """The procedures a game with these pre-game choices uses (§2.1 step 4)."""
    return tuple(p for p in PROCEDURES
                 if p.id not in VARIANT_PROCEDURES or getattr(options, VARIANT_PROCEDURES[p.id]))


__all__ = [
    "ACCELERATE", "ARMOR", "ATTACK", "CONTROL", "DRAW", "DRAW_ORDER", "FIRST_PLAYER", "LASER",
    "PROCEDURES", "PUSH", "RAM", "VARIANT_PROCEDURES", "VICTORY", "procedures_for",
]
