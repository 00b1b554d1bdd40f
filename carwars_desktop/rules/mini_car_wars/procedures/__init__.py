"""The declared procedures of Mini Car Wars, in turn order (ids ``mini.*``)."""

from carwars_desktop.procedures import Procedure
from carwars_desktop.rules.mini_car_wars.procedures.collision import COLLISION
from carwars_desktop.rules.mini_car_wars.procedures.control import CONTROL
from carwars_desktop.rules.mini_car_wars.procedures.damage import DAMAGE
from carwars_desktop.rules.mini_car_wars.procedures.fire import FIRE
from carwars_desktop.rules.mini_car_wars.procedures.hazard import HAZARD
from carwars_desktop.rules.mini_car_wars.procedures.maneuver import MANEUVER
from carwars_desktop.rules.mini_car_wars.procedures.scenarios import (
    PACK_ATTACK_SETUP,
    ROAD_DUEL_SETUP,
    VICTORY,
)
from carwars_desktop.rules.mini_car_wars.procedures.schedule import SCHEDULE
from carwars_desktop.rules.mini_car_wars.procedures.speed import SPEED_SELECTION

PROCEDURES: tuple[Procedure, ...] = (
    ROAD_DUEL_SETUP, PACK_ATTACK_SETUP, SPEED_SELECTION, SCHEDULE, MANEUVER, CONTROL, HAZARD, FIRE,
    DAMAGE, COLLISION, VICTORY,
)

__all__ = [
    "COLLISION", "CONTROL", "DAMAGE", "FIRE", "HAZARD", "MANEUVER", "PACK_ATTACK_SETUP",
    "PROCEDURES", "ROAD_DUEL_SETUP", "SCHEDULE", "SPEED_SELECTION", "VICTORY",
]
