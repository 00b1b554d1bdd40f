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
laptop's entries stay in the queue file until the GM decides. The server's own
compare-and-append (issue 15) closes the gap between that check and the write: a write it
refuses as stale is reported the same way.

After a conflict (issue 31), the entry the replay stopped at is *conflicted* (its reason kept
with it in the file) and the later ones *wait behind it*: they were made on top of it, so
none is sent before the GM decides, in the queue view, what becomes of it:

* :meth:`QueuedEventStore.apply_again_on_top`: it becomes a new event after the server's
  current ones (never replacing anyone's), with the time it was made at the table. Only what
  it changed is written, over the server's sheets as they are now (:func:`on_top`): the
  other client's changes to anything else stay.
* :meth:`QueuedEventStore.drop`: it is removed from the queue file, never sent.

Either way the replay then continues with the entries behind it, each appended on top the
same way (the server's history is no longer the one they were made after, so none is sent
as it is). An undo or redo cannot go on top (the event it undoes is no longer the last one):
the replay stops at it, conflicted, for the GM to drop. The set-aside of the whole session's
entries (:meth:`QueuedEventStore.set_aside`) stays as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from carwars_desktop.session import (
    Event,
    RollLine,
    RollRecord,
    SheetUpdate,
    StaleSessionError,
    StoredEvent,
    ThrownDice,
)
from carwars_desktop.storage.locations import APP_AUTHOR, APP_NAME

if TYPE_CHECKING:  # (game_sessions loads SQLAlchemy: the queue file does not need it)
    from carwars_desktop.storage.game_sessions import StoredShot

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
    conflict: str | None = None
    """Why the replay stopped at it (another client's entries, in words); None: it waits."""


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

    def entries(self, target: str, session_id: int | None = None) -> list[QueuedEntry]:
        """The queued (not set-aside) entries of one session (or, without ``session_id``,
        of every session of the club), oldest first (by session)."""
        query = ("SELECT id, target, session_id, op, seq, expected_last, body, sheets, clock,"
                 " created_at, roll, conflict FROM entries WHERE target = ? AND state = ?")
        args: tuple[str | int, ...] = (target, QUEUED)
        if session_id is not None:
            query += " AND session_id = ?"
            args += (session_id,)
        with closing(self._connect()) as db:
            rows = db.execute(query + " ORDER BY session_id, id", args).fetchall()
        return [QueuedEntry(int(r[0]), str(r[1]), int(r[2]), str(r[3]), int(r[4]), int(r[5]),
                            None if r[6] is None else Event.from_json(json.loads(r[6])),
                            json.loads(r[7]), json.loads(r[8]), datetime.fromisoformat(r[9]),
                            _roll_from_json(r[10]), r[11])
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

    def record_conflict(self, entry_id: int, text: str) -> None:
        """The replay stopped at this entry: why, in words (the ones behind it just wait)."""
        with closing(self._connect()) as db, db:
            db.execute("UPDATE entries SET conflict = ? WHERE id = ?", (text, entry_id))

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

    def catch_up(self) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        """The server's sheets and clock now; the next write follows its events."""
        ...

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


class QueueEntryError(RuntimeError):
    """A queued entry cannot be applied again or dropped now (the message says why)."""


CANNOT_GO_ON_TOP = ("An undo or redo made while the club server was away cannot go on top of "
                    "another client's entries (the entry it undoes is no longer the last one): "
                    "drop it, then undo or redo at the table.")


def _rebased(before: Mapping[str, Any], after: Mapping[str, Any],
             now: Mapping[str, Any]) -> dict[str, Any]:
    """``now`` with what changed from ``before`` to ``after`` (nested objects field by field)."""
    merged = dict(now)
    for key in before.keys() | after.keys():
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if key not in after:
            merged.pop(key, None)
        elif isinstance(old, Mapping) and isinstance(new, Mapping) \
                and isinstance(now.get(key), Mapping):
            merged[key] = _rebased(old, new, now[key])
        else:
            merged[key] = new
    return merged


def on_top(event: Event, sheets_now: Mapping[str, Mapping[str, Any]]) -> Event:
    """``event`` made again over the sheets as they are now: each vehicle it changed gets
    what it changed (nothing else), and its "before" is the sheet now (an undo of it then
    puts the other client's values back)."""
    updates = []
    for update in event.updates:
        now = sheets_now.get(update.vehicle, update.before)
        updates.append(SheetUpdate(update.vehicle, dict(now),
                                   _rebased(update.before, update.after, now)))
    return replace(event, updates=tuple(updates))


def entry_words(entry: QueuedEntry, entries: Sequence[QueuedEntry] = ()) -> str:
    """What the entry is, in words: its event's summary, or the undo or redo of which one
    (named when ``entries``, the queue it is in, holds it)."""
    if entry.op == APPEND and entry.event is not None:
        return entry.event.summary
    named = next((e.event.summary for e in entries if e.op == APPEND and e.event is not None
                  and e.session_id == entry.session_id and e.seq == entry.seq), None)
    what = "Undo" if entry.op == UNDO else "Redo"
    return f"{what} of entry #{entry.seq}" + (f" ({named})" if named else "")


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
        """Send the queued entries in order; stop at a dropped connection or a conflict.

        A conflicted entry (its reason kept in the file, from an earlier replay) stops it
        again until the GM decides (:meth:`apply_again_on_top`, :meth:`drop`)."""

        def send(entry: QueuedEntry, sent: int) -> ReplayResult | None:
            if entry.conflict is not None:
                return self._stop_at(entry, entry.conflict, sent)
            conflict = self._conflict_before(entry)
            if conflict == _ALREADY_SENT:
                return None  # the laptop stopped between the server's commit and the removal
            if conflict is not None:
                return self._stop_at(entry, conflict, sent)
            self._send(entry)
            return None

        return self._drain(send)

    def _drain(self, send: Callable[[QueuedEntry, int], ReplayResult | None]) -> ReplayResult:
        """Send the queued entries in order with ``send`` (its result: where it stopped,
        None once the entry is on the server); stop at a dropped connection too."""
        sent = 0
        while self._pending:
            entry = self._pending[0]
            try:
                stopped = send(entry, sent)
            except StaleSessionError as error:
                # The server's compare-and-append (issue 15) refused it: another client
                # wrote between the check and this write, or holds the session now.
                # Nothing was written.
                return self._stop_at(entry, f"{error} {self._kept_words()}", sent)
            except Exception as error:
                if not self._lost(error):
                    raise
                self._notify()
                return ReplayResult(sent, len(self._pending), still_offline=True)
            if stopped is not None:
                return stopped
            self.queue.remove(entry.id)
            self._pending.pop(0)
            sent += 1
            if self._pending:
                self._notify()  # one fewer waits (the banner and the queue view follow)
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
        return (f"Another client wrote to this session while this laptop was offline "
                f"({listed}). {self._kept_words()}")

    def _kept_words(self) -> str:
        waiting = len(self._pending)
        one = waiting == 1
        return (f"Your {waiting} queued entr{'y was' if one else 'ies were'} not written over "
                f"theirs: {'it stays' if one else 'they stay'} on this laptop, "
                f"{'conflicted' if one else 'the first one conflicted'}.")

    def _stop_at(self, entry: QueuedEntry, conflict: str, sent: int) -> ReplayResult:
        """The replay stops at ``entry`` (conflicted); the ones behind it wait."""
        self._conflict = conflict
        self.queue.record_conflict(entry.id, conflict)
        self._pending[0] = replace(entry, conflict=conflict)
        self._notify()
        return ReplayResult(sent, len(self._pending), conflict)

    # --- after a conflict: the GM's decision (the queue view) -----------------------------
    def entries(self) -> list[QueuedEntry]:
        """What waits to be sent, in order; the first is conflicted after a conflict."""
        return list(self._pending)

    def _decided(self, entry_id: int) -> QueuedEntry:
        if not self._pending or self._pending[0].id != entry_id \
                or self._pending[0].conflict is None:
            raise QueueEntryError("Only the conflicted entry (the first one waiting, once the "
                                  "club server answered) can be applied again or dropped: the "
                                  "ones behind it follow it.")
        return self._pending[0]

    def apply_again_on_top(self, entry_id: int) -> ReplayResult:
        """The conflicted entry appended after the server's current events, then the ones
        behind it (module docstring); the other client's entries stay as they are."""
        self._decided(entry_id)
        return self._continue_on_top()

    def drop(self, entry_id: int) -> ReplayResult:
        """The conflicted entry removed, never sent; the ones behind it then go on top."""
        entry = self._decided(entry_id)
        self.queue.remove(entry.id)
        self._pending.pop(0)
        return self._continue_on_top()

    def _append_on_top(self, entry: QueuedEntry, made: Event) -> StoredEvent:
        sheets_now, clock_now = self.server.catch_up()
        event = on_top(made, sheets_now)
        clock = dict(entry.clock) if made.clock_after is not None \
            and made.clock_after != made.clock_before else clock_now
        return self.server.append(event, {u.vehicle: u.after for u in event.updates}, clock,
                                  event.settings_after, roll=entry.roll,
                                  made_at=entry.created_at)

    def _continue_on_top(self) -> ReplayResult:
        def send(entry: QueuedEntry, sent: int) -> ReplayResult | None:
            if entry.op != APPEND or entry.event is None:
                return self._stop_at(entry, CANNOT_GO_ON_TOP, sent)
            last = self.server.last_active()
            if last is not None and last.created_at == entry.created_at \
                    and last.event.summary == entry.event.summary:
                stored = last  # sent just before the laptop stopped: not twice
            else:
                stored = self._append_on_top(entry, entry.event)
            self._known = {stored.seq: stored}
            self._last = self._top = stored.seq
            return None

        return self._drain(send)

    def set_aside(self) -> int:
        """After a conflict: stop replaying; the entries stay in the queue file, set aside."""
        count = self.queue.set_aside(self.target, self.session_id)
        self._pending = []
        self._conflict = None
        self._last = self._top = None
        self._known = {}
        self._notify()
        return count
