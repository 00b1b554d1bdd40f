"""File › Replay session…: a scripted session replayed with the keys: the log line of
event N highlighted, the sheets and clock as the live game showed them, the odds of its
roll; nothing written (issue 36 §1)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.replay_view import ReplayPicker, ReplayView
from carwars_desktop.services import Services
from carwars_desktop.services.players_feed import PlayersFeed

SERVICES_TESTS = Path(__file__).resolve().parents[1] / "services"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("replay_script",
                                                  SERVICES_TESTS / "replay_script.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["replay_script"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _shown_sheets(view: ReplayView) -> dict[str, object]:
    return {key: widget.sheet.to_json() for key, widget in view.sheets.items()
            if widget.sheet is not None}


def test_replay_view_steps_with_the_keys(window: MainWindow, qtbot: QtBot) -> None:
    services = Services()
    services.table.database = window.database
    assert window.database is not None
    services.library.attach(window.database)
    played = _script().play_mini(services)  # still running: replayed read-only
    version = window.database.game_sessions.version(played.session_id)
    file_menu = next(a for a in window.menuBar().actions() if a.text() == "&File").menu()
    assert "Re&play session…" in [a.text() for a in file_menu.actions()]  # type: ignore[union-attr]
    picker = window.replay_session()
    assert isinstance(picker, ReplayPicker)
    picker.sessions.setCurrentIndex(picker.sessions.findData(played.session_id))
    view = picker.open_view()
    assert isinstance(view, ReplayView)
    qtbot.addWidget(view)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    replay = view.replay
    assert view.index == replay.last  # it opens at the game as it stands
    assert view.highlighted_row() == replay.last - 1

    def check() -> None:
        seq = replay.positions[view.index].seq
        assert _shown_sheets(view) == played.shown[seq]["sheets"], f"event {seq}"
        clock = played.shown[seq]["clock"]
        assert view.clock.turn.text().endswith(str(clock["turn"]))
        assert view.highlighted_row() == (None if seq == 0 else view.index - 1)

    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.index == 0
    check()
    seen = []
    while view.index != replay.last:
        qtbot.keyClick(view, Qt.Key.Key_Right)
        check()
        seen.append(replay.positions[view.index].seq)
    assert seen == played.main_line  # → skips the undone events
    qtbot.keyClick(view, Qt.Key.Key_Home)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert "need 8+, P(success) = 5/12 (41.7%)" in view.odds.text()
    assert "88th percentile" in view.odds.text()
    # into the undone branch with Shift+→ (every event, in order)
    first_undone = played.undone[0]
    while replay.positions[view.index].seq != first_undone:
        qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    check()
    assert "undone branch" in view.where.text()
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert replay.positions[view.index].main
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    assert replay.positions[view.index].turn == replay.positions[0].turn + 2
    check()
    qtbot.keyClick(view, Qt.Key.Key_PageUp)
    check()
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.index == replay.last
    check()
    view.slider.setValue(1)
    assert view.index == replay.main_line[1]
    check()
    assert window.database.game_sessions.version(played.session_id) == version
    view.close()


def test_replay_shows_event_n_on_the_players_display(window: MainWindow,
                                                      qtbot: QtBot) -> None:
    services = Services()
    services.table.database = window.database
    assert window.database is not None
    services.library.attach(window.database)
    played = _script().play_mini(services)
    picker = window.replay_session()
    assert isinstance(picker, ReplayPicker)
    picker.sessions.setCurrentIndex(picker.sessions.findData(played.session_id))
    view = picker.open_view()
    assert isinstance(view, ReplayView)
    qtbot.addWidget(view)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    qtbot.keyClick(view, Qt.Key.Key_Right)  # event 1: the first shot, odds shown then
    qtbot.keyClick(view, Qt.Key.Key_T)
    display = window.player_display
    assert display is not None and view.on_tv is display
    assert display.view is not None and display.view.title.endswith("(replay)")
    assert display.view == view.session.players_view_at(view.index)
    assert display.view.log and "hit" in display.view.log[-1]
    assert display.view.odds_shown
    # the phones follow it: the sharing gets the same view, its feed sends it
    assert window.phone_sharing.replayed == display.view
    feed = PlayersFeed(window.services.table)
    feed.show_replayed(display.view)
    assert feed.snapshot()["title"].endswith("(replay)")
    qtbot.keyClick(view, Qt.Key.Key_End)  # the odds were hidden later in the game
    assert display.view == view.session.players_view_at(view.replay.last)
    assert not display.view.odds_shown
    assert window.phone_sharing.replayed == display.view
    qtbot.keyClick(view, Qt.Key.Key_T)  # the table's game back on the TV
    assert display.replayed is None and view.on_tv is None
    assert window.phone_sharing.replayed is None
    assert display.view is not None and not display.view.title.endswith("(replay)")
    view.close()


def test_replay_step_that_cannot_read_its_events_says_so(window: MainWindow, qtbot: QtBot,
                                                         monkeypatch) -> None:  # type: ignore[no-untyped-def]
    services = Services()
    services.table.database = window.database
    assert window.database is not None
    services.library.attach(window.database)
    played = _script().play_autopower(services)
    picker = window.replay_session()
    assert isinstance(picker, ReplayPicker)
    picker.sessions.setCurrentIndex(picker.sessions.findData(played.session_id))
    view = picker.open_view()
    assert isinstance(view, ReplayView)
    qtbot.addWidget(view)
    at = view.index

    def unreadable(_index: int) -> None:
        raise ValueError("the session's events changed while replayed")

    monkeypatch.setattr(view.replay, "state", unreadable)
    view.go(0)
    assert view.index == at and "cannot be shown: the session's events changed" in \
        view.where.text()
    view.close()
