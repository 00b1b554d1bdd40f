"""The first screen, read with the standard ``sqlite3`` before SQLAlchemy has loaded.

Importing SQLAlchemy takes longer on a slow laptop than everything else the app does
before its first screen (about 0.3 s here, twice a bare Qt window's whole start). When
the database is a local SQLite file already at this version's schema (nothing to
migrate), what the first screen shows is read here, read-only, and shown at once:

- the last running game, when the normal opening would resume it (no other copy of
  the app plays it, :mod:`.leases`): its vehicles, current sheets, clock and settings,
  read in one transaction with the version they were at, and its history read from the
  file on demand (:class:`FileEvents`, reads only) — the Table shows its sheets;
- otherwise the Library's list.

The database is then opened as always (:func:`carwars_desktop.storage.open_database`:
every check, on a worker thread) and takes over: the Library reads its list again, the
Table takes the game's lease and keeps the sheets it shows if the session is still at
that version (``TableService.open``). Anything else (a server, a migration due, a game
another copy plays, a file this cannot read) returns None, and the app opens the
database first, as it always did.

Which session is the last running one, its vehicles' order and which designs are listed
are the statements of :mod:`.shared_queries`, which the repositories run too.

No SQLAlchemy here, nor in what this imports.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from carwars_desktop.session import Event, RollRecord, StoredEvent
from carwars_desktop.storage.entries import DesignEntry, entries_from_rows
from carwars_desktop.storage.errors import MigrationHeadsError
from carwars_desktop.storage.installation import draft_owner
from carwars_desktop.storage.leases import lease_info
from carwars_desktop.storage.locations import sqlite_path
from carwars_desktop.storage.revisions import shipped_revisions
from carwars_desktop.storage.session_records import (
    LoadedSession,
    SessionInfo,
    loaded_session,
    stored_event,
)
from carwars_desktop.storage.shared_queries import (
    LAST_RUNNING_ID,
    LISTED_ENTRIES,
    SESSION_VEHICLES,
)
from carwars_desktop.storage.sqlite_file import (
    HEADER_SIZE,
    SQLITE_MAGIC,
    file_problem,
    quick_check_problems,
    read_only_uri,
)
from carwars_desktop.storage.states import ACTIVE, RUNNING, UNDONE

_SESSION = (
    "SELECT id, ruleset_id, name, scenario, status, created_at, updated_at, finished_at, "
    "version, lease_token, lease_holder, lease_host, lease_since, lease_renewed_at, clock, "
    "settings FROM game_sessions WHERE id = :session_id")
_EVENT_COLUMNS = "seq, body, created_at, status"
_TIMEOUT = 0.15
"""How long a read waits for a writer's lock: at start-up the database is then opened
first instead; a read of the shown game's history (while the database opens) reads as
none, until the database's store takes over a moment later."""


def _stored_time(value: str) -> datetime:
    """A time as SQLAlchemy stores it in SQLite (naive UTC, ``2026-12-01 15:53:24.123456``)."""
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _optional_time(value: str | None) -> datetime | None:
    return None if value is None else _stored_time(value)


def _connect(path: Path) -> sqlite3.Connection:
    """A read-only connection to ``path`` that creates nothing beside it, once the file's
    header and size are sound (:mod:`.sqlite_file`, as the start-up checks).

    Raises:
        sqlite3.DatabaseError: the file is damaged, or cannot be read without creating
            a file beside it.
        OSError: the file cannot be read.
    """
    with path.open("rb") as stream:
        header = stream.read(HEADER_SIZE)
        size = os.fstat(stream.fileno()).st_size
    if not header.startswith(SQLITE_MAGIC):
        raise sqlite3.DatabaseError(f"{path} is not an SQLite file")
    problem = file_problem(path, header, size)
    uri = read_only_uri(path, header)
    if problem is not None or uri is None:
        raise sqlite3.DatabaseError(problem or f"{path} cannot be read as it is")
    return sqlite3.connect(uri, uri=True, timeout=_TIMEOUT, isolation_level=None)


@dataclass(frozen=True)
class RunningGame:
    """The running game start-up resumes: everything to show it, read at one version."""

    loaded: LoadedSession
    events: FileEvents


@dataclass(frozen=True)
class FirstScreen:
    """What the first screen shows: a running game at the Table, or the Library's list."""

    game: RunningGame | None = None
    entries: list[DesignEntry] | None = None


def read_first_screen(cli_value: str | None, env: Mapping[str, str]) -> FirstScreen | None:
    """The first screen of the database ``resolve_url(cli_value, env)`` names, or None
    when the database must be opened first (see the module)."""
    path = sqlite_path(cli_value, env)
    if path is None or not path.is_file():
        return None
    try:
        head = shipped_revisions().head
        with closing(_connect(path)) as connection:
            connection.execute("BEGIN")  # one snapshot: the sheets at the version read
            if quick_check_problems(connection):
                return None  # damaged: the start-up checks say how
            revisions = [row[0] for row in connection.execute(
                "SELECT version_num FROM alembic_version")]
            if revisions != [head]:
                return None
            running = connection.execute(LAST_RUNNING_ID, {"status": RUNNING}).fetchone()
            if running is not None:
                row = connection.execute(_SESSION, {"session_id": running[0]}).fetchone()
                game = _running_game(connection, path, row)
                return None if game is None else FirstScreen(game=game)
            rows = connection.execute(LISTED_ENTRIES, {"owner": draft_owner()}).fetchall()
            return FirstScreen(entries=entries_from_rows(rows, _stored_time))
    except (sqlite3.Error, ValueError, TypeError, KeyError, OSError, MigrationHeadsError):
        return None  # opened first, as always: there it is reported


def _running_game(connection: sqlite3.Connection, path: Path,
                  row: Sequence[Any]) -> RunningGame | None:
    """The game of the ``_SESSION`` ``row``, or None when another copy plays it (the
    normal opening asks the GM whether to follow it or take it over)."""
    (session_id, ruleset_id, name, scenario, status, created, updated, finished, version,
     token, holder, host, since, renewed, clock, settings) = row
    now = datetime.now(UTC)
    if lease_info(token, holder, host, _optional_time(since), _optional_time(renewed),
                  now) is not None:
        return None
    vehicle_count, = connection.execute(
        "SELECT count(*) FROM session_vehicles WHERE session_id = ?", (session_id,)).fetchone()
    event_count, = connection.execute(
        "SELECT count(*) FROM session_events WHERE session_id = ? AND status = ?",
        (session_id, ACTIVE)).fetchone()
    info = SessionInfo(session_id, ruleset_id, name, scenario, status, _stored_time(created),
                       _stored_time(updated), _optional_time(finished), vehicle_count,
                       event_count, version, None)
    vehicles = connection.execute(SESSION_VEHICLES, {"session_id": session_id}).fetchall()
    return RunningGame(loaded_session(info, vehicles, clock, settings),
                       FileEvents(path, session_id))


class FileEvents:
    """A running session's history read from the file while the database opens: the
    event store of the game shown at start-up. It only reads (the GM's first key waits
    for the database, whose store then replaces this one): a write here is a bug. A read
    the file refuses meanwhile reads as no events."""

    def __init__(self, path: Path, session_id: int) -> None:
        self.path = path
        self.session_id = session_id

    def _read(self, columns: str, where: str, tail: str = "",
              arguments: tuple[Any, ...] = ()) -> list[Any]:
        """Rows of this session's events (none when the file refuses the read)."""
        try:
            with closing(_connect(self.path)) as connection:
                return connection.execute(
                    f"SELECT {columns} FROM session_events WHERE session_id = ? {where} "
                    f"{tail}", (self.session_id, *arguments)).fetchall()
        except (sqlite3.Error, OSError):
            return []

    def _events(self, where: str, tail: str, arguments: tuple[Any, ...]) -> list[StoredEvent]:
        rows = self._read(_EVENT_COLUMNS, where, f"ORDER BY seq {tail}", arguments)
        return [stored_event(seq, body, _stored_time(created), status)
                for seq, body, created, status in rows]

    def count(self, include_undone: bool = False) -> int:
        rows = (self._read("count(*)", "") if include_undone
                else self._read("count(*)", "AND status = ?", arguments=(ACTIVE,)))
        return int(rows[0][0]) if rows else 0

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        return self._events("", "LIMIT ? OFFSET ?", (limit, offset))

    def last_active(self) -> StoredEvent | None:
        events = self._events("AND status = ?", "DESC LIMIT 1", (ACTIVE,))
        return events[0] if events else None

    def first_undone(self) -> StoredEvent | None:
        events = self._events("AND status = ?", "LIMIT 1", (UNDONE,))
        return events[0] if events else None

    def append(self, event: Event, sheets: Mapping[str, Mapping[str, Any]],
               clock: Mapping[str, Any],
               settings: Mapping[str, Any] | None = None,
               roll: RollRecord | None = None) -> StoredEvent:
        raise RuntimeError(_READS_ONLY)

    def mark_undone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> None:
        raise RuntimeError(_READS_ONLY)

    def mark_redone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> None:
        raise RuntimeError(_READS_ONLY)


_READS_ONLY = ("the session was shown from the file before the database was open, and is "
               "written only once it is (the GM's first key waits for it)")
