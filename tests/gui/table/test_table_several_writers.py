"""The Table with several writers: a read-only evening, a session held by another copy
(followed live, or taken over), and a start-up that never resumes someone else's game."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.autopower.clock_panel import AutopowerClockPanel
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.workspace import LeaseChoice
from carwars_desktop.rules.autopower import CarSheet
from carwars_desktop.storage import open_database

State = Callable[[TableWorkspace], str]


def _car(table: TableWorkspace, key: str) -> CarSheet:
    assert table.context.service.game is not None
    sheet = table.context.service.game.sheet(key)
    assert isinstance(sheet, CarSheet)
    return sheet


def _events(table: TableWorkspace) -> int:
    assert table.database is not None and table.session_id is not None
    return table.database.game_sessions.events(table.session_id).count()


def test_a_read_only_evening_at_the_table(start_session, switch: Any, state: State,  # type: ignore[no-untyped-def]
                                          qtbot) -> None:
    table = start_session("autopower", [("Ann", "Longshot"), ("Bo", "Rhino")])
    before, rows = state(table), table.play.log_dock.model.rowCount()
    switch.read_only()
    table.play.sheets["v2"].mark_damage(2)  # type: ignore[attr-defined]
    assert table.banner.isVisible()
    assert "the database is read-only" in table.banner.label.text()
    assert state(table) == before and _car(table, "v2").total_damage == 0
    assert table.play.log_dock.model.rowCount() == rows and _events(table) == 0
    clock = table.play.clock
    assert isinstance(clock, AutopowerClockPanel)
    clock.next_phase()
    assert state(table) == before and _events(table) == 0
    table.finish_session(confirm=False)
    assert table.database is not None and table.session_id is not None
    assert table.database.game_sessions.load(table.session_id).info.running
    switch.writable()
    qtbot.mouseClick(table.banner.retry_button, Qt.MouseButton.LeftButton)
    assert not table.banner.isVisible()
    assert not table.database.game_sessions.load(table.session_id).info.running
    assert table.context.service.read_only  # finished: it reopened read-only


@pytest.fixture
def second(qtbot, settings: QSettings, sqlite_url: str) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    """Another copy of the app on the same database (a laptop beside the club's PC)."""
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    yield window
    window.shutdown()


def test_a_held_session_is_followed_live_then_taken_over(  # type: ignore[no-untyped-def]
        start_session, second: MainWindow, state: State) -> None:
    first = start_session("autopower", [("Ann", "Longshot"), ("Bo", "Rhino")])
    session_id = first.session_id
    assert session_id is not None and first.lease is not None
    other = second.table
    asked: list[str] = []

    def follow(name: str, lease: Any) -> LeaseChoice:
        asked.append(lease.describe())
        return LeaseChoice.FOLLOW

    other.ask_lease = follow
    assert other.open_session(session_id)
    assert asked and asked[0].startswith("open on ") and " since " in asked[0]
    assert other.context.service.read_only and other.following
    first.play.sheets["v2"].mark_damage(2)  # type: ignore[attr-defined]
    other.follow_tick()  # the follower's timer: the new event shows there
    assert _car(other, "v2").total_damage == 2 and state(other) == state(first)

    other.ask_lease = lambda name, lease: LeaseChoice.TAKE_OVER
    assert other.open_session(session_id)
    assert not other.context.service.read_only and other.lease is not None
    other.play.sheets["v1"].mark_damage(1)  # type: ignore[attr-defined]
    # The first copy's next write is refused: it says so and drops to read-only.
    first.play.sheets["v2"].mark_damage(1)  # type: ignore[attr-defined]
    assert first.banner.isVisible() and "took this session over" in first.banner.label.text()
    assert first.context.service.read_only and first.following and first.lease is None
    assert _car(first, "v2").total_damage == 2 and _car(first, "v1").total_damage == 1  # reloaded
    assert _events(first) == 2


def test_start_up_never_resumes_a_session_another_copy_holds(  # type: ignore[no-untyped-def]
        start_session, window: MainWindow, qtbot, settings: QSettings, sqlite_url: str) -> None:
    first = start_session("autopower", [("Ann", "Longshot"), ("Bo", "Rhino")])
    assert first.lease is not None
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    again.show()
    assert again.finish_startup()
    try:
        assert again.table.context.service.game is None
        message = again.table.sessions_page.message.text()
        assert "Test night" in message and "open on " in message
        # (the list is read on a worker)
        qtbot.waitUntil(lambda: again.table.sessions_page.model.rowCount() == 1)
        state = again.table.sessions_page.model.index(0, 3).data()
        assert state.startswith("▶ open on ") and " since " in state
    finally:
        again.shutdown()


def test_a_new_session_on_a_read_only_database(window: MainWindow, switch: Any,  # type: ignore[no-untyped-def]
                                               qtbot) -> None:
    from carwars_desktop.gui.table.new_session import NewSessionDialog

    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    table.new_session()
    dialog = table.new_dialog
    assert isinstance(dialog, NewSessionDialog)
    dialog.set_player(0, "Ann", "Courier")
    dialog.set_player(1, "Bo", "Courier")
    dialog.name_edit.setText("Club night")
    switch.read_only()
    dialog.accept()
    assert table.banner.isVisible() and "read-only" in table.banner.label.text()
    assert table.context.service.game is None  # nothing shown as started
    assert window.database is not None and window.database.game_sessions.all() == []
    switch.writable()
    qtbot.mouseClick(table.banner.retry_button, Qt.MouseButton.LeftButton)
    assert not table.banner.isVisible() and table.context.service.game is not None
    assert [s.name for s in window.database.game_sessions.all()] == ["Club night"]
    assert table.lease is not None


def test_a_copy_that_closed_without_letting_go_resumes_its_own_session(  # type: ignore[no-untyped-def]
        start_session, window: MainWindow, switch: Any, state: State, qtbot,
        settings: QSettings, sqlite_url: str) -> None:
    first = start_session("autopower", [("Ann", "Longshot"), ("Bo", "Rhino")])
    session_id = first.session_id
    first.play.sheets["v2"].mark_damage(2)  # type: ignore[attr-defined]
    shown = state(first)
    switch.read_only()
    window.shutdown()  # the release cannot be written: the lease stays recorded
    switch.writable()
    with open_database(sqlite_url) as database:
        assert session_id is not None
        assert database.game_sessions.load(session_id).info.lease is None  # its own: free
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    again.show()
    assert again.finish_startup()
    try:
        table = again.table
        assert table.session_id == session_id and table.lease is not None
        assert not table.context.service.read_only and not table.following
        assert state(table) == shown
        table.play.sheets["v1"].mark_damage(1)  # type: ignore[attr-defined]
        assert not table.banner.isVisible() and _events(table) == 2
    finally:
        again.shutdown()
