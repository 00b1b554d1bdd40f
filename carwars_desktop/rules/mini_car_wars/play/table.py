"""How the GM types Mini Car Wars at the Table: its one-key actions, the quick line's
words and the phase's fire as one batch (Qt-free; the Table's screens read them)."""

from __future__ import annotations

from carwars_desktop.rules.mini_car_wars.procedures.fire import HELD_MARK
from carwars_desktop.rules.table_input import (
    COLLISION,
    CONTROL,
    DAMAGE,
    FIRE,
    SPEED,
    BatchRules,
    KeyAction,
    QuickRules,
)

SIDES = {"f": "F", "front": "F", "b": "B", "back": "B", "l": "L", "left": "L", "r": "R",
         "right": "R", "t": "T", "top": "T"}

KEY_ACTIONS = (
    # §2.2/§8: the phase's fire resolves together, the damage after everyone has fired.
    # Typed as the quick line reads a shot (firer, weapon, target), then the range; a side
    # letter ends the range (5 f), and the dice are next.
    KeyAction(FIRE, "mini.fire", "firer", "target", remembered=("range", "side"),
              ask=("range",), batch=True, order=("weapon", "target", "range", "side")),
    KeyAction(DAMAGE, "mini.damage", "vehicle", ask=("damage",)),
    KeyAction(CONTROL, "mini.control", "vehicle"),
    KeyAction(COLLISION, "mini.collision", "mover", "other"),
    KeyAction(SPEED, "mini.speed", "vehicle", ask=("speed",)),
)

QUICK = QuickRules("mini.fire", "firer", "target", weapon_input="weapon", side_input="side",
                   sides=SIDES, number_input="range",
                   weapon_words={"rl": "RL", "hr": "HR", "mg": "MG", "smoke": "Smokescreen",
                                 "ss": "Smokescreen"},
                   damage="mini.damage", damage_vehicle="vehicle", damage_amount="damage",
                   damage_side="side",
                   flags={"gunner": ("person", "gunner"), "g": ("person", "gunner"),
                          "driver": ("person", "driver"), "d": ("person", "driver")})

BATCH = BatchRules("mini.fire", hold_input="hold_damage", damage="mini.damage",
                   damage_vehicle="vehicle", damage_side="side", damage_amount="damage",
                   side_input="side", held_mark=HELD_MARK)
