"""A roll shown and not applied reads as discarded, with why, wherever rolls are listed
(#28 §1): the roll log and the Dice workspace's history."""

from __future__ import annotations

from carwars_desktop.gui.dice_history_model import DiceHistoryModel
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog


def _fire(table) -> ProcedureDialog:  # type: ignore[no-untyped-def]
    table.keys.select(1)
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("side", "F")):
        dialog.form.set_value(name, value)  # the fields the GM types (#28 §3)
    dialog.form.set_value("range", "3")
    return dialog


def _shown(dialog: ProcedureDialog, dice: str) -> None:
    dialog.dice_edit.setText(dice)
    dialog.resolve_entered()
    assert dialog.pending is not None and dialog.pending.pending, dialog.error.text()


def test_each_roll_not_applied_says_discarded_and_why(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    database = window.database
    assert database is not None
    dialog = _fire(table)
    _shown(dialog, "543")
    dialog.form.set_value("range", "4")  # an input changed: that result no longer stands
    _shown(dialog, "633")
    _shown(dialog, "644")  # a new roll replaces the one on screen
    dialog.reject()  # the window closed on the result shown
    dialog = _fire(table)
    _shown(dialog, "355")  # shown, then the app stops (what a restart reads it as)
    assert table.context.service.settle_left_pending(table.session_id) == 1
    log = database.game_sessions.roll_log(table.session_id)
    assert [(r.state, r.note) for r in log] == [
        ("discarded", "input changed"), ("discarded", "a new roll"),
        ("discarded", "window closed"), ("discarded", "app stopped before it was applied")]
    model = DiceHistoryModel()
    model.reset(database.dice_history.recent(10))
    rows = {model.data(model.index(row, 3)): model.data(model.index(row, 5))
            for row in range(model.rowCount())}
    assert rows == {"5 4 3": "discarded: input changed", "6 3 3": "discarded: a new roll",
                    "6 4 4": "discarded: window closed",
                    "3 5 5": "discarded: app stopped before it was applied"}
    table.context.service.shown = None  # (that run is over: its result is not on screen)
    dialog.reject()
