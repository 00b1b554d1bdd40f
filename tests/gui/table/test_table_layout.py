"""The Table on the table's laptop (issue #13): a 4-vehicle session shows every vehicle at
1366×768, the selected one large; the Clock shows whole; durations on sheets and Clock;
the first window fits the screen and the geometry is kept; a verdict offers the finish."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QRect, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui import window_geometry
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.play_view import LOG_ROWS
from carwars_desktop.rules.mini_car_wars.play import marks as mini_marks
from carwars_desktop.rules.mini_car_wars.play import mini_sheet

from ..loop import settle

FOUR = [("Ann", "Courier"), ("Bo", "Rocket Special"), ("Cy", "Mini Sherman"),
        ("Di", "Killer Kart")]


def _inside(widget: QWidget, area: QWidget) -> bool:
    """``widget`` is shown whole inside ``area`` (nothing of it scrolled or clipped away)."""
    if not widget.isVisibleTo(area):
        return False
    top_left = widget.mapTo(area, widget.rect().topLeft())
    return area.rect().contains(QRect(top_left, widget.size()))


def _laptop(window: MainWindow, qtbot: Any) -> None:
    window.show()
    qtbot.waitExposed(window)
    window._rail.setCurrentRow(window.workspaces.index(window.table))
    window.resize(1366, 768 - 48)  # maximized on a 1366×768 screen, less the panel
    qtbot.waitUntil(lambda: window.width() == 1366)


def test_four_vehicles_all_visible_at_1366x768_the_selected_one_large(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", FOUR, "road_duel")
    grid = table.play.grid
    qtbot.waitUntil(lambda: grid.compact)
    viewport = grid.viewport()
    assert len(grid.cards) == 4
    qtbot.waitUntil(lambda: all(_inside(card, viewport) for card in grid.cards))
    [large] = grid.visible_sheets()
    assert large.vehicle.key == "v1" and _inside(large, viewport)
    assert large.width() > grid.cards[0].width()  # the selected one is larger
    grid.cards[2].chosen.emit("v3")
    [large] = grid.visible_sheets()
    assert large.vehicle.key == "v3" and "▶" in grid.cards[2].title.text()
    # Wide enough for all full sheets, they are all shown (the grid reflows).
    window.resize(3000, 1600)
    qtbot.waitUntil(lambda: not grid.compact)
    assert len(grid.visible_sheets()) == 4


def test_a_number_key_shows_that_vehicle_large_and_a_click_selects_it_for_the_keys(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", FOUR, "road_duel")
    grid = table.play.grid
    qtbot.waitUntil(lambda: grid.compact)
    assert [card.title.text().count(f"[{n}]") for n, card in enumerate(grid.cards, 1)] == \
        [1, 1, 1, 1]  # each compact sheet shows its number key
    table.keys.select(3)
    [large] = grid.visible_sheets()
    assert large.vehicle.key == "v3" and table.keys.selected == "v3"
    grid.cards[1].chosen.emit("v2")
    assert table.keys.selected == "v2"
    [large] = grid.visible_sheets()
    assert large.vehicle.key == "v2"


def test_a_long_weapon_label_widens_the_sheet_instead_of_clipping(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", FOUR[:2])
    sheet = table.play.sheets["v1"]
    assert isinstance(sheet, MiniSheetWidget)
    settle()
    before = sheet.minimumWidth()
    weapons = len(sheet._mini().weapons)
    for index in range(weapons):
        table.hub.mark("v1", lambda i=index: mini_marks.set_weapon(sheet._mini(), i,
                                                                    destroyed=True))
    settle()
    assert sheet.width() > before
    assert sheet.width() >= sheet.sizeHint().width()
    assert sheet.width() >= sheet.minimumSizeHint().width()
    for _ in range(weapons):  # the labels as they were: the sheet as wide as it was
        table.hub.undo()
    settle()
    assert sheet.minimumWidth() == before


def test_the_sheets_keep_their_width_event_after_event(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    """An evening's events leave an unchanged sheet as wide as it was: its width follows
    its labels, never the width it had (it crept 16 px wider with each event)."""
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", FOUR[:2])
    service = table.context.service
    game = service.game
    assert game is not None
    sheets = [table.play.sheets[key] for key in ("v1", "v2")]
    settle()
    first = [sheet.minimumWidth() for sheet in sheets]
    plant = mini_sheet(game.sheet("v1")).power_plant
    widths = []
    for turn in range(20):
        if turn % 2:  # a line in the log: no sheet changes
            service.note(f"turn {turn}: the cars circle")
        else:  # a hand mark on one sheet, its labels as long as before
            dp = plant - 1 if turn % 4 == 0 else plant
            made = mini_marks.set_power_plant(game.sheet("v1"), dp)
            service.mark("v1", made.sheet, made.summary, made.steps)
        settle()
        widths.append([sheet.minimumWidth() for sheet in sheets])
    assert widths == [first] * 20
    assert all(sheet.width() == sheet.minimumWidth() for sheet in sheets)


def test_the_clock_takes_all_but_the_logs_rows_at_1366x768_and_fits_at_1920(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("battlecars", [
        (p, "TEST-1 (example card, not official)", f"Car {p}") for p in "ABCD"])
    play = table.play
    settle()
    area = play.clock_area
    holder = area.widget()
    assert holder is not None
    log = play.log_dock.view
    # Four secret speeds are taller than the column less a readable log: the Clock
    # scrolls inside itself, the log keeps its rows and gives the Clock all the rest.
    assert log.viewport().height() >= LOG_ROWS * log.verticalHeader().defaultSectionSize()
    assert area.verticalScrollBar().maximum() > 0
    assert play.log_dock.height() == play.log_dock.minimumSizeHint().height()
    window.resize(1920, 1080 - 48)
    qtbot.waitUntil(lambda: window.width() == 1920)
    play.fit_clock()
    settle()
    assert not area.verticalScrollBar().isVisible()
    assert holder.height() <= area.viewport().height()


def test_durations_show_on_the_sheet_and_the_clock(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("mini_car_wars", FOUR[2:])
    from carwars_desktop.dice import EnteredDice
    from carwars_desktop.rules import find_procedure

    game = table.context.service.game
    assert game is not None
    procedure = find_procedure("mini.fire")
    pending = table.context.service.resolve(
        procedure, procedure.bind({"firer": game.sheet("v1"), "weapon": "smokescreen"}),
        EnteredDice([]), bindings={"firer": "v1"})
    pending.apply()
    lasting = table.play.durations_text  # the effects that last (a smoke cloud), as shown
    on_v1, on_v2 = table.play.sheets["v1"].durations_text, table.play.sheets["v2"].durations_text
    assert "60 turns left" in on_v1()
    assert on_v2() == ""
    assert "smoke cloud behind Mini Sherman" in lasting()
    table.hub.undo()
    assert lasting() == "" and on_v1() == ""


def test_a_verdict_offers_to_finish_the_session(window: MainWindow, start_session: Any,
                                                qtbot: Any) -> None:
    _laptop(window, qtbot)
    table: TableWorkspace = start_session("autopower", [("Ann", "Longshot"), ("Bo", "Rhino")])
    play = table.play
    assert not play.victory_bar.isVisibleTo(play)
    from carwars_desktop.rules.autopower.play import marks as ap_marks

    game = table.context.service.game
    assert game is not None
    table.hub.mark("v2", lambda: ap_marks.kill(game.sheet("v2")))
    assert play.victory_bar.isVisibleTo(play)
    assert "Longshot wins" in play.victory_label.text()
    table.hub.undo()  # the deciding event undone: the offer goes
    assert not play.victory_bar.isVisibleTo(play)
    table.hub.redo()
    assert play.victory_bar.isVisibleTo(play)
    session_id = table.session_id
    play.victory_finish.click()
    assert table.context.service.read_only and table.session_id == session_id
    assert not play.victory_bar.isVisibleTo(play)


def test_the_first_window_fits_the_screen_and_the_geometry_is_kept(
        qtbot: Any, settings: QSettings, sqlite_url: str) -> None:
    area = window_geometry.available()
    first = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(first)
    assert first.width() <= area.width() and first.height() <= area.height()
    first.resize(min(700, area.width() - 60), min(500, area.height() - 80))
    first.move(area.x() + 10, area.y() + 10)
    size = first.size()
    first.close()
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    assert again.size() == size
    again.close()


def test_a_geometry_from_a_bigger_screen_is_not_restored(
        qtbot: Any, settings: QSettings, sqlite_url: str) -> None:
    big = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(big)
    big.resize(5000, 3000)  # as saved on a large monitor
    big.move(4000, 2000)
    settings.setValue(window_geometry.GEOMETRY_KEY, big.saveGeometry())
    big.deleteLater()
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    screens = [s.availableGeometry() for s in QGuiApplication.screens()]
    assert any(s.contains(again.geometry()) for s in screens)
    assert isinstance(settings.value(window_geometry.GEOMETRY_KEY), QByteArray)
