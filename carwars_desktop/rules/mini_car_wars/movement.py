"""Speed selection and the movement schedule (Mini Car Wars §2.3, §2.4; MCW-D1).

A vehicle at S mph moves 1" in each of phases 1 to S/10 (MCW-D1, stated in the
text); inside a phase the fastest moves first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from carwars_desktop.rules.mini_car_wars.errors import SpeedListError
from carwars_desktop.rules.mini_car_wars.sheet import MiniSheet
from carwars_desktop.rules.mini_car_wars.tables import SPEED


@dataclass(frozen=True, order=True)
class Velocity:
    """A speed this turn: mph (a multiple of 10) and direction (reverse: cars, ≤ 20 mph)."""

    mph: int
    reverse: bool = False

    def __str__(self) -> str:
        return f"{self.mph}R" if self.reverse else str(self.mph)

    @property
    def text(self) -> str:
        return f"{self.mph} mph reverse" if self.reverse else f"{self.mph} mph"


_VELOCITY = re.compile(r"^\s*(\d+)\s*(r|rev|reverse)?\s*$", re.IGNORECASE)


def parse_velocity(text: str) -> Velocity:
    """``40`` or ``20R`` (reverse); refused unless a multiple of 10 in range."""
    match = _VELOCITY.match(text)
    if match is None:
        raise SpeedListError(f"{text!r} is not a speed (write 40, or 20R for reverse)")
    velocity = Velocity(int(match.group(1)), match.group(2) is not None)
    if velocity.mph % SPEED.step or velocity.mph > SPEED.top_speed:
        raise SpeedListError(f"{text.strip()}: speeds are multiples of {SPEED.step} mph, "
                             f"0–{SPEED.top_speed}")
    if velocity.reverse and not 0 < velocity.mph <= SPEED.top_reverse:
        raise SpeedListError(f"{text.strip()}: reverse is 10 or {SPEED.top_reverse} mph")
    return velocity


def legal_velocities(current: Velocity, *, cycle: bool = False, plant_destroyed: bool = False,
                     driver_down: bool = False, wrecked: bool = False) -> tuple[Velocity, ...]:
    """The new speeds allowed after ``current`` (§2.3, table and forced deceleration).

    +10, 0, −10 or −20 mph; 0–100 forward, 10–20 reverse for cars, a direction change
    only from 0. A destroyed power plant must lose ≥ 10 mph; an unconscious or dead
    driver loses exactly 10 mph a turn (§2.12). A wreck stays at 0.
    """
    if wrecked:
        return (Velocity(0),)
    speed = current.mph
    if driver_down:
        slower = max(0, speed - SPEED.forced_decelerate)
        return (Velocity(slower, current.reverse and slower > 0),)
    top = SPEED.top_reverse if current.reverse else SPEED.top_speed
    low = max(0, speed - SPEED.max_decelerate)
    high = max(0, speed - SPEED.forced_decelerate) if plant_destroyed \
        else min(top, speed + SPEED.accelerate)
    legal = [Velocity(mph, current.reverse and mph > 0)
             for mph in range(low, high + 1, SPEED.step)]
    if speed == 0 and not cycle and high > 0:
        legal.append(Velocity(SPEED.step, True))
    return tuple(legal)


def sheet_velocities(sheet: MiniSheet) -> tuple[Velocity, ...]:
    return legal_velocities(Velocity(sheet.speed, sheet.reverse), cycle=sheet.is_cycle,
                            plant_destroyed=sheet.power_plant_destroyed,
                            driver_down=sheet.driver.is_down, wrecked=sheet.wrecked)


def move_phases(mph: int) -> range:
    """The phases with a move at ``mph``: 1 … mph/10 (MCW-D1)."""
    return range(1, mph // SPEED.mph_per_move + 1)


@dataclass(frozen=True)
class Mover:
    """One vehicle of the schedule: a name and its velocity this turn."""

    name: str
    velocity: Velocity


def parse_movers(text: str) -> tuple[Mover, ...]:
    """``Roadie=40, Carter=60, Kart=20R`` (or just ``40, 60``) → movers, in order given."""
    items = [item.strip() for item in re.split(r"[,;]", text) if item.strip()]
    if not items:
        raise SpeedListError("no speeds given: write e.g. Roadie=40, Carter=60")
    movers: list[Mover] = []
    for number, item in enumerate(items, start=1):
        name, _, speed = item.rpartition("=")
        if not _:
            name, _, speed = item.rpartition(":")
        name = name.strip() or f"vehicle {number}"
        movers.append(Mover(name, parse_velocity(speed)))
    names = [m.name for m in movers]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SpeedListError(f"each vehicle needs its own name ({', '.join(duplicates)} twice)")
    return tuple(movers)


def tie_groups(movers: Sequence[Mover]) -> tuple[tuple[Mover, ...], ...]:
    """Moving vehicles grouped by equal speed, fastest first (input order inside a group)."""
    speeds = sorted({m.velocity.mph for m in movers if m.velocity.mph > 0}, reverse=True)
    return tuple(tuple(m for m in movers if m.velocity.mph == mph) for mph in speeds)


def schedule(order: Sequence[Mover]) -> tuple[tuple[Mover, ...], ...]:
    """For phases 1–10, the vehicles that move, in ``order`` (already fastest first)."""
    return tuple(tuple(m for m in order if phase in move_phases(m.velocity.mph))
                 for phase in range(1, SPEED.phases + 1))
