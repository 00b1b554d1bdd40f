"""The GM's entries kept on the laptop while the club server cannot be reached.

:class:`OfflineQueue` is an SQLite file on the laptop (``offline-queue.sqlite3`` in the user
data folder) holding, in order, every write a session could not send: an event appended, an
event undone or redone, each with the sheets and clock it leaves. Each entry is committed with
``synchronous=FULL`` before the screen shows its effect, so nothing shown is lost, even if the
laptop is switched off before the server comes back.

:class:`QueuedEventStore` is the session's :class:`~carwars_desktop.session.EventStore` on a
club server: it writes through to the server's store while it can; when a write fails because
the connection dropped it queues that write and every later one (in order: nothing is ever
written ahead of an older queued entry), and :meth:`QueuedEventStore.replay` sends them when
the connection is back, through the server store's normal ``append``/``mark_undone``/
``mark_redone``.

The several-writers rule: before each entry is sent, the server's last event must be the one
the laptop last saw. If another client wrote in between, replay stops, nothing is written
over the other client's entries, and the conflict is reported (:class:`ReplayResult`); the
laptop's entries stay in the queue file until the GM sets them aside. The server's own
compare-and-append (issue 15) closes the gap between that check and the write: a write it
refuses as stale is reported the same way.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from carwars_desktop.session import (
    Event,
    RollLine,
    RollRecord,
    StaleSessionError,
    StoredEvent,
    ThrownDice,
)
from carwars_desktop.storage.game_sessions import StoredShot
from carwars_desktop.storage.locations import APP_AUTHOR, APP_NAME

_T = TypeVar("_T")

QUEUE_FILE_NAME = "offline-queue.sqlite3"
APPEND, UNDO, REDO = "append", "undo", "redo"
QUEUED, SET_ASIDE = "queued", "set-aside"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    target TEXT NOT NULL,
    session_id INTEGER NOT NULL,
    op TEXT NOT NULL,
    seq INTEGER NOT NULL,
    expected_last INTEGER NOT NULL,
    body TEXT,
    sheets TEXT NOT NULL,
    clock TEXT NOT NULL,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    conflict TEXT,
    roll TEXT
)
"""
_ROLL_COLUMN = "ALTER TABLE entries ADD COLUMN roll TEXT"
"""A queue file of an older version has no ``roll`` (the roll an appended event applies)."""


def _roll_json(roll: RollRecord | None) -> str | None:
    return None if roll is None else json.dumps(asdict(roll))


def _line(value: Mapping[str, Any]) -> RollLine:
    return RollLine(str(value["ruleset_id"]), str(value["procedure_id"]),
                    dict(value["body"]), str(value["outcome"]), value["success"],
                    value["p_success"])


def _roll_from_json(text: str | None) -> RollRecord | None:
    if text is None:
        return None
    value = json.loads(text)
    return RollRecord(_line(value["line"]), value["log_id"],
                      tuple(_line(part) for part in value["parts"]),
                      tuple(ThrownDice(d["ruleset_id"], d["expression"], tuple(d["values"]),
                                       tuple(d["sides"]), d["entered"], d["success"],
                                       d["seed"]) for d in value["dice"]))


def default_queue_path() -> Path:
    import platformdirs


    folder = Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / QUEUE_FILE_NAME


@dataclass(frozen=True)
class QueuedEntry:
    id: int
    target: str
    session_id: int
    op: str
    seq: int
    """The event's number: the one it will have (append) or has (undo, redo)."""
    expected_last: int
    """The server's last active event before this entry, as the laptop saw it (0: none)."""
    event: Event | None
    sheets: Mapping[str, Mapping[str, Any]]
    clock: Mapping[str, Any]
    created_at: datetime
    roll: RollRecord | None = None
    """The roll an appended event applies: settled on the server with it, when it is sent."""


class OfflineQueue:
    """Entries in order, per club (``target``, a connection's key) and session."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with closing(self._connect()) as db, db:
            db.execute(_SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
            if "roll" not in columns:
                db.execute(_ROLL_COLUMN)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path)
        db.execute("PRAGMA synchronous = FULL")
        return db

    def put(self, target: str, session_id: int, op: str, seq: int, expected_last: int,
            event: Event | None, sheets: Mapping[str, Mapping[str, Any]],
            clock: Mapping[str, Any], created_at: datetime,
            roll: RollRecord | None = None) -> QueuedEntry:
        body = None if event is None else json.dumps(event.to_json())
        with closing(self._connect()) as db, db:
            cursor = db.execute(
                "INSERT INTO entries (target, session_id, op, seq, expected_last, body, sheets,"
                " clock, created_at, roll) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (target, session_id, op, seq, expected_last, body, json.dumps(sheets),
                 json.dumps(clock), created_at.isoformat(), _roll_json(roll)))
            entry_id = int(cursor.lastrowid or 0)
        return QueuedEntry(entry_id, target, session_id, op, seq, expected_last, event,
                           sheets, clock, created_at, roll)

    def entries(self, target: str, session_id: int) -> list[QueuedEntry]:
        """The queued (not set-aside) entries of one session, oldest first."""
        with closing(self._connect()) as db:
            rows = db.execute(
                "SELECT id, target, session_id, op, seq, expected_last, body, sheets, clock,"
                " created_at, roll FROM entries WHERE target = ? AND session_id = ? AND state = ?"
                " ORDER BY id", (target, session_id, QUEUED)).fetchall()
        return [QueuedEntry(int(r[0]), str(r[1]), int(r[2]), str(r[3]), int(r[4]), int(r[5]),
                            None if r[6] is None else Event.from_json(json.loads(r[6])),
                            json.loads(r[7]), json.loads(r[8]), datetime.fromisoformat(r[9]),
                            _roll_from_json(r[10]))
                for r in rows]

    def count(self, target: str | None = None) -> int:
        """Queued entries (of one club, or of every club)."""
        query = "SELECT count(*) FROM entries WHERE state = ?"
        args: tuple[str, ...] = (QUEUED,)
        if target is not None:
            query += " AND target = ?"
            args += (target,)
        with closing(self._connect()) as db:
            return int(db.execute(query, args).fetchone()[0])

    def rekey(self, old: str, new: str) -> int:
        """Entries kept under the address ``old`` (before entries were keyed on the server's
        identity) move to ``new``; how many did."""
        if old == new:
            return 0
        with closing(self._connect()) as db, db:
            return int(db.execute("UPDATE entries SET target = ? WHERE target = ?",
                                  (new, old)).rowcount)

    def remove(self, entry_id: int) -> None:
        with closing(self._connect()) as db, db:
            db.execute("DELETE FROM entries WHERE id = ?", (entry_id,))

    def record_conflict(self, target: str, session_id: int, text: str) -> None:
        with closing(self._connect()) as db, db:
            db.execute("UPDATE entries SET conflict = ? WHERE target = ? AND session_id = ?"
                       " AND state = ?", (text, target, session_id, QUEUED))

    def set_aside(self, target: str, session_id: int) -> int:
        """Stop replaying a session's entries; they stay in the file (state ``set-aside``)."""
        with closing(self._connect()) as db, db:
            cursor = db.execute("UPDATE entries SET state = ? WHERE target = ? AND session_id = ?"
                                " AND state = ?", (SET_ASIDE, target, session_id, QUEUED))
            return int(cursor.rowcount)


class ServerEvents(Protocol):
    """What the queue needs of the server's store (a :class:`SessionEvents`)."""

    session_id: int

    def append(self, event: Event, sheets: Mapping[str, Mapping[str, Any]],
               clock: Mapping[str, Any],
               settings: Mapping[str, Any] | None = None,
               roll: RollRecord | None = None,
               made_at: datetime | None = None) -> StoredEvent: ...

    def mark_undone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any],
                    settings: Mapping[str, Any] | None = None) -> None: ...

    def mark_redone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any],
                    settings: Mapping[str, Any] | None = None) -> None: ...

    def last_active(self) -> StoredEvent | None: ...

    def first_undone(self) -> StoredEvent | None: ...

    def count(self, include_undone: bool = False) -> int: ...

    def page(self, offset: int, limit: int) -> list[StoredEvent]: ...

    # The fire batch's declaration (migration 0007's declared_shots).
    def declared_shots(self) -> Sequence[StoredShot]: ...

    def declare_shot(self, procedure_id: str, inputs: Mapping[str, Any],
                     bindings: Mapping[str, str], dice: str, label: str,
                     turn: int | None, phase: str) -> int: ...

    def set_shot_dice(self, shot_id: int, dice: str) -> None: ...

    def forget_declared(self) -> None: ...


class ClubOfflineError(RuntimeError):
    """What cannot be done while the club server is unreachable (the message says so)."""


@dataclass(frozen=True)
class QueueState:
    """What the banner shows."""

    offline: bool
    pending: int
    conflict: str | None = None
    problem: str | None = None
    """The server refused the entries for another reason (in words); they keep waiting."""


@dataclass(frozen=True)
class ReplayResult:
    sent: int
    pending: int
    conflict: str | None = None
    """Set when another client wrote in between: what it wrote, in words."""
    still_offline: bool = False


_ALREADY_SENT = "already sent"


def _same_event(a: StoredEvent, b: StoredEvent) -> bool:
    return a.seq == b.seq and a.event.summary == b.event.summary \
        and a.event.to_json() == b.event.to_json()


class QueuedEventStore:
    """A session's events on the club server, queued on the laptop while the server is away."""

    def __init__(self, server: ServerEvents, queue: OfflineQueue, target: str,
                 is_connection_lost: Callable[[BaseException], bool],
                 listener: Callable[[QueueState], None] | None = None) -> None:
        self.server = server
        self.queue = queue
        self.target = target
        self.session_id = server.session_id
        self._lost = is_connection_lost
        self.listener = listener
        self._pending = queue.entries(target, self.session_id)
        self._conflict: str | None = None
        self._last: int | None = None
        """The last active event's number as this laptop knows it (None: not read yet)."""
        self._top: int | None = None
        """The highest event number as this laptop knows it, undone ones included (events are
        never deleted: a new one is numbered after every other)."""
        self._known: dict[int, StoredEvent] = {}
        """Events this laptop has written or read, by number (undone flags kept up to date)."""
        for entry in self._pending:
            self._apply_locally(entry)

    # --- state -------------------------------------------------------------------------
    @property
    def offline(self) -> bool:
        return bool(self._pending)

    def state(self) -> QueueState:
        return QueueState(self.offline, len(self._pending), self._conflict)

    def _notify(self) -> None:
        if self.listener is not None:
            self.listener(self.state())

    def _apply_locally(self, entry: QueuedEntry) -> None:
        if entry.op == APPEND and entry.event is not None:
            self._abandon_undone()
            self._known[entry.seq] = StoredEvent(entry.seq, entry.event, entry.created_at)
            self._last = entry.seq
            self._top = max(self._top or 0, entry.seq)
        else:
            stored = self._known.get(entry.seq)
            if stored is not None:
                self._known[entry.seq] = StoredEvent(stored.seq, stored.event, stored.created_at,
                                                     undone=entry.op == UNDO)
            self._last = self._active_before(entry.seq) if entry.op == UNDO else entry.seq

    def _abandon_undone(self) -> None:
        """A new event follows: the undone ones stay, no longer redoable."""
        self._known = {seq: StoredEvent(e.seq, e.event, e.created_at, True, True)
                       if e.undone else e for seq, e in self._known.items()}

    def _active_before(self, seq: int) -> int:
        """The number of the event in force before ``seq`` (an undone branch skipped)."""
        before = seq - 1
        while before > 0 and before in self._known and self._known[before].undone:
            before -= 1
        return before

    def _last_seq(self) -> int:
        if self._last is None:
            last = self.server.last_active()  # online: the queue is empty
            self._remember(last)
            self._last = 0 if last is None else last.seq
            self._top = self.server.count(include_undone=True)
        return self._last

    def _top_seq(self) -> int:
        last = self._last_seq()
        return last if self._top is None else max(self._top, last)

    def _remember(self, stored: StoredEvent | None) -> None:
        if stored is not None:
            self._known[stored.seq] = stored

    def _enqueue(self, op: str, seq: int, event: Event | None,
                 sheets: Mapping[str, Mapping[str, Any]], clock: Mapping[str, Any],
                 roll: RollRecord | None = None) -> QueuedEntry:
        entry = self.queue.put(self.target, self.session_id, op, seq, self._last_seq(), event,
                               sheets, clock, datetime.now(UTC), roll)
        self._pending.append(entry)
        self._apply_locally(entry)
        self._notify()
        return entry

    def _try_server(self, write: Callable[[], Any]) -> tuple[bool, Any]:
        """Run ``write`` on the server unless entries wait; (False, None): queue it instead."""
        if self._pending:
            return False, None
        try:
            self._last_seq()
            return True, write()
        except Exception as error:
            if not self._lost(error):
                raise
            if self._last is None:
                raise ClubOfflineError(
                    "The club server cannot be reached and this session's last entry is not "
                    "known on this laptop yet: wait for the connection, then try again."
                ) from None
            return False, None

    # --- the fire batch's declaration (declared_shots, migration 0007) ---------------------
    def _batch_write(self, write: Callable[[], _T]) -> _T:
        """A write of the batch's declaration, made on the server at once or refused in
        words (:class:`ClubOfflineError`), never queued: while entries wait on the laptop
        it would reach the server before them (and a batch applied among them forgets the
        declared shots when it lands), and with the server away it would be kept nowhere.
        A shot fired on its own (its event) waits in the queue like any other entry."""
        if self._pending:
            count = len(self._pending)
            raise ClubOfflineError(
                f"{count} entr{'y' if count == 1 else 'ies'} made while the club server was "
                f"away wait{'s' if count == 1 else ''} on this laptop, and the fire batch is "
                "kept on the server: fire the shot on its own (it waits with them), or "
                "declare it once they are sent (Retry now on the banner)")
        try:
            return write()
        except Exception as error:
            if not self._lost(error):
                raise
            raise ClubOfflineError(
                "the club server cannot be reached, and the fire batch is kept on the "
                "server: fire the shot on its own (it waits on this laptop with the other "
                "entries), or declare it when the connection is back") from None

    def declared_shots(self) -> Sequence[StoredShot]:
        try:
            return self.server.declared_shots()
        except Exception as error:
            if not self._lost(error):
                raise
            raise ClubOfflineError("the club server cannot be reached: the shots declared "
                                   "in the fire batch cannot be read") from None

    def declare_shot(self, procedure_id: str, inputs: Mapping[str, Any],
                     bindings: Mapping[str, str], dice: str, label: str,
                     turn: int | None, phase: str) -> int:
        return self._batch_write(lambda: self.server.declare_shot(
            procedure_id, inputs, bindings, dice, label, turn, phase))

    def set_shot_dice(self, shot_id: int, dice: str) -> None:
        self._batch_write(lambda: self.server.set_shot_dice(shot_id, dice))

    def forget_declared(self) -> None:
        self._batch_write(self.server.forget_declared)

    # --- EventStore -----------------------------------------------------------------------
    def append(self, event: Event, sheets: Mapping[str, Mapping[str, Any]],
               clock: Mapping[str, Any],
               settings: Mapping[str, Any] | None = None,
               roll: RollRecord | None = None) -> StoredEvent:
        # Queued, a settings event's settings travel in its body (``settings_after``).
        # The roll it applies is settled on the server in the event's transaction: now, or
        # queued with it, when it is sent (its line is then the one shown, if any).
        done, stored = self._try_server(lambda: self.server.append(event, sheets, clock,
                                                                   settings, roll=roll))
        if done:
            self._known = {s: e for s, e in self._known.items() if s < stored.seq}
            self._abandon_undone()
            self._remember(stored)
            self._last = self._top = stored.seq
            return stored  # type: ignore[no-any-return]
        entry = self._enqueue(APPEND, self._top_seq() + 1, event, sheets, clock, roll)
        return StoredEvent(entry.seq, event, entry.created_at,
                           roll_log_id=None if roll is None else roll.log_id,
                           roll_kept=roll is not None)

    def _mark(self, op: str, seq: int, sheets: Mapping[str, Mapping[str, Any]],
              clock: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> None:
        write = self.server.mark_undone if op == UNDO else self.server.mark_redone
        done, _ = self._try_server(lambda: write(seq, sheets, clock, settings))
        if done:
            self._apply_locally(QueuedEntry(0, self.target, self.session_id, op, seq, 0, None,
                                            sheets, clock, datetime.now(UTC)))
            return
        self._enqueue(op, seq, None, sheets, clock)

    def mark_undone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any],
                    settings: Mapping[str, Any] | None = None) -> None:
        self._mark(UNDO, seq, sheets, clock, settings)

    def mark_redone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any],
                    settings: Mapping[str, Any] | None = None) -> None:
        self._mark(REDO, seq, sheets, clock, settings)

    def last_active(self) -> StoredEvent | None:
        if not self._pending:
            try:
                last = self.server.last_active()
            except Exception as error:
                if not self._lost(error):
                    raise
            else:
                self._remember(last)
                self._last = 0 if last is None else last.seq
                return last
        seq = self._last_seq_offline()
        if seq == 0:
            return None
        stored = self._known.get(seq)
        if stored is None:
            raise ClubOfflineError("Undoing an entry made before the club server went away "
                                   "waits for the connection; your new entries are kept.")
        return stored

    def first_undone(self) -> StoredEvent | None:
        if not self._pending:
            try:
                first = self.server.first_undone()
            except Exception as error:
                if not self._lost(error):
                    raise
            else:
                self._remember(first)
                return first
        self._last_seq_offline()
        redoable = [e for e in self._known.values() if e.undone and not e.abandoned]
        return min(redoable, key=lambda e: e.seq) if redoable else None

    def _last_seq_offline(self) -> int:
        if self._last is None:
            raise ClubOfflineError("The club server cannot be reached: wait for the connection.")
        return self._last

    # --- EventPages (the log panel) -------------------------------------------------------
    def count(self, include_undone: bool = False) -> int:
        if not self._pending:
            try:
                return self.server.count(include_undone)
            except Exception as error:
                if not self._lost(error):
                    raise
        return sum(1 for e in self._local_events() if include_undone or not e.undone)

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        if not self._pending:
            try:
                return self.server.page(offset, limit)
            except Exception as error:
                if not self._lost(error):
                    raise
        return self._local_events()[offset:offset + limit]

    def _local_events(self) -> list[StoredEvent]:
        """Offline: the events this laptop knows, in order (the server's older ones it read)."""
        return [self._known[seq] for seq in sorted(self._known)]

    # --- replay ---------------------------------------------------------------------------
    def replay(self) -> ReplayResult:
        """Send the queued entries in order; stop at a dropped connection or a conflict."""
        sent = 0
        while self._pending:
            entry = self._pending[0]
            try:
                conflict = self._conflict_before(entry)
                if conflict == _ALREADY_SENT:
                    pass  # the laptop stopped between the server's commit and the removal
                elif conflict is not None:
                    self._conflict = conflict
                    self.queue.record_conflict(self.target, self.session_id, conflict)
                    self._notify()
                    return ReplayResult(sent, len(self._pending), conflict)
                else:
                    self._send(entry)
            except StaleSessionError as error:
                # The server's compare-and-append (issue 15) refused it: another client
                # wrote between the check above and this write. Nothing was written.
                waiting = len(self._pending)
                conflict = (f"{error} Your {waiting} queued entr"
                            f"{'y' if waiting == 1 else 'ies'} were not written over theirs: "
                            "they stay on this laptop.")
                self._conflict = conflict
                self.queue.record_conflict(self.target, self.session_id, conflict)
                self._notify()
                return ReplayResult(sent, len(self._pending), conflict)
            except Exception as error:
                if not self._lost(error):
                    raise
                self._notify()
                return ReplayResult(sent, len(self._pending), still_offline=True)
            self.queue.remove(entry.id)
            self._pending.pop(0)
            sent += 1
        self._conflict = None
        self._notify()
        return ReplayResult(sent, 0)

    def _send(self, entry: QueuedEntry) -> None:
        if entry.op == APPEND:
            assert entry.event is not None
            # The event keeps the time it was made at the table, not the replay's.
            stored = self.server.append(entry.event, entry.sheets, entry.clock,
                                        entry.event.settings_after, roll=entry.roll,
                                        made_at=entry.created_at)
            self._known[stored.seq] = stored
            return
        # A settings event undone or redone puts its settings before or after back.
        known = self._known.get(entry.seq)
        event = known.event if known is not None else None
        settings = None
        if event is not None and event.settings_after is not None:
            settings = (dict(event.settings_before or {}) if entry.op == UNDO
                        else dict(event.settings_after))
        if entry.op == UNDO:
            self.server.mark_undone(entry.seq, entry.sheets, entry.clock, settings)
        else:
            self.server.mark_redone(entry.seq, entry.sheets, entry.clock, settings)

    def _conflict_before(self, entry: QueuedEntry) -> str | None:
        """Words for what another client wrote since the laptop last saw the server, or None."""
        last = self.server.last_active()
        found = 0 if last is None else last.seq
        known = self._known.get(found)
        if (entry.op == APPEND and last is not None and found == entry.seq
                and found > entry.expected_last and entry.event is not None
                and _same_event(last, StoredEvent(entry.seq, entry.event, entry.created_at))):
            return _ALREADY_SENT
        if found == entry.expected_last and (last is None or known is None
                                             or _same_event(last, known)):
            return None
        lowest = min(found, entry.expected_last)
        theirs = [e for e in self.server.page(0, self.server.count(include_undone=True))
                  if e.seq >= lowest and not (e.seq in self._known
                                             and _same_event(e, self._known[e.seq]))]
        listed = "; ".join(f"#{e.seq} {e.event.summary}" for e in theirs[:5]) \
            or "an undo or redo"
        waiting = len(self._pending)
        return (f"Another client wrote to this session while this laptop was offline "
                f"({listed}). Your {waiting} queued entr{'y' if waiting == 1 else 'ies'} "
                "were not written over theirs: they stay on this laptop.")

    def set_aside(self) -> int:
        """After a conflict: stop replaying; the entries stay in the queue file, set aside."""
        count = self.queue.set_aside(self.target, self.session_id)
        self._pending = []
        self._conflict = None
        self._last = self._top = None
        self._known = {}
        self._notify()
        return count
