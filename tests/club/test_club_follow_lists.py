"""On the club server the Library and the session list follow the other copies of the app
(issue 31) through LISTEN/NOTIFY (revision 0013's triggers): a design renamed and a
session started by another connection show without reconnecting, the selection kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.storage import NewDesign, open_database
from carwars_desktop.storage.club import ClubConnection
from carwars_desktop.storage.watch import PostgresWatcher

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}


def test_a_club_window_follows_another_connection(
        qtbot: Any, tmp_path: Path, club: ClubConnection, club_password: str) -> None:
    url = club.url(club_password)
    settings = QSettings(str(tmp_path / "gm.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    elsewhere = open_database(url)
    try:
        window.following.timer.setInterval(50)
        qtbot.waitUntil(lambda: window.following.follower is not None, timeout=15_000)
        assert window.following.follower is not None
        assert isinstance(window.following.follower.watcher, PostgresWatcher)  # LISTEN
        library = window.workspaces[0]
        assert isinstance(library, LibraryWorkspace)
        library.wait_for_rows()
        model = library.model

        def names() -> list[str]:
            return [e.name for e in model.entries_at(range(model.rowCount()))]

        data = find_ruleset(MINI_CAR_WARS.id).catalog()["Courier"].to_json()
        data["name"] = "Aardvark"
        added = elsewhere.library.add(NewDesign(MINI_CAR_WARS.id, data))
        qtbot.waitUntil(lambda: "Aardvark" in names(), timeout=15_000)
        library.select_ids([added.id])
        elsewhere.library.rename(added.id, "Zebra")
        qtbot.waitUntil(lambda: "Zebra" in names(), timeout=15_000)
        assert "Aardvark" not in names() and library.selected_ids() == [added.id]
        qtbot.waitUntil(lambda: "Zebra" in library.detail.text(), timeout=15_000)

        window.table.show_sessions()
        page = window.table.sessions_page
        before = page.model.rowCount()
        session_id = elsewhere.game_sessions.create(MINI_CAR_WARS.id, "Club night", "", [],
                                                    CLOCK)
        qtbot.waitUntil(lambda: page.model.rowCount() == before + 1, timeout=15_000)
        assert page.model.record(0).id == session_id
    finally:
        elsewhere.close()
        window.shutdown()


def test_what_was_written_while_the_watcher_was_away_is_read_once_it_is_back(
        qtbot: Any, tmp_path: Path, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    """The server stopped: the watcher's connection is gone, and what another copy writes
    before it is open again is never notified to it. Once open, the lists are read whole."""
    url = club.url(club_password)
    settings = QSettings(str(tmp_path / "gm.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    following = window.following
    following.timer.setInterval(50)
    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace)
    try:
        qtbot.waitUntil(lambda: following.follower is not None, timeout=15_000)
        library.wait_for_rows()
        club_server.stop()
        qtbot.waitUntil(lambda: following.follower is None, timeout=15_000)
        following.timer.stop()  # (the test writes before the watcher is open again)
        club_server.start()
        with open_database(url) as elsewhere:
            data = find_ruleset(MINI_CAR_WARS.id).catalog()["Courier"].to_json()
            data["name"] = "Written meanwhile"
            elsewhere.library.add(NewDesign(MINI_CAR_WARS.id, data))
        resumed: list[bool] = []
        following.resumed.connect(lambda: resumed.append(True))
        following.timer.start()
        qtbot.waitUntil(lambda: bool(resumed), timeout=15_000)
        model = library.model
        qtbot.waitUntil(lambda: "Written meanwhile" in [
            e.name for e in model.entries_at(range(model.rowCount()))], timeout=15_000)
    finally:
        club_server.start_if_stopped()
        window.shutdown()
