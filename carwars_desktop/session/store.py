"""Where a game's events are kept: the database in the app, memory in tests.

Every method is one committed transaction: when it returns, the event (and
the sheets and clock it leaves) survive a crash.
"""

from __future__ import annotations

from collections.abc import Mapping
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


class EventStore(Protocol):
    """Each write may raise :class:`StaleSessionError` (nothing written: reload)."""

    def append(self, event: Event, sheets: SheetsJson, clock: Mapping[str, Any],
               settings: SettingsJson | None = None) -> StoredEvent:
        """Add ``event`` after every other (any undone events stay, no longer redoable) and
        save the resulting ``sheets`` (only those it changed), ``clock`` and, when
        given, the session's whole ``settings``."""
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
               settings: SettingsJson | None = None) -> StoredEvent:
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
