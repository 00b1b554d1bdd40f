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

:class:`Replay` keeps a snapshot (every sheet, the clock, the settings: references to the
events' own JSON, never copies) every :data:`SNAPSHOT_EVERY` events along each line, so
rebuilding any position applies at most that many events, however long the game.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carwars_desktop.session.events import EventKind, StoredEvent

SNAPSHOT_EVERY = 64
"""K: a snapshot every K events along a line, so a step applies at most K events."""

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
    stored: StoredEvent | None
    parent: int
    """The position whose state this one applies its event to (-1 for the start)."""
    turn: int
    """The clock's turn after it."""
    main: bool
    """On the main line (the start and every event in force)."""
    base: int
    """The main-line position it hangs from: itself on the main line; for an undone
    event, the main-line position before its branch."""

    @property
    def seq(self) -> int:
        return 0 if self.stored is None else self.stored.seq

    @property
    def undone(self) -> bool:
        return self.stored is not None and self.stored.undone


def first_clock(events: Sequence[StoredEvent], current: JsonMap) -> JsonMap:
    """The clock as the session began: "before" the first event that moved it (every
    event before that one left it as it was), else the session's current clock (undo puts
    a clock back, so no event in force moved it)."""
    for stored in events:
        if stored.event.clock_before is not None:
            return stored.event.clock_before
    return current


def first_settings(events: Sequence[StoredEvent], current: JsonMap) -> JsonMap:
    """The settings as the session began (as :func:`first_clock`)."""
    for stored in events:
        if stored.event.kind is EventKind.SETTINGS and stored.event.settings_after is not None:
            return stored.event.settings_before or {}
    return current


class Replay:
    """Every position of a session and the state after each (:meth:`state`), built in
    one pass over its events (in ``seq`` order)."""

    def __init__(self, initial_sheets: Mapping[str, JsonMap], events: Iterable[StoredEvent],
                 current_clock: JsonMap, current_settings: JsonMap | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshots must be at least one event apart")
        self.events: tuple[StoredEvent, ...] = tuple(events)
        self.every = snapshot_every
        start = ReplayState(dict(initial_sheets),
                            first_clock(self.events, current_clock),
                            first_settings(self.events, current_settings or {}))
        self.positions: list[Position] = [Position(0, None, -1, int(start.clock.get("turn", 1)),
                                                   True, 0)]
        self._snapshots: dict[int, ReplayState] = {0: start}
        self._depth: list[int] = [0]
        """Events applied since the nearest snapshot along the line (0: a snapshot)."""
        self.main_line: list[int] = [0]
        """The main line's positions in order (the slider's)."""
        last_main = 0
        branch: list[int] = []  # the positions of the undone run being walked
        # The states walked are kept while needed: the main line's last, the run's.
        main_state = start
        branch_states: dict[int, ReplayState] = {}
        for stored in self.events:
            index = len(self.positions)
            if not stored.undone:
                parent, state_before = last_main, main_state
                branch, branch_states = [], {}
            else:
                parent, state_before = self._branch_parent(stored, last_main, main_state,
                                                           branch, branch_states)
            state = apply(state_before, stored)
            turn = int(state.clock.get("turn", self.positions[parent].turn))
            depth = self._depth[parent] + 1
            if depth >= self.every:
                self._snapshots[index] = state
                depth = 0
            self._depth.append(depth)
            if stored.undone:
                self.positions.append(Position(index, stored, parent, turn, False, last_main))
                branch.append(index)
                branch_states[index] = state
            else:
                self.positions.append(Position(index, stored, parent, turn, True, index))
                self.main_line.append(index)
                last_main, main_state = index, state
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
        return len(self.positions)

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
            position = self.positions[at]
            assert position.stored is not None
            path.append(position.stored)
            at = position.parent
        state = self._snapshots[at]
        for stored in reversed(path):
            state = apply(state, stored)
        return state

    def rebuild_from_start(self, index: int) -> ReplayState:
        """The same state rebuilt from position 0 with no snapshot (the baseline, and a
        check of :meth:`state`)."""
        path: list[StoredEvent] = []
        at = index
        while at > 0:
            position = self.positions[at]
            assert position.stored is not None
            path.append(position.stored)
            at = position.parent
        state = self._snapshots[0]
        for stored in reversed(path):
            state = apply(state, stored)
        return state

    def line_events(self, index: int, limit: int) -> list[StoredEvent]:
        """The last ``limit`` events of the line up to ``index`` (its own last), oldest
        first: what had happened by then (the players' display's log)."""
        found: list[StoredEvent] = []
        at = index
        while at > 0 and len(found) < limit:
            position = self.positions[at]
            assert position.stored is not None
            found.append(position.stored)
            at = position.parent
        return found[::-1]

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
    if event.clock_before is not None and dict(event.clock_before) != dict(state.clock):
        return False
    if event.settings_after is not None and \
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
