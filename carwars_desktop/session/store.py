"""Where a game's events are kept: the database in the app, memory in tests.

Every method is one committed transaction: when it returns, the event (and
the sheets and clock it leaves) survive a crash. An event that applies a rolled result
carries its :class:`RollRecord`: a store that keeps the roll log (the database's) writes
it in the event's own transaction, so a kill leaves the roll applied with its event, or
still pending, never one without the other (issue 29 §3).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from carwars_desktop.session.events import Event, StoredEvent

SheetsJson = Mapping[str, Mapping[str, Any]]


class StaleSessionError(Exception):
    """Another copy of the app wrote to the session first, or took it over: this write
    was not made, and the state held here is older than the store's. Reload it.

    ``taken_over`` is True when this copy no longer holds the session (it may follow it
    read-only); ``holder`` says who does, in words ("the GM on LAPTOP-2"), when known.
    """

    def __init__(self, message: str, taken_over: bool = False, holder: str = "") -> None:
        super().__init__(message)
        self.taken_over = taken_over
        self.holder = holder


SettingsJson = Mapping[str, Any]


@dataclass(frozen=True)
class RollLine:
    """One line of the roll log: a result, with its exact P(success) for the luck chart."""

    ruleset_id: str
    procedure_id: str
    body: Mapping[str, Any]
    """Its dice and steps (JSON)."""
    outcome: str
    success: bool | None
    p_success: str | None


@dataclass(frozen=True)
class ThrownDice:
    """Dice thrown for a result, as the dice history keeps them."""

    ruleset_id: str
    expression: str
    values: tuple[int, ...]
    sides: tuple[int, ...]
    entered: bool
    success: bool | None
    seed: int | None


@dataclass(frozen=True)
class RollRecord:
    """What the roll log keeps of a result applied or discarded, written in one transaction
    (with the event that applies it, by a store that keeps the roll log)."""

    line: RollLine
    log_id: int | None = None
    """Its line written as pending when it was shown (settled now); None: that write was
    refused, and the line is written now, with its :attr:`dice`."""
    parts: tuple[RollLine, ...] = ()
    """The rolls it combines (a fire batch's shots), each on a line of its own."""
    dice: tuple[ThrownDice, ...] = ()
    """Its dice, written with a new line (those of a line shown were written then)."""


class EventStore(Protocol):
    """Each write may raise :class:`StaleSessionError` (nothing written: reload)."""

    def append(self, event: Event, sheets: SheetsJson, clock: Mapping[str, Any],
               settings: SettingsJson | None = None,
               roll: RollRecord | None = None) -> StoredEvent:
        """Add ``event`` after every other (any undone events stay, no longer redoable) and
        save the resulting ``sheets`` (only those it changed), ``clock`` and, when
        given, the session's whole ``settings``. ``roll``: the result it applies, settled
        in the roll log in the same transaction by a store that keeps one (the returned
        event's ``roll_log_id`` says it did); another store leaves it to its caller."""
        ...

    def mark_undone(self, seq: int, sheets: SheetsJson, clock: Mapping[str, Any],
                    settings: SettingsJson | None = None) -> None:
        """Event ``seq`` is undone; save the sheets, clock (and settings) as they are now."""
        ...

    def mark_redone(self, seq: int, sheets: SheetsJson, clock: Mapping[str, Any],
                    settings: SettingsJson | None = None) -> None:
        """Event ``seq`` is active again; save the sheets, clock (and settings) as they are now."""
        ...

    def last_active(self) -> StoredEvent | None:
        ...

    def first_undone(self) -> StoredEvent | None:
        ...


class EventPages(Protocol):
    """Reading a session's history page by page (the log panel, hover explanations, charts)."""

    def count(self, include_undone: bool = False) -> int:
        ...

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        """Events in order of ``seq`` (undone ones included, flagged)."""
        ...


def every_event(pages: EventPages, page_size: int) -> Iterator[StoredEvent]:
    """Every event of ``pages`` in order (undone ones included), read ``page_size`` at a
    time."""
    offset = 0
    while True:
        page = pages.page(offset, page_size)
        yield from page
        if len(page) < page_size:
            return
        offset += len(page)


class MemoryEventStore:
    """An :class:`EventStore` in memory (tests, scripts, benchmarks' baselines)."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []
        self.sheets: dict[str, dict[str, Any]] = {}
        self.clock: dict[str, Any] = {}
        self.settings: dict[str, Any] = {}

    def _save(self, sheets: SheetsJson, clock: Mapping[str, Any],
              settings: SettingsJson | None) -> None:
        self.sheets.update({key: dict(value) for key, value in sheets.items()})
        self.clock = dict(clock)
        if settings is not None:
            self.settings = dict(settings)

    def append(self, event: Event, sheets: SheetsJson, clock: Mapping[str, Any],
               settings: SettingsJson | None = None,
               roll: RollRecord | None = None) -> StoredEvent:
        self.events = [StoredEvent(e.seq, e.event, e.created_at, True, True) if e.undone else e
                       for e in self.events]
        seq = self.events[-1].seq + 1 if self.events else 1
        stored = StoredEvent(seq, event, datetime.now(UTC))
        self.events.append(stored)
        self._save(sheets, clock, settings)
        return stored

    def _set(self, seq: int, undone: bool) -> None:
        self.events = [StoredEvent(e.seq, e.event, e.created_at, undone, e.abandoned)
                       if e.seq == seq else e for e in self.events]

    def mark_undone(self, seq: int, sheets: SheetsJson, clock: Mapping[str, Any],
                    settings: SettingsJson | None = None) -> None:
        self._set(seq, True)
        self._save(sheets, clock, settings)

    def mark_redone(self, seq: int, sheets: SheetsJson, clock: Mapping[str, Any],
                    settings: SettingsJson | None = None) -> None:
        self._set(seq, False)
        self._save(sheets, clock, settings)

    def last_active(self) -> StoredEvent | None:
        active = [e for e in self.events if not e.undone]
        return active[-1] if active else None

    def first_undone(self) -> StoredEvent | None:
        undone = [e for e in self.events if e.undone and not e.abandoned]
        return undone[0] if undone else None

    def count(self, include_undone: bool = False) -> int:
        return sum(1 for e in self.events if include_undone or not e.undone)

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        return self.events[offset:offset + limit]
