"""A damaged club database and a keyring that refuses are said in words, at once: never an
uncaught error, never a missing password reported as a wrong one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.errors import PasswordSetError
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from carwars_desktop.gui.club_connect import ClubSettings, ConnectDialog
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.storage import club as words
from carwars_desktop.storage.club import ClubConnection, check_connection, open_club_database
from carwars_desktop.storage.credentials import PasswordStore

from .conftest import FakeKeyring, fill_connect_dialog


def _settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def _dialog(qtbot: Any, tmp_path: Path, club: ClubConnection, password: str) -> ConnectDialog:
    dialog = ConnectDialog(ClubSettings(_settings(tmp_path)), PasswordStore())
    qtbot.addWidget(dialog)
    fill_connect_dialog(dialog, club, password)
    return dialog


def test_a_club_database_with_a_dropped_table_is_refused_in_words(
        qtbot: Any, club: ClubConnection, club_password: str, club_server: Any,
        tmp_path: Path, fake_keyring: Any, capsys: pytest.CaptureFixture[str]) -> None:
    open_club_database(club, club_password).close()
    club_server.sql("DROP TABLE designs CASCADE", database=club.database)
    with pytest.raises(words.ClubConnectionError) as caught:
        check_connection(club, club_password)
    error = caught.value
    assert isinstance(error, words.ClubDamagedError)
    assert f"“{club.database}” on 127.0.0.1 is a Carwars Desktop database, damaged: table " \
           "designs is missing. Nothing was changed." in str(error)
    # Test connection and Connect say it in the window.
    dialog = _dialog(qtbot, tmp_path, club, club_password)
    assert not dialog.test_connection()
    assert "damaged: table designs is missing" in dialog.result_label.text()
    assert not dialog.connect_now() and dialog.database is None
    assert "damaged: table designs is missing" in dialog.result_label.text()
    # At start (a --db URL): refused with the reason on stderr, not an uncaught error.
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=_settings(tmp_path))
    qtbot.addWidget(window)
    assert not window.finish_startup()
    assert "damaged: table designs is missing" in capsys.readouterr().err
    with pytest.raises(words.ClubDamagedError):  # nothing was recreated or changed
        check_connection(club, club_password)


class RefusingKeyring(FakeKeyring):
    """A Secret Service that is there but refuses to store (a locked collection)."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError("Prompt dismissed: the collection is locked")

    def delete_password(self, service: str, username: str) -> None:
        raise PasswordSetError("Prompt dismissed: the collection is locked")


@pytest.fixture
def refusing_keyring() -> Any:
    previous = keyring.get_keyring()
    keyring.set_keyring(RefusingKeyring())
    yield
    keyring.set_keyring(previous)


def test_a_keyring_that_refuses_to_keep_the_password_is_said_at_once(
        qtbot: Any, club: ClubConnection, club_password: str, tmp_path: Path,
        refusing_keyring: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text: warned.append(f"{title}: {text}"))
    dialog = _dialog(qtbot, tmp_path, club, club_password)
    assert dialog.remember_box.isEnabled() and dialog.remember_box.isChecked()
    assert dialog.connect_now()  # connected all the same…
    assert dialog.database is not None
    dialog.database.close()
    assert len(warned) == 1  # …and told at once, with where it is asked next time
    assert warned[0].startswith("Password not kept: Connected, but the password could not "
                                "be kept: this computer's keyring refused it (Prompt "
                                "dismissed: the collection is locked).")
    assert "asks for it again, in File › Connect to a club database…" in warned[0]
    assert dialog.keyring_problem is not None and club_password not in dialog.keyring_problem


def test_the_window_keeps_the_keyrings_refusal_in_view(
        qtbot: Any, club: ClubConnection, club_password: str, tmp_path: Path,
        refusing_keyring: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from carwars_desktop.storage import open_database
    from carwars_desktop.storage.engine import sqlite_url_for_path

    local = sqlite_url_for_path(tmp_path / "laptop.sqlite3")
    open_database(local).close()
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: None)
    window = MainWindow(db_url_hint=local, interactive=False, settings=_settings(tmp_path))
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()

    def run(dialog: ConnectDialog) -> int:
        dialog.host_edit.setText(club.host)
        dialog.port_box.setValue(club.port)
        dialog.database_edit.setText(club.database)
        dialog.user_edit.setText(club.user)
        dialog.password_edit.setText(club_password)
        dialog.tls_box.setChecked(False)
        return 1 if dialog.connect_now() else 0

    monkeypatch.setattr(ConnectDialog, "exec", run)
    window.connect_to_club()
    assert window.database is not None and window.database.url.startswith("postgresql")
    assert "the password could not be kept" in window.statusBar().currentMessage()
    window.shutdown()


def test_a_missing_password_is_never_reported_as_a_wrong_one(
        club: ClubConnection, club_password: str, refusing_keyring: Any) -> None:
    assert PasswordStore().get(club.key) is None  # nothing kept (the keyring refused)
    with pytest.raises(words.ClubConnectionError) as caught:
        check_connection(club, None)
    message = str(caught.value)
    assert "asks for the password of user" in message and "none was given" in message
    assert "refused the password" not in message
    with pytest.raises(words.ClubConnectionError) as caught:
        check_connection(club, "not-the-password")
    assert "refused the password" in str(caught.value)
