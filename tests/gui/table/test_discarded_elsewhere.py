"""A result the quick line or the fire batch shows, discarded by a roll made elsewhere
(issue 29 §1): like the Resolver, they hear it on the bus, no longer show it and say why
(its roll stays in the log); Apply never applies a result that is no longer on screen."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.services import procedure_sides, typed_dice


def test_the_quick_line_hears_its_result_discarded_by_a_roll_elsewhere(
        window: MainWindow, start_session: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Courier"), ("Bo", "Killer Kart")])
    quick = table.quick
    quick.open()
    quick.read("1 rl 2 f 5 : 11", alone=True)  # shown, not batched
    shown = quick.pending
    assert shown is not None, quick.info.text()
    assert shown.resolution.outcome in quick.info.text()
    service = table.context.service
    procedure = quick.procedure
    assert procedure is not None
    elsewhere = object()  # another window's roll
    service.resolve(procedure, quick.raw,
                    typed_dice("11", False, procedure_sides(procedure, quick.raw, None)),
                    bindings=quick.bindings, initiator=elsewhere)
    assert shown.state.value == "discarded" and quick.pending is None
    assert "discarded: a new roll elsewhere" in quick.info.text().lower()
    assert shown.resolution.outcome not in quick.info.text()
    other = service.shown
    assert other is not None and other.initiator is elsewhere
    quick.enter()  # Enter on an empty line applies nothing that is not the line's
    assert service.shown is other and other.state.value == "pending"


def test_the_fire_batch_hears_its_result_discarded_by_a_roll_elsewhere(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    table.keys.select(1)
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("side", "F"), ("range", "3")):
        dialog.form.set_value(name, value)
    dialog.dice_edit.setText("11")  # a natural 2 misses
    dialog.add_to_batch()
    batch = table.keys.show_batch()
    assert batch is not None
    shown = batch.resolve()
    assert shown is not None, (batch.error.text(), table.play.message.text())
    assert batch.result_view.toPlainText() != ""
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "F")
    resolver.form.set_value("range", "3")
    resolver.roll()  # one roll on screen: the batch's is discarded
    assert resolver.pending is not None and batch.pending is None
    assert shown.state.value == "discarded"
    assert batch.result_view.toPlainText() == ""
    assert "discarded: a new roll elsewhere" in batch.error.text().lower()
    batch.reject()
