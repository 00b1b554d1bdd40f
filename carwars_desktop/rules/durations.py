"""Durations that end by themselves: a smoke cloud's 60 turns, a stun until the end of the
Round, a control penalty for the car's next own turn.

A :class:`Duration` the game keeps rides on the :class:`~carwars_desktop.rules.clock.Clock`
(``Clock.durations``), so every event that moves the clock carries the durations before and
after it: undo brings an expired one back, the session row keeps them, and only the clock
(never a hand mark) ends them. Effects the engine keeps on a sheet (Battlecars ``stunned``,
AUTOpower ``next_turn_penalty``) are shown the same way (:class:`ShownDuration`), and the
ruleset's clock hook (:attr:`PlayRules.clock_moved`) clears them when their time is up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carwars_desktop.rules.clock import Clock


@dataclass(frozen=True)
class Duration:
    """An effect kept by the game until the clock ends it.

    ``until_turn``/``until_phase``: it is gone once the clock stands at that turn and phase
    (index) or later; ``until_turn`` None: it lasts until something the rules roll for ends
    it (a Battlecars Smoke marker's end-of-Round dispersal roll).
    """

    kind: str
    label: str
    rule: str
    vehicle: str | None = None
    until_turn: int | None = None
    until_phase: int = 0
    since_turn: int = 0

    def lasts_at(self, clock: Clock) -> bool:
        if self.until_turn is None:
            return True
        return (clock.turn, clock.phase) < (self.until_turn, self.until_phase)

    def left(self, clock: Clock) -> str:
        """What is left at ``clock``: ``57 turns left``, ``until dispersed``."""
        if self.until_turn is None:
            return "until the end-of-round dispersal roll removes it"
        turns = self.until_turn - clock.turn
        word = clock.word
        if turns <= 0:
            return f"ends this {word}"
        plural = "s" if turns != 1 else ""
        return f"{turns} {word}{plural} left (gone at {word} {self.until_turn})"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "rule": self.rule,
                "vehicle": self.vehicle, "until_turn": self.until_turn,
                "until_phase": self.until_phase, "since_turn": self.since_turn}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Duration:
        until = data.get("until_turn")
        vehicle = data.get("vehicle")
        return Duration(str(data["kind"]), str(data["label"]), str(data.get("rule", "")),
                        None if vehicle is None else str(vehicle),
                        None if until is None else int(until), int(data.get("until_phase", 0)),
                        int(data.get("since_turn", 0)))


@dataclass(frozen=True)
class ShownDuration:
    """One duration as the sheets and the Clock show it: what, whose, what is left, the rule."""

    label: str
    left: str
    rule: str
    vehicle: str | None = None

    def __str__(self) -> str:
        return f"◷ {self.label}: {self.left}"


def shown(duration: Duration, clock: Clock) -> ShownDuration:
    return ShownDuration(duration.label, duration.left(clock), duration.rule, duration.vehicle)


def kept(durations: tuple[Duration, ...], clock: Clock) -> tuple[Duration, ...]:
    """The durations still running at ``clock``."""
    return tuple(d for d in durations if d.lasts_at(clock))
