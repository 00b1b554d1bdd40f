"""A club's database on a PostgreSQL server: its URL, its name on screen, its errors in words.

A GM fills in host, port, database and user (never an SQLAlchemy URL); :class:`ClubConnection`
builds the URL. Unless the server is this computer it asks for TLS *and* checks the server's
certificate (``sslmode=verify-full``, against the club's CA file or the system's CAs), and
it sends the password only by ``scram-sha-256`` (``require_auth``), which never lets the
password itself leave the laptop: a server that asks for it in clear text or md5 is refused
before anything is sent. A URL given with ``--db`` is used exactly as given (its TLS and
sign-in parameters reach libpq unchanged; only absent timeouts are added).

The password is passed in when a URL is built and never kept here:
:meth:`ClubConnection.display` and :func:`redacted_url` are what the status bar, the window
title and the logs show.

What the driver says when a connection fails (libpq's English, with SQL states where it
gives them) is turned into one of the :class:`ClubConnectionError` subclasses, whose
message tells the GM what failed and what to do. The driver's text is never chained to them
(``raise … from None``): it could quote what was typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, quote_plus

from carwars_desktop.storage.errors import (
    DamagedDatabaseError,
    DatabaseError,
    NewerSchemaError,
    NotADatabaseError,
    WriteFailedError,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

    from carwars_desktop.storage.database import Database

DRIVER = "postgresql+psycopg"
DEFAULT_PORT = 5432
CONNECT_TIMEOUT_S = 5
"""How long a connection attempt waits for the server before it counts as unreachable."""
MIN_SERVER_VERSION = 120000
"""PostgreSQL 12: the oldest server the app's migrations and the driver are tested with."""
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", ""})
SYSTEM_CAS = "system"
"""``sslrootcert=system``: the server's certificate is checked against the system's CAs."""
TIMEOUTS: dict[str, str] = {
    # A dropped network shows within seconds, not TCP's minutes: keepalives on an idle
    # connection, and a bound on unacknowledged writes (Linux and macOS).
    "connect_timeout": str(CONNECT_TIMEOUT_S), "keepalives": "1", "keepalives_idle": "10",
    "keepalives_interval": "3", "keepalives_count": "3", "tcp_user_timeout": "15000"}
"""Added to every club URL that does not set them itself."""

Query = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ClubConnection:
    """Where a club's database is and how the server is trusted, without the password."""

    host: str
    database: str
    user: str
    port: int = DEFAULT_PORT
    require_tls: bool = True
    verify_server: bool = True
    """With TLS: the server's certificate must be signed by :attr:`ca_file` (or, without
    one, by a CA the system trusts) and name :attr:`host` (``sslmode=verify-full``)."""
    ca_file: str = ""
    """The club's CA file, or the server's own certificate (``sslrootcert``)."""
    scram_only: bool = True
    """Sign in by ``scram-sha-256`` only: never send the password in clear text or md5."""
    given: Query | None = None
    """The parameters of a URL given on the command line, used exactly as given (None: the
    connection was filled in, its parameters are built from the fields above)."""

    @staticmethod
    def tls_by_default(host: str) -> bool:
        """An encrypted connection is asked for any server but this computer."""
        return host.strip().lower() not in LOCAL_HOSTS

    @property
    def key(self) -> str:
        """``user@host:port/database``: the keyring entry and the recent-list entry."""
        return f"{self.user}@{self.host}:{self.port}/{self.database}"

    def security(self) -> str:
        """How the server is trusted, in words (the status bar, the recent list)."""
        if not self.require_tls:
            return "TLS not required: may travel unencrypted"
        if self.verify_server:
            return "encrypted, server verified"
        return "encrypted, server not verified"

    def display(self) -> str:
        """What the status bar and window title show: no password, ever."""
        return f"{self.key} ({self.security()})"

    def parameters(self) -> dict[str, str | tuple[str, ...]]:
        """What libpq is given besides host, port, user, password and database."""
        query: dict[str, str | tuple[str, ...]] = dict(TIMEOUTS)
        if self.given is not None:
            given: dict[str, list[str]] = {}
            for name, value in self.given:
                given.setdefault(name, []).append(value)
            query.update({name: values[0] if len(values) == 1 else tuple(values)
                          for name, values in given.items()})
            return query
        if self.require_tls and self.verify_server:
            query["sslmode"] = "verify-full"
            query["sslrootcert"] = self.ca_file or SYSTEM_CAS
        elif self.require_tls:
            query["sslmode"] = "require"
        if self.scram_only:
            query["require_auth"] = "scram-sha-256"
        return query

    def url(self, password: str | None) -> str:
        """The SQLAlchemy URL (it holds ``password``: never show it, use :meth:`display`)."""
        from sqlalchemy.engine import URL  # (SQLAlchemy: not on the first screen's path)

        return URL.create(DRIVER, username=self.user, password=password or None,
                          host=self.host, port=self.port, database=self.database,
                          query=self.parameters()).render_as_string(hide_password=False)

    @classmethod
    def from_url(cls, url: str) -> ClubConnection:
        """The connection a PostgreSQL URL names (its password is dropped), its parameters
        kept as given."""
        parsed = _parsed(url)
        given: list[tuple[str, str]] = []
        for name, value in parsed.query.items():
            given += [(name, value)] if isinstance(value, str) else [(name, v) for v in value]
        query = dict(given)
        sslmode = query.get("sslmode", "")
        auth = {method.strip() for method in query.get("require_auth", "").split(",")}
        return cls(host=parsed.host or "localhost", database=parsed.database or "",
                   user=parsed.username or "", port=parsed.port or DEFAULT_PORT,
                   require_tls=sslmode in ("require", "verify-ca", "verify-full"),
                   verify_server=sslmode in ("verify-ca", "verify-full"),
                   ca_file="" if query.get("sslrootcert") == SYSTEM_CAS
                   else query.get("sslrootcert", ""),
                   scram_only=auth == {"scram-sha-256"}, given=tuple(given))

    def to_settings(self) -> dict[str, Any]:
        return {"host": self.host, "port": self.port, "database": self.database,
                "user": self.user, "require_tls": self.require_tls,
                "verify_server": self.verify_server, "ca_file": self.ca_file,
                "scram_only": self.scram_only}

    @classmethod
    def from_settings(cls, values: dict[str, Any]) -> ClubConnection:
        def flag(name: str) -> bool:  # absent (an older settings file): the safe choice
            return str(values.get(name, True)).lower() in ("true", "1")

        return cls(host=str(values["host"]), database=str(values["database"]),
                   user=str(values["user"]), port=int(values.get("port", DEFAULT_PORT)),
                   require_tls=flag("require_tls"), verify_server=flag("verify_server"),
                   ca_file=str(values.get("ca_file", "")), scram_only=flag("scram_only"))


def is_server_url(url: str) -> bool:
    if url.startswith("sqlite"):  # read without SQLAlchemy (the first screen's path)
        return False
    return _parsed(url).get_backend_name() == "postgresql"


def redacted_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (logs, exception text)."""
    return _parsed(url).render_as_string(hide_password=True)


def _parsed(url: str) -> URL:
    """``url`` read by SQLAlchemy (imported when first asked: the first screen's path reads
    a local file's URL without it)."""
    from sqlalchemy.engine import make_url

    return make_url(url)


def scrub(text: str, password: str | None) -> str:
    """``text`` with every occurrence of ``password`` (and its URL-quoted form) hidden."""
    if not password:
        return text

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


class ClubPasswordMissingError(ClubAuthenticationError):
    """The server asks for a password and none was given (not a wrong one)."""

    reason = "password-missing"


class ClubServerNotVerifiedError(ClubConnectionError):
    """The server's certificate does not prove it is the club's server: nothing was sent."""

    reason = "server-not-verified"


class ClubInsecureSignInError(ClubConnectionError):
    """The server asked for the password in a form the connection does not allow (clear
    text, md5, or none at all): it was refused before the password left."""
    reason = "insecure-sign-in"


class ClubDamagedError(ClubConnectionError):
    reason = "damaged"


class ClubNotAnsweringError(ClubUnreachableError):
    """The server took the connection but answered nothing within the timeout."""

    reason = "not-answering"


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
    ca = (f"the CA file {connection.ca_file}"
          if connection.ca_file and connection.ca_file != SYSTEM_CAS
          else "a certificate authority this computer trusts (no CA file was chosen)")
    if "root certificate file" in lowered or "could not read root certificate" in lowered:
        return ClubServerNotVerifiedError(
            f"The CA file {connection.ca_file} cannot be read (it is missing or not a "
            "certificate), so the club server cannot be checked: nothing was sent to it. "
            "Choose the CA file the club organiser gave you (docs/club-server.md).", text)
    if "certificate verify failed" in lowered or "does not match host name" in lowered \
            or "certificate is not valid" in lowered:
        why = (f"its certificate is for another host name than “{connection.host}”"
               if "does not match host name" in lowered else
               f"its certificate is not signed by {ca}")
        return ClubServerNotVerifiedError(
            f"The server at {where} did not prove it is the club's server: {why}. The app "
            "stopped before sending anything, the password included. Check the host name "
            "and the CA file the club organiser gave you (docs/club-server.md); if they are "
            "right, someone else may be answering in the server's place.", text)
    if "authentication method requirement" in lowered or "channel binding" in lowered:
        if "did not complete authentication" in lowered or "without channel binding" in \
                lowered:
            asked = "let this computer in without proving it knows the password"
        elif "cleartext" in lowered:
            asked = "asked for the password in clear text"
        elif "hashed password" in lowered or "md5" in lowered:
            asked = "asked for the password as md5 (which can be replayed and cracked)"
        else:
            asked = "asked for a sign-in method this connection does not allow"
        return ClubInsecureSignInError(
            f"The server at {where} {asked}; this connection signs in by scram-sha-256 only, "
            "so the app refused and the password was not sent. A club server set up as in "
            "docs/club-server.md asks for scram-sha-256: this may not be the club's server. "
            "If the club's server is an old one, the organiser can say so and you may allow "
            "older sign-in methods in the connect window (the password could then be read "
            "on its way).", text)
    if "no password supplied" in lowered:
        return ClubPasswordMissingError(
            f"The club server at {where} asks for the password of user “{connection.user}”, "
            "and none was given (this computer's keyring holds none for it): enter it in "
            "File › Connect to a club database….", text)
    if "server does not support ssl" in lowered or "ssl was required" in lowered:
        return ClubTLSUnavailableError(
            f"The club server at {where} offers no encrypted connection, and this connection "
            "requires one. Ask the club admin to turn on TLS on the server (ssl = on), or, on "
            "a network you trust, untick “Require an encrypted connection”.", text)
    if state == "28P01" or "password authentication failed" in lowered \
            or "password is required" in lowered:
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
    if "timeout expired" in lowered or "timed out" in lowered or state == "57014":
        waited = ("a statement ran past its time limit" if state == "57014" else
                  f"nothing came back within {CONNECT_TIMEOUT_S} s")
        return ClubNotAnsweringError(
            f"The club server at {where} is not answering ({waited}): the network or the "
            "server hangs. Check that this computer is on the club's network, or ask the "
            "club admin whether the server is overloaded.", text)
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
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    from carwars_desktop.storage.migrations import known_revisions, script_directory, single_head
    from carwars_desktop.storage.preflight import check_revisions, read_server_schema

    engine = create_engine(connection.url(password), poolclass=NullPool)
    try:
        with engine.connect() as db:
            version = int(db.scalar(text("SHOW server_version_num")) or 0)
            schema, revisions = read_server_schema(db)
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
    except DamagedDatabaseError as error:
        raise ClubDamagedError(
            f"“{connection.database}” on {connection.host} is a Carwars Desktop database, "
            f"damaged: {error.what or error}. Nothing was changed. Ask the club admin to "
            "restore the last backup (pg_restore, see docs/club-server.md).",
            str(error)) from None
    except NotADatabaseError as error:
        raise ClubNotCarwarsError(
            f"“{connection.database}” on {connection.host} is not a Carwars Desktop database: "
            f"it holds another program's tables ({', '.join(sorted(schema)[:5])}). Nothing "
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


def server_identity(database: Database) -> str | None:
    """The club database's identity whatever address reaches it: the server's system
    identifier (``pg_control_system()``, the same through every port, proxy or host name)
    and the database's name. None when it cannot be read (an older server's refusal, or
    the connection lost): the caller keys on the address instead."""
    from sqlalchemy import text

    try:
        with database.engine.connect() as connection:
            row = connection.execute(text(
                "SELECT system_identifier, current_database() FROM pg_control_system()")
            ).one()
    except Exception:  # (any refusal: the address is the key then)
        return None
    return f"postgresql:{row[0]}/{row[1]}"
