"""A club's database on a PostgreSQL server: its URL, its name on screen, its errors in words.

A GM fills in host, port, database and user (never an SQLAlchemy URL); :class:`ClubConnection`
builds the URL, with ``sslmode=require`` unless the server is this computer. The password is
passed in when a URL is built and never kept here: :meth:`ClubConnection.display` and
:func:`redacted_url` are what the status bar, the window title and the logs show.

What the driver says when a connection fails (libpq's English, with SQL states where it
gives them) is turned into one of the :class:`ClubConnectionError` subclasses, whose
message tells the GM what failed and what to do. The driver's text is never chained to them
(``raise … from None``): it could quote what was typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carwars_desktop.storage.errors import DatabaseError, NewerSchemaError, NotADatabaseError

if TYPE_CHECKING:
    from carwars_desktop.storage.database import Database

DRIVER = "postgresql+psycopg"
DEFAULT_PORT = 5432
CONNECT_TIMEOUT_S = 5
"""How long a connection attempt waits for the server before it counts as unreachable."""
MIN_SERVER_VERSION = 120000
"""PostgreSQL 12: the oldest server the app's migrations and the driver are tested with."""
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", ""})


@dataclass(frozen=True)
class ClubConnection:
    """Where a club's database is, without the password."""

    host: str
    database: str
    user: str
    port: int = DEFAULT_PORT
    require_tls: bool = True

    @staticmethod
    def tls_by_default(host: str) -> bool:
        """An encrypted connection is asked for any server but this computer."""
        return host.strip().lower() not in LOCAL_HOSTS

    @property
    def key(self) -> str:
        """``user@host:port/database``: the keyring entry and the recent-list entry."""
        return f"{self.user}@{self.host}:{self.port}/{self.database}"

    def display(self) -> str:
        """What the status bar and window title show: no password, ever."""
        lock = "encrypted" if self.require_tls else "not encrypted"
        return f"{self.key} ({lock})"

    def url(self, password: str | None) -> str:
        """The SQLAlchemy URL (it holds ``password``: never show it, use :meth:`display`)."""
        # A dropped network shows within seconds, not TCP's minutes: keepalives on an idle
        # connection, and a bound on unacknowledged writes (Linux and macOS).
        query: dict[str, str] = {"connect_timeout": str(CONNECT_TIMEOUT_S), "keepalives": "1",
                                 "keepalives_idle": "10", "keepalives_interval": "3",
                                 "keepalives_count": "3", "tcp_user_timeout": "15000"}
        if self.require_tls:
            query["sslmode"] = "require"
        from sqlalchemy.engine import URL  # (SQLAlchemy: not on the first screen's path)

        return URL.create(DRIVER, username=self.user, password=password or None,
                          host=self.host, port=self.port, database=self.database,
                          query=query).render_as_string(hide_password=False)

    @classmethod
    def from_url(cls, url: str) -> ClubConnection:
        """The connection a PostgreSQL URL names (its password is dropped)."""
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        sslmode = parsed.query.get("sslmode")
        host = parsed.host or "localhost"
        return cls(host=host, database=parsed.database or "", user=parsed.username or "",
                   port=parsed.port or DEFAULT_PORT,
                   require_tls=sslmode in ("require", "verify-ca", "verify-full"))

    def to_settings(self) -> dict[str, Any]:
        return {"host": self.host, "port": self.port, "database": self.database,
                "user": self.user, "require_tls": self.require_tls}

    @classmethod
    def from_settings(cls, values: dict[str, Any]) -> ClubConnection:
        return cls(host=str(values["host"]), database=str(values["database"]),
                   user=str(values["user"]), port=int(values.get("port", DEFAULT_PORT)),
                   require_tls=str(values.get("require_tls", True)).lower() in ("true", "1"))


def is_server_url(url: str) -> bool:
    if url.startswith("sqlite"):  # read without SQLAlchemy (the first screen's path)
        return False
    from sqlalchemy.engine import make_url

    return make_url(url).get_backend_name() == "postgresql"


def redacted_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (logs, exception text)."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def scrub(text: str, password: str | None) -> str:
    """``text`` with every occurrence of ``password`` (and its URL-quoted form) hidden."""
    if not password:
        return text
    from urllib.parse import quote, quote_plus

    for form in {password, quote(password, safe=""), quote_plus(password)}:
        text = text.replace(form, "***")
    return text


# --- errors ---------------------------------------------------------------------------------
class ClubConnectionError(DatabaseError):
    """The club's database cannot be used; ``str()`` says why in a GM's words."""

    reason = "other"

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail
        """The driver's own text, password scrubbed (for a details pane, not the headline)."""


class ClubUnreachableError(ClubConnectionError):
    reason = "unreachable"


class ClubAuthenticationError(ClubConnectionError):
    reason = "authentication"


class ClubDatabaseMissingError(ClubConnectionError):
    reason = "database-missing"


class ClubServerTooOldError(ClubConnectionError):
    reason = "server-too-old"


class ClubTLSUnavailableError(ClubConnectionError):
    reason = "tls-unavailable"


class ClubNotCarwarsError(ClubConnectionError, NotADatabaseError):
    reason = "not-carwars"


class ClubPermissionError(ClubConnectionError):
    reason = "permission"


class ClubNewerSchemaError(ClubConnectionError):
    reason = "newer-schema"


_UNREACHABLE = re.compile(
    r"connection refused|could not translate host name|timeout expired|no route to host"
    r"|network is unreachable|could not connect to server|server closed the connection"
    r"|name or service not known|temporary failure in name resolution|connection timed out"
    r"|terminating connection|connection reset|the database system is (starting up|shutting down)"
    r"|consuming input failed|server conn crashed|connection is lost|connection already closed",
    re.IGNORECASE)


def _sqlstate(error: BaseException) -> str | None:
    original = getattr(error, "orig", None) or error
    state = getattr(original, "sqlstate", None)
    return str(state) if state else None


def driver_text(error: BaseException) -> str:
    original = getattr(error, "orig", None)
    return str(original if original is not None else error).strip()


def is_connection_lost(error: BaseException) -> bool:
    """The server could not be reached or the connection dropped (not a refused statement)."""
    from sqlalchemy.exc import DBAPIError, OperationalError

    from carwars_desktop.storage.errors import WriteFailedError

    if isinstance(error, WriteFailedError) and error.__cause__ is not None:
        # A refused write (issue 15's banner) says why in words; the driver's error is below.
        return is_connection_lost(error.__cause__)
    if isinstance(error, DBAPIError) and error.connection_invalidated:
        return True
    if not isinstance(error, OperationalError | DBAPIError):
        return False
    state = _sqlstate(error)
    if state is not None and (state.startswith("08") or state in ("57P01", "57P02", "57P03")):
        return True
    return _UNREACHABLE.search(driver_text(error)) is not None


def translate(error: BaseException, connection: ClubConnection,
              password: str | None = None) -> ClubConnectionError:
    """The :class:`ClubConnectionError` for what the driver said when connecting failed."""
    text = scrub(driver_text(error), password)
    state = _sqlstate(error)
    where = f"{connection.host}:{connection.port}"
    lowered = text.lower()
    if "server does not support ssl" in lowered or "ssl was required" in lowered:
        return ClubTLSUnavailableError(
            f"The club server at {where} offers no encrypted connection, and this connection "
            "requires one. Ask the club admin to turn on TLS on the server (ssl = on), or, on "
            "a network you trust, untick “Require an encrypted connection”.", text)
    if state == "28P01" or "password authentication failed" in lowered \
            or "no password supplied" in lowered or "password is required" in lowered:
        return ClubAuthenticationError(
            f"The club server at {where} refused the password for user “{connection.user}”: "
            "check the user name and the password.", text)
    if re.search(r'role "[^"]*" does not exist', text):
        return ClubAuthenticationError(
            f"The club server at {where} has no user “{connection.user}”: check the user "
            "name (the club admin creates it, see docs/club-server.md).", text)
    if state == "3D000" or re.search(r'database "[^"]*" does not exist', text):
        return ClubDatabaseMissingError(
            f"The club server at {where} has no database “{connection.database}”: check its "
            "name, or ask the club admin to create it (docs/club-server.md).", text)
    if "no pg_hba.conf entry" in lowered or state == "28000":
        return ClubAuthenticationError(
            f"The club server at {where} does not let user “{connection.user}” connect to "
            f"“{connection.database}” from this computer (its pg_hba.conf): ask the club "
            "admin.", text)
    if "permission denied for database" in lowered:
        return ClubAuthenticationError(
            f"User “{connection.user}” may not connect to “{connection.database}” on "
            f"{where}: ask the club admin (docs/club-server.md).", text)
    if state == "42501" or "permission denied" in lowered:
        return ClubPermissionError(
            f"User “{connection.user}” may not create or change the tables of "
            f"“{connection.database}”: the club admin grants it (docs/club-server.md).", text)
    if _UNREACHABLE.search(text) or (state is not None and state.startswith("08")):
        return ClubUnreachableError(
            f"The club server at {where} cannot be reached: check the host name and port, "
            "and that this computer is on the network (the server may also be stopped).",
            text)
    return ClubConnectionError(
        f"Cannot use the club database {connection.display()}: the server said “{text}”.",
        text)


# --- checking and opening -------------------------------------------------------------------
@dataclass(frozen=True)
class ClubCheck:
    """What Test connection found."""

    server_version: int
    revision: str | None
    """The Carwars schema revision, or None for an empty database (it is set up on connect)."""

    def summary(self) -> str:
        major = self.server_version // 10000
        state = (f"a Carwars Desktop database (schema {self.revision})" if self.revision
                 else "an empty database: Carwars Desktop sets it up when you connect")
        return f"Connected to PostgreSQL {major}: {state}."


def check_server_version(version: int) -> None:
    if version < MIN_SERVER_VERSION:
        raise ClubServerTooOldError(
            f"The club server runs PostgreSQL {version // 10000}; Carwars Desktop needs "
            f"PostgreSQL {MIN_SERVER_VERSION // 10000} or newer. Ask the club admin to "
            "upgrade it.")


def check_connection(connection: ClubConnection, password: str | None) -> ClubCheck:
    """Connect, read only, and say what is there; raise a :class:`ClubConnectionError`."""
    from sqlalchemy import create_engine, inspect, text
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    from carwars_desktop.storage.migrations import known_revisions, script_directory, single_head
    from carwars_desktop.storage.preflight import VERSION_TABLE, check_revisions

    engine = create_engine(connection.url(password), poolclass=NullPool)
    try:
        with engine.connect() as db:
            version = int(db.scalar(text("SHOW server_version_num")) or 0)
            inspector = inspect(db)
            tables = inspector.get_table_names()
            schema = {table: frozenset(str(column["name"])
                                       for column in inspector.get_columns(table))
                      for table in tables}
            revisions: list[str] = []
            if VERSION_TABLE in tables:
                revisions = [str(r) for r in db.scalars(
                    text(f"SELECT version_num FROM {VERSION_TABLE}"))]
            db.rollback()
    except SQLAlchemyError as error:
        raise translate(error, connection, password) from None
    finally:
        engine.dispose()
    check_server_version(version)
    script = script_directory()
    try:
        check_revisions(connection.display(), "database", schema, revisions,
                        known_revisions(script), single_head(script))
    except NewerSchemaError as error:
        raise ClubNewerSchemaError(str(error)) from None
    except NotADatabaseError as error:
        raise ClubNotCarwarsError(
            f"“{connection.database}” on {connection.host} is not a Carwars Desktop database: "
            f"it holds another program's tables ({', '.join(sorted(tables)[:5])}). Nothing "
            "was changed. Ask the club admin for the Carwars database's name.",
            str(error)) from None
    return ClubCheck(version, revisions[0] if revisions else None)


def open_club_database(connection: ClubConnection, password: str | None) -> Database:
    """Check the club database, then open (and migrate) it; errors in words."""
    from carwars_desktop.storage.database import open_database

    check_connection(connection, password)
    try:
        return open_database(connection.url(password))
    except ClubConnectionError:
        raise
    except DatabaseError as error:
        cause = error.__cause__
        if cause is not None:
            raise translate(cause, connection, password) from None
        raise ClubConnectionError(scrub(str(error), password)) from None
