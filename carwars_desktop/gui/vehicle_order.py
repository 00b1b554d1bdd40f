"""Which vehicle a form offers first: one that can act, in the clock's order.

The clock of Battlecars and AUTOpower names the vehicles in their play order
("Street Hawk's turn", "Longshot: draw"); the vehicle whose phase is running
comes first, then the others as the clock reaches them. A vehicle out of play
(wrecked, killed) or with a danger status (its driver killed) goes after the
ones that can act. Mini Car Wars phases name nobody: its vehicles keep the
session's order.
"""

from __future__ import annotations

from carwars_desktop.rules.play import Level, play_rules
from carwars_desktop.session import Game


def _clock_position(game: Game) -> dict[str, int]:
    """Vehicle key → where the clock reaches it next, from the running phase on."""
    phases = game.clock.phases
    count = len(phases)
    # Longest names first: "Car 10" must not be read as "Car 1".
    by_length = sorted(game.vehicles, key=lambda v: len(v.name), reverse=True)
    position: dict[str, int] = {}
    for offset in range(count):
        phase = phases[(game.clock.phase + offset) % count]
        for vehicle in by_length:
            if phase.startswith(vehicle.name) and vehicle.key not in position:
                position[vehicle.key] = offset
                break
    return position


def acting_order(game: Game) -> list[str]:
    """The keys of the vehicles in play, the ones that can act first, in the clock's order."""
    rules = play_rules(game.ruleset.id)
    position = _clock_position(game)
    unnamed = len(game.clock.phases)

    def rank(index_and_key: tuple[int, str]) -> tuple[int, int, int]:
        index, key = index_and_key
        sheet = game.sheet(key)
        if rules.out_of_play(sheet):
            fitness = 2
        elif any(flag.level is Level.DANGER for flag in rules.status(sheet)):
            fitness = 1
        else:
            fitness = 0
        return fitness, position.get(key, unnamed), index

    keyed = list(enumerate(v.key for v in game.vehicles))
    return [key for _, key in sorted(keyed, key=rank)]
