"""A club's database on a password-protected PostgreSQL: the URL, the keyring, errors in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.storage.club import (
    ClubAuthenticationError,
    ClubConnection,
    ClubConnectionError,
    ClubDatabaseMissingError,
    ClubNotCarwarsError,
    ClubServerTooOldError,
    ClubTLSUnavailableError,
    ClubUnreachableError,
    check_connection,
    check_server_version,
    open_club_database,
    redacted_url,
)
from carwars_desktop.storage.credentials import PasswordStore
from carwars_desktop.storage.migrations import single_head


def test_url_asks_for_tls_except_on_this_computer() -> None:
    assert ClubConnection.tls_by_default("club.example.org")
    assert ClubConnection.tls_by_default("192.168.1.20")
    assert not ClubConnection.tls_by_default("localhost")
    assert not ClubConnection.tls_by_default("127.0.0.1")
    remote = ClubConnection("club.example.org", "carwars", "ann")
    assert remote.require_tls
    url = remote.url("s3cret/pw")
    assert url.startswith("postgresql+psycopg://ann:s3cret%2Fpw@club.example.org:5432/carwars?")
    assert "sslmode=verify-full" in url and "sslrootcert=system" in url
    assert "require_auth=scram-sha-256" in url
    assert "sslmode" not in ClubConnection("localhost", "carwars", "ann",
                                           require_tls=False).url("x")
    assert "s3cret" not in redacted_url(url) and "***" in redacted_url(url)
    assert remote.display() == "ann@club.example.org:5432/carwars (encrypted, server verified)"
    given = ClubConnection.from_url(url)  # its parameters kept as given
    assert given.parameters() == remote.parameters() and given.display() == remote.display()
    assert ClubConnection.from_settings(remote.to_settings()) == remote


def test_connect_with_the_password_from_the_keyring(club: ClubConnection, club_password: str,
                                                    fake_keyring: object) -> None:
    store = PasswordStore()
    assert store.available()
    assert store.set(club.key, club_password)
    assert store.get(club.key) == club_password
    assert "empty database" in check_connection(club, store.get(club.key)).summary()
    with open_club_database(club, store.get(club.key)) as database:
        assert database.schema_revision() == single_head()
        assert club_password not in repr(database)
    assert "Carwars Desktop database (schema" in check_connection(club, club_password).summary()
    store.delete(club.key)
    assert store.get(club.key) is None


def test_no_keyring_means_ask_every_time(no_keyring: object) -> None:
    store = PasswordStore()
    assert not store.available()
    assert not store.set("ann@club:5432/carwars", "pw")
    assert store.get("ann@club:5432/carwars") is None


def _refusal(connection: ClubConnection, password: str) -> ClubConnectionError:
    with pytest.raises(ClubConnectionError) as caught:
        check_connection(connection, password)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    return caught.value


def test_each_failure_has_its_own_words(club: ClubConnection, club_password: str,
                                        club_server: object) -> None:
    wrong_password = _refusal(club, "not-the-password")
    missing = _refusal(ClubConnection(club.host, "no_such_club", club.user, club.port, False),
                       club_password)
    club_server.sql("CREATE TABLE invoices (id integer)", database=club.database)  # type: ignore[attr-defined]
    not_carwars = _refusal(club, club_password)
    tls = _refusal(ClubConnection(club.host, club.database, club.user, club.port, True),
                   club_password)
    unreachable = _refusal(ClubConnection("127.0.0.1", club.database, club.user, 1, False),
                           club_password)
    assert isinstance(wrong_password, ClubAuthenticationError)
    assert "refused the password" in str(wrong_password)
    assert isinstance(missing, ClubDatabaseMissingError)
    assert "has no database “no_such_club”" in str(missing)
    assert isinstance(not_carwars, ClubNotCarwarsError)
    assert "not a Carwars Desktop database" in str(not_carwars) and "invoices" in str(not_carwars)
    assert isinstance(tls, ClubTLSUnavailableError)
    assert "offers no encrypted connection" in str(tls)
    assert isinstance(unreachable, ClubUnreachableError)
    assert "cannot be reached" in str(unreachable)
    messages = [str(e) for e in (wrong_password, missing, not_carwars, tls, unreachable)]
    assert len(set(messages)) == 5
    for message in messages:  # words, not the driver's text
        assert "FATAL" not in message and "connection failed" not in message
        assert club_password not in message
    with pytest.raises(ClubNotCarwarsError):  # nothing was created or changed
        open_club_database(club, club_password)


def test_server_too_old() -> None:
    check_server_version(150004)
    with pytest.raises(ClubServerTooOldError, match="runs PostgreSQL 11; Carwars Desktop needs "
                                                    "PostgreSQL 12 or newer"):
        check_server_version(110022)


def test_the_documented_role_is_no_superuser_and_can_back_up(
        club: ClubConnection, club_password: str, club_server: object, tmp_path: Path) -> None:
    with open_club_database(club, club_password) as database:  # it creates the tables
        assert database.schema_revision() == single_head()
    flags = club_server.sql(  # type: ignore[attr-defined]
        f"SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = '{club.user}'")
    assert flags.strip() == "f|f|f"
    dump = tmp_path / "club.dump"
    club_server.pg_dump(club.database, club.user, club_password, dump)  # type: ignore[attr-defined]
    assert dump.read_bytes().startswith(b"PGDMP")
    # CONNECT is revoked from PUBLIC: another club's role cannot get in.
    club_server.add_club("club_other", "gm_other", "other-pw")  # type: ignore[attr-defined]
    try:
        intruder = ClubConnection(club.host, club.database, "gm_other", club.port, False)
        with pytest.raises(ClubAuthenticationError, match="may not connect to"):
            check_connection(intruder, "other-pw")
    finally:
        club_server.sql("DROP DATABASE club_other")  # type: ignore[attr-defined]
        club_server.sql("DROP ROLE gm_other")  # type: ignore[attr-defined]


def test_a_club_server_that_stops_answering_is_said_in_words(
        club: ClubConnection, club_password: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A loopback proxy between the app and the server stops forwarding: the connection
    gives up after its connect timeout and says the server is not answering."""
    from dataclasses import replace

    from sqlalchemy import text

    from carwars_desktop.storage.club import ClubNotAnsweringError, ClubUnreachableError

    from .proxy import short_connect_timeout, stalling_proxy

    with stalling_proxy(club.port) as proxy:
        through = replace(club, port=proxy.port)
        with open_club_database(through, club_password) as database, \
                database.engine.connect() as db:
            # Every connection carries its timeouts: the server's, and the network's.
            assert db.scalar(text("SHOW statement_timeout")) == "30s"
            assert db.scalar(text("SHOW lock_timeout")) == "150ms"
            info: Any = db.connection.dbapi_connection.info  # type: ignore[union-attr]
            given = info.get_parameters()
            assert given["connect_timeout"] == "5" and given["keepalives"] == "1"
            assert given["tcp_user_timeout"] == "15000"
        # The app's 5 s checked above; the stalled connection gives up after 2 (the
        # message says the timeout it waited).
        short_connect_timeout(monkeypatch)
        proxy.stall()
        with pytest.raises(ClubUnreachableError) as caught:
            check_connection(through, club_password)
        assert proxy.accepted >= 2  # it was reached, and never answered
    error = caught.value
    assert isinstance(error, ClubNotAnsweringError)
    assert f"The club server at 127.0.0.1:{through.port} is not answering (nothing came " \
           "back within 2 s)" in str(error)
    assert club_password not in str(error) + error.detail


def test_a_given_urls_own_server_options_win_over_the_apps(
        club: ClubConnection, club_password: str) -> None:
    """``options`` in a ``--db`` URL reach the server (the app's own are set before them);
    they used to be dropped for the app's lock timeout."""
    from sqlalchemy import text

    from carwars_desktop.storage.engine import create_engine_for

    url = club.url(club_password) + "&options=-c%20statement_timeout%3D12345"
    engine = create_engine_for(url)
    try:
        with engine.connect() as db:
            assert db.scalar(text("SHOW statement_timeout")) == "12345ms"
            assert db.scalar(text("SHOW lock_timeout")) == "150ms"
    finally:
        engine.dispose()
