"""Scenarios: the winner, arena re-arming, Mission Accomplished (digest §2.19, §3.10)."""

from __future__ import annotations

from dataclasses import replace

from carwars_desktop.procedures import Step
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.options import DEFAULT_OPTIONS, Options
from carwars_desktop.rules.battlecars.sheet import CarSheet
from carwars_desktop.rules.battlecars.tables import ARENA_ENTRY_SPEED, MISSIONS, Mission
from carwars_desktop.rules.battlecars.terms import Direction, Weapon

RULE_SCENARIOS = bc("§2.19")


def mission_for(car: int, face: int, options: Options = DEFAULT_OPTIONS) -> Mission:
    """The mission plot for car 1–4 on a 1d8 (§3.10). BC-D34: car 4's 3–4 names car 3 as
    printed (alternative: car 2, which the printed table never targets)."""
    for mission in MISSIONS[car]:
        if face in mission.faces:
            if car == 4 and face in (3, 4) and not options.bc_d34_as_printed:
                return replace(mission, goal="Kill the driver of car 2",
                               story="BC-D34 alternative reading of the printed 'car 3'.")
            return mission
    raise KeyError(f"no mission for car {car} on a {face}")


def street_winner(cars: tuple[CarSheet, ...], options: Options = DEFAULT_OPTIONS
                  ) -> tuple[str, tuple[Step, ...]]:
    """The driver occupying the last mobile Battlecar wins; none left is a draw (BC-D45)."""
    steps = [Step(f"{car.name}: " + ("mobile with a driver" if car.mobile_with_driver(options)
                                     else _why_out(car, options)), RULE_SCENARIOS)
             for car in cars]
    alive = [car for car in cars if car.mobile_with_driver(options)]
    if len(alive) == 1:
        return f"{alive[0].name} wins: the last mobile Battlecar with a driver", tuple(steps)
    if not alive:
        return "a draw: no driver occupies a mobile Battlecar (BC-D45)", tuple(steps)
    return (f"no winner yet: {len(alive)} mobile Battlecars with drivers "
            f"({', '.join(c.name for c in alive)})", tuple(steps))


def _why_out(car: CarSheet, options: Options) -> str:
    if car.exploded:
        return "destroyed by a fuel-tank explosion (a wreck)"
    if car.driver_dead:
        return "its driver is dead"
    if not car.occupied:
        return "vacated"
    if car.destroyed_car(options):
        return "all three sections destroyed (a wreck, BC-D32)"
    return "immobilised: max speed 0 (a wreck, BC-D32)"


def rearm(sheet: CarSheet) -> tuple[CarSheet, tuple[Step, ...]]:
    """BC-D38: restore the original weapon counters, not the damage; re-enter at speed 3.

    Counters that no longer fit the uncovered boxes of a damaged pod stay out.
    """
    steps: list[Step] = []
    for mount in sheet.mounts():
        original = sheet.card.load_of(mount.name)
        fitted: list[Weapon] = []
        room = sheet.remaining(mount.name)
        for weapon in original:
            size = sheet.card.counter_sizes.size(weapon)
            if size <= room:
                fitted.append(weapon)
                room -= size
        sheet = sheet.with_load(mount.name, tuple(fitted))
        left_out = len(original) - len(fitted)
        if original:
            steps.append(Step(f"{mount.name}: {len(fitted)} of {len(original)} counters restored"
                              + (f" ({left_out} no longer fit the damaged boxes)" if left_out
                                 else ""), bc("", "BC-D38")))
    sheet = replace(sheet, speed=ARENA_ENTRY_SPEED, previous_speed=ARENA_ENTRY_SPEED,
                    direction=Direction.FORWARD, targets_this_turn=(), drops_this_turn=())
    steps.append(Step(f"after missing 1 Turn it re-enters at its entry point at speed "
                      f"{ARENA_ENTRY_SPEED}; damage is not repaired",
                      RULE_SCENARIOS.more("", "BC-D38")))
    return sheet, tuple(steps)
