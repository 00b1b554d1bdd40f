"""A finished or running session replayed event by event (issue 36 §1), Qt-free.

The game is event-sourced: every event keeps the sheets it changed before and after, the
clock before and after when it moved it, and the session's settings before and after when
it changed them. The state *after event N* is the session's first state with every event
of its line up to N applied (each changed sheet replaced by its "after", the clock and
the settings likewise).

Positions are numbered 0 (the start, no event yet) and then one per stored event, in the
order of ``seq``, undone events included:

* the **main line** is the events in force (not undone): the game as it stands;
* an **undone branch** is a run of undone events between two events of the main line.
  Stepping into an undone event shows the state with it applied, on top of the main
  line's state before the run and the events of the run it followed. Undo is last in,
  first out, so an undone event followed the event before it in the run unless that one
  was undone first (and the store does not say when an event was undone): an event
  whose own "before" (a sheet, or the clock) differs from the state the run reached is
  taken to follow the latest earlier state of the run (or the main line) that matches it.

:class:`Replay` keeps a snapshot (every sheet, the clock, the settings, as JSON text) every
:data:`SNAPSHOT_EVERY` events along each line, so rebuilding any position applies at most
that many events, however long the game; those events are read again from the session's
pages (the events are never all held in memory).
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, overload

from carwars_desktop.session.events import StoredEvent
from carwars_desktop.session.store import EventPages, every_event

SNAPSHOT_EVERY = 64
"""K: a snapshot every K events along a line, so a step applies at most K events."""
PAGE = 64
"""Events read at once; a step reads the pages of its (at most K) events again."""
KEPT_PAGES = 8
"""Pages kept read (the last steps' events: stepping on reads nothing new)."""

JsonMap = Mapping[str, Any]


@dataclass(frozen=True)
class ReplayState:
    """The sheets (vehicle key → JSON), the clock (JSON) and the settings after a position."""

    sheets: Mapping[str, JsonMap]
    clock: JsonMap
    settings: JsonMap

    def to_json(self) -> dict[str, Any]:
        return {"sheets": {k: dict(v) for k, v in self.sheets.items()},
                "clock": dict(self.clock), "settings": dict(self.settings)}


@dataclass(frozen=True)
class Position:
    """One place in the replay: 0 is the start, then one per stored event."""

    index: int
    seq: int
    """Its event's number (0 for the start)."""
    undone: bool
    parent: int
    """The position whose state this one applies its event to (-1 for the start)."""
    turn: int
    """The clock's turn after it."""
    main: bool
    """On the main line (the start and every event in force)."""
    base: int
    """The main-line position it hangs from: itself on the main line; for an undone
    event, the main-line position before its branch."""


class ListPages:
    """Events in a list read as pages (:class:`~carwars_desktop.session.store.EventPages`):
    tests, benchmarks."""

    def __init__(self, events: Iterable[StoredEvent]) -> None:
        self.events = list(events)

    def count(self, include_undone: bool = False) -> int:
        return len(self.events) if include_undone else sum(
            1 for e in self.events if not e.undone)

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        return self.events[offset:offset + limit]


_NOT_YET: JsonMap = MappingProxyType({})
"""The first clock (or settings) while the one pass has not met the first event that
moved it (then every state so far had that event's "before"; put in place at the end)."""


_UNDONE = 1
_MAIN = 2


class _Positions(Sequence[Position]):
    """:attr:`Replay.positions`: each made when asked for, from the replay's arrays."""

    def __init__(self, replay: Replay) -> None:
        self._replay = replay

    def __len__(self) -> int:
        return len(self._replay)

    @overload
    def __getitem__(self, index: int) -> Position: ...

    @overload
    def __getitem__(self, index: slice) -> list[Position]: ...

    def __getitem__(self, index: int | slice) -> Position | list[Position]:
        if isinstance(index, slice):
            return [self._replay.position(i) for i in range(len(self))[index]]
        return self._replay.position(index if index >= 0 else len(self) + index)


class Replay:
    """Every position of a session and the state after each (:meth:`state`), indexed in
    one read of its events (``pages``, in ``seq`` order). Only the snapshots are kept: a
    step reads its events again, a page at a time (a long evening's events never all sit
    in memory)."""

    def __init__(self, initial_sheets: Mapping[str, JsonMap], pages: EventPages,
                 current_clock: JsonMap, current_settings: JsonMap | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshots must be at least one event apart")
        self.pages = pages
        self.every = snapshot_every
        self._read: OrderedDict[int, list[StoredEvent]] = OrderedDict()
        # The first clock and settings are the "before" of the first event that moved
        # them (else the current ones): met on the way, put in place at the end.
        first_clock_seen: JsonMap | None = None
        first_settings_seen: JsonMap | None = None
        start = ReplayState(dict(initial_sheets), _NOT_YET, _NOT_YET)
        provisional: list[int] = [0]  # positions whose turn is the first clock's
        # Positions and snapshots are kept compact (arrays of numbers, JSON text): a long
        # evening's index holds few objects for the garbage collector to walk, so a step
        # is not held up by a full collection.
        self._seq = array("q", [0])
        self._parent = array("q", [-1])
        self._turn = array("q", [0])
        self._base = array("q", [0])
        self._flags = bytearray([_MAIN])
        snapshots: dict[int, ReplayState] = {0: start}
        self._depth: list[int] = [0]
        """Events applied since the nearest snapshot along the line (0: a snapshot)."""
        self.main_line: list[int] = [0]
        """The main line's positions in order (the slider's)."""
        last_main = 0
        branch: list[int] = []  # the positions of the undone run being walked
        # The states walked are kept while needed: the main line's last, the run's.
        main_state = start
        branch_states: dict[int, ReplayState] = {}
        for stored in every_event(pages, PAGE):
            index = len(self._seq)
            event = stored.event
            if first_clock_seen is None and event.clock_before is not None:
                first_clock_seen = event.clock_before
            if first_settings_seen is None and event.settings_after is not None:
                first_settings_seen = event.settings_before or {}
            if not stored.undone:
                parent, state_before = last_main, main_state
                branch, branch_states = [], {}
            else:
                parent, state_before = self._branch_parent(stored, last_main, main_state,
                                                           branch, branch_states)
            state = apply(state_before, stored)
            if state.clock is _NOT_YET:
                provisional.append(index)
            turn = int(state.clock.get("turn", self._turn[parent]))
            depth = self._depth[parent] + 1
            if depth >= self.every:
                snapshots[index] = state
                depth = 0
            self._depth.append(depth)
            self._seq.append(stored.seq)
            self._parent.append(parent)
            self._turn.append(turn)
            if stored.undone:
                self._base.append(last_main)
                self._flags.append(_UNDONE)
                branch.append(index)
                branch_states[index] = state
            else:
                self._base.append(index)
                self._flags.append(_MAIN)
                self.main_line.append(index)
                last_main, main_state = index, state
        clock = current_clock if first_clock_seen is None else first_clock_seen
        settings = dict(current_settings or {}) if first_settings_seen is None \
            else first_settings_seen
        self._snapshots: dict[int, str] = {
            at: json.dumps(ReplayState(
                state.sheets, clock if state.clock is _NOT_YET else state.clock,
                settings if state.settings is _NOT_YET else state.settings).to_json())
            for at, state in snapshots.items()}
        first_turn = int(clock.get("turn", 1))
        for at in provisional:
            self._turn[at] = first_turn
        self.positions = _Positions(self)
        """Every position (:class:`Position`), by index."""
        self._main_rank = {p: rank for rank, p in enumerate(self.main_line)}
        self._turn_starts: list[int] = []
        last_turn: int | None = None
        for rank, index in enumerate(self.main_line):
            if self.positions[index].turn != last_turn:
                self._turn_starts.append(rank)
                last_turn = self.positions[index].turn

    def _branch_parent(self, stored: StoredEvent, last_main: int, main_state: ReplayState,
                       branch: list[int], states: Mapping[int, ReplayState]
                       ) -> tuple[int, ReplayState]:
        """The run's latest state the undone event's "before" matches (see the module)."""
        candidates = [*((p, states[p]) for p in reversed(branch)), (last_main, main_state)]
        for position, state in candidates:
            if follows(state, stored):
                return position, state
        return candidates[0]  # nothing matches (a sheet edited outside): the run's last

    # --- reading -----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._seq)

    @property
    def last(self) -> int:
        """The main line's last position: the game as it stands."""
        return self.main_line[-1]

    def state(self, index: int) -> ReplayState:
        """The state after position ``index``: its nearest snapshot up its line, then at
        most :attr:`every` events applied."""
        if not 0 <= index < len(self.positions):
            raise IndexError(f"no position {index} (0…{len(self.positions) - 1})")
        path: list[StoredEvent] = []
        at = index
        while at not in self._snapshots:
            path.append(self._event(at))
            at = self._parent[at]
        state = self._snapshot(at)
        for stored in reversed(path):
            state = apply(state, stored)
        return state

    def rebuild_from_start(self, index: int) -> ReplayState:
        """The same state rebuilt from position 0 with no snapshot (the baseline, and a
        check of :meth:`state`)."""
        path: list[StoredEvent] = []
        at = index
        while at > 0:
            path.append(self._event(at))
            at = self._parent[at]
        state = self._snapshot(0)
        for stored in reversed(path):
            state = apply(state, stored)
        return state

    def line_events(self, index: int, limit: int) -> list[StoredEvent]:
        """The last ``limit`` events of the line up to ``index`` (its own last), oldest
        first: what had happened by then (the players' display's log)."""
        found: list[StoredEvent] = []
        at = index
        while at > 0 and len(found) < limit:
            found.append(self._event(at))
            at = self._parent[at]
        return found[::-1]

    def _snapshot(self, index: int) -> ReplayState:
        data = json.loads(self._snapshots[index])
        return ReplayState(data["sheets"], data["clock"], data["settings"])

    def position(self, index: int) -> Position:
        if not 0 <= index < len(self._seq):
            raise IndexError(f"no position {index} (0…{len(self._seq) - 1})")
        flags = self._flags[index]
        return Position(index, self._seq[index], bool(flags & _UNDONE), self._parent[index],
                        self._turn[index], bool(flags & _MAIN), self._base[index])

    def stored(self, index: int) -> StoredEvent | None:
        """The event of position ``index`` (None for the start)."""
        return None if index == 0 else self._event(index)

    def _event(self, index: int) -> StoredEvent:
        number = (index - 1) // PAGE
        page = self._read.get(number)
        if page is None:
            page = self.pages.page(number * PAGE, PAGE)
            self._read[number] = page
            while len(self._read) > KEPT_PAGES:
                self._read.popitem(last=False)
        else:
            self._read.move_to_end(number)
        stored = page[(index - 1) - number * PAGE]
        if stored.seq != self._seq[index]:
            raise ValueError(f"the session's events changed while replayed (event "
                             f"{stored.seq} where {self._seq[index]} was)")
        return stored

    # --- moving ------------------------------------------------------------------------
    def main_rank(self, index: int) -> int:
        """Where ``index`` stands on the main line (the slider): an undone event stands at
        the main-line position its branch hangs from."""
        return self._main_rank[self.positions[index].base]

    def next_event(self, index: int) -> int:
        """The next main-line position (→)."""
        rank = self.main_rank(index)
        return self.main_line[min(rank + 1, len(self.main_line) - 1)]

    def previous_event(self, index: int) -> int:
        """The previous main-line position (←); from an undone event, the main-line one its
        branch hangs from."""
        position = self.positions[index]
        if not position.main:
            return position.base
        rank = self._main_rank[index]
        return self.main_line[max(rank - 1, 0)]

    def next_any(self, index: int) -> int:
        """The next position in stored order, undone events included (into a branch)."""
        return min(index + 1, len(self.positions) - 1)

    def previous_any(self, index: int) -> int:
        return max(index - 1, 0)

    def turn_starts(self) -> list[int]:
        """The main-line positions where a new turn begins (the slider's marks), as ranks
        on the main line."""
        return list(self._turn_starts)

    def next_turn(self, index: int) -> int:
        """The first main-line position of the next turn (PgDn), else the last."""
        rank = self.main_rank(index)
        later = bisect_right(self._turn_starts, rank)
        if later < len(self._turn_starts):
            return self.main_line[self._turn_starts[later]]
        return self.last

    def previous_turn(self, index: int) -> int:
        """The first main-line position of this turn (PgUp), or of the one before when
        already there (an undone event counts as where its branch hangs from)."""
        rank = self.main_rank(index)
        if not self.positions[index].main:
            rank += 1  # its base's turn is "this" one
        before = bisect_left(self._turn_starts, rank)
        return self.main_line[self._turn_starts[before - 1]] if before > 0 else 0


def follows(state: ReplayState, stored: StoredEvent) -> bool:
    """Whether ``stored``'s "before" is ``state`` (its sheets, clock and settings)."""
    event = stored.event
    if event.clock_before is not None and state.clock is not _NOT_YET and \
            dict(event.clock_before) != dict(state.clock):
        return False
    if event.settings_after is not None and state.settings is not _NOT_YET and \
            dict(event.settings_before or {}) != dict(state.settings):
        return False
    return all(dict(state.sheets.get(u.vehicle, {})) == dict(u.before) for u in event.updates)


def apply(state: ReplayState, stored: StoredEvent) -> ReplayState:
    """``state`` with ``stored``'s event applied (a new state; the old one is kept)."""
    event = stored.event
    sheets = state.sheets
    if event.updates:
        sheets = {**state.sheets, **{u.vehicle: u.after for u in event.updates}}
    clock = event.clock_after if event.clock_after is not None else state.clock
    settings = event.settings_after if event.settings_after is not None else state.settings
    return ReplayState(sheets, clock, settings)
