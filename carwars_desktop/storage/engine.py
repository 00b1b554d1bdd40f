"""One engine factory for every database URL, and where the default file lives.

SQLite gets write-ahead logging, enforced foreign keys, a short busy timeout and
``synchronous=FULL`` (a committed event survives a kill or a power cut), plus
real transactions around DDL so a migration is all-or-nothing. Any other URL
(PostgreSQL: ``postgresql+psycopg://user@host/db``) is used as given, with a short
lock timeout and a statement timeout (the URL's own ``options`` are kept, after them).
The lock timeouts are short so that a click on a locked database fails within a
fraction of a second (the GM sees why and retries) instead of freezing the window
for seconds.

``read_only=True`` opens an SQLite file for browsing: nothing can be written and
nothing is created beside it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError

from carwars_desktop.storage.errors import DatabaseError
from carwars_desktop.storage.locations import (  # here as before
    ENV_VAR,
    absolute,
    default_path,
)

BUSY_TIMEOUT_MS = 150
"""How long a write waits for another writer's lock before it fails (and can be retried)."""
LOCK_TIMEOUT_MS = 150
STATEMENT_TIMEOUT_MS = 30_000
"""No statement on a server runs longer (a migration's included): it fails and says so."""


def sqlite_url_for_path(path: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL of an SQLite file, given a filesystem path."""
    return URL.create("sqlite", database=absolute(path)).render_as_string(hide_password=False)


def default_url() -> str:
    """``carwars.sqlite3`` in the user's data folder, which is created if needed."""
    return sqlite_url_for_path(default_path())


def resolve_url(cli_value: str | None, env: Mapping[str, str]) -> str:
    """The database to open: the command line beats ``CARWARS_DB``, which beats the default.

    Either value may be a SQLAlchemy URL (``sqlite:///…``, ``postgresql+psycopg://…``)
    or a bare filesystem path, which becomes an SQLite URL. Empty values count as unset.
    """
    for value in (cli_value, env.get(ENV_VAR)):
        if value is not None and value.strip():
            return normalize_url(value.strip())
    return default_url()


def normalize_url(value: str) -> str:
    """A URL as given, or a filesystem path turned into an SQLite URL."""
    if "://" not in value:
        return sqlite_url_for_path(value)
    try:
        make_url(value)
    except ArgumentError as error:
        raise DatabaseError(f"{value!r} is neither a database URL nor a file path.") from error
    return value


def is_sqlite(url: str | URL) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine_for(url: str, read_only: bool = False) -> Engine:
    """An engine for ``url``; SQLite connections are set up for durability."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        options = f"-c lock_timeout={LOCK_TIMEOUT_MS} -c statement_timeout={STATEMENT_TIMEOUT_MS}"
        if read_only:
            options += " -c default_transaction_read_only=on"
        given = parsed.query.get("options")
        if isinstance(given, str) and given.strip():  # the URL's own come last: they win
            options += " " + given.strip()
        connect_args = {"options": options} if parsed.get_backend_name() == "postgresql" else {}
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    if read_only and parsed.database and parsed.database != ":memory:":
        path = Path(parsed.database).resolve()
        uri = path.as_uri() + "?mode=ro"
        if not path.with_name(path.name + "-wal").exists():
            # No writer is at work: read it as a plain file (a WAL database would else
            # need a -shm file beside it, which a read-only folder cannot take).
            uri += "&immutable=1"
        engine = create_engine(URL.create("sqlite", database=uri, query={"uri": "true"}))
        event.listen(engine, "connect", _configure_read_only_connection)
    else:
        engine = create_engine(parsed)
        event.listen(engine, "connect", _configure_sqlite_connection)
    event.listen(engine, "begin", _begin_sqlite_transaction)
    return engine


def _configure(dbapi_connection: Any, *pragmas: str) -> None:
    """Set a new SQLite connection up: the busy timeout, then ``pragmas``.

    Transaction control is taken away from the sqlite3 module, whose legacy mode runs
    DDL outside any transaction; _begin_sqlite_transaction emits BEGIN."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        for pragma in (f"busy_timeout = {BUSY_TIMEOUT_MS}", *pragmas):
            cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


def _configure_read_only_connection(dbapi_connection: Any, _record: object) -> None:
    _configure(dbapi_connection, "query_only = ON")


def _configure_sqlite_connection(dbapi_connection: Any, _record: object) -> None:
    _configure(dbapi_connection, "journal_mode = WAL", "synchronous = FULL",
               "foreign_keys = ON")


def _begin_sqlite_transaction(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN")
