"""AUTOpower §2.8 (Control Rolls variant on): ``C`` opens the control roll due with the
damage taken filled in (#28 §2), as the roll offered at once after the hit does; with no
roll due it starts at 0 for the GM to type."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.session.house_rules import HouseRules

from ..evening.harness import Keys


def test_the_c_key_opens_the_control_roll_due_filled_in(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    from carwars_desktop.rules.autopower import CarSheet

    table = start_session("autopower", [("Bo", "Darkseid"), ("Ann", "Longshot")],
                          house_rules=HouseRules("Control", {"AP-control-rolls": True}))
    game = table.context.service.game
    assert game is not None
    window.activateWindow()
    table.focus_default()
    keys = Keys(qtbot.waitUntil)
    keys.press("2", "c")  # no roll due: the damage is the GM's to type
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.form.values()["damage"] == 0
    dialog.reject()
    qtbot.waitUntil(lambda: not dialog.isVisible())
    while game.clock.phase_name != "Longshot: combat":  # its own Combat phase (§2.3)
        table.play.clock.next_phase()  # type: ignore[attr-defined]
    table.hub.runner.run("autopower.attack", {"firer": "v2", "target": "v1"})
    attack = table.hub.runner.dialog
    assert isinstance(attack, ProcedureDialog)
    attack.form.set_value("cards", "4, 4")
    attack.dice_edit.setText("6 5")
    attack.resolve_entered()
    assert attack.resolution is not None, attack.error.text()
    attack.apply()
    darkseid = game.sheet("v1")
    assert isinstance(darkseid, CarSheet) and darkseid.control_due == 8
    qtbot.waitUntil(lambda: table.hub.runner.dialog is not None
                    and table.hub.runner.dialog.isVisible()
                    and table.hub.runner.dialog.procedure.id == "autopower.control")
    offered = table.hub.runner.dialog
    assert offered.form.values()["damage"] == 8
    offered.reject()  # not now: it stays due
    qtbot.waitUntil(lambda: not offered.isVisible())
    keys.press("1", "c")  # C: the roll due, filled in
    control = table.hub.runner.dialog
    assert isinstance(control, ProcedureDialog) and control.isVisible()
    assert control.procedure.id == "autopower.control"
    assert control.form.values()["damage"] == 8
    assert "damage" not in control.unchosen
    assert "Darkseid: control roll due (damage 8)" in control.note.text()
    control.reject()
