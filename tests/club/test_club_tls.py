"""The club server is authenticated before the password leaves: TLS verified against the
club's CA, scram-sha-256 sign-in only, a ``--db`` URL's parameters used exactly as given.

All on loopback: a PostgreSQL server with TLS on and a certificate from a throwaway CA made
here (tests/club/certificates.py), and a fake server (tests/club/fake_server.py) that asks
for the password in clear text, as whoever answered in the club server's place would.

The two security checks (a ``--db`` URL's wrong CA; the fake server's clear-text request)
name only what the app had before them, the refusals' classes through ``words``, so that
they run, and fail on their point, against the code before the fix.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from PySide6.QtCore import QSettings
from sqlalchemy import text

from carwars_desktop.gui.club_connect import ClubSettings, startup_plan
from carwars_desktop.storage import club as words
from carwars_desktop.storage.club import (
    ClubConnection,
    ClubConnectionError,
    check_connection,
    open_club_database,
)

from .certificates import make_authority, write_server_certificate
from .conftest import fill_connect_dialog, new_club
from .fake_server import fake_server


def _forms(password: str) -> set[bytes]:
    return {form.encode() for form in (password, quote(password, safe=""),
                                       quote_plus(password))}


def _settings(tmp_path: Path) -> ClubSettings:
    return ClubSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


def _given_url(club: ClubConnection, password: str, query: str) -> str:
    """A ``--db`` URL as a GM or the organiser would write it."""
    return (f"postgresql+psycopg://{club.user}:{quote(password, safe='')}@{club.host}:"
            f"{club.port}/{club.database}?{query}")


def test_tls_the_club_server_is_verified_against_the_clubs_ca(
        tls_club: ClubConnection, club_password: str, ca_file: Path) -> None:
    assert tls_club.require_tls and tls_club.verify_server and tls_club.scram_only
    parameters = tls_club.parameters()
    assert parameters["sslmode"] == "verify-full"
    assert parameters["sslrootcert"] == str(ca_file)
    assert parameters["require_auth"] == "scram-sha-256"
    assert "empty database" in check_connection(tls_club, club_password).summary()
    with open_club_database(tls_club, club_password) as database, \
            database.engine.connect() as db:
        assert db.scalar(text("SELECT ssl FROM pg_stat_ssl "
                              "WHERE pid = pg_backend_pid()")) is True
    assert tls_club.display().endswith("(encrypted, server verified)")


def test_tls_a_db_url_with_a_wrong_ca_is_refused_with_its_reason(
        tls_club_server: Any, club_password: str, tmp_path: Path) -> None:
    """The URL's sslmode and sslrootcert reach libpq as given (the app used to rebuild the
    URL with sslmode=require, and connected whatever the certificate)."""
    wrong = make_authority("Somebody else's CA").write(tmp_path / "wrong-ca.crt")
    with new_club(tls_club_server) as club:
        url = _given_url(club, club_password, f"sslmode=verify-full&sslrootcert={wrong}")
        plan = startup_plan(url, _settings(tmp_path))
        assert plan.connection is not None and plan.password == club_password
        with pytest.raises(ClubConnectionError) as caught:
            open_club_database(plan.connection, plan.password).close()
    error = caught.value
    assert isinstance(error, words.ClubServerNotVerifiedError)
    assert f"its certificate is not signed by the CA file {wrong}" in str(error)
    assert "stopped before sending anything" in str(error)
    assert club_password not in str(error) + error.detail


def test_tls_a_wrong_ca_in_the_dialogs_fields_is_refused_with_its_reason(
        tls_club: ClubConnection, club_password: str, tmp_path: Path) -> None:
    wrong = make_authority("Somebody else's CA").write(tmp_path / "wrong-ca.crt")
    with pytest.raises(words.ClubServerNotVerifiedError) as caught:
        check_connection(replace(tls_club, ca_file=str(wrong)), club_password)
    assert f"its certificate is not signed by the CA file {wrong}" in str(caught.value)
    # Without a CA file the system's CAs are asked: they never signed the club's own CA.
    with pytest.raises(words.ClubServerNotVerifiedError) as caught:
        check_connection(replace(tls_club, ca_file=""), club_password)
    assert "not signed by a certificate authority this computer trusts" in str(caught.value)
    with pytest.raises(words.ClubServerNotVerifiedError) as caught:
        check_connection(replace(tls_club, ca_file=str(tmp_path / "none.crt")), club_password)
    assert "cannot be read" in str(caught.value)


def test_tls_a_fake_server_asking_for_a_clear_text_password_gets_nothing(
        club_password: str) -> None:
    with fake_server() as server:
        connection = ClubConnection("127.0.0.1", "club", "gm", server.port,
                                    require_tls=False)
        with pytest.raises(ClubConnectionError) as caught:
            check_connection(connection, club_password)
        assert server.done.wait(10)
    assert server.startups == 1  # it was asked, and answered with a clear-text request…
    sent = bytes(server.received)
    assert not sent.startswith(b"p")  # …and no password message followed
    for form in _forms(club_password):
        assert form not in sent
    error = caught.value
    assert isinstance(error, words.ClubInsecureSignInError)
    assert "asked for the password in clear text" in str(error)
    assert "the password was not sent" in str(error)


def test_tls_an_impostor_with_any_certificate_gets_nothing(
        club_password: str, ca_file: Path, tmp_path: Path) -> None:
    """The issue's case: sslmode=require took any certificate, then sent the password in
    clear text inside TLS to whoever answered. The default connection verifies first."""
    impostor = tmp_path / "impostor"
    impostor.mkdir()
    tls = write_server_certificate(make_authority("Impostor CA"), impostor)
    with fake_server(tls) as server:
        connection = ClubConnection("127.0.0.1", "club", "gm", server.port,
                                    ca_file=str(ca_file))
        with pytest.raises(words.ClubServerNotVerifiedError):
            check_connection(connection, club_password)
        assert server.done.wait(10)
        assert server.startups == 0 and server.received == b""
        # Unverified (the organiser's choice for an old setup), scram-only still holds.
        unverified = replace(connection, verify_server=False)
        server.done.clear()
        with pytest.raises(words.ClubInsecureSignInError):
            check_connection(unverified, club_password)
        assert server.done.wait(10)
    assert server.startups == 1
    for form in _forms(club_password):
        assert form not in bytes(server.received)


def test_tls_channel_binding_required_against_the_real_server(
        tls_club: ClubConnection, club_password: str, ca_file: Path, tmp_path: Path,
        club: ClubConnection) -> None:
    url = _given_url(tls_club, club_password,
                     f"sslmode=verify-full&sslrootcert={ca_file}&channel_binding=require")
    plan = startup_plan(url, _settings(tmp_path))
    assert plan.connection is not None
    with open_club_database(plan.connection, plan.password) as database, \
            database.engine.connect() as db:
        info: Any = db.connection.dbapi_connection.info  # type: ignore[union-attr]
        given = info.get_parameters()
        assert given["channel_binding"] == "require"
        assert given["sslmode"] == "verify-full" and given["sslrootcert"] == str(ca_file)
        assert "require_auth" not in given  # nothing added to what was given…
        assert given["connect_timeout"] == "5"  # …but the timeouts it did not set
    # Without TLS there is nothing to bind to: refused, in words, before the password.
    plain = _given_url(club, club_password, "channel_binding=require&sslmode=disable")
    with pytest.raises(words.ClubInsecureSignInError) as caught:
        open_club_database(ClubConnection.from_url(plain), club_password)
    assert "password was not sent" in str(caught.value)


def test_tls_a_given_url_reaches_libpq_as_given() -> None:
    given = ("postgresql+psycopg://ann:pw@club.example.org:6432/carwars?sslmode=verify-ca"
             "&sslrootcert=/home/ann/club-ca.crt&application_name=table-3&connect_timeout=9")
    connection = ClubConnection.from_url(given)
    assert connection.require_tls and connection.verify_server
    assert connection.ca_file == "/home/ann/club-ca.crt" and not connection.scram_only
    parameters = connection.parameters()
    assert parameters["sslmode"] == "verify-ca"  # never rebuilt as require
    assert parameters["application_name"] == "table-3"
    assert parameters["connect_timeout"] == "9"  # the URL's own timeout wins
    assert parameters["keepalives"] == "1"  # one it did not set is added
    assert "require_auth" not in parameters
    rebuilt = ClubConnection.from_url(connection.url("pw"))
    assert rebuilt.parameters() == parameters
    # Filled in by the GM: verified and scram-only unless they say otherwise.
    filled = ClubConnection("club.example.org", "carwars", "ann")
    assert filled.parameters()["sslmode"] == "verify-full"
    assert filled.parameters()["sslrootcert"] == "system"
    assert filled.parameters()["require_auth"] == "scram-sha-256"
    assert ClubConnection.from_settings(filled.to_settings()) == filled
    old_settings = {"host": "club.example.org", "database": "carwars", "user": "ann",
                    "port": 5432, "require_tls": True}  # written before verification existed
    assert ClubConnection.from_settings(old_settings) == filled
    local = ClubConnection("localhost", "carwars", "ann", require_tls=False)
    assert local.display() == "ann@localhost:5432/carwars (TLS not required: may travel " \
                              "unencrypted)"
    assert "sslmode" not in local.parameters()


def test_tls_the_connect_window_verifies_the_server_by_default(
        qtbot: Any, tls_club: ClubConnection, club_password: str, ca_file: Path,
        tmp_path: Path, fake_keyring: Any) -> None:
    from carwars_desktop.gui.club_connect import ConnectDialog
    from carwars_desktop.storage.credentials import PasswordStore

    dialog = ConnectDialog(_settings(tmp_path), PasswordStore())
    qtbot.addWidget(dialog)
    fill_connect_dialog(dialog, tls_club, club_password, tls=False)  # the defaults kept
    assert dialog.tls_box.isChecked() and dialog.verify_box.isChecked()
    assert not dialog.older_sign_in_box.isChecked() and dialog.trust_note.isHidden()
    dialog.tls_box.setChecked(True)
    assert dialog.ca_button.isEnabled() and dialog.ca_edit.isEnabled()
    assert not dialog.test_connection()  # no CA file: the system's CAs never signed the club's
    assert "not signed by a certificate authority this computer trusts" in \
        dialog.result_label.text()
    dialog.ca_edit.setText(str(ca_file))
    assert dialog.connection() == tls_club
    assert dialog.test_connection(), dialog.result_label.text()
    # Each weaker choice says what it risks, in words the window shows whole.
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.verify_box.setChecked(False)
    assert not dialog.ca_edit.isEnabled()
    assert "the connection is encrypted, but to whichever server answers" in \
        dialog.trust_note.text()
    dialog.older_sign_in_box.setChecked(True)
    assert "sent in clear text or as md5" in dialog.trust_note.text()
    assert not dialog.connection().scram_only
    dialog.tls_box.setChecked(False)
    assert not dialog.verify_box.isEnabled()
    assert "TLS is not required: what is sent may travel unencrypted" in \
        dialog.trust_note.text()
    note = dialog.trust_note
    qtbot.waitUntil(lambda: note.height() >= note.heightForWidth(note.width()))
    assert note.isVisible() and note.heightForWidth(note.width()) > 3 * note.fontMetrics().height()
