"""A short scripted AUTOpower game played through the Table: turn order, phases, combat."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.autopower.clock_panel import AutopowerClockPanel
from carwars_desktop.gui.plugins.autopower.sheet import AutopowerSheetWidget
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.rules.autopower import CarSheet

State = Callable[[TableWorkspace], str]
Press = Callable[[TableWorkspace, str], None]


def _car(table: TableWorkspace, key: str) -> CarSheet:
    assert table.context.service.game is not None
    sheet = table.context.service.game.sheet(key)
    assert isinstance(sheet, CarSheet)
    return sheet


def _clock(table: TableWorkspace) -> AutopowerClockPanel:
    clock = table.play.clock
    assert isinstance(clock, AutopowerClockPanel)
    return clock


def _dialog(table: TableWorkspace) -> ProcedureDialog:
    dialog = table.hub.runner.dialog
    assert dialog is not None
    return dialog


def _play(table: TableWorkspace, dice: str = "", **values: object) -> None:
    """Play the clock's phase through its procedure dialog (Ctrl+P), as the GM would."""
    table.play_phase()
    dialog = _dialog(table)
    for name, value in values.items():
        dialog.form.set_value(name, value)
    dialog.dice_edit.setText(dice)
    dialog.resolve_entered()
    assert dialog.resolution is not None, dialog.error.text()
    dialog.apply()


def test_turn_order_phases_and_combat(start_session, state: State,  # type: ignore[no-untyped-def]
                                      press: Press) -> None:
    table = start_session("autopower", [("Bo", "Rhino"), ("Ann", "Longshot")])
    clock = _clock(table)
    game = table.context.service.game
    # AP §2.2 step 4: Longshot (Speed 3) takes the first turn before Rhino (Speed 2), from
    # the start (issue #13: it used to start with the first seat); the roll-off agrees.
    assert game.clock.phase_name == "Longshot: draw"
    clock.settle_order()
    dialog = _dialog(table)
    assert "Longshot goes first: no roll" in dialog.odds_label.text()
    dialog.resolve_entered()
    dialog.apply()
    assert game.clock.phases[0] == "Longshot: draw"
    assert "Longshot → Rhino" in clock.order_label.text()
    start = state(table)

    _play(table)  # draw
    press(table, "Ctrl+.")
    assert game.clock.phase_name == "Longshot: accelerate"
    _play(table, "5 6", play="2, 3")  # rawSpeed 8 > 2E: a push roll of 8+, thrown 11
    longshot = table.play.sheets["v2"]
    assert isinstance(longshot, AutopowerSheetWidget)
    assert _car(table, "v2").raw_speed == 8
    assert "⚡ pushing the engine" in longshot.status_text()
    assert len(longshot.cards) == 2  # the Energy cards beside the car
    press(table, "Ctrl+.")
    _play(table, cards="4")  # armor: a Strength card beside the car
    assert _car(table, "v2").armor == 8
    press(table, "Ctrl+.")
    assert game.clock.phase_name == "Longshot: combat"
    _play(table, "6 5", target="v1", cards="4")  # Fighting 4 against Rhino
    rhino = table.play.sheets["v1"]
    assert isinstance(rhino, AutopowerSheetWidget)
    assert _car(table, "v1").total_damage == 4
    assert rhino.damage.crossed_count() == 4
    assert "one more point kills" in rhino.status_text()  # damage 4 = Armor 4
    assert "event #" in rhino.damage.tooltip(0)

    # One more point by hand: the engine's kill check kills Rhino.
    rhino.damage_box_activated(4)
    assert _car(table, "v1").killed and "☠ killed" in rhino.status_text()
    assert "Longshot wins" in clock.result.text()
    press(table, "Ctrl+.")  # Rhino takes no more turns: Longshot again, next turn
    assert str(game.clock) == "Turn 2, Longshot: draw"

    end = state(table)
    while game.can_undo() and state(table) != start:
        press(table, "Ctrl+Z")
    assert state(table) == start
    while game.can_redo():
        press(table, "Ctrl+Shift+Z")
    assert state(table) == end


def test_hand_marks_and_refusals(start_session) -> None:  # type: ignore[no-untyped-def]
    table = start_session("autopower", [("Ann", "Bishop"), ("Bo", "Darkseid")])
    bishop = table.play.sheets["v1"]
    assert isinstance(bishop, AutopowerSheetWidget)
    assert [label.text() for label in bishop.stat_values.values()] == ["6", "4", "4", "3"]
    bishop.mark_strength(5)
    assert _car(table, "v1").armor == 9 and _car(table, "v1").hand_size == 6
    bishop.mark_hand(3)
    assert "hand 3" in bishop.hand.text()
    bishop.mark_penalty("next_turn", "-3")
    assert "attacks at −3 next turn" in bishop.status_text()
    rows = table.play.log_dock.model.rowCount()
    bishop.mark_declared(9)  # above E: the sheet refuses it, nothing is written
    assert "⚠" in table.play.message.text()
    assert table.play.log_dock.model.rowCount() == rows
    bishop.mark_remove_card("strength", 0)
    assert _car(table, "v1").armor == 4


def test_resume_after_reopening(qtbot, window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                state: State, settings: QSettings, sqlite_url: str) -> None:
    table = start_session("autopower", [("Ann", "Longshot"), ("Bo", "Rhino")])
    table.play.sheets["v2"].mark_damage(2)  # type: ignore[attr-defined]
    _clock(table).next_phase()
    before = state(table)
    window.shutdown()
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    again.show()
    assert again.finish_startup()
    try:
        assert state(again.table) == before
        assert again.ruleset() == "autopower"  # the Resolver follows the open session
        assert again.table.play.log_dock.model.rowCount() == 2
    finally:
        again.shutdown()


def test_a_hit_offers_the_control_roll_due(start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    """AP §2.8 (Control Rolls variant on): a hit makes the control roll due; the Table
    offers it at once with the damage taken filled in, the sheet and the Clock show it due
    until it is made, and C opens it filled in too."""
    from carwars_desktop.session.house_rules import HouseRules

    table = start_session("autopower", [("Bo", "Darkseid"), ("Ann", "Longshot")],
                          house_rules=HouseRules("Control", {"AP-control-rolls": True}))
    game = table.context.service.game
    assert game.house["AP-control-rolls"] is True
    clock = _clock(table)
    clock.settle_order()
    dialog = _dialog(table)
    dialog.resolve_entered()
    dialog.apply()
    while game.clock.phase_name != "Longshot: combat":
        game.set_clock(game.clock.advanced(), "on")
    table.hub.runner.run("autopower.attack", {"firer": "v2", "target": "v1"})
    attack = _dialog(table)
    attack.form.set_value("cards", "4, 4")
    attack.dice_edit.setText("6 5")
    attack.resolve_entered()
    assert attack.resolution is not None, attack.error.text()
    attack.apply()
    assert _car(table, "v1").total_damage == 8 and _car(table, "v1").control_due == 8
    qtbot.waitUntil(lambda: table.hub.runner.dialog is not None
                    and table.hub.runner.dialog.procedure.id == "autopower.control")
    control = _dialog(table)
    assert control.form.values()["damage"] == 8
    darkseid = table.play.sheets["v1"]
    assert isinstance(darkseid, AutopowerSheetWidget)
    assert "control roll due (damage 8)" in darkseid.status_text()
    durations = game.ruleset.play().durations(game.clock, game.vehicles_view())
    assert any(d.label == "Darkseid: control roll due (damage 8)" for d in durations)
    assert "Darkseid: control roll due (damage 8): until it is rolled (C)" in \
        table.play.durations_label.text()  # on the Clock
    control.reject()  # not rolled yet: it stays due
    assert _car(table, "v1").control_due == 8
    table.hub.runner.run("autopower.control", {"vehicle": "v1"})  # as C opens it
    control = _dialog(table)
    assert control.form.values()["damage"] == 8
    control.dice_edit.setText("6 6")
    control.resolve_entered()
    assert control.resolution is not None, control.error.text()
    control.apply()
    assert _car(table, "v1").control_due is None
    assert "control roll due" not in darkseid.status_text()
    assert "control roll due" not in table.play.durations_label.text()
