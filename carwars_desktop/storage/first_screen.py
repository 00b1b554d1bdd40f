"""The Library's list, read with the standard ``sqlite3`` before SQLAlchemy has loaded.

Importing SQLAlchemy takes longer on a slow laptop than everything else the app does
before its first screen (about 0.3 s here, twice a bare Qt window's whole start). When
the database is a local SQLite file already at this version's schema and no game is
running in it (nothing to resume: the first screen is the Library), the list is read
here, read-only, and shown at once; the database is then opened as always
(:func:`carwars_desktop.storage.open_database`: every check, on a worker thread) and
takes over. Anything else (a server, a migration due, a running game, a file this cannot
read) returns None, and the app opens the database first, as it always did.

No SQLAlchemy here, nor in what this imports.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from contextlib import closing
from datetime import UTC, datetime

from carwars_desktop.storage.entries import ENTRY_COLUMNS, DesignEntry, entries_from_rows
from carwars_desktop.storage.errors import MigrationHeadsError
from carwars_desktop.storage.locations import sqlite_path
from carwars_desktop.storage.revisions import shipped_revisions
from carwars_desktop.storage.states import RUNNING

_ENTRIES = (f"SELECT {', '.join(ENTRY_COLUMNS)}, working_data IS NOT NULL FROM designs "
            "WHERE deleted_at IS NULL ORDER BY id")


def _stored_time(value: str) -> datetime:
    """A time as SQLAlchemy stores it in SQLite (naive UTC, ``2026-12-01 15:53:24.123456``)."""
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def read_first_screen(cli_value: str | None, env: Mapping[str, str]) -> list[DesignEntry] | None:
    """The library list (not the deleted designs) of the database ``resolve_url(cli_value,
    env)`` names, or None when the database must be opened first (see the module)."""
    path = sqlite_path(cli_value, env)
    if path is None or not path.is_file():
        return None
    try:
        head = shipped_revisions().head
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True,
                                     timeout=0.15)) as connection:
            revisions = [row[0] for row in connection.execute(
                "SELECT version_num FROM alembic_version")]
            if revisions != [head]:
                return None
            if connection.execute("SELECT 1 FROM game_sessions WHERE status = ? LIMIT 1",
                                  (RUNNING,)).fetchone() is not None:
                return None
            rows = connection.execute(_ENTRIES).fetchall()
            return entries_from_rows(rows, _stored_time)
    except (sqlite3.Error, ValueError, OSError, MigrationHeadsError):
        return None  # opened first, as always: there it is reported
