"""Every Battlecars procedure, in the order a GM meets them in a Round."""

from carwars_desktop.procedures import Procedure
from carwars_desktop.rules.battlecars.procedures.checks import DAMAGE, DETONATION, FUEL_TANK
from carwars_desktop.rules.battlecars.procedures.collisions import CRASH, RAM
from carwars_desktop.rules.battlecars.procedures.fire import FIRE
from carwars_desktop.rules.battlecars.procedures.movement import (
    CORNER,
    SKID,
    SPEED,
    THREE_POINT_TURN,
)
from carwars_desktop.rules.battlecars.procedures.passives import DROP, PASSIVE
from carwars_desktop.rules.battlecars.procedures.pedestrians import (
    COMMANDEER,
    LEAVE_CAR,
    PEDESTRIAN_SPEED,
    RUN_OVER,
)
from carwars_desktop.rules.battlecars.procedures.rounds import (
    END_ROUND,
    ENTRY_ORDER,
    SMOKE_DISPERSAL,
    START_TURN,
)
from carwars_desktop.rules.battlecars.procedures.scenarios import MISSION, REARM, WINNER

PROCEDURES: tuple[Procedure, ...] = (
    ENTRY_ORDER, SPEED, START_TURN, THREE_POINT_TURN, CORNER, SKID, PASSIVE, DROP, FIRE,
    DAMAGE, FUEL_TANK, DETONATION, CRASH, RAM, LEAVE_CAR, COMMANDEER, RUN_OVER,
    PEDESTRIAN_SPEED, END_ROUND, SMOKE_DISPERSAL, MISSION, REARM, WINNER,
)

__all__ = ["PROCEDURES"]
