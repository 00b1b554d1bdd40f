"""A short scripted Battlecars game played through the Table: speeds, fire, pods, round end."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSettings

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
from carwars_desktop.gui.plugins.battlecars.sheet import BattlecarsSheetWidget, faces_text
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.rules.battlecars import EXAMPLE_CARD_NAME, CarSheet
from carwars_desktop.rules.battlecars.terms import Block, Weapon

State = Callable[[TableWorkspace], str]
Press = Callable[[TableWorkspace, str], None]
CARD = EXAMPLE_CARD_NAME


def _car(table: TableWorkspace, key: str) -> CarSheet:
    assert table.context.service.game is not None
    sheet = table.context.service.game.sheet(key)
    assert isinstance(sheet, CarSheet)
    return sheet


def _clock(table: TableWorkspace) -> BattlecarsClockPanel:
    clock = table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    return clock


def _widget(table: TableWorkspace, key: str) -> BattlecarsSheetWidget:
    widget = table.play.sheets[key]
    assert isinstance(widget, BattlecarsSheetWidget)
    return widget


def _dialog(table: TableWorkspace) -> ProcedureDialog:
    dialog = table.hub.runner.dialog
    assert dialog is not None
    return dialog


def _start(start_session) -> TableWorkspace:  # type: ignore[no-untyped-def]
    return start_session("battlecars", [("Ann", CARD, "Interceptor"), ("Bo", CARD, "Wasp")],
                         "street")


def test_round_speeds_turns_fire_and_smoke(start_session, state: State,  # type: ignore[no-untyped-def]
                                           press: Press) -> None:
    table = _start(start_session)
    game = table.context.service.game
    clock = _clock(table)
    assert str(game.clock) == "Round 1, secret speeds"
    start = state(table)
    # From 0 the example card reaches at most 3 on road (the engine's limits): 6 is refused.
    clock.speed_rows["v1"].speed.setValue(6)
    clock.speed_rows["v2"].speed.setValue(3)
    clock.reveal_speeds()
    assert "not allowed (outside 0–3)" in clock.speed_rows["v1"].error.text()
    assert str(game.clock) == "Round 1, secret speeds"
    clock.speed_rows["v1"].speed.setValue(3)
    press(table, "Ctrl+.")
    assert str(game.clock) == "Round 1, Interceptor's turn"
    assert (_car(table, "v1").speed, _car(table, "v2").speed) == (3, 3)
    interceptor = _widget(table, "v1")
    assert interceptor.track.speed == 3 and interceptor.track.maximum == 9
    assert "targets fired at this turn: 0 of 3" in clock.turn_text.text()

    # Fire Pod A's rocket at the Wasp's front: 2d8 to hit, then damage.
    clock.run_for_current("battlecars.fire", "firer")
    dialog = _dialog(table)
    dialog.form.set_value("mount", "Pod A")
    dialog.form.set_value("target", "v2")
    dialog.form.set_value("area", "front")
    dialog.form.set_value("points_between", 2)
    dialog.dice_edit.setText("7 6 8 5 3")
    dialog.resolve_entered()
    assert dialog.resolution is not None, dialog.error.text()
    dialog.apply()
    wasp = _widget(table, "v2")
    assert _car(table, "v2").armour_left(Block.FRONT) < 6
    assert wasp.blocks[Block.FRONT].strip.crossed_count() > 0
    assert _car(table, "v1").load("Pod A").count(Weapon.ROCKET) == 1
    assert "1 of 3" in clock.turn_text.text()

    # A hand mark covers pod slots: the counters in them are destroyed (BC-D20; a Flame
    # counter fills two slots, the other one becomes empty).
    interceptor.mark_component("Pod B", 6)
    assert _car(table, "v1").load("Pod B") == (Weapon.FLAME,)
    pod = interceptor.components["Pod B"].strip
    assert pod.crossed_count() == 6 and [b.text for b in pod.boxes[6:]] == ["Fl", "Fl"]
    assert "counters destroyed in Pod B" in " ".join(
        table.play.log_dock.model.event_at(table.play.log_dock.model.rowCount() - 1)
        .event.steps)
    interceptor.mark_component("Engine", 4)
    assert interceptor.track.maximum == 5 and "max 5" in interceptor.speed_text.text()
    wasp.mark_stunned(True)
    assert "★ stunned" in wasp.status_text()

    press(table, "Ctrl+.")
    assert str(game.clock) == "Round 1, Wasp's turn"
    assert "stunned" in clock.turn_text.text()
    # The round ends: battlecars.end_round rolls the smoke and ends the stun.
    press(table, "Ctrl+.")
    dialog = _dialog(table)
    assert dialog.procedure.id == "battlecars.end_round"
    dialog.form.set_value("smoke_markers", 2)
    dialog.dice_edit.setText("1 8")
    dialog.resolve_entered()
    dialog.apply()
    assert str(game.clock) == "Round 2, secret speeds"
    assert not _car(table, "v2").stunned
    assert "1 Smoke marker(s) removed" in table.play.log_dock.model.event_at(
        table.play.log_dock.model.rowCount() - 1).event.summary

    end = state(table)
    while game.can_undo():
        press(table, "Ctrl+Z")
    assert state(table) == start
    while game.can_redo():
        press(table, "Ctrl+Shift+Z")
    assert state(table) == end


def test_armour_marks_and_the_card_layout(start_session) -> None:  # type: ignore[no-untyped-def]
    table = _start(start_session)
    wasp = _widget(table, "v2")
    assert set(wasp.blocks) == set(Block)
    assert len(wasp.components) == 17
    assert faces_text((3, 4, 5, 8)) == "3–5,8"
    assert "3–5,8" in wasp.components["Pod A"].title.text()
    wasp.armour_box_activated(Block.LEFT_REAR, 3)
    assert _car(table, "v2").armour_left(Block.LEFT_REAR) == 0
    assert "breached" in " ".join(
        table.play.log_dock.model.event_at(0).event.steps)
    wasp.mark_component("Driver", 3)
    assert "☠ driver killed" in wasp.status_text()
    wasp.mark_round("Pod C", "oil")
    assert Weapon.OIL not in _car(table, "v2").load("Pod C")


def test_resume_after_reopening(qtbot, window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                state: State, settings: QSettings, sqlite_url: str) -> None:
    table = _start(start_session)
    _clock(table).reveal_speeds()
    _widget(table, "v1").mark_armour(Block.FRONT, 2)
    before = state(table)
    window.shutdown()
    again = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(again)
    again.show()
    assert again.finish_startup()
    try:
        assert state(again.table) == before
        sheet = again.table.play.sheets["v1"]
        assert isinstance(sheet, BattlecarsSheetWidget)
        assert sheet.blocks[Block.FRONT].strip.crossed_count() == 2
    finally:
        again.shutdown()


def test_the_session_keeps_smoke_markers_for_the_end_of_round_roll(  # type: ignore[no-untyped-def]
        start_session, press: Press) -> None:
    """§2.2 step 4: "Roll 1d8 for each Smoke marker on the board: 1–4 it stays, 5–8 it is
    removed" — the markers dropped are kept by the session, preset in the end-of-round
    roll, and the dice typed from the table decide which go (issue #13)."""
    table = _start(start_session)
    game = table.context.service.game
    clock = _clock(table)
    clock.reveal_speeds()
    for key in ("v1", "v2"):
        table.hub.run("battlecars.drop", {"vehicle": key, "mount": "Pod C",
                                          "weapon": Weapon.SMOKE.value}, quick=True)
    lasting = table.play.durations_text  # the effects that last (markers), as shown
    on_v1 = table.play.sheets["v1"].durations_text
    assert "Smoke marker from Interceptor's Pod C" in lasting()
    assert "dispersal roll" in on_v1()
    press(table, "Ctrl+.")
    press(table, "Ctrl+.")
    dialog = _dialog(table)
    assert dialog.procedure.id == "battlecars.end_round"
    assert dialog.form.values()["smoke_markers"] == 2
    dialog.dice_edit.setText("6 2")  # the first marker goes, the second stays
    dialog.resolve_entered()
    dialog.apply()
    assert str(game.clock) == "Round 2, secret speeds"
    assert lasting().count("Smoke marker") == 1
    press(table, "Ctrl+Z")
    assert lasting().count("Smoke marker") == 2


def test_return_fire_is_the_default_outside_the_firers_turn(  # type: ignore[no-untyped-def]
        start_session, press: Press) -> None:
    """§2.9 step 2 (BC-D26): outside its Turn a car fires only when fired at, one round,
    only at the attacker. The quick line and the fire dialog default to return fire then,
    and refuse what §2.9 refuses, with the reason."""
    table = start_session("battlecars", [("Ann", CARD, "Interceptor"), ("Bo", CARD, "Wasp"),
                                         ("Cy", CARD, "Hammer")], "street")
    game = table.context.service.game
    press(table, "Ctrl+.")
    assert str(game.clock) == "Round 1, Interceptor's turn"
    line = table.quick
    line.open()
    line.read("2 rk 1 f 2")  # the Wasp has not been fired at
    assert line.procedure is None
    assert "Interceptor has not fired at Wasp this Turn" in line.info.text()
    line.read("2 rk 1 f 2 own")
    assert "it is Interceptor's Turn: outside its own Turn Wasp may only return fire" \
        in line.info.text()
    line.read("1 rk 2 f 2 : 76853")  # the Interceptor's own shot at the Wasp
    assert line.pending is not None, line.info.text()
    assert line.raw["mode"] == "own-turn"
    line.enter()
    line.open()
    line.read("2 sh 3 f 2")  # not at its attacker
    assert "Wasp may return fire only at its attacker, Interceptor, not at Hammer" \
        in line.info.text()
    line.read("2 sh 1 f 2 : 7 6")  # return fire, the default
    assert line.pending is not None, line.info.text()
    assert line.raw["mode"] == "return-fire"
    line.enter()
    assert "return fire: one round, only at the attacker" in " ".join(
        table.play.log_dock.model.event_at(table.play.log_dock.model.rowCount() - 1)
        .event.steps)
    line.open()
    line.read("2 sh 1 f 2 ret")  # once only
    assert "Wasp has already returned fire at Interceptor this Turn" in line.info.text()
    line.close_line()
    # The fire dialog opened for the Wasp defaults to return fire too, and refuses the
    # second round at its resolve.
    table.hub.runner.run("battlecars.fire", {"firer": "v2"})
    dialog = _dialog(table)
    assert dialog.form.values()["mode"] == "return-fire"
    dialog.form.set_value("mount", "Pod D")
    dialog.form.set_value("target", "v1")
    dialog.form.set_value("area", "front")
    dialog.form.set_value("points_between", 2)
    dialog.dice_edit.setText("7 6")
    dialog.resolve_entered()
    assert dialog.resolution is None
    assert "already returned fire" in dialog.error.text()
    dialog.reject()


def test_play_starts_with_the_order_of_play_roll(window: MainWindow) -> None:
    """§2.1 step 7 / BC-D6 (arena: §2.19, BC-D40): a Battlecars session started from New
    Session offers the 1d8 order roll at once, filled in; its result sets the play order."""
    from carwars_desktop.gui.table.new_session import NewSessionDialog

    table = window.table
    window._rail.setCurrentRow(window.workspaces.index(table))
    table.new_session()
    dialog = table.new_dialog
    assert isinstance(dialog, NewSessionDialog)
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData("battlecars"))
    dialog.scenario_box.setCurrentIndex(dialog.scenario_box.findData("arena"))
    dialog.set_player(0, "Ann", CARD, "Interceptor")
    dialog.set_player(1, "Bo", CARD, "Wasp")
    dialog.name_edit.setText("Arena night")
    dialog.accept()
    game = table.context.service.game
    assert game is not None and game.ruleset.id == "battlecars"
    order = _dialog(table)
    assert order.procedure.id == "battlecars.entry_order"
    assert order.form.values()["players"] == "Interceptor, Wasp"
    assert order.form.values()["scenario"] == "arena"
    assert "arena entry order (§2.19, BC-D40)" in order.note.text()
    order.dice_edit.setText("3 7")
    order.resolve_entered()
    assert order.resolution is not None, order.error.text()
    order.apply()
    assert _clock(table).order_label.text() == "Play order: Wasp → Interceptor"
