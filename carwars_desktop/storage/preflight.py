"""Checks made before the app writes to a database, so a refused file stays untouched.

An SQLite file is read through a read-only connection. When no ``-wal`` or
``-journal`` file lies beside it, that connection is also ``immutable`` so SQLite
creates no ``-wal``/``-shm`` files either; a ``-wal`` left without its ``-shm`` is
read from a copy. The folder is left exactly as found.

Our own schema is recognised by its tables and revision ids (an ``alembic_version``
table alone says nothing: other programs use Alembic too). A database of ours with a
table or column missing is *damaged*; one whose file or folder cannot be written is
refused as read-only (it may still be browsed); one locked by another program is
refused as locked.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from carwars_desktop.storage.errors import (
    CorruptDatabaseError,
    DamagedDatabaseError,
    DatabaseError,
    LockedDatabaseError,
    NewerSchemaError,
    NotADatabaseError,
    ReadOnlyDatabaseError,
)
from carwars_desktop.storage.models import Base
from carwars_desktop.storage.sqlite_file import (
    HEADER_SIZE,
    SQLITE_MAGIC,
    file_problem,
    quick_check_problems,
)

VERSION_TABLE = "alembic_version"
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26
SIDECAR_SUFFIXES = ("-journal", "-wal", "-shm")
LOCK_CHECK_SECONDS = 1.0
"""How long start-up waits for another writer before calling the database locked."""

Schema = Mapping[str, frozenset[str]]
"""Table name → its column names."""

_HEAD_SCHEMA: dict[str, frozenset[str]] = {
    name: frozenset(column.name for column in table.columns)
    for name, table in Base.metadata.tables.items()
}
# Columns that 0004 (several writers) added: an older database lacks them until upgraded.
# The chain: 0001, 0002, 0003 (session_charts), 0005 (game_sessions.settings), 0004,
# 0006 (house_rule_profiles), 0007 (declared_shots), 0008 (resolution_log.state),
# 0009 (players, session_ledger, session_vehicles.player_id), 0010 (design_drafts),
# 0011 (session_chart_parts, _cells, _sums), 0012 (phone_requests), 0013 (PostgreSQL
# triggers only), 0014 (phone_shares).
_ADDED_BY_0004 = {
    "game_sessions": frozenset({"version", "lease_token", "lease_holder", "lease_host",
                                "lease_since", "lease_renewed_at"}),
}
_ADDED_BY_0005 = {"game_sessions": frozenset({"settings"})}
_TABLES_ADDED_BY_0003 = frozenset({"session_charts"})
_TABLES_ADDED_BY_0006 = frozenset({"house_rule_profiles"})
_TABLES_ADDED_BY_0007 = frozenset({"declared_shots"})
_ADDED_BY_0007 = {"dice_rolls": frozenset({"resolution_id"})}
_ADDED_BY_0008 = {"resolution_log": frozenset({"state"})}
_TABLES_ADDED_BY_0014 = frozenset({"phone_shares"})
_SCHEMA_0013 = {name: columns for name, columns in _HEAD_SCHEMA.items()
                if name not in _TABLES_ADDED_BY_0014}
_TABLES_ADDED_BY_0012 = frozenset({"phone_requests"})
_SCHEMA_0011 = {name: columns for name, columns in _SCHEMA_0013.items()
                if name not in _TABLES_ADDED_BY_0012}
_TABLES_ADDED_BY_0011 = frozenset({"session_chart_parts", "session_chart_cells",
                                   "session_chart_sums"})
_SCHEMA_0010 = {name: columns for name, columns in _SCHEMA_0011.items()
                if name not in _TABLES_ADDED_BY_0011}
_TABLES_ADDED_BY_0010 = frozenset({"design_drafts"})
_SCHEMA_0009 = {name: columns for name, columns in _SCHEMA_0010.items()
                if name not in _TABLES_ADDED_BY_0010}
_TABLES_ADDED_BY_0009 = frozenset({"players", "session_ledger"})
_ADDED_BY_0009 = {"session_vehicles": frozenset({"player_id"})}
_SCHEMA_0008 = {name: columns - _ADDED_BY_0009.get(name, frozenset())
                for name, columns in _SCHEMA_0009.items()
                if name not in _TABLES_ADDED_BY_0009}
_SCHEMA_0007 = {name: columns - _ADDED_BY_0008.get(name, frozenset())
                for name, columns in _SCHEMA_0008.items()}
_SCHEMA_0006 = {name: columns - _ADDED_BY_0007.get(name, frozenset())
                for name, columns in _SCHEMA_0007.items()
                if name not in _TABLES_ADDED_BY_0007}
_SCHEMA_0004 = {name: columns for name, columns in _SCHEMA_0006.items()
                if name not in _TABLES_ADDED_BY_0006}
_SCHEMA_0005 = {name: columns - _ADDED_BY_0004.get(name, frozenset())
                for name, columns in _SCHEMA_0004.items()}
_SCHEMA_0003 = {name: columns - _ADDED_BY_0005.get(name, frozenset())
                for name, columns in _SCHEMA_0005.items()}
_SCHEMA_0002 = {name: columns for name, columns in _SCHEMA_0003.items()
                if name not in _TABLES_ADDED_BY_0003}
_SCHEMA_AT: dict[str, dict[str, frozenset[str]]] = {
    "0001": {"dice_rolls": _SCHEMA_0002["dice_rolls"]},  # (as 0002-0006 have it)
    "0002": _SCHEMA_0002,
    "0003": _SCHEMA_0003,
    "0005": _SCHEMA_0005,
    "0004": _SCHEMA_0004,
    "0006": _SCHEMA_0006,
    "0007": _SCHEMA_0007,
    "0008": _SCHEMA_0008,
    "0009": _SCHEMA_0009,
    "0010": _SCHEMA_0010,
    "0011": _SCHEMA_0011,
    "0012": _SCHEMA_0013,  # 0013 adds triggers on PostgreSQL, no table nor column
    "0013": _SCHEMA_0013,
}


def _unchanged(kind: str) -> str:
    return f"The {kind} was not changed."


def check_sqlite_file(path: Path, known: frozenset[str], head: str,
                      read_only: bool = False) -> list[str]:
    """Raise a :class:`DatabaseError` if ``path`` is not a usable Carwars database.

    A missing or empty file is fine: it becomes a new database (if its folder can take
    it). Returns the schema revisions the file is at (none for a new one). With
    ``read_only`` the file is only to be browsed: it need not be writable.
    """
    if not path.exists():
        _check_new_file(path)
        return []
    if path.is_dir():
        raise NotADatabaseError(f"{path} is a folder, not a database file. {_unchanged('folder')}")
    try:
        size = path.stat().st_size
        with path.open("rb") as stream:
            header = stream.read(HEADER_SIZE)
    except OSError as error:
        raise DatabaseError(f"Cannot read {path}: {error.strerror or error}.") from error
    if size == 0:
        if not read_only:
            _check_writable(path)
        return []

    if not header.startswith(SQLITE_MAGIC):
        raise NotADatabaseError(
            f"{path} is not a Carwars Desktop database (it is not an SQLite file). "
            + _unchanged("file")
        )
    problem = file_problem(path, header, size)
    if problem is not None:
        raise _corrupt(path, problem)
    wal = path.with_name(path.name + "-wal")
    journal = path.with_name(path.name + "-journal")
    has_sidecars = wal.exists() or journal.exists()
    revisions = _check_with_sqlite(path, has_sidecars, known, head)
    if not read_only:
        _check_writable(path)
        _check_not_locked(path)
    return revisions


def _check_new_file(path: Path) -> None:
    """A new database can be made at ``path``: its folder exists and takes the files."""
    folder = path.parent
    if not folder.is_dir():
        raise DatabaseError(f"Cannot open the database {path}: the folder {folder} does not "
                            "exist. Nothing was created.")
    try:
        name_max = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        name_max = 255
    longest = max(len(suffix) for suffix in SIDECAR_SUFFIXES)
    length = len(os.fsencode(path.name))
    if length + longest > name_max:
        raise DatabaseError(
            f"Cannot open the database {path}: its file name is {length} bytes long and "
            f"this folder allows {name_max} (SQLite adds “-journal” beside it): choose a "
            f"name of at most {name_max - longest}. Nothing was created.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ReadOnlyDatabaseError(f"Cannot open the database {path}: the folder {folder} "
                                    "cannot be written, so no database can be created there. "
                                    "Nothing was created.")


def _check_writable(path: Path) -> None:
    """The file and its folder (where SQLite keeps its journal) can be written."""
    folder = path.parent
    problem = ""
    if not os.access(path, os.W_OK):
        problem = "the file cannot be written"
    elif not os.access(folder, os.W_OK | os.X_OK):
        problem = f"its folder {folder} cannot be written (SQLite keeps its journal there)"
    if problem:
        raise ReadOnlyDatabaseError(
            f"{path} opened read-only: changes cannot be saved ({problem}). "
            f"{_unchanged('file')} You can browse it read-only, or open another file.")


def _check_not_locked(path: Path) -> None:
    """No other program holds the write lock (waiting a moment for a short write)."""
    try:
        with closing(sqlite3.connect(path.resolve().as_uri() + "?mode=rw", uri=True,
                                     timeout=LOCK_CHECK_SECONDS,
                                     isolation_level=None)) as connection:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        text = str(error).lower()
        if "locked" in text or "busy" in text:
            raise LockedDatabaseError(
                f"{path} is locked by another program, which is writing to it. "
                f"{_unchanged('file')} Close that program (or wait for it) and try again."
            ) from error
        if "readonly" in text or "read-only" in text:
            raise ReadOnlyDatabaseError(
                f"{path} opened read-only: changes cannot be saved ({error}). "
                f"{_unchanged('file')} You can browse it read-only, or open another file."
            ) from error
        raise DatabaseError(f"Cannot open {path}: {error}. {_unchanged('file')}") from error


def _corrupt(path: Path, why: str) -> CorruptDatabaseError:
    return CorruptDatabaseError(
        f"{path} is damaged: {why}. {_unchanged('file')} "
        "Restore it from a backup, or start a new database file."
    )


def _check_with_sqlite(path: Path, has_sidecars: bool, known: frozenset[str],
                       head: str) -> list[str]:
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    for _look in range(3):
        if not (wal.exists() and not shm.exists()):
            return _read_schema(path, path, has_sidecars, known, head)
        # Reading a WAL makes SQLite create its -shm: read a copy instead.
        with tempfile.TemporaryDirectory(prefix="carwars-check-") as folder:
            copy = Path(folder) / path.name
            try:
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
            except FileNotFoundError:
                # Another copy of the app closed the file meanwhile (its WAL went into
                # the file and was deleted): it is in use, so look again, never immutable.
                has_sidecars = True
                continue
            return _read_schema(path, copy, True, known, head)
    return _read_schema(path, path, True, known, head)


def _read_schema(path: Path, source: Path, has_sidecars: bool, known: frozenset[str],
                 head: str) -> list[str]:
    uri = source.resolve().as_uri() + "?mode=ro"
    if not has_sidecars:
        uri += "&immutable=1"
    try:
        with closing(sqlite3.connect(uri, uri=True)) as connection:
            problems = quick_check_problems(connection)
            if problems:
                raise _corrupt(path, "SQLite's check found " + "; ".join(problems[:3]))
            tables = [
                str(name)
                for (name,) in connection.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
                )
            ]
            schema = {
                table: frozenset(str(column[1]) for column in connection.execute(
                    "SELECT * FROM pragma_table_info(?)", (table,)))
                for table in tables
            }
            revisions: list[str] = []
            if VERSION_TABLE in schema:
                revisions = [
                    str(rev)
                    for (rev,) in connection.execute(f"SELECT version_num FROM {VERSION_TABLE}")
                ]
    except sqlite3.DatabaseError as error:
        code = getattr(error, "sqlite_errorcode", None)
        if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or "malformed" in str(error):
            raise _corrupt(path, f"SQLite reports “{error}”") from error
        if "locked" in str(error).lower():
            raise LockedDatabaseError(
                f"{path} is locked by another program, which is writing to it. "
                f"{_unchanged('file')} Close that program (or wait for it) and try again."
            ) from error
        raise DatabaseError(f"Cannot read {path}: {error}. {_unchanged('file')}") from error
    check_revisions(str(path), "file", schema, revisions, known, head)
    return revisions


def _looks_ours(schema: Schema) -> bool:
    """Every table is one of ours, with our columns (at least one besides ``id``)."""
    tables = set(schema) - {VERSION_TABLE}
    if not tables:
        return False
    for table in tables:
        ours = _HEAD_SCHEMA.get(table)
        if ours is None or not (schema[table] & ours) - {"id"}:
            return False
    return True


def _damaged(where: str, kind: str, what: str) -> DamagedDatabaseError:
    return DamagedDatabaseError(
        f"{where} is a Carwars Desktop database, damaged: {what}. {_unchanged(kind)} "
        "Restore a backup (a “.bak-…” copy beside it, or your own), or start a new "
        "database file.", what)


def check_revisions(
    where: str,
    kind: str,
    schema: Schema,
    revisions: list[str],
    known: frozenset[str],
    head: str,
) -> None:
    """Refuse another program's database, a damaged one of ours, and one written by a
    newer Carwars Desktop. ``schema`` maps each table to its columns."""
    tables = set(schema)
    if not tables:
        return
    others = sorted(tables - set(_HEAD_SCHEMA) - {VERSION_TABLE})
    if VERSION_TABLE not in tables:
        if not _looks_ours(schema):
            raise NotADatabaseError(
                f"{where} is not a Carwars Desktop database: it holds another program's "
                f"tables ({', '.join((others or sorted(tables))[:5])}). {_unchanged(kind)}"
            )
        raise _damaged(where, kind, f"its schema stamp (table {VERSION_TABLE}) is missing")
    if not revisions:
        if not _looks_ours(schema):
            listed = ", ".join((others or sorted(tables))[:5])
            raise NotADatabaseError(
                f"{where} is not a Carwars Desktop database: it is another program's "
                f"(its tables: {listed}; its {VERSION_TABLE} table names no revision). "
                f"{_unchanged(kind)}"
            )
        raise _damaged(where, kind, f"its schema stamp (table {VERSION_TABLE}) is empty")
    unknown = [rev for rev in revisions if rev not in known]
    if unknown:
        found = ", ".join(unknown)
        if others or (set(schema) - {VERSION_TABLE} and not _looks_ours(schema)):
            raise NotADatabaseError(
                f"{where} is not a Carwars Desktop database: it is another program's "
                f"(schema revision {found} is not one of Carwars Desktop's; its tables: "
                f"{', '.join((others or sorted(tables))[:5])}). {_unchanged(kind)}"
            )
        raise NewerSchemaError(
            f"{where} was written by a newer version of Carwars Desktop (schema {found}); "
            f"this version knows up to {head}. {_unchanged(kind)} "
            "Update Carwars Desktop to open it.",
            found=found,
            known_head=head,
        )
    if len(revisions) != 1:
        raise _damaged(where, kind, f"its schema stamp names {len(revisions)} revisions "
                       f"({', '.join(revisions)})")
    expected = _HEAD_SCHEMA if revisions[0] == head else _SCHEMA_AT.get(revisions[0],
                                                                        _SCHEMA_0002)
    for table in sorted(expected):
        if table not in schema:
            raise _damaged(where, kind, f"table {table} is missing")
        missing = sorted(expected[table] - schema[table])
        if missing:
            raise _damaged(where, kind, f"column {table}.{missing[0]} is missing")


def driver_reason(error: SQLAlchemyError) -> str:
    """The driver's own words for an error, without SQLAlchemy's SQL echo and links."""
    original = getattr(error, "orig", None)
    return str(original if original is not None else error).strip()


def read_server_schema(connection: Connection) -> tuple[dict[str, frozenset[str]], list[str]]:
    """A server database's tables with their columns, and the revisions its schema stamp
    names (none without the stamp's table), read only."""
    inspector = inspect(connection)
    tables = inspector.get_table_names()
    schema = {table: frozenset(str(column["name"]) for column in inspector.get_columns(table))
              for table in tables}
    revisions: list[str] = []
    if VERSION_TABLE in tables:
        revisions = [str(rev) for rev in connection.scalars(
            text(f"SELECT version_num FROM {VERSION_TABLE}"))]
    return schema, revisions


def check_server_database(engine: Engine, where: str, known: frozenset[str], head: str) -> None:
    """The same checks over a database server connection, reading only."""
    try:
        with engine.connect() as connection:
            schema, revisions = read_server_schema(connection)
            connection.rollback()
    except SQLAlchemyError as error:
        raise DatabaseError(
            f"Cannot open the database at {where}: {driver_reason(error)}"
        ) from error
    check_revisions(where, "database", schema, revisions, known, head)
