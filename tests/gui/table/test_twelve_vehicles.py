"""A 12-vehicle Mini Car Wars evening at 1920×1080 and 1366×768: the session log stays
readable beside a long Clock, the speeds form shows every row (at 1366 they scroll, the
Start button stays in sight), New Session shows the twelve rows where the screen allows,
and every sheet shows the number the quick line takes."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractItemView, QWidget

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.new_session import NewSessionDialog
from carwars_desktop.gui.table.play_view import LOG_ROWS
from carwars_desktop.rules.mini_car_wars.play.clock import PHASES

from ..loop import settle

NAMES = ["Killer Kart", "Mini Sherman", "Rocket Special", "Courier", "Shogun 100",
         "Shogun 220", "Firelight Deluxe", "Courier (a)", "Rocket Special (a)",
         "Mini Sherman (a)", "Killer Kart", "Courier (b)"]
TWELVE = [(f"P{n}", name, f"{name} {n}") for n, name in enumerate(NAMES, 1)]
SCREENS = [(1920, 1080), (1366, 768)]


def _inside(widget: QWidget, area: QWidget) -> bool:
    """``widget`` is shown whole inside ``area`` (nothing of it scrolled or clipped away)."""
    if not widget.isVisibleTo(area):
        return False
    top_left = widget.mapTo(area, widget.rect().topLeft())
    return area.rect().contains(QRect(top_left, widget.size()))


def _row_inside(view: QAbstractItemView, row: int) -> bool:
    rect = view.visualRect(view.model().index(row, 0))
    return rect.isValid() and view.viewport().rect().contains(rect)


def _evening(window: MainWindow, start_session: Any, qtbot: Any,
             screen: tuple[int, int]) -> TableWorkspace:
    width, height = screen
    window.show()
    qtbot.waitExposed(window)
    window._rail.setCurrentRow(window.workspaces.index(window.table))
    window.resize(width, height - 48)  # maximized, less the panel
    qtbot.waitUntil(lambda: window.width() == width)
    table: TableWorkspace = start_session("mini_car_wars", TWELVE, "road_duel")
    settle()
    return table


@pytest.mark.parametrize("screen", SCREENS)
def test_the_session_log_keeps_its_rows_beside_a_twelve_vehicle_clock(
        window: MainWindow, start_session: Any, qtbot: Any, screen: tuple[int, int]) -> None:
    table = _evening(window, start_session, qtbot, screen)
    play = table.play
    log = play.log_dock.view
    if screen == (1366, 768):  # phase 1, twelve movers: the Clock scrolls inside itself…
        assert play.clock_area.verticalScrollBar().maximum() > 0
    # …and the log keeps room for its rows.
    assert log.viewport().height() >= LOG_ROWS * log.verticalHeader().defaultSectionSize()
    for _ in range(LOG_ROWS + 1):
        table.next_phase()
        settle()
    rows = log.model().rowCount()
    assert rows > LOG_ROWS
    log.scrollToBottom()
    settle()
    assert all(_row_inside(log, row) for row in range(rows - LOG_ROWS, rows))


@pytest.mark.parametrize("screen", SCREENS)
def test_the_speeds_form_shows_its_rows_and_keeps_start_in_sight(
        window: MainWindow, start_session: Any, qtbot: Any, screen: tuple[int, int]) -> None:
    table = _evening(window, start_session, qtbot, screen)
    play = table.play
    clock = play.clock
    assert clock is not None
    while table.context.service.game.clock.phase + 1 < PHASES:
        table.next_phase()
    table.next_phase()  # the end of phase 10: the new speeds
    settle()
    assert clock.speeds_open
    edits = list(clock.speed_edits.values())
    assert len(edits) == 12
    viewport = play.clock_area.viewport()
    start = clock.start_button
    assert not play.clock_area.isAncestorOf(start)  # outside the scrolling part
    assert not start.visibleRegion().isEmpty() and _inside(start, play.clock_dock)
    if screen == (1920, 1080):
        qtbot.waitUntil(lambda: all(_inside(edit, viewport) for edit in edits))
    else:
        assert not _inside(edits[-1], viewport)  # the rows scroll…
        play.clock_area.ensureWidgetVisible(edits[-1])
        settle()
        assert _inside(edits[-1], viewport)
        assert not start.visibleRegion().isEmpty()  # …the Start button stays
    # The log stays readable under it.
    log = play.log_dock.view
    assert log.viewport().height() >= LOG_ROWS * log.verticalHeader().defaultSectionSize()


@pytest.mark.parametrize("screen", SCREENS)
def test_new_session_shows_twelve_rows_where_the_screen_allows(
        window: MainWindow, qtbot: Any, screen: tuple[int, int]) -> None:
    dialog = NewSessionDialog(window.database, "mini_car_wars")
    qtbot.addWidget(dialog)
    available = screen[1] - 48
    dialog.screen_height = lambda: available
    dialog.show()
    qtbot.waitExposed(dialog)
    while dialog.players.rowCount() < 12:
        dialog.add_player()
    settle()
    frame = dialog.frameGeometry().height()
    assert frame <= available
    last = _row_inside(dialog.players, 11)
    if screen == (1920, 1080):
        assert last and _row_inside(dialog.players, 0)
    else:  # as tall as the screen, the rest scrolls
        assert dialog.height() > 640 and not last


def test_every_sheet_shows_the_number_the_quick_line_takes(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = _evening(window, start_session, qtbot, (1366, 768))
    game = table.context.service.game
    assert game is not None
    sheets = table.play.sheets
    for number, vehicle in enumerate(game.vehicles, 1):  # the quick line's "10" is the tenth
        assert sheets[vehicle.key].title.text().startswith(f"[{number}] ")
    cards = table.play.grid.cards
    assert [f"[{n}] " in card.title.text() for n, card in enumerate(cards, 1)] == [True] * 12
    assert "quick line" in sheets[game.vehicles[11].key].toolTip()
