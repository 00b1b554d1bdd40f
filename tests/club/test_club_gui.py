"""The club database from the window: connect, sign in, recent list, offline at the table."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.gui.club_connect import ClubSettings, ConnectDialog
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage.club import ClubConnection, ClubConnectionError, open_club_database
from carwars_desktop.storage.credentials import PasswordStore
from carwars_desktop.storage.engine import sqlite_url_for_path

from .conftest import fill_connect_dialog


@pytest.fixture
def settings_path(tmp_path: Path) -> Path:
    return tmp_path / "settings.ini"


@pytest.fixture
def settings(settings_path: Path) -> QSettings:
    return QSettings(str(settings_path), QSettings.Format.IniFormat)


@pytest.fixture
def local_url(tmp_path: Path) -> str:
    return sqlite_url_for_path(tmp_path / "laptop.sqlite3")


@pytest.fixture
def window(qtbot: Any, settings: QSettings, local_url: str) -> Iterator[MainWindow]:
    window = MainWindow(db_url_hint=local_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


def test_connect_from_the_menu_and_back_to_the_laptop(
        qtbot: Any, window: MainWindow, settings: QSettings, settings_path: Path,
        club: ClubConnection, club_password: str, fake_keyring: Any, local_url: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    menu = {a.text(): a for a in window.menuBar().actions()[0].menu().actions()}  # type: ignore[union-attr]
    assert "&Connect to a club database…" in menu and "Open &local database" in menu

    def run(dialog: ConnectDialog) -> int:
        fill_connect_dialog(dialog, club, club_password)
        assert dialog.remember_box.isEnabled() and dialog.remember_box.isChecked()
        assert dialog.test_connection()
        assert dialog.result_label.text().startswith("✓ Connected to PostgreSQL")
        return 1 if dialog.connect_now() else 0

    monkeypatch.setattr(ConnectDialog, "exec", run)
    menu["&Connect to a club database…"].trigger()
    assert window.database is not None and window.database.url.startswith("postgresql")
    shown = (f"club {club.user}@127.0.0.1:{club.port}/{club.database} "
             "(TLS not required: may travel unencrypted)")
    assert window._db_label.text() == f"Database: {shown}"
    assert window.windowTitle() == f"Carwars Desktop — {shown}"
    assert PasswordStore().get(club.key) == club_password  # in the keyring…
    settings.sync()
    text = settings_path.read_text()
    assert club.database in text and club_password not in text  # …not in the settings file
    assert ClubSettings(settings).recent() == [club]
    assert ClubSettings(settings).startup_club() == club

    # The recent list fills the dialog, the password from the keyring.
    dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
    qtbot.addWidget(dialog)
    dialog.recent_list.setCurrentRow(0)
    assert dialog.connection() == club and dialog.password_edit.text() == club_password

    # A restart reopens the club database with the keyring's password.
    again = MainWindow(db_url_hint=None, interactive=False, settings=settings)
    qtbot.addWidget(again)
    assert again.finish_startup()
    assert again.database is not None and again.database.url.startswith("postgresql")
    again.shutdown()

    menu["Open &local database"].trigger()
    assert window.database is not None and window.database.url == local_url
    assert window.windowTitle() == "Carwars Desktop"
    assert ClubSettings(settings).startup_club() is None


def test_host_decides_tls_until_the_gm_does(qtbot: Any, settings: QSettings,
                                            no_keyring: None) -> None:
    dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
    qtbot.addWidget(dialog)
    dialog.host_edit.textEdited.emit("localhost")
    assert not dialog.tls_box.isChecked()
    dialog.host_edit.textEdited.emit("club.example.org")
    assert dialog.tls_box.isChecked()
    dialog.tls_box.click()
    dialog.host_edit.textEdited.emit("other.example.org")
    assert not dialog.tls_box.isChecked()
    # No keyring here: the password is asked every time.
    assert not dialog.remember_box.isEnabled() and not dialog.remember_box.isChecked()
    assert "asked every time" in dialog.keyring_note.text()


def _forms(password: str) -> set[str]:
    return {password, quote(password, safe=""), quote_plus(password)}


def test_no_password_in_settings_logs_or_exceptions_after_a_failed_connection(
        qtbot: Any, window: MainWindow, settings: QSettings, settings_path: Path,
        club: ClubConnection, club_password: str, fake_keyring: Any,
        caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]) -> None:
    caplog.set_level(logging.DEBUG)
    logging.getLogger("sqlalchemy.engine").setLevel(logging.DEBUG)
    logging.getLogger("psycopg").setLevel(logging.DEBUG)
    wrong = "Wr0ng-p@ss/word%99"
    texts: list[str] = []
    attempts = [(club, wrong),  # refused password
                (ClubConnection(club.host, club.database, club.user, club.port, True),
                 club_password),  # TLS required, none offered
                (ClubConnection("127.0.0.1", club.database, club.user, 1, False),
                 club_password)]  # unreachable
    for connection, password in attempts:
        dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
        qtbot.addWidget(dialog)
        fill_connect_dialog(dialog, connection, password)
        assert not dialog.test_connection()
        assert not dialog.connect_now()
        texts.append(dialog.result_label.text())
        with pytest.raises(ClubConnectionError) as caught:
            open_club_database(connection, password)
        texts += [str(caught.value), repr(caught.value), caught.value.detail,
                  "".join(traceback.format_exception(caught.value))]
    # The same through start-up with a --db URL holding the password.
    url = attempts[2][0].url(club_password)
    starting = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(starting)
    assert not starting.finish_startup()
    texts += [starting.windowTitle(), starting._db_label.text()]
    logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)
    logging.getLogger("psycopg").setLevel(logging.WARNING)
    settings.sync()
    captured = capsys.readouterr()
    assert "cannot be reached" in captured.err
    assert "refused the password" in texts[0]
    everything = "\n".join([*texts, caplog.text, captured.out, captured.err,
                            settings_path.read_text()])
    for secret in _forms(wrong) | _forms(club_password):
        assert secret not in everything
    assert fake_keyring.passwords == {}  # nothing kept after a failure
    assert ClubSettings(settings).recent() == []


def test_unreachable_club_at_start_up_offers_the_local_database(
        qtbot: Any, settings: QSettings, local_url: str, fake_keyring: Any,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from carwars_desktop.storage import open_database

    open_database(local_url).close()
    club_settings = ClubSettings(settings)
    club_settings.remember_local(local_url)
    gone = ClubConnection("127.0.0.1", "carwars", "ann", 1, require_tls=False)
    club_settings.remember(gone)
    PasswordStore().set(gone.key, "pw")
    offered: list[str] = []

    def offer(self: MainWindow, error: Exception) -> bool:
        offered.append(str(error))
        return True

    monkeypatch.setattr(MainWindow, "_offer_local_database", offer)
    window = MainWindow(db_url_hint=None, interactive=True, settings=settings)
    qtbot.addWidget(window)
    assert window.finish_startup()
    assert window.database is not None and window.database.url == local_url
    assert offered and "127.0.0.1:1 cannot be reached" in offered[0]
    assert "cannot be reached" in capsys.readouterr().err
    window.shutdown()


def test_a_dropped_connection_mid_session_shows_a_banner_and_sends_the_marks_later(
        qtbot: Any, settings: QSettings, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        ruleset = find_ruleset("mini_car_wars")
        catalog = ruleset.catalog()
        entries = [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                   Entry("Bo", "Killer Kart", catalog["Killer Kart"].to_json())]
        table = window.table
        session_id = table.start_session(ruleset.id, "Club night", "road_duel",
                                         prepare(ruleset, entries, "road_duel"))
        courier = table.play.sheets["v1"]
        assert isinstance(courier, MiniSheetWidget)
        assert window.offline_banner.isHidden()
        club_server.stop()
        for box in (0, 1, 2):
            courier.mark_armor(Side.LEFT, box)
        assert window.offline_banner.isVisible()
        assert "3 entries wait on this laptop" in window.offline_banner.label.text()
        assert table.play.log_dock.model.rowCount() == 3  # nothing shown is lost
        assert window.club_link.retry() is not None  # still down: stays queued
        assert window.offline_banner.isVisible()
        club_server.start()
        window.offline_banner.retry_button.click()
        assert window.offline_banner.isHidden()
        game = table.context.service.game
        assert game is not None
        with open_club_database(club, club_password) as database:
            events = database.game_sessions.events(session_id).page(0, 10)
            assert [e.seq for e in events] == [1, 2, 3]
            log = table.play.log_dock.model
            assert [e.event.summary for e in events] == [
                log.event_at(row).event.summary for row in range(3)]
            assert all("left" in e.event.summary for e in events)
            loaded = database.game_sessions.load(session_id)
            assert loaded.sheets["v1"] == game.sheet("v1").to_json()
    finally:
        club_server.start_if_stopped()
        window.shutdown()


def test_a_conflict_after_the_drop_is_shown_and_the_entries_can_be_set_aside(
        qtbot: Any, settings: QSettings, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        ruleset = find_ruleset("mini_car_wars")
        catalog = ruleset.catalog()
        entries = [Entry("Ann", "Courier", catalog["Courier"].to_json())]
        table = window.table
        session_id = table.start_session(ruleset.id, "Club night", "",
                                         prepare(ruleset, entries, ""))
        courier = table.play.sheets["v1"]
        assert isinstance(courier, MiniSheetWidget)
        courier.mark_armor(Side.LEFT, 0)
        club_server.stop()
        courier.mark_armor(Side.LEFT, 4)
        club_server.start()
        with open_club_database(club, club_password) as other:  # another GM, same session
            loaded = other.game_sessions.load(session_id)
            # One writer at a time (issue 15): the other GM's copy takes the session over.
            lease = other.game_sessions.acquire(session_id, take_over=True)
            other.game_sessions.events(session_id, lease).append(
                table.play.log_dock.model.event_at(0).event, loaded.sheets, loaded.clock)
        window.offline_banner.retry_button.click()
        banner = window.offline_banner
        assert banner.isVisible() and "Another client wrote to this session" in \
            banner.label.text()
        assert banner.set_aside_button.isVisible() and not banner.retry_button.isVisible()
        with open_club_database(club, club_password) as database:
            assert database.game_sessions.events(session_id).count() == 2  # theirs kept
        banner.set_aside_button.click()
        assert banner.isHidden()
        game = table.context.service.game
        assert game is not None and table.session_id == session_id
        with open_club_database(club, club_password) as database:
            assert database.game_sessions.load(session_id).sheets["v1"] == \
                game.sheet("v1").to_json()  # the screen shows the server's session again
    finally:
        club_server.start_if_stopped()
        window.shutdown()


def test_entries_left_queued_when_the_app_closed_land_at_the_next_start(
        qtbot: Any, settings: QSettings, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    url = club.url(club_password)
    first = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(first)
    first.show()
    assert first.finish_startup()
    try:
        ruleset = find_ruleset("mini_car_wars")
        entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json())]
        session_id = first.table.start_session(ruleset.id, "Club night", "",
                                               prepare(ruleset, entries, ""))
        courier = first.table.play.sheets["v1"]
        assert isinstance(courier, MiniSheetWidget)
        club_server.stop()
        courier.mark_armor(Side.LEFT, 2)
        courier.mark_armor(Side.FRONT, 1)
        game = first.table.context.service.game
        assert game is not None
        shown = game.sheet("v1").to_json()
        first.shutdown()  # the laptop closes the app while offline
    finally:
        club_server.start_if_stopped()
    second = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(second)
    second.show()
    try:
        assert second.finish_startup()
        def reopened() -> bool:
            game = second.table.context.service.game
            return game is not None and game.sheet("v1").to_json() == shown

        qtbot.waitUntil(reopened)  # the queue was sent, then the session read again
        assert second.table.session_id == session_id
        assert second.table.play.log_dock.model.rowCount() == 2
        assert second.offline_banner.isHidden()
    finally:
        second.shutdown()


def test_a_refusal_on_retry_is_shown_in_words_and_the_entries_keep_waiting(
        qtbot: Any, settings: QSettings, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    try:
        ruleset = find_ruleset("mini_car_wars")
        entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json())]
        session_id = window.table.start_session(ruleset.id, "Club night", "",
                                                prepare(ruleset, entries, ""))
        courier = window.table.play.sheets["v1"]
        assert isinstance(courier, MiniSheetWidget)
        club_server.stop()
        courier.mark_armor(Side.LEFT, 2)
        club_server.start()
        club_server.sql(f"ALTER ROLE {club.user} PASSWORD 'changed-by-the-admin'")
        assert window.club_link.retry() is None
        text = window.offline_banner.label.text()
        assert "kept on this laptop (1 waiting)" in text and "refused the password" in text
        assert window.offline_banner.retry_button.isVisible()
        quoted = club_password.replace("'", "''")
        club_server.sql(f"ALTER ROLE {club.user} PASSWORD '{quoted}'")
        window.offline_banner.retry_button.click()
        assert window.offline_banner.isHidden()
        with open_club_database(club, club_password) as database:
            assert database.game_sessions.events(session_id).count() == 1
    finally:
        club_server.start_if_stopped()
        window.shutdown()


@pytest.mark.parametrize("keyring_here", [True, False])
def test_the_connect_window_says_where_the_password_is_kept(
        qtbot: Any, settings: QSettings, keyring_here: bool,
        request: pytest.FixtureRequest) -> None:
    from ..gui.readable import unreadable

    request.getfixturevalue("fake_keyring" if keyring_here else "no_keyring")
    dialog = ConnectDialog(ClubSettings(settings), PasswordStore())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    note = dialog.keyring_note
    assert note.isVisible()
    if keyring_here:
        assert note.text() == ("The password is kept in the system keyring (conftest "
                               "FakeKeyring) once the connection works, never in the database "
                               "or the app's settings.")
        dialog.remember_box.click()
        assert note.text().startswith("The password will not be saved: it is asked every time")
    else:
        assert not dialog.remember_box.isEnabled()
        assert note.text().startswith("This computer has no keyring: the password will not "
                                      "be saved.")
    for width in (dialog.width(), dialog.minimumSizeHint().width()):
        dialog.resize(width, dialog.height())
        qtbot.waitUntil(lambda w=width: dialog.width() == w)  # type: ignore[misc]
        assert unreadable(dialog) == []


@pytest.mark.parametrize("keyring_here", [True, False])
@pytest.mark.parametrize("remember", [True, False])
def test_the_keyring_note_reads_whole_on_a_1366x768_screen_and_at_the_least_size(
        qtbot: Any, settings: QSettings, keyring_here: bool, remember: bool,
        request: pytest.FixtureRequest) -> None:
    """Issue 34 §4: the connect window's keyring note, with every other note it can show
    (recent connections, the TLS and older sign-in warning), is never cut: at its own size
    on a 1366×768 screen (less a 48-px panel), maximized there, and at its least size."""
    from ..gui.readable import unreadable

    request.getfixturevalue("fake_keyring" if keyring_here else "no_keyring")
    club_settings = ClubSettings(settings)
    for n in range(3):
        club_settings.remember(ClubConnection(host=f"club{n}.example.org", database="carwars",
                                              user=f"gm{n}"))
    dialog = ConnectDialog(club_settings, PasswordStore())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.tls_box.setChecked(False)
    dialog.older_sign_in_box.setChecked(True)
    if keyring_here and not remember:
        dialog.remember_box.click()
    assert dialog.trust_note.isVisible() and dialog.keyring_note.isVisible()
    assert dialog.height() <= 768 - 48 and dialog.width() <= 1366
    least = dialog.minimumSizeHint()
    for width, height in ((dialog.width(), dialog.height()), (1366, 768 - 48),
                          (least.width(), 0)):
        dialog.resize(width, max(height, dialog.minimumHeight()))
        qtbot.waitUntil(lambda w=width: dialog.width() == max(w, dialog.minimumWidth()))  # type: ignore[misc]
        assert dialog.height() <= 768 - 48, (width, "taller than the screen")
        assert unreadable(dialog) == [], (width, dialog.keyring_note.text())
        note = dialog.keyring_note
        assert note.heightForWidth(note.width()) <= note.height() + 1
