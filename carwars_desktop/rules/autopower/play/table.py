"""How the GM types AUTOpower at the Table: its one-key actions and the quick line's
words (Qt-free; the Table's screens read them). It has no fire batch."""

from __future__ import annotations

from carwars_desktop.rules.table_input import (
    COLLISION,
    CONTROL,
    FIRE,
    LASER,
    SPEED,
    KeyAction,
    QuickRules,
)

KEY_ACTIONS = (
    KeyAction(FIRE, "autopower.attack", "firer", "target", ask=("cards",)),
    KeyAction(LASER, "autopower.laser", "firer", "target", ask=("cards",)),
    KeyAction(COLLISION, "autopower.ram", "rammer", "target", ask=("cards",)),
    KeyAction(CONTROL, "autopower.control", "vehicle", ask=("damage",)),
    KeyAction(SPEED, "autopower.accelerate", "vehicle"),
)

QUICK = QuickRules("autopower.attack", "firer", "target", number_input="cards",
                   many_numbers=True,
                   procedures={"attack": ("autopower.attack", "firer", "target"),
                               "at": ("autopower.attack", "firer", "target"),
                               "laser": ("autopower.laser", "firer", "target"),
                               "ram": ("autopower.ram", "rammer", "target")})
