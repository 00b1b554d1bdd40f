"""Queued entries key on the server's identity, not its address (issue 31 §4): entries made
through another port of the same server (a proxy here) replay when the GM connects directly."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage.club import ClubConnection, open_club_database, server_identity

from .proxy import stalling_proxy


def test_the_identity_is_the_servers_whatever_the_port(
        club: ClubConnection, club_password: str) -> None:
    with stalling_proxy(club.port) as proxy, \
            open_club_database(club, club_password) as direct, \
            open_club_database(replace(club, port=proxy.port), club_password) as other:
        identity = server_identity(direct)
        assert identity is not None and club.database in identity
        assert server_identity(other) == identity
        assert str(proxy.port) not in identity and str(club.port) not in identity


def test_entries_made_through_another_port_replay_through_this_one(
        qtbot: Any, tmp_path: Path, club: ClubConnection, club_password: str,
        club_server: Any) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with stalling_proxy(club.port) as proxy:
        first = MainWindow(db_url_hint=replace(club, port=proxy.port).url(club_password),
                           interactive=False, settings=settings)
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
            first.shutdown()  # closed while offline: two entries wait
        finally:
            club_server.start_if_stopped()
    second = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)  # the same server, reached at another port
    qtbot.addWidget(second)
    second.show()
    try:
        assert second.finish_startup()

        def landed() -> bool:
            game = second.table.context.service.game
            return game is not None and game.sheet("v1").to_json() == shown

        qtbot.waitUntil(landed, timeout=15_000)
        assert second.table.session_id == session_id
        with open_club_database(club, club_password) as database:
            assert database.game_sessions.events(session_id).count() == 2
    finally:
        second.shutdown()
