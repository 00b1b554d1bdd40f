"""The Mini Car Wars clock at the table: turn start speeds, who moves in each phase.

A turn (§2.2) starts with every vehicle's new speed, checked by the engine's
``mini.speed`` procedure (legal changes, forced deceleration); then phases
1–10, in each of which the vehicles fast enough move, fastest first (§2.4,
the engine's ``schedule``). Moves and maneuvers are the engine's ``mini.maneuver``:
the second maneuver of a turn brings its control roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import House
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.errors import MiniCarWarsError
from carwars_desktop.rules.mini_car_wars.model import Maneuver
from carwars_desktop.rules.mini_car_wars.movement import (
    Mover,
    Velocity,
    parse_velocity,
    schedule,
    sheet_velocities,
    tie_groups,
)
from carwars_desktop.rules.mini_car_wars.procedures import MANEUVER, SPEED_SELECTION
from carwars_desktop.rules.mini_car_wars.tables import SPEED
from carwars_desktop.rules.play import ClockStep, changed_sheet, clock_step
from carwars_desktop.rules.play import TurnError as TurnError  # what set_speeds raises

PHASES = SPEED.phases


def legal_speeds(sheet: MiniSheet) -> tuple[str, ...]:
    """The new speeds allowed at turn start, as the GM types them (``40``, ``20R``)."""
    return tuple(str(v) for v in sheet_velocities(sheet))


def default_speed(sheet: MiniSheet) -> str:
    """The speed offered first: the current one if it may be kept, else the first legal."""
    legal = sheet_velocities(sheet)
    current = Velocity(sheet.speed, sheet.reverse)
    return str(current if current in legal else legal[0])


def move_order(sheets: Mapping[str, MiniSheet]) -> tuple[str, ...]:
    """Vehicle keys, fastest first (ties in seating order), stopped ones left out (§2.4)."""
    movers = [Mover(key, Velocity(s.speed, s.reverse)) for key, s in sheets.items()]
    return tuple(m.name for group in tie_groups(movers) for m in group)


def phase_movers(sheets: Mapping[str, MiniSheet], phase: int) -> tuple[str, ...]:
    """The keys of the vehicles that move in ``phase`` (1–10), in order."""
    order = [Mover(key, Velocity(sheets[key].speed, sheets[key].reverse))
             for key in move_order(sheets)]
    return tuple(m.name for m in schedule(order)[phase - 1])


def has_moved(sheet: MiniSheet, phase: int) -> bool:
    """Its move of ``phase`` is taken (its k-th move is in phase k, MCW-D1)."""
    return sheet.phases_used >= phase


def start_turn(sheets: Mapping[str, MiniSheet], speeds: Mapping[str, str],
               names: Mapping[str, str], house: House | None = None) -> ClockStep:
    """Every vehicle's new speed for the next turn, each checked by ``mini.speed`` under the
    session's house rules ``house``.

    Raises:
        TurnError: with the engine's reason for every refused speed (nothing changes).
    """

    def change(key: str) -> tuple[MiniSheet, str] | str:
        sheet = sheets[key]
        text = speeds.get(key, default_speed(sheet))
        try:
            velocity = parse_velocity(text)
        except MiniCarWarsError as error:
            return f"{names[key]}: {error}"
        resolution = SPEED_SELECTION.resolve(
            {"vehicle": sheet, "speed": velocity.mph, "reverse": velocity.reverse},
            EnteredDice([]), house)
        changed = changed_sheet(resolution, MiniSheet)
        if changed is None:
            legal = ", ".join(legal_speeds(sheet))
            return f"{names[key]}: {velocity.text} is not allowed (legal: {legal})"
        return changed, f"{names[key]}: {resolution.outcome.split(': ', 1)[-1]}"

    return clock_step(sheets, change)


def finish_phase(sheets: Mapping[str, MiniSheet], phase: int,
                 names: Mapping[str, str], house: House | None = None) -> ClockStep:
    """Vehicles still to move in ``phase`` move straight on (``mini.maneuver``, under the
    session's house rules ``house``)."""

    def change(key: str) -> tuple[MiniSheet, str] | None:
        sheet = sheets[key]
        if has_moved(sheet, phase):
            return None
        resolution = MANEUVER.resolve({"vehicle": sheet, "maneuver": Maneuver.STRAIGHT.value},
                                      EnteredDice([]), house)
        changed = changed_sheet(resolution, MiniSheet)
        if changed is None:
            return None
        return changed, f"{names[key]} did not move by hand: {resolution.outcome}"

    return clock_step(phase_movers(sheets, phase), change)


def maneuver_names() -> Sequence[str]:
    return tuple(m.value for m in Maneuver)
