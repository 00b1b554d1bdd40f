"""Which event last changed a box of a sheet: the answer to hovering over it.

Cheap by construction: nothing is read when a session opens. The first hover
over a vehicle scans its history backwards, page by page, up to a limit, and
remembers the answer for each box; later events update that memory as they
happen, and an undo forgets the vehicles it touched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carwars_desktop.rules import Ruleset
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session.events import Event, StoredEvent
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


class Provenance:
    """Box → the event that last changed it, per vehicle (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, rules: PlayRules, pages: EventPages,
                 scan_limit: int = 3000) -> None:
        self._ruleset = ruleset
        self._rules = rules
        self._pages = pages
        self.scan_limit = scan_limit
        self._known: dict[str, _Known] = {}

    def _boxes(self, sheet: Mapping[str, Any]) -> Mapping[str, str]:
        return self._rules.boxes(self._ruleset.sheet_from_json(sheet))

    def _changed(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
        old, new = self._boxes(before), self._boxes(after)
        return {box for box in set(old) | set(new) if old.get(box) != new.get(box)}

    @staticmethod
    def _cause(stored: StoredEvent) -> Cause:
        event: Event = stored.event
        return Cause(stored.seq, event.summary, event.turn, event.phase)

    def _scan(self, key: str) -> _Known:
        known = _Known()
        offset = self._pages.count(include_undone=True)
        scanned = 0
        while offset > 0 and scanned < self.scan_limit:
            start = max(0, offset - PAGE)
            for stored in reversed(self._pages.page(start, offset - start)):
                scanned += 1
                if stored.undone:
                    continue
                for update in stored.event.updates:
                    if update.vehicle != key:
                        continue
                    for box in self._changed(update.before, update.after):
                        known.causes.setdefault(box, self._cause(stored))
            offset = start
        self._known[key] = known
        return known

    def explain(self, key: str, box: str) -> Cause | None:
        """The event that last changed ``box`` of vehicle ``key`` (None: not in reach)."""
        known = self._known.get(key) or self._scan(key)
        return known.causes.get(box)

    def note(self, changes: Changes) -> None:
        """Keep up with an event, undo or redo that has just happened."""
        stored = changes.event
        if stored is None:
            return
        for update in stored.event.updates:
            known = self._known.get(update.vehicle)
            if known is None:
                continue
            if changes.undone:
                del self._known[update.vehicle]
                continue
            cause = self._cause(stored)
            for box in self._changed(update.before, update.after):
                known.causes[box] = cause

    def forget(self) -> None:
        self._known.clear()
