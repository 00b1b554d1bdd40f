"""Open a database: check it without writing, bring its schema up to date, hand it out."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.session.house_rules import DIGEST_DEFAULTS
from carwars_desktop.storage.backups import backup_path_for, backup_sqlite_file
from carwars_desktop.storage.dice_history import DiceHistory
from carwars_desktop.storage.engine import create_engine_for, normalize_url
from carwars_desktop.storage.errors import DatabaseError, ReadOnlyDatabaseError
from carwars_desktop.storage.game_sessions import GameSessions
from carwars_desktop.storage.house_rules import HouseRuleProfiles
from carwars_desktop.storage.ledger import LedgerStore
from carwars_desktop.storage.library import Library
from carwars_desktop.storage.players import Players
from carwars_desktop.storage.preflight import (
    VERSION_TABLE,
    check_server_database,
    check_sqlite_file,
    driver_reason,
)
from carwars_desktop.storage.revisions import shipped_revisions


class Database:
    """An open, migrated database and its repositories. Close it (or use ``with``)."""

    def __init__(self, engine: Engine, url: str, read_only: bool = False,
                 backup: Path | None = None) -> None:
        self.engine = engine
        self.url = url
        self.read_only = read_only
        """Opened for browsing only: every write fails (and says so)."""
        self.backup = backup
        """The copy made before this opening upgraded the schema, if it did."""
        self.sessions: sessionmaker[Session] = sessionmaker(engine, expire_on_commit=False)
        self.dice_history = DiceHistory(self.sessions)
        self.game_sessions = GameSessions(self.sessions)
        self.library = Library(self.sessions)
        self.house_rules = HouseRuleProfiles(self.sessions, DIGEST_DEFAULTS)
        self.players = Players(self.sessions)
        self.ledger = LedgerStore(self.sessions)

    def schema_revision(self) -> str | None:
        """The Alembic revision the database is at."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def back_up(self, target: Path) -> Path:
        """Copy an SQLite database into the new file ``target`` (File › Back up database…).

        Raises:
            DatabaseError: not an SQLite file (a server keeps its own backups), or the
                copy failed.
        """
        path = sqlite_file_path(self.url)
        if path is None:
            raise DatabaseError("This database is on a server: back it up with the server's "
                                "own tools (pg_dump for PostgreSQL).")
        return backup_sqlite_file(path, target)

    def close(self) -> None:
        """Release every connection (SQLite then folds its WAL back into the file)."""
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Database({make_url(self.url).render_as_string(hide_password=True)!r})"


def sqlite_file_path(url: str) -> Path | None:
    """The file behind an SQLite URL, or None for in-memory and non-SQLite URLs."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_options(url: str, read_only: bool) -> tuple[str, bool]:
    """The URL without its SQLite options, and whether it is to be read only."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.query:
        return url, read_only
    options = dict(parsed.query)
    if options == {"mode": "ro"}:
        return parsed.set(query={}).render_as_string(hide_password=False), True
    listed = ", ".join(f"{key}={value}" for key, value in options.items())
    raise DatabaseError(
        f"Cannot open {parsed.database}: the database setting has SQLite options ({listed}) "
        "that Carwars Desktop does not apply. Nothing was opened. Give the file alone, or "
        "add “?mode=ro” (and nothing else) to browse it read-only.")


def _current_revisions(connection: Connection) -> list[str]:
    """The revisions in ``alembic_version`` (none for a new database), read with plain SQL."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return []
    query = text(f"SELECT version_num FROM {VERSION_TABLE}")
    return [str(rev) for rev in connection.scalars(query)]


def open_database(url: str, read_only: bool = False) -> Database:
    """Check the database at ``url`` without writing to it, then migrate it to head.

    An SQLite file at an older schema is first copied beside itself
    (``carwars.sqlite3.bak-0002``; :attr:`Database.backup` says where). With
    ``read_only`` nothing is written (the file is browsed as it is, at head).

    Raises:
        NotADatabaseError: the file is not SQLite, or holds another program's tables.
        CorruptDatabaseError: the SQLite file is truncated or damaged.
        NewerSchemaError: a newer Carwars Desktop wrote it.
        DamagedDatabaseError: ours, with a table, a column or its schema stamp missing.
        ReadOnlyDatabaseError: the file or its folder cannot be written (browse it with
            ``read_only=True``).
        LockedDatabaseError: another program holds its write lock.
        DatabaseError: anything else that stops the database from opening.

    In each case nothing was written.

    An SQLite URL ending in ``?mode=ro`` is opened read-only (as with ``read_only``); one
    with any other option is refused (none is applied).
    """
    url, read_only = _sqlite_options(normalize_url(url), read_only)
    where = make_url(url).render_as_string(hide_password=True)
    shipped = shipped_revisions()
    head, known = shipped.head, shipped.known
    path = sqlite_file_path(url)
    revisions: list[str] = []
    if path is not None:
        revisions = check_sqlite_file(path, known, head, read_only=read_only)
        where = str(path)
    if read_only and (path is None or not path.exists() or revisions != [head]):
        raise ReadOnlyDatabaseError(
            f"{where} cannot be browsed read-only: it is not a Carwars Desktop database at "
            "this version's schema (it would need an upgrade, which is a write).")
    try:
        engine = create_engine_for(url, read_only=read_only)
    except (ArgumentError, ImportError) as error:
        raise DatabaseError(
            f"Cannot open the database at {where}: this installation has no driver for it "
            f"({error}). SQLite files always work; PostgreSQL needs the postgres extra."
        ) from None
    try:
        if path is None:
            check_server_database(engine, where, known, head)
        backup = None
        if read_only:
            return Database(engine, url, read_only=True)
        if path is not None and revisions and revisions != [head]:
            backup = backup_sqlite_file(path, backup_path_for(path, revisions[0]))
        with engine.begin() as connection:
            if _current_revisions(connection) != [head]:
                # Alembic is imported only when a migration is due.
                from carwars_desktop.storage.migrations import upgrade_to_head

                upgrade_to_head(connection)
    except SQLAlchemyError as error:
        engine.dispose()
        raise DatabaseError(
            f"Cannot open the database at {where}: {driver_reason(error)}"
        ) from error
    except BaseException:
        engine.dispose()
        raise
    return Database(engine, url, backup=backup)
