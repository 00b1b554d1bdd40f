"""Which event last changed a box of a sheet: the answer to hovering over it.

Cheap by construction: nothing is read when a session opens. The first hover
reads the last events once, page by page, up to a limit, and keeps them; each
vehicle's answers are worked out from them on its first hover, each event's changed
boxes once per vehicle, and remembered; later events update that memory as they
happen, and an undo works the touched vehicles' answers out again from the kept
events (nothing read or parsed again).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carwars_desktop.rules import AnyRuleset
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session.events import Event, SheetUpdate, StoredEvent
from carwars_desktop.session.game import Changes
from carwars_desktop.session.store import EventPages

PAGE = 200


@dataclass(frozen=True)
class Cause:
    """The event that last changed a box."""

    seq: int
    summary: str
    turn: int | None = None
    phase: str | None = None

    def __str__(self) -> str:
        when = f" (turn {self.turn}, {self.phase})" if self.turn is not None else ""
        return f"event #{self.seq}{when}: {self.summary}"


@dataclass
class _Known:
    causes: dict[str, Cause] = field(default_factory=dict)


@dataclass
class _Explained:
    """One event as hovering needs it: its cause, its sheet updates, whether it is undone,
    and the boxes it changed per vehicle (worked out the first time a vehicle asks)."""

    cause: Cause
    updates: tuple[SheetUpdate, ...]
    undone: bool
    boxes: dict[str, frozenset[str]] = field(default_factory=dict)


class Provenance:
    """Box → the event that last changed it, per vehicle (see the module docstring).

    Each event is read once and kept (the last ``scan_limit`` of them, and every later
    one); the boxes it changed for a vehicle are worked out once (:attr:`builds` counts
    them), so the first hover over another vehicle, or after an undo, reads and parses
    nothing again.
    """

    def __init__(self, ruleset: AnyRuleset, rules: PlayRules, pages: EventPages,
                 scan_limit: int = 3000) -> None:
        self._ruleset = ruleset
        self._rules = rules
        self._pages = pages
        self.scan_limit = scan_limit
        self._known: dict[str, _Known] = {}
        self._events: dict[int, _Explained] = {}
        self._scanned = False
        self.builds = 0
        """(event, vehicle) pairs whose changed boxes were worked out, each at most once."""
        self._last: dict[str, tuple[Mapping[str, Any], Mapping[str, str]]] = {}

    def _boxes(self, vehicle: str, sheet: Mapping[str, Any]) -> Mapping[str, str]:
        # One event's "before" is usually the next one's "after": compared, not re-read.
        last = self._last.get(vehicle)
        if last is not None and last[0] == sheet:
            return last[1]
        boxes = self._rules.boxes(self._ruleset.sheet_from_json(sheet))
        self._last[vehicle] = (sheet, boxes)
        return boxes

    def _changed(self, vehicle: str, explained: _Explained) -> frozenset[str]:
        boxes = explained.boxes.get(vehicle)
        if boxes is None:
            self.builds += 1
            changed: set[str] = set()
            for update in explained.updates:
                if update.vehicle == vehicle:
                    new = self._boxes(vehicle, update.after)
                    old = self._boxes(vehicle, update.before)
                    changed.update(box for box in set(old) | set(new)
                                   if old.get(box) != new.get(box))
            boxes = explained.boxes[vehicle] = frozenset(changed)
        return boxes

    def _keep(self, stored: StoredEvent) -> _Explained:
        kept = self._events.get(stored.seq)
        if kept is None:
            event: Event = stored.event
            kept = _Explained(Cause(stored.seq, event.summary, event.turn, event.phase),
                              event.updates, stored.undone)
            self._events[stored.seq] = kept
        kept.undone = stored.undone
        return kept

    def _scan(self) -> None:
        """Read the last ``scan_limit`` events once, newest first, and keep them."""
        offset = self._pages.count(include_undone=True)
        scanned = 0
        while offset > 0 and scanned < self.scan_limit:
            start = max(0, offset - PAGE)
            for stored in self._pages.page(start, offset - start):
                self._keep(stored)
            scanned += offset - start
            offset = start
        self._scanned = True

    def _work_out(self, vehicle: str) -> _Known:
        """A vehicle's answers from the kept events, newest first."""
        causes: dict[str, Cause] = {}
        for seq in sorted(self._events, reverse=True):
            explained = self._events[seq]
            if explained.undone or all(u.vehicle != vehicle for u in explained.updates):
                continue
            for box in self._changed(vehicle, explained):
                causes.setdefault(box, explained.cause)
        known = self._known[vehicle] = _Known(causes)
        return known

    def explain(self, key: str, box: str) -> Cause | None:
        """The event that last changed ``box`` of vehicle ``key`` (None: not in reach)."""
        if not self._scanned:
            self._scan()
        known = self._known.get(key) or self._work_out(key)
        return known.causes.get(box)

    def note(self, changes: Changes) -> None:
        """Keep up with an event, undo or redo that has just happened."""
        stored = changes.event
        if stored is None or not self._scanned:
            return
        kept = self._keep(StoredEvent(stored.seq, stored.event, stored.created_at,
                                      changes.undone))
        for vehicle in {update.vehicle for update in kept.updates}:
            known = self._known.get(vehicle)
            if known is None:
                continue
            if changes.undone:
                del self._known[vehicle]  # worked out again from the kept events
                continue
            for box in self._changed(vehicle, kept):
                known.causes[box] = kept.cause

    def forget(self) -> None:
        self._known.clear()
        self._events.clear()
        self._last.clear()
        self._scanned = False
