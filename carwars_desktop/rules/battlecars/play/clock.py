"""The Battlecars clock at the table: rounds of secret speeds, then each car's turn (§2.2).

Speeds are checked by the engine's ``battlecars.speed`` (acceleration and
deceleration limits, max speed, reverse); each car's turn starts with the
engine's ``start_turn`` (the turn's target and drop tallies afresh); the round
ends with ``battlecars.end_round`` (smoke dispersal, stuns end).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from carwars_desktop.dice import EnteredDice
from carwars_desktop.procedures import House
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.movement import SpeedRange, speed_range
from carwars_desktop.rules.battlecars.options import DECISIONS
from carwars_desktop.rules.battlecars.phases import SPEEDS as BATTLECARS_SPEEDS
from carwars_desktop.rules.battlecars.phases import phases
from carwars_desktop.rules.battlecars.procedures.movement import SPEED
from carwars_desktop.rules.battlecars.rounds import start_turn
from carwars_desktop.rules.battlecars.scenarios import street_winner
from carwars_desktop.rules.battlecars.terms import Direction, Surface
from carwars_desktop.rules.clock import Clock
from carwars_desktop.rules.play import ClockStep, changed_sheet, clock_step
from carwars_desktop.rules.play import TurnError as TurnError  # what set_speeds raises

SUFFIX = "'s turn"


def is_speeds(clock: Clock) -> bool:
    return clock.phase_name == BATTLECARS_SPEEDS


def car_of(phase: str) -> str | None:
    return phase[:-len(SUFFIX)] if phase.endswith(SUFFIX) else None


def order(clock: Clock) -> tuple[str, ...]:
    return tuple(name for name in (car_of(p) for p in clock.phases) if name is not None)


def ordered(clock: Clock, names: Sequence[str]) -> Clock:
    """The same round and phase kind, with the play order ``names``."""
    return Clock(clock.turn, 0 if is_speeds(clock) else 1,
                 phases(names), clock.word)


def limits(sheet: CarSheet, surface: Surface = Surface.ROAD,
           house: House | None = None) -> dict[Direction, SpeedRange]:
    """The engine's speed range in each direction for the new Round (under the session's
    house rules ``house``: BC-D24, BC-D25, BC-D44, BC-D48)."""
    options = DECISIONS.options(house or {})
    return {direction: speed_range(sheet, direction, surface, options)
            for direction in Direction}


def limits_text(sheet: CarSheet, house: House | None = None) -> str:
    return "; ".join(str(r) for r in limits(sheet, house=house).values())


def set_speeds(sheets: Mapping[str, CarSheet],
               choices: Mapping[str, tuple[int, str, str]],
               names: Mapping[str, str], house: House | None = None) -> ClockStep:
    """Each car's secret speed ``(speed, direction, surface)``, checked by ``battlecars.speed``
    under the session's house rules ``house``.

    Raises:
        TurnError: the engine's reason for each refused speed (nothing changes).
    """

    def change(key: str) -> tuple[CarSheet, str] | str:
        sheet = sheets[key]
        speed, direction, surface = choices.get(key, (sheet.speed, sheet.direction.value,
                                                      Surface.ROAD.value))
        resolution = SPEED.resolve({"vehicle": sheet, "speed": speed, "direction": direction,
                                    "surface": surface}, EnteredDice([]), house)
        changed = changed_sheet(resolution, CarSheet)
        if changed is None:
            return f"{names[key]}: {resolution.outcome}"
        return changed, f"{names[key]}: {resolution.effects[0].summary}"

    return clock_step(sheets, change)


def next_phase(clock: Clock, out: Collection[str]) -> Clock | None:
    """The next car's turn this round (skipping cars out of play); ``None`` at round end."""
    following = clock
    while following.phase + 1 < len(clock.phases):
        following = following.advanced()
        name = car_of(following.phase_name)
        if name is not None and name not in out:
            return following
    return None


def turn_started(sheet: CarSheet) -> CarSheet:
    """The engine's start of a car's Turn: targets and drops counted afresh (§2.9)."""
    return start_turn(sheet)


def fire_allowance(sheet: CarSheet) -> str:
    """Targets fired at this Turn against the limit (2, 3 with a Gunnery Computer, §2.9)."""
    used = len(sheet.targets_this_turn)
    return f"targets fired at this turn: {used} of {sheet.target_limit}"


def result(sheets: Sequence[CarSheet]) -> str:
    verdict, _steps = street_winner(tuple(sheets))
    return "" if verdict.startswith("no winner yet") else verdict
