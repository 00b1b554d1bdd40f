"""A shot the rules refuse says so in the dialog, not a word about dice (#28, found by the
Mini Car Wars evening): an MG that has fired this turn (§1.3) asks for no dice, and the dice
typed anyway are refused with the rules' reason; nothing is resolved or logged."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

from ..evening.harness import Keys

REASON = "not allowed: MG (Turret) has already fired this turn (once per turn, §1.3)"


def test_a_refused_shot_says_why_and_asks_for_no_dice(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Rocket Special"), ("Bo", "Courier"),
                                            ("Cy", "Killer Kart")])
    window.activateWindow()
    table.focus_default()
    keys = Keys(qtbot.waitUntil)
    keys.press("F1", "2", "2", "5", "f", "5", "4", "3", "Ctrl+Shift+Enter")
    assert window.database is not None and table.session_id is not None
    logged = len(window.database.game_sessions.roll_log(table.session_id))
    keys.press("F1", "2", "2", "5", "f")  # the same MG again, this turn
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.odds_label.text() == REASON
    assert dialog.dice_hint.text() == "No dice: the rules refuse it as it stands."
    keys.type("543")
    keys.press("Ctrl+Shift+Enter")
    assert dialog.isVisible() and dialog.pending is None
    assert dialog.error.text() == f"⚠ {REASON}: nothing was resolved."
    assert len(window.database.game_sessions.roll_log(table.session_id)) == logged
    dialog.reject()
