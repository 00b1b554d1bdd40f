"""Open a database: check it without writing, bring its schema up to date, hand it out."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.session.house_rules import DIGEST_DEFAULTS
from carwars_desktop.storage.dice_history import DiceHistory
from carwars_desktop.storage.engine import create_engine_for, normalize_url
from carwars_desktop.storage.errors import DatabaseError
from carwars_desktop.storage.game_sessions import GameSessions
from carwars_desktop.storage.house_rules import HouseRuleProfiles
from carwars_desktop.storage.library import Library
from carwars_desktop.storage.preflight import (
    VERSION_TABLE,
    check_server_database,
    check_sqlite_file,
    driver_reason,
)
from carwars_desktop.storage.revisions import shipped_revisions


class Database:
    """An open, migrated database and its repositories. Close it (or use ``with``)."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url
        self.sessions: sessionmaker[Session] = sessionmaker(engine, expire_on_commit=False)
        self.dice_history = DiceHistory(self.sessions)
        self.game_sessions = GameSessions(self.sessions)
        self.library = Library(self.sessions)
        self.house_rules = HouseRuleProfiles(self.sessions, DIGEST_DEFAULTS)

    def schema_revision(self) -> str | None:
        """The Alembic revision the database is at."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

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


def _current_revisions(connection: Connection) -> list[str]:
    """The revisions in ``alembic_version`` (none for a new database), read with plain SQL."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return []
    query = text(f"SELECT version_num FROM {VERSION_TABLE}")
    return [str(rev) for rev in connection.scalars(query)]


def open_database(url: str) -> Database:
    """Check the database at ``url`` without writing to it, then migrate it to head.

    Raises:
        NotADatabaseError: the file is not SQLite, or holds another program's tables.
        CorruptDatabaseError: the SQLite file is truncated or damaged.
        NewerSchemaError: a newer Carwars Desktop wrote it.
        DatabaseError: anything else that stops the database from opening.

    In each case nothing was written.
    """
    url = normalize_url(url)
    where = make_url(url).render_as_string(hide_password=True)
    shipped = shipped_revisions()
    head, known = shipped.head, shipped.known
    path = sqlite_file_path(url)
    if path is not None:
        check_sqlite_file(path, known, head)
        where = str(path)
    try:
        engine = create_engine_for(url)
    except (ArgumentError, ImportError) as error:
        raise DatabaseError(
            f"Cannot open the database at {where}: this installation has no driver for it "
            f"({error}). SQLite files always work; PostgreSQL needs the postgres extra."
        ) from None
    try:
        if path is None:
            check_server_database(engine, where, known, head)
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
    return Database(engine, url)
