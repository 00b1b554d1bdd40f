"""How the GM types Battlecars at the Table: its one-key actions, the quick line's words
and the phase's fire as one batch (Qt-free; the Table's screens read them)."""

from __future__ import annotations

from carwars_desktop.rules.table_input import (
    COLLISION,
    CONTROL,
    CRASH,
    DAMAGE,
    FIRE,
    SPEED,
    BatchRules,
    KeyAction,
    QuickRules,
)

AREAS = ("front", "left-front", "right-front", "left-centre", "right-centre", "left-rear",
         "right-rear", "rear")
SIDES = {area: area for area in AREAS} | {
    "f": "front", "b": "rear", "r": "rear", "lf": "left-front", "rf": "right-front",
    "lc": "left-centre", "rc": "right-centre", "lr": "left-rear", "rr": "right-rear",
    "l": "left-centre"}

KEY_ACTIONS = (
    KeyAction(FIRE, "battlecars.fire", "firer", "target",
              remembered=("area", "bearing", "points_between"), ask=("area",)),
    KeyAction(DAMAGE, "battlecars.damage", "vehicle", ask=("area", "amount")),
    KeyAction(CONTROL, "battlecars.skid", "vehicle"),
    KeyAction(COLLISION, "battlecars.ram", "rammer", "target"),
    KeyAction(CRASH, "battlecars.crash", "vehicle", ask=("speed",)),
    KeyAction(SPEED, "battlecars.speed", "vehicle", ask=("speed",)),
)

QUICK = QuickRules("battlecars.fire", "firer", "target", weapon_input="mount",
                   side_input="area", sides=SIDES, number_input="points_between",
                   weapon_words={"rk": "rocket", "rl": "rocket", "sh": "shell", "fl": "flame"},
                   damage="battlecars.damage", damage_vehicle="vehicle",
                   damage_amount="amount", damage_side="area",
                   flags={"ret": ("mode", "return-fire"), "own": ("mode", "own-turn")})

BATCH = BatchRules("battlecars.fire")
