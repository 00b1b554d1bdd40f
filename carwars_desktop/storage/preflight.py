"""Checks made before the app writes to a database, so a refused file stays untouched.

An SQLite file is read through a read-only connection. When no ``-wal`` or
``-journal`` file lies beside it, that connection is also ``immutable`` so SQLite
creates no ``-wal``/``-shm`` files either: the folder is left exactly as found.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from carwars_desktop.storage.errors import (
    CorruptDatabaseError,
    DatabaseError,
    NewerSchemaError,
    NotADatabaseError,
)

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
VERSION_TABLE = "alembic_version"
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26


def _unchanged(kind: str) -> str:
    return f"The {kind} was not changed."


def check_sqlite_file(path: Path, known: frozenset[str], head: str) -> None:
    """Raise a :class:`DatabaseError` if ``path`` is not a usable Carwars database.

    A missing or empty file is fine: it becomes a new database.
    """
    if not path.exists():
        return
    if path.is_dir():
        raise NotADatabaseError(f"{path} is a folder, not a database file. {_unchanged('folder')}")
    try:
        size = path.stat().st_size
        if size == 0:
            return
        with path.open("rb") as stream:
            header = stream.read(HEADER_SIZE)
    except OSError as error:
        raise DatabaseError(f"Cannot read {path}: {error.strerror or error}.") from error

    if not header.startswith(SQLITE_MAGIC):
        raise NotADatabaseError(
            f"{path} is not a Carwars Desktop database (it is not an SQLite file). "
            + _unchanged("file")
        )
    page_size = _page_size(header)
    if len(header) < HEADER_SIZE or page_size is None:
        raise _corrupt(path, "its header is damaged")
    if size % page_size:
        raise _corrupt(
            path, f"it is {size} bytes long, not a whole number of {page_size}-byte pages"
        )
    wal = path.with_name(path.name + "-wal")
    journal = path.with_name(path.name + "-journal")
    has_sidecars = wal.exists() or journal.exists()
    if not wal.exists():
        pages = _header_page_count(header)
        if pages is not None and pages * page_size > size:
            raise _corrupt(
                path, f"it should hold {pages} pages but only {size // page_size} are there"
            )
    _check_with_sqlite(path, has_sidecars, known, head)


def _page_size(header: bytes) -> int | None:
    raw = int.from_bytes(header[16:18], "big")
    page_size = 65536 if raw == 1 else raw
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return None
    return page_size


def _header_page_count(header: bytes) -> int | None:
    """The page count in the header, when SQLite marks it as valid (``version-valid-for``)."""
    if header[92:96] != header[24:28]:
        return None
    pages = int.from_bytes(header[28:32], "big")
    return pages or None


def _corrupt(path: Path, why: str) -> CorruptDatabaseError:
    return CorruptDatabaseError(
        f"{path} is damaged: {why}. {_unchanged('file')} "
        "Restore it from a backup, or start a new database file."
    )


def _check_with_sqlite(path: Path, has_sidecars: bool, known: frozenset[str], head: str) -> None:
    uri = path.resolve().as_uri() + "?mode=ro"
    if not has_sidecars:
        uri += "&immutable=1"
    try:
        with closing(sqlite3.connect(uri, uri=True)) as connection:
            rows = connection.execute("PRAGMA quick_check").fetchall()
            problems = [
                line.strip()
                for (row,) in rows
                for line in str(row).splitlines()
                if line.strip() not in ("ok", "*** in database main ***", "")
            ]
            if problems:
                raise _corrupt(path, "SQLite's check found " + "; ".join(problems[:3]))
            tables = {
                str(name)
                for (name,) in connection.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
                )
            }
            revisions: list[str] = []
            if VERSION_TABLE in tables:
                revisions = [
                    str(rev)
                    for (rev,) in connection.execute(f"SELECT version_num FROM {VERSION_TABLE}")
                ]
    except sqlite3.DatabaseError as error:
        code = getattr(error, "sqlite_errorcode", None)
        if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or "malformed" in str(error):
            raise _corrupt(path, f"SQLite reports “{error}”") from error
        raise DatabaseError(f"Cannot read {path}: {error}. {_unchanged('file')}") from error
    check_revisions(str(path), "file", tables, revisions, known, head)


def check_revisions(
    where: str,
    kind: str,
    tables: Iterable[str],
    revisions: list[str],
    known: frozenset[str],
    head: str,
) -> None:
    """Refuse another program's database and one written by a newer Carwars Desktop."""
    tables = set(tables)
    if VERSION_TABLE not in tables and tables:
        raise NotADatabaseError(
            f"{where} is not a Carwars Desktop database: it holds another program's tables "
            f"({', '.join(sorted(tables)[:5])}). {_unchanged(kind)}"
        )
    unknown = [rev for rev in revisions if rev not in known]
    if unknown:
        found = ", ".join(unknown)
        raise NewerSchemaError(
            f"{where} was written by a newer version of Carwars Desktop (schema {found}); "
            f"this version knows up to {head}. {_unchanged(kind)} "
            "Update Carwars Desktop to open it.",
            found=found,
            known_head=head,
        )


def driver_reason(error: SQLAlchemyError) -> str:
    """The driver's own words for an error, without SQLAlchemy's SQL echo and links."""
    original = getattr(error, "orig", None)
    return str(original if original is not None else error).strip()


def check_server_database(engine: Engine, where: str, known: frozenset[str], head: str) -> None:
    """The same checks over a database server connection, reading only."""
    try:
        with engine.connect() as connection:
            tables = inspect(connection).get_table_names()
            revisions: list[str] = []
            if VERSION_TABLE in tables:
                revisions = [
                    str(rev)
                    for rev in connection.scalars(text(f"SELECT version_num FROM {VERSION_TABLE}"))
                ]
            connection.rollback()
    except SQLAlchemyError as error:
        raise DatabaseError(
            f"Cannot open the database at {where}: {driver_reason(error)}"
        ) from error
    check_revisions(where, "database", tables, revisions, known, head)
