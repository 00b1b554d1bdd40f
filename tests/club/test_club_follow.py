"""A follower knows what is going on (issue 31 §4), and a call stuck on a hung path is cut
(§2): a copy following a running session read-only through a proxy that stops forwarding."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from carwars_desktop.gui import club_link
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.table import workspace as table_workspace
from carwars_desktop.gui.table.workspace import FOLLOWING_LIVE, FOLLOWING_LOST, LeaseChoice
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage import stuck_calls
from carwars_desktop.storage.club import ClubConnection

from .proxy import StallingProxy, short_connect_timeout, stalling_proxy


def _window(qtbot: Any, tmp_path: Path, name: str, url: str) -> MainWindow:
    settings = QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    return window


@pytest.fixture
def proxy(club: ClubConnection) -> Iterator[StallingProxy]:
    with stalling_proxy(club.port) as proxy:
        yield proxy


def test_a_follower_says_live_or_lost_and_never_logs_a_traceback(
        qtbot: Any, tmp_path: Path, club: ClubConnection, club_password: str,
        proxy: StallingProxy, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_workspace, "FOLLOW_ANSWER_S", 0.5)
    monkeypatch.setattr(stuck_calls, "STUCK_AFTER_S", 2.0)
    # Ticks, stuck-call checks and reconnects through the stalled path at test pace (the
    # app's 1 s, 1 s and 5 s made this test wait twelve seconds).
    monkeypatch.setattr(table_workspace, "FOLLOW_MS", 100)
    monkeypatch.setattr(club_link, "WATCH_MS", 100)
    short_connect_timeout(monkeypatch)
    player = _window(qtbot, tmp_path, "player", club.url(club_password))
    follower = _window(qtbot, tmp_path, "follower",
                       replace(club, port=proxy.port).url(club_password))
    try:
        ruleset = find_ruleset("mini_car_wars")
        entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json())]
        session_id = player.table.start_session(ruleset.id, "Club night", "",
                                                prepare(ruleset, entries, ""))
        table = follower.table
        table.ask_lease = lambda name, lease: LeaseChoice.FOLLOW
        assert table.open_session(session_id)
        assert table.following and table.context.service.read_only
        play = table.play
        assert play.state == FOLLOWING_LIVE and FOLLOWING_LIVE in play.title.text()
        assert "finished" not in play.title.text()
        assert not play.tabs.isTabVisible(1)  # no Charts tab while the session runs
        courier = player.table.play.sheets["v1"]
        assert isinstance(courier, MiniSheetWidget)
        courier.mark_armor(Side.LEFT, 0)

        def shown() -> bool:
            game = table.context.service.game
            return game is not None and game.sheet("v1").to_json() == \
                player.table.context.service.game.sheet("v1").to_json()  # type: ignore[union-attr]

        qtbot.waitUntil(shown, timeout=10_000)  # followed live, through the proxy
        assert play.state == FOLLOWING_LIVE and not play.tabs.isTabVisible(1)

        caplog.clear()
        with caplog.at_level(logging.DEBUG):
            proxy.stall()  # the path hangs: the follower's read is sent and never answered
            qtbot.waitUntil(lambda: play.state == FOLLOWING_LOST, timeout=10_000)
            assert FOLLOWING_LOST in play.title.text()
            assert follower.isVisible()  # the window went on answering meanwhile
            # The read stuck on the open connection is cut on this side (the server's
            # statement timeout never started: the statement never reached it).
            qtbot.waitUntil(lambda: table._follow_poll is None, timeout=15_000)
            assert play.state == FOLLOWING_LOST  # and it keeps retrying
            proxy.resume()
            qtbot.waitUntil(lambda: play.state == FOLLOWING_LIVE, timeout=15_000)
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        lost = [r.getMessage() for r in caplog.records if "not answering" in r.getMessage()]
        assert len(lost) == 1  # said once, not on every tick
        courier.mark_armor(Side.LEFT, 1)
        qtbot.waitUntil(shown, timeout=10_000)  # live again
    finally:
        follower.shutdown()
        player.shutdown()
