"""The fire dialog's line about the pair's measures ("Not measured yet this turn for this
pair: range, side") is only for a shot that uses them: a Mini Car Wars smokescreen aims at
no one (no target, range nor side, ``Procedure.unused``), so it has no such line."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

FOUR = [("Ann", "Rocket Special"), ("Bo", "Courier"), ("Cy", "Killer Kart"),
        ("Di", "Mini Sherman")]


def test_the_pair_line_is_hidden_for_a_smokescreen(
        window: MainWindow, start_session: Any) -> None:
    table = start_session("mini_car_wars", FOUR)
    table.keys.select(4)  # the Mini Sherman: its weapon 3 is the smokescreen
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    dialog.form.set_value("weapon", "1")  # a gun: the pair's range and side are asked
    dialog.form.set_value("target", "v2")
    assert "Not measured yet this turn for this pair" in dialog.note.text()
    assert not dialog.note.isHidden()
    dialog.form.set_value("weapon", "3")  # the smokescreen: no target, range, side
    assert {"target", "range", "side"} <= dialog.form.unused()
    assert "Not measured" not in dialog.note.text()
    assert "Remembered" not in dialog.note.text()
    dialog.form.set_value("weapon", "1")  # back to the gun: the line again
    assert "Not measured yet this turn for this pair" in dialog.note.text()
    dialog.reject()

