"""The turn/phase clock of a session.

Each ruleset names its phases (:attr:`Ruleset.phases`): Mini Car Wars has phases
1–10 in each 1-second turn (MCW §2.2); Battlecars has rounds that open with the
secret speeds, then each car takes its turn in order (BC §2.2); AUTOpower has
turns of the active player, each drawing, accelerating, arming and fighting (AP §2.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from carwars_desktop.rules.durations import Duration


@dataclass(frozen=True)
class Clock:
    """Turn (from 1) and phase index (from 0) into ``phases``."""

    turn: int
    phase: int
    phases: tuple[str, ...]
    word: str = "turn"
    durations: tuple[Duration, ...] | None = field(default=None, compare=False)
    """The effects the game keeps until the clock ends them (:mod:`.durations`). ``None``
    on a clock built afresh (the next phase, a new order): the game carries on the
    durations of the clock it replaces; a tuple replaces them (a dispersal roll)."""

    @staticmethod
    def start(ruleset_id: str, vehicle_names: Sequence[str]) -> Clock:
        """Turn 1, first phase, of ``ruleset_id`` (its :attr:`Ruleset.phases`)."""
        from carwars_desktop.rules.registry import find_ruleset

        return find_ruleset(ruleset_id).start_clock(vehicle_names)

    @property
    def phase_name(self) -> str:
        return self.phases[self.phase]

    def advanced(self) -> Clock:
        """The next phase; after the last phase, the first phase of the next turn."""
        if self.phase + 1 < len(self.phases):
            return Clock(self.turn, self.phase + 1, self.phases, self.word)
        return Clock(self.turn + 1, 0, self.phases, self.word)

    def kept(self) -> tuple[Duration, ...]:
        """The durations this clock carries (none when it was built afresh)."""
        return self.durations or ()

    def with_durations(self, durations: Sequence[Duration]) -> Clock:
        return replace(self, durations=tuple(durations))

    def __str__(self) -> str:
        return f"{self.word.capitalize()} {self.turn}, {self.phase_name}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"turn": self.turn, "phase": self.phase,
                                "phases": list(self.phases), "word": self.word}
        if self.durations:
            data["durations"] = [d.to_json() for d in self.durations]
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Clock:
        phases = tuple(str(p) for p in data["phases"])
        turn, phase = int(data["turn"]), int(data["phase"])
        if turn < 1 or not 0 <= phase < len(phases):
            raise ValueError(f"clock out of range: turn {turn}, phase {phase} of {len(phases)}")
        durations = tuple(Duration.from_json(d) for d in data.get("durations") or ())
        return Clock(turn, phase, phases, str(data.get("word", "turn")), durations)
