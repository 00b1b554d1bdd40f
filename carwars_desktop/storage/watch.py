"""What other connections changed: the designs and sessions written elsewhere (issue 31).

Another copy of the app on the club server, or ``carwars-desktop design import`` on the
same SQLite file, writes designs and sessions this copy lists. A :class:`Watcher` is
asked, now and then and off the GUI thread, what changed since it was last asked:

* on SQLite, ``PRAGMA data_version`` on a connection of its own tells, at the cost of a
  read of the file's header, whether anybody else committed; only then are the designs'
  and sessions' list columns read again and compared with what was read before, by id;
* on PostgreSQL a dedicated connection ``LISTEN``\\ s on :data:`CHANNEL`; the triggers of
  revision 0013 ``NOTIFY`` it of every row of ``designs`` and ``game_sessions`` written,
  whoever wrote it (the command line included), with the table and the row's id.

Our own writes are seen too: whoever hears them reads the rows again and finds them as
shown. Qt-free, SQLAlchemy-free at the call: the GUI polls it from a worker thread.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sqlalchemy import Engine

_log = logging.getLogger(__name__)

CHANNEL = "carwars_changes"
"""The PostgreSQL channel the triggers of revision 0013 notify."""
DESIGNS, SESSIONS = "designs", "game_sessions"
LISTED = "listed"
"""A payload's last part when a row came or went from a list (a design inserted,
deleted or restored, a session created, finished or deleted); ``row`` otherwise."""


@dataclass(frozen=True)
class Seen:
    """What other connections changed since the watcher was last asked.

    Attributes:
        designs: designs added, changed or removed (restored, deleted, purged), by id.
        sessions: sessions whose row in the session list changed, by id.
        sessions_listed: a session was created, finished or deleted (the list of sessions
            changed, not only a row of it).
    """

    designs: frozenset[int] = frozenset()
    sessions: frozenset[int] = frozenset()
    sessions_listed: bool = False

    def __bool__(self) -> bool:
        return bool(self.designs or self.sessions or self.sessions_listed)


class Watcher(Protocol):
    def poll(self) -> Seen:
        """What changed elsewhere since the last call (the first call: since it opened)."""
        ...

    def close(self) -> None: ...


_DESIGN_COLUMNS = ("SELECT id, name, tags, updated_at, deleted_at, legal, problem_count, "
                   "cost, class_value, catalog_name FROM designs")
_SESSION_COLUMNS = ("SELECT id, status, version, name, updated_at, finished_at, lease_token, "
                    "lease_holder, lease_renewed_at FROM game_sessions")


class SqliteWatcher:
    """``PRAGMA data_version`` on a read-only connection of its own, then a diff by id."""

    def __init__(self, path: str) -> None:
        from pathlib import Path

        uri = Path(path).resolve().as_uri() + "?mode=ro"
        self._connection = sqlite3.connect(uri, uri=True, isolation_level=None,
                                           check_same_thread=False, timeout=0.15)
        self._lock = threading.Lock()
        self._version: int | None = None
        self._designs: dict[int, tuple[Any, ...]] = {}
        self._sessions: dict[int, tuple[Any, ...]] = {}
        self.poll()  # what is there now: what changes from here on is told

    def _rows(self, query: str) -> dict[int, tuple[Any, ...]]:
        return {int(row[0]): tuple(row[1:]) for row in self._connection.execute(query)}

    def poll(self) -> Seen:
        with self._lock:
            version = int(self._connection.execute("PRAGMA data_version").fetchone()[0])
            if version == self._version:
                return Seen()
            designs = self._rows(_DESIGN_COLUMNS)
            sessions = self._rows(_SESSION_COLUMNS)
            first = self._version is None
            self._version = version
            old_designs, self._designs = self._designs, designs
            old_sessions, self._sessions = self._sessions, sessions
        if first:  # what was there when it opened
            return Seen()
        return Seen(_differing(old_designs, designs), _differing(old_sessions, sessions),
                    sessions.keys() != old_sessions.keys() or any(
                        old_sessions[key][0] != row[0] for key, row in sessions.items()
                        if key in old_sessions))

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def _differing(old: dict[int, tuple[Any, ...]], new: dict[int, tuple[Any, ...]]
               ) -> frozenset[int]:
    return frozenset(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))


class PostgresWatcher:
    """``LISTEN`` on :data:`CHANNEL` on a connection of its own (taken from ``engine``, with
    its settings and credentials, then detached from its pool)."""

    def __init__(self, engine: Engine) -> None:
        pooled = engine.raw_connection()
        driver = pooled.driver_connection
        pooled.detach()
        if driver is None:
            raise RuntimeError("the database driver gave no connection to listen on")
        driver.rollback()  # (the pool's ping may have begun a transaction)
        driver.autocommit = True
        driver.execute(f"LISTEN {CHANNEL}")
        self._connection: Any = driver
        self._lock = threading.Lock()

    def poll(self) -> Seen:
        designs: set[int] = set()
        sessions: set[int] = set()
        listed = False
        with self._lock:
            notices = [notice.payload for notice in self._connection.notifies(timeout=0)]
        for payload in notices:
            table, _, rest = payload.partition(":")
            number, _, kind = rest.partition(":")
            try:
                row_id = int(number)
            except ValueError:
                _log.debug("a notification not understood: %r", payload)
                continue
            if table == DESIGNS:
                designs.add(row_id)
            elif table == SESSIONS:
                sessions.add(row_id)
                listed = listed or kind == LISTED
        return Seen(frozenset(designs), frozenset(sessions), listed)

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def watcher_for(engine: Engine) -> Watcher | None:
    """A watcher of the database behind ``engine``: SQLite files and PostgreSQL; None for
    an in-memory database (nobody else sees it) or another backend.

    Raises:
        sqlite3.Error or the driver's error: it could not connect.
    """
    url = engine.url
    backend = url.get_backend_name()
    if backend == "sqlite":
        database = url.database
        if not database or database == ":memory:":
            return None
        if database.startswith("file:"):  # a read-only URI (engine.py): the file behind it
            from urllib.parse import urlsplit
            from urllib.request import url2pathname

            parts = urlsplit(database)
            if "immutable=1" in parts.query:  # no writer was at work: none is followed
                return None
            database = url2pathname(parts.path)
        return SqliteWatcher(database)
    if backend == "postgresql":
        return PostgresWatcher(engine)
    return None
