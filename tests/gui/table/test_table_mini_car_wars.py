"""A short scripted Mini Car Wars game played through the Table."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, QSettings, Qt

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.model import Role, Side

State = Callable[[TableWorkspace], str]
Press = Callable[[TableWorkspace, str], None]


def _mini(table: TableWorkspace, key: str) -> MiniSheet:
    assert table.context.service.game is not None
    sheet = table.context.service.game.sheet(key)
    assert isinstance(sheet, MiniSheet)
    return sheet


def _widget(table: TableWorkspace, key: str) -> MiniSheetWidget:
    widget = table.play.sheets[key]
    assert isinstance(widget, MiniSheetWidget)
    return widget


def _clock(table: TableWorkspace) -> MiniClockPanel:
    clock = table.play.clock
    assert isinstance(clock, MiniClockPanel)
    return clock


def test_damage_crosses_boxes_and_a_side_at_zero_takes_its_weapons(
        qtbot, start_session, state: State) -> None:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")],
                          "road_duel")
    courier = _widget(table, "v1")
    assert _mini(table, "v1").speed == 60  # Road Duel starts at 60 mph
    front = courier.sides[Side.FRONT].strip
    assert front.crossed_count() == 0 and len(front.boxes) == 30
    # The GM clicks the 10th front box: ten boxes cross off, through the engine's damage.
    qtbot.mouseClick(front, Qt.MouseButton.LeftButton, pos=front.box_rect(9).center())
    assert _mini(table, "v1").armor.front == 20
    assert front.crossed_count() == 10
    assert courier.sides[Side.FRONT].left.text() == "20"
    log = table.play.log_dock.model
    assert log.rowCount() == 1
    assert "10 damage crossed off the front (30 → 20)" in log.event_at(0).event.summary
    # Cross the rest with the keyboard: the side reaches 0 and its rocket launcher goes.
    front.setFocus()
    front.current = 29
    qtbot.keyClick(front, Qt.Key.Key_Space)
    sheet = _mini(table, "v1")
    assert sheet.armor.front == 0
    rocket = next(b for b in courier.weapon_buttons
                  if sheet.weapons[b.index].mount.side is Side.FRONT)
    assert sheet.weapons[rocket.index].destroyed
    assert "destroyed" in rocket.text() and rocket.font().strikeOut()
    assert not any(w.destroyed for w in sheet.weapons if w.mount.side is not Side.FRONT)
    assert "front weapons destroyed" in " ".join(log.event_at(1).event.steps)
    # Hovering a crossed box names the event that crossed it.
    assert "event #2" in front.tooltip(25) and "crossed" in front.tooltip(25)
    assert "event #1" in front.tooltip(3)


def test_crew_boxes_make_the_car_uncontrolled_with_words(
        start_session) -> None:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")])
    courier = _widget(table, "v1")
    courier.mark_crew(Role.DRIVER, 1)
    assert "driver wounded" in courier.status_text()
    courier.crew_box_activated(Role.DRIVER, 1)
    assert _mini(table, "v1").driver.hits == 2
    assert "⚠ uncontrolled" in courier.status_text()
    courier.mark_power_plant(0)
    assert "⊗ power plant destroyed" in courier.status_text()
    courier.mark_wreck()
    assert "✖ wrecked" in courier.status_text()
    # A mark that does not fit is refused with its reason, and nothing is written.
    before = table.play.log_dock.model.rowCount()
    courier.mark_speed("55")
    assert "not a multiple" in table.play.message.text() or "⚠" in table.play.message.text()
    assert table.play.log_dock.model.rowCount() == before


def test_clock_phases_maneuvers_control_roll_and_new_speeds(
        start_session) -> None:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart"),
                                            ("Cy", "Courier", "Courier (Cy)")], "road_duel")
    clock = _clock(table)
    table.context.service.game.clock  # noqa: B018
    assert str(table.context.service.game.clock) == "Turn 1, phase 1"
    # Both at 60 mph: both move in phase 1, in seating order.
    names = [w.text() for w in clock._rows if "·" in w.text() and "mph" in w.text()]
    assert [n.split("</b>")[0].removeprefix("<b>") for n in names] == [
        "Courier", "Killer Kart", "Courier (Cy)"]
    clock.move_vehicle("v1", "drift")
    assert _mini(table, "v1").maneuvers == 1 and _mini(table, "v1").phases_used == 1
    assert table.hub.runner.dialog is None  # the free maneuver needs no dice
    table.next_phase()  # the others go straight on
    assert str(table.context.service.game.clock) == "Turn 1, phase 2"
    assert _mini(table, "v2").phases_used == 1
    # The second maneuver of the turn asks for its control roll.
    clock.move_vehicle("v1", "swerve")
    dialog = table.hub.runner.dialog
    assert dialog is not None and dialog.procedure.id == "mini.maneuver"
    assert "7/12" in dialog.odds_label.text()  # 21/36: 2d6 + 3 at 60 mph: no effect on 7 or less
    dialog.dice_edit.setText("2 2")
    dialog.resolve_entered()
    dialog.apply()
    sheet = _mini(table, "v1")
    assert sheet.maneuvers == 2 and sheet.phases_used == 2
    assert "control" in table.play.log_dock.model.event_at(
        table.play.log_dock.model.rowCount() - 1).event.summary
    for _ in range(8):
        clock.next_phase()
    assert str(table.context.service.game.clock) == "Turn 1, phase 10"
    clock.next_phase()
    assert clock.speeds_open
    # An illegal change (60 → 90) is refused with the engine's legal list; nothing changes.
    rows = table.play.log_dock.model.rowCount()
    clock.speed_edits["v1"].setCurrentText("90")
    clock.start_turn()
    assert "legal: 40, 50, 60, 70" in clock.speed_errors["v1"].text()
    assert table.play.log_dock.model.rowCount() == rows
    clock.speed_edits["v1"].setCurrentText("70")
    clock.speed_edits["v2"].setCurrentText("40")
    clock.start_turn()
    assert str(table.context.service.game.clock) == "Turn 2, phase 1"
    assert (_mini(table, "v1").speed, _mini(table, "v2").speed) == (70, 40)
    assert _mini(table, "v1").maneuvers == 0
    assert not clock.speeds_open


def test_undo_and_redo_restore_exact_states_from_the_keyboard(
        start_session, state: State, press: Press) -> None:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")],
                          "road_duel")
    courier, kart = _widget(table, "v1"), _widget(table, "v2")
    clock = _clock(table)
    states = [state(table)]
    actions = [lambda: courier.mark_armor(Side.LEFT, 0),
               lambda: clock.move_vehicle("v2", "drift"),
               clock.next_phase,
               lambda: kart.mark_weapon(0, fired=True),
               lambda: courier.mark_crew(Role.GUNNER, 3)]
    for action in actions:
        action()
        states.append(state(table))
    assert len(set(states)) == len(states)
    for expected in reversed(states[:-1]):
        press(table, "Ctrl+Z")
        assert state(table) == expected
    assert not table.play.undo_action.isEnabled()
    for expected in states[1:]:
        press(table, "Ctrl+Shift+Z")
        assert state(table) == expected
    # The sheets on screen follow: the left side is crossed off again.
    assert courier.sides[Side.LEFT].strip.crossed_count() == 20


def test_resume_after_reopening(qtbot, window: MainWindow, start_session, state: State,  # type: ignore[no-untyped-def]
                                settings: QSettings, sqlite_url: str) -> None:
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")],
                          "road_duel", name="Tuesday duel")
    _widget(table, "v2").mark_armor(Side.FRONT, 1)
    _clock(table).next_phase()
    before = state(table)
    window.shutdown()
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    again.show()
    assert again.finish_startup()
    try:
        assert again.table.pages.currentWidget() is again.table.play
        assert state(again.table) == before
        assert "Tuesday duel" in again.table.play.title.text()
        assert again.table.play.log_dock.model.rowCount() == 2
        kart = again.table.play.sheets["v2"]
        assert isinstance(kart, MiniSheetWidget)
        assert kart.sides[Side.FRONT].strip.crossed_count() == 5
        assert again.table.play.undo_action.isEnabled()
    finally:
        again.shutdown()


def test_box_click_position_maps_to_its_box(start_session) -> None:  # type: ignore[no-untyped-def]
    table = start_session("mini_car_wars", [("Ann", "Courier")])
    strip = _widget(table, "v1").sides[Side.BACK].strip
    assert strip.box_at(strip.box_rect(12).center()) == 12
    assert strip.box_at(QPoint(-5, -5)) is None


def test_the_resolvers_results_land_on_the_tables_sheets(window: MainWindow,  # type: ignore[no-untyped-def]
                                                        start_session, state: State) -> None:
    from carwars_desktop.gui.resolver_workspace import ResolverWorkspace

    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")])
    before = state(table)
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    assert window.ruleset() == "mini_car_wars"
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "v1")
    resolver.form.set_value("target", "v2")
    resolver.form.set_value("side", "F")
    resolver.form.set_value("range", "3")
    resolver.dice_edit.setText("6 6 6 6 6")
    resolver.resolve_entered()
    assert resolver.resolution is not None, resolver.dice_error.text()
    resolver.apply()
    kart = _widget(table, "v2")
    assert _mini(table, "v2").armor.front == 0
    assert kart.sides[Side.FRONT].strip.crossed_count() == 6
    log = table.play.log_dock.model
    event = log.event_at(log.rowCount() - 1).event
    assert event.procedure_id == "mini.fire" and event.bindings == {"firer": "v1",
                                                                    "target": "v2"}
    assert window.database is not None
    assert window.database.game_sessions.resolutions(table.session_id)[-1][3] is True
    table.undo()
    assert state(table) == before
    assert kart.sides[Side.FRONT].strip.crossed_count() == 0
