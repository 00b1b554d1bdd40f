"""The AUTOpower clock at the table: whose turn it is, and its phases (§2.3).

Each car's turn is draw, accelerate, armor, combat, in the turn order settled
by ``autopower.first_player`` and kept all game (AP-D24). A killed car takes no
more turns (§2.7), so its phases are skipped.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from carwars_desktop.rules.autopower import CarSheet
from carwars_desktop.rules.autopower.phases import STEPS as AUTOPOWER_STEPS
from carwars_desktop.rules.autopower.phases import phases
from carwars_desktop.rules.autopower.turns import winner
from carwars_desktop.rules.clock import Clock

STEP_PROCEDURES = {
    "draw": "autopower.draw",
    "accelerate": "autopower.accelerate",
    "armor": "autopower.armor",
    "combat": "autopower.attack",
}
"""The engine procedure that plays each phase of a car's turn."""

STEP_TITLES = {
    "draw": "Draw (refill the hand)",
    "accelerate": "Accelerate (Energy cards, push)",
    "armor": "Armor (Strength cards)",
    "combat": "Combat (attack)",
}


def current(clock: Clock) -> tuple[str, str]:
    """(car name, step) of the phase the clock stands at."""
    name, _, step = clock.phase_name.rpartition(": ")
    return name, step


def ordered(clock: Clock, names: Sequence[str]) -> Clock:
    """The clock with the turn order ``names``, at the first car's draw of this turn."""
    return Clock(clock.turn, 0, phases(names), clock.word)


def order(clock: Clock) -> tuple[str, ...]:
    """The car names in turn order."""
    names: list[str] = []
    for phase in clock.phases:
        name = phase.rpartition(": ")[0]
        if name not in names:
            names.append(name)
    return tuple(names)


def next_phase(clock: Clock, out: Collection[str]) -> Clock:
    """The next phase of a car still in the game (the clock simply advances if none is)."""
    following = clock.advanced()
    for _ in range(len(clock.phases)):
        if current(following)[0] not in out:
            return following
        following = following.advanced()
    return clock.advanced()


def result(sheets: Sequence[CarSheet]) -> str:
    """The engine's verdict (AP-D19): who won, a draw, or still playing."""
    state, name = winner(sheets)
    if state == "won":
        return f"{name} wins: the last car not killed (AP-D19)"
    if state == "draw":
        return "a draw: every car is killed (AP-D19)"
    return ""


STEPS = AUTOPOWER_STEPS
