"""Session events: what happened, its explanation, and the sheets before and after.

An event keeps the complete JSON sheets of every vehicle it changed, before and
after, and the clock before and after when it moved: undo restores "before",
redo restores "after", and nothing needs replaying.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    RESOLUTION = "resolution"
    """A Resolver procedure applied to the sheets."""
    MARK = "mark"
    """The GM changed a sheet by hand."""
    CLOCK = "clock"
    """The turn/phase clock moved (with any per-turn resets of the sheets)."""
    NOTE = "note"
    """A line in the log, changing nothing."""
    SETTINGS = "settings"
    """The session's settings changed (what the players' display shows, house rules…)."""


class EventFormatError(ValueError):
    """A stored event whose JSON cannot be read."""


@dataclass(frozen=True)
class SheetUpdate:
    """One vehicle's sheet (JSON form) before and after an event."""

    vehicle: str
    before: Mapping[str, Any]
    after: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"vehicle": self.vehicle, "before": dict(self.before), "after": dict(self.after)}


@dataclass(frozen=True)
class Event:
    """A change to the game, explained step by step."""

    kind: EventKind
    summary: str
    steps: tuple[str, ...] = ()
    updates: tuple[SheetUpdate, ...] = ()
    clock_before: Mapping[str, Any] | None = None
    clock_after: Mapping[str, Any] | None = None
    procedure_id: str | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    dice: tuple[Mapping[str, Any], ...] = ()
    bindings: Mapping[str, str] = field(default_factory=dict)
    """Each sheet input of a procedure → the key of the vehicle in play it was (firer, target)."""
    turn: int | None = None
    """The turn (round) in which it happened, as the clock stood before it."""
    phase: str | None = None
    """The phase in which it happened (``phase 3``, ``Kart's turn``)."""
    settings_before: Mapping[str, Any] | None = None
    settings_after: Mapping[str, Any] | None = None
    """The session's whole settings before and after, when the event changed them."""
    ends_batch: bool = False
    """It resolves the phase's declared fire batch: the store forgets the declared shots
    in the same transaction (a restarted app never offers the batch again)."""
    rolls: tuple[Mapping[str, Any], ...] = ()
    """The rolls of an applied resolution with their exact odds as shown before the dice:
    each ``{procedure, bindings, need, p_success ("7/12" or null), success}`` and, since
    the replay, ``throw``: its first throw (``{purpose, dice: [[sides, face], …]}``, the
    one the need is of) (the fire batch has one per shot); the battle report's odds and
    luck and the replay's "what were the odds?" read them (older events have none)."""
    dealers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each damaged vehicle → the vehicles that dealt it its damage in this event, when
    the bindings do not say it: a fire batch binds only the sheets it changed (the
    targets), so it names the firers of the shots that hit each target here. Empty (all
    events before it, and every other kind): the dealers of a vehicle's damage are the
    other vehicles bound (:func:`~carwars_desktop.session.history.event_dealers`)."""

    def vehicles(self) -> tuple[str, ...]:
        return tuple(update.vehicle for update in self.updates)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "summary": self.summary,
            "steps": list(self.steps),
            "updates": [u.to_json() for u in self.updates],
            "clock_before": None if self.clock_before is None else dict(self.clock_before),
            "clock_after": None if self.clock_after is None else dict(self.clock_after),
            "procedure": self.procedure_id,
            "inputs": dict(self.inputs),
            "dice": [dict(d) for d in self.dice],
            "bindings": dict(self.bindings),
            "turn": self.turn,
            "phase": self.phase,
            **({} if self.settings_after is None else {
                "settings_before": dict(self.settings_before or {}),
                "settings_after": dict(self.settings_after)}),
            **({"ends_batch": True} if self.ends_batch else {}),
            **({"rolls": [dict(r) for r in self.rolls]} if self.rolls else {}),
            **({"dealers": {k: list(v) for k, v in self.dealers.items()}}
               if self.dealers else {}),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        try:
            return Event(
                kind=EventKind(data["kind"]),
                summary=str(data["summary"]),
                steps=tuple(str(s) for s in data.get("steps", ())),
                updates=tuple(SheetUpdate(str(u["vehicle"]), dict(u["before"]), dict(u["after"]))
                              for u in data.get("updates", ())),
                clock_before=data.get("clock_before"),
                clock_after=data.get("clock_after"),
                procedure_id=data.get("procedure"),
                inputs=dict(data.get("inputs") or {}),
                dice=tuple(dict(d) for d in data.get("dice", ())),
                bindings={str(k): str(v) for k, v in (data.get("bindings") or {}).items()},
                turn=None if data.get("turn") is None else int(data["turn"]),
                phase=None if data.get("phase") is None else str(data["phase"]),
                settings_before=_mapping_or_none(data.get("settings_before")),
                settings_after=_mapping_or_none(data.get("settings_after")),
                ends_batch=data.get("ends_batch") is True,
                rolls=tuple(dict(r) for r in data.get("rolls") or ()),
                dealers={str(k): tuple(str(d) for d in v)
                         for k, v in (data.get("dealers") or {}).items()},
            )
        except (KeyError, TypeError, ValueError) as error:
            raise EventFormatError(f"unreadable session event: {error!r}") from None


def _mapping_or_none(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"settings must be a JSON object, not {type(value).__name__}")
    return dict(value)


@dataclass(frozen=True)
class StoredEvent:
    """An event as the store keeps it: its number in the session and whether it is undone.

    Nothing is ever deleted from a session's history: an undone event that a new event
    followed stays in it, undone and ``abandoned`` (it can no longer be redone).
    """

    seq: int
    event: Event
    created_at: datetime
    undone: bool = False
    abandoned: bool = False
    roll_kept: bool = field(default=False, compare=False)
    """The store took the roll this event applies
    (:class:`~carwars_desktop.session.store.RollRecord`) with it: written in the event's
    own transaction, or queued with it (the club queue offline); False when it keeps no
    roll log (memory) or none was given."""
    roll_log_id: int | None = field(default=None, compare=False)
    """That roll's line in the roll log, when known (queued, its line shown, if any)."""
