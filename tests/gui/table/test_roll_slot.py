"""The roll on screen is one slot of the Table service (issue 29 §1): whichever window
showed it — the Table's dialog, the Resolver, the quick line — a changed input or a closed
window leaves its row in the roll log ``discarded`` (never ``pending``) and the players'
display no longer says a roll is in progress; the Resolver announces its form only when
the GM works in it; the Dice history follows rolls made elsewhere through the bus."""

from __future__ import annotations

from typing import Any

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.gui.table.workspace import TableWorkspace
from carwars_desktop.rules import find_procedure
from carwars_desktop.services import typed_dice
from carwars_desktop.services.players_view import players_view

from ..evening.harness import Keys  # the one key sender of the Table's tests


def _log(table: TableWorkspace) -> list[tuple[str, str]]:
    database = table.context.database
    assert database is not None
    return [(row.state, row.note) for row in database.game_sessions.roll_log(table.session_id)]


def _in_progress(table: TableWorkspace) -> str | None:
    """The roll the players' display shows (its state), None when none is in progress."""
    service = table.context.service
    roll = players_view(service.game, roll=service.roll).roll
    return None if roll is None else roll.state


def _switch(window: MainWindow, workspace: Any, qtbot: Any) -> None:
    window._rail.setCurrentRow(window.workspaces.index(workspace))
    qtbot.waitUntil(workspace.isVisible)


def _resolver(window: MainWindow) -> ResolverWorkspace:
    return next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))


def test_the_dialog_roll_then_an_input_changed_then_cancel(
        window: MainWindow, start_session: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    table.keys.select(1)
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("side", "F"), ("range", "3")):
        dialog.form.set_value(name, value)
    dialog.roll()
    assert dialog.pending is not None and _in_progress(table) == "shown"
    assert table.context.service.shown is dialog.pending
    dialog.form.set_value("range", "4")  # that result no longer stands
    assert dialog.pending is None and table.context.service.shown is None
    dialog.reject()
    assert _log(table) == [("discarded", "input changed")]
    assert _in_progress(table) is None


def test_the_resolver_roll_then_an_input_changed_then_away(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    resolver = _resolver(window)
    _switch(window, resolver, qtbot)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "F")
    resolver.form.set_value("range", "3")
    resolver.roll()
    assert resolver.pending is not None and _in_progress(table) == "shown"
    resolver.form.set_value("range", "4")
    assert resolver.pending is None and table.context.service.shown is None
    assert _log(table) == [("discarded", "input changed")]
    _switch(window, table, qtbot)  # the GM leaves the Resolver
    assert _in_progress(table) is None
    assert _log(table) == [("discarded", "input changed")]


def test_the_quick_line_result_then_escape(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("autopower", [("Bo", "Rhino"), ("Ann", "Longshot")])
    game = table.context.service.game
    assert game is not None
    keys = Keys(qtbot)
    for _ in range(len(game.clock.phases)):  # AUTOpower §2.3 step 4: its own Combat phase
        if game.clock.phase_name == "Longshot: combat":
            break
        keys.press("Ctrl+.")
    assert game.clock.phase_name == "Longshot: combat"
    table.quick.open()
    table.quick.read("2 at 1 4 : 65")
    first = table.quick.pending
    assert first is not None, table.quick.info.text()
    table.quick.resolve("66")  # new dice: the result on screen is replaced
    assert first.state.value == "discarded" and table.quick.pending is not None
    table.quick.close_line()  # Esc
    assert table.quick.pending is None and table.context.service.shown is None
    assert _log(table) == [("discarded", "a new roll"), ("discarded", "window closed")]
    assert _in_progress(table) is None


def test_a_new_roll_elsewhere_discards_the_one_on_screen(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    resolver = _resolver(window)
    _switch(window, resolver, qtbot)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "F")
    resolver.form.set_value("range", "3")
    resolver.roll()
    assert resolver.pending is not None
    _switch(window, table, qtbot)
    table.keys.select(1)
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("side", "F"), ("range", "3")):
        dialog.form.set_value(name, value)
    dialog.roll()  # one roll on screen: the Resolver's is not applied
    assert resolver.pending is None and dialog.pending is not None
    assert not resolver.apply_button.isEnabled()  # (nor shown as waiting there)
    assert resolver.result_view.toPlainText() == ""
    assert _log(table) == [("discarded", "a new roll"), ("pending", "")]
    dialog.reject()
    assert _log(table) == [("discarded", "a new roll"), ("discarded", "window closed")]


def test_switching_to_the_resolver_keeps_the_result_the_table_applied(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    resolver = _resolver(window)
    _switch(window, resolver, qtbot)  # its form is filled (its first procedure)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "F")
    resolver.form.set_value("range", "3")
    _switch(window, table, qtbot)
    table.keys.select(1)
    dialog = table.keys.act("fire")
    assert isinstance(dialog, ProcedureDialog)
    for name, value in (("weapon", "1"), ("target", "v2"), ("side", "F"), ("range", "3")):
        dialog.form.set_value(name, value)
    dialog.dice_edit.setText("666")
    dialog.apply()
    assert _in_progress(table) == "applied", dialog.error.text()
    _switch(window, resolver, qtbot)  # only looking: nothing announced
    assert _in_progress(table) == "applied"
    resolver.form.set_value("range", "5")  # the GM works in it: the players follow
    assert _in_progress(table) == "preparing"


def test_the_dice_history_follows_a_roll_made_elsewhere(
        window: MainWindow, start_session: Any, qtbot: Any) -> None:
    table = start_session("mini_car_wars", [("Ann", "Killer Kart"), ("Bo", "Courier")])
    dice = next(w for w in window.workspaces if isinstance(w, DiceWorkspace))
    _switch(window, dice, qtbot)
    qtbot.waitUntil(lambda: not dice.reading_history)  # (read on a worker)
    before = dice.history_model.rowCount()
    service = table.context.service
    game = service.running()
    fire = find_procedure("mini.fire")
    inputs = fire.bind({"firer": game.sheet("v1"), "target": game.sheet("v2"), "side": "F",
                        "range": "3"})
    # A roll made while the Dice workspace is on screen (the command line, a club's
    # other window): its history hears it on the bus.
    service.resolve(fire, inputs, typed_dice("5 4 6"), bindings={"firer": "v1", "target": "v2"})
    qtbot.waitUntil(lambda: dice.history_model.rowCount() == before + 1)
