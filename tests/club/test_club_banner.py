"""Issue 31 §4: one outage banner, in words, over the content (the sheets never move)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QSettings
from PySide6.QtWidgets import QFrame, QWidget

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage.club import ClubConnection, open_club_database

BANNERS = ("write-banner", "club-offline-banner")


def visible_banners(window: QWidget) -> list[QFrame]:
    return [frame for frame in window.findChildren(QFrame)
            if frame.objectName() in BANNERS and frame.isVisible()]


def where(widget: QWidget, window: QWidget) -> QPoint:
    """The sheet's top-left corner in the window (what a click aims at)."""
    return widget.mapTo(window, QPoint(0, 0))


@pytest.fixture
def club_window(qtbot: Any, tmp_path: Path, club: ClubConnection,
                club_password: str) -> Iterator[MainWindow]:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


def test_one_outage_banner_in_words_over_the_sheets_gone_once_all_is_written(
        qtbot: Any, club_window: MainWindow, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    window = club_window
    ruleset = find_ruleset("mini_car_wars")
    entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json()),
               Entry("Bo", "Killer Kart", ruleset.catalog()["Killer Kart"].to_json())]
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    session_id = table.start_session(ruleset.id, "Club night", "road_duel",
                                     prepare(ruleset, entries, "road_duel"))
    courier = table.play.sheets["v1"]
    assert isinstance(courier, MiniSheetWidget)
    qtbot.waitUntil(lambda: courier.isVisible())
    before = {key: where(sheet, window) for key, sheet in table.play.sheets.items()}
    assert visible_banners(window) == []
    try:
        club_server.stop()
        courier.mark_armor(Side.LEFT, 0)   # queued
        table.renew_lease()                 # a write outside the queue, lost with the link
        courier.mark_armor(Side.LEFT, 1)
        qtbot.waitUntil(lambda: bool(visible_banners(window)))
        shown = visible_banners(window)
        assert len(shown) == 1 and shown[0] is window.offline_banner
        text = window.offline_banner.label.text()
        assert "The club server is not answering — the table keeps playing" in text
        assert "2 entries wait on this laptop to be sent" in text
        for raw in ("connection", "port", "127.0.0.1", "failed", "refused"):
            assert raw not in text.lower()
        assert not table.banner.isVisible()
        # Over the sheets, not pushing them: nothing under the pointer moved.
        assert {key: where(sheet, window) for key, sheet in table.play.sheets.items()} \
            == before
        banner_top = window.offline_banner.mapTo(window, QPoint(0, 0)).y()
        assert banner_top <= min(point.y() for point in before.values()) + \
            window.offline_banner.height()
        assert window.club_link.retry() is not None  # still down: stays
        assert len(visible_banners(window)) == 1
        club_server.start()
        window.offline_banner.retry_button.click()
        qtbot.waitUntil(lambda: not visible_banners(window))
        assert not window.club_link.away
        with open_club_database(club, club_password) as database:
            assert database.game_sessions.events(session_id).count() == 2
    finally:
        club_server.start_if_stopped()


def test_a_lost_lease_write_alone_says_the_server_is_not_answering(
        qtbot: Any, club_window: MainWindow, club_server: Any) -> None:
    """Nothing queued yet: the lease renewal's failure is the outage, said in the banner's
    words (never the driver's), and the banner goes once the server answers."""
    window = club_window
    ruleset = find_ruleset("mini_car_wars")
    entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json())]
    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    table.start_session(ruleset.id, "Club night", "", prepare(ruleset, entries, ""))
    try:
        club_server.stop()
        table.renew_lease()
        shown = visible_banners(window)
        assert shown == [window.offline_banner]
        assert "not answering" in window.offline_banner.label.text()
        assert "Keeping the session" not in window.offline_banner.label.text()
        club_server.start()
        window.offline_banner.retry_button.click()
        qtbot.waitUntil(lambda: not visible_banners(window))
    finally:
        club_server.start_if_stopped()
