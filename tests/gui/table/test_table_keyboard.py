"""The Table by keyboard only: a shot in at most 8 keys, Enter never rolls, the batch.

Keys go to whatever widget has the keyboard focus, as the GM's keyboard would send
them; :class:`Keys` counts them (QTest key events, never time).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel
from carwars_desktop.gui.table import TableWorkspace
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.session.house_rules import HouseRules

from ..evening.harness import Keys  # the one key sender of the Table's tests


def _as_before(dialog: ProcedureDialog) -> ProcedureDialog:
    """The fields a fire dialog leaves empty for the GM to type (#28 §3) given what the form
    used to preset: each list's first entry (a vehicle other than the firer), range 2"."""
    from PySide6.QtWidgets import QComboBox

    form = dialog.form
    held = set(form.bindings().values())
    for name in sorted(dialog.unchosen):
        editor = form.editors[name]
        if isinstance(editor, QComboBox):
            rows = [r for r in range(editor.count()) if editor.itemData(r) is not None
                    and str(editor.itemData(r)).partition(":")[2] not in held]
            editor.setCurrentIndex(rows[0])
        else:
            form.set_value(name, "2")
    assert not dialog.unchosen
    return dialog


def _start(window: MainWindow, start_session: Any, ruleset: str,
           players: list[tuple[str, ...]], house_rules: Any = None) -> TableWorkspace:
    table: TableWorkspace = start_session(ruleset, players, house_rules=house_rules)
    window.activateWindow()
    table.focus_default()
    return table


def _to_phase(table: TableWorkspace, keys: Keys, phase: str) -> None:
    """Ctrl+. to ``phase`` (AUTOpower §2.3 step 4: a car attacks in its own Combat phase);
    the key count starts again from there."""
    game = table.context.service.game
    assert game is not None
    for _ in range(len(game.clock.phases)):
        if game.clock.phase_name == phase:
            break
        keys.press("Ctrl+.")
    assert game.clock.phase_name == phase
    keys.count = 0


def test_a_mini_car_wars_mg_shot_of_two_cars_in_nine_keys(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """Two cars or four, the same keys in the same order (#28 §3)."""
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    game = table.context.service.game
    assert game is not None
    before = game.sheet("v2").to_json()
    keys = Keys(qtbot)
    keys.press("1", "f")  # Killer Kart fires (its MG is weapon 1) at the other car
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert keys.focused() is dialog.form.editors["weapon"]  # the first field of the order
    keys.press("1", "2")  # weapon 1 at vehicle 2
    assert keys.focused() is dialog.form.editors["range"]  # no range measured yet
    keys.type("5")
    keys.press("f")  # the front, then the dice (never a roll)
    assert keys.focused() is dialog.dice_edit and dialog.pending is None
    keys.type("543")  # to hit 5+4, damage 3
    keys.press("Ctrl+Shift+Enter")  # this shot alone, now
    assert keys.count <= 10, keys.count
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert game.sheet("v2").to_json() != before
    last = table.play.log_dock.model.event_at(table.play.log_dock.model.rowCount() - 1)
    assert "hit" in last.event.summary and "3 damage" in last.event.summary


def test_a_battlecars_rocket_shot_in_nine_keys(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    table = _start(window, start_session, "battlecars",
                   [("Ann", card, "Interceptor"), ("Bo", card, "Wasp")])
    clock = table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    clock.speed_rows["v1"].speed.setValue(3)
    clock.speed_rows["v2"].speed.setValue(3)
    clock.reveal_speeds()  # the round under way: the Interceptor's turn
    game = table.context.service.game
    assert game is not None and str(game.clock) == "Round 1, Interceptor's turn"
    table.focus_default()
    before = game.sheet("v2").to_json()
    keys = Keys(qtbot)
    keys.press("f")  # the car whose turn it is fires (it is selected)
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.form.values()["mount"] == "Pod A"  # its first pod, two rockets
    assert keys.focused() is dialog.form.editors["target"]  # of two cars as of four
    keys.press("2")  # the Wasp
    assert keys.focused() is dialog.form.editors["area"]  # the area aimed at: asked
    keys.press("f")  # front
    keys.press("Enter")
    assert keys.focused() is dialog.dice_edit and dialog.pending is None
    keys.type("7611")  # to hit 7+6, damage 1+1
    keys.press("Ctrl+Enter")
    assert keys.count <= 9, keys.count
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert game.sheet("v2").to_json() != before
    model = table.play.log_dock.model
    assert "Wasp" in model.event_at(model.rowCount() - 1).event.summary


def test_an_autopower_attack_in_eight_keys(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    table = _start(window, start_session, "autopower", [("Bo", "Rhino"), ("Ann", "Longshot")])
    game = table.context.service.game
    assert game is not None
    keys = Keys(qtbot)
    _to_phase(table, keys, "Longshot: combat")
    keys.press("2", "f")  # Longshot attacks
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert keys.focused() is dialog.form.editors["target"]
    keys.press("1")  # the Rhino
    assert dialog.form.bindings() == {"firer": "v2", "target": "v1"}
    assert keys.focused() is dialog.form.editors["cards"]
    keys.type("4")  # a Fighting 4
    keys.press("Enter")
    keys.type("65")
    keys.press("Ctrl+Enter")
    assert keys.count <= 8, keys.count
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    from carwars_desktop.rules.autopower.sheet import CarSheet

    rhino = game.sheet("v1")
    assert isinstance(rhino, CarSheet) and rhino.total_damage == 4


def test_no_table_dialog_rolls_dice_on_enter(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Every procedure the Table offers for a vehicle, in every ruleset: Enter in each
    field and in the dice entry, with nothing typed, never throws a die in the app."""
    from carwars_desktop.gui.table.keyboard import vehicle_procedures
    from carwars_desktop.procedures import SheetInput
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    games = {"mini_car_wars": [("A", "Killer Kart"), ("B", "Courier")],
             "battlecars": [("A", card, "Interceptor"), ("B", card, "Wasp")],
             "autopower": [("A", "Rhino"), ("B", "Longshot")]}
    keys = Keys(qtbot)
    opened = 0
    # The AUTOpower control roll, ram and laser variants on: every procedure is offered.
    variants = {"autopower": HouseRules("Variants", {"AP-ramming": True, "AP-lasers": True,
                                                     "AP-control-rolls": True})}
    for ruleset, players in games.items():
        table = _start(window, start_session, ruleset, players, variants.get(ruleset))
        game = table.context.service.game
        assert game is not None
        for procedure in vehicle_procedures(ruleset, game.sheet("v1")):
            first = next(s.name for s in procedure.inputs if isinstance(s, SheetInput))
            dialog = table.keys.run(procedure.id, {first: "v1"})
            assert dialog is not None, procedure.id
            opened += 1
            for editor in [*dialog.form.editors.values(), dialog.dice_edit]:
                if not editor.isEnabled():
                    continue
                editor.setFocus()
                keys.press("Enter")
                assert keys.focused() is dialog.dice_edit, procedure.id
                keys.press("Enter")
                if dialog.pending is not None:
                    assert all(d.entered for d in dialog.pending.resolution.dice), procedure.id
                    assert dialog.pending.seed is None
                    assert "rolled with seed" not in dialog.result_view.toPlainText()
            dialog.reject()
    assert opened >= 25


def test_rolled_with_seed_only_when_a_die_was_rolled(window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                                     qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    dialog = table.keys.act("fire")
    assert dialog is not None
    _as_before(dialog)
    dialog.dice_edit.setText("54")  # the to-hit dice typed, the damage die rolled
    dialog.roll()
    assert dialog.pending is not None and dialog.pending.seed is not None
    assert "rolled with seed" in dialog.result_view.toPlainText()
    dialog.dice_edit.setText("5 4 3")
    dialog.roll()  # Ctrl+R with every die typed: nothing rolled, no seed shown
    assert dialog.pending is not None and dialog.pending.seed is None
    assert "rolled with seed" not in dialog.result_view.toPlainText()
    dialog.reject()


def test_choosing_the_target_as_firer_swaps_them(window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                                 qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier"), ("Cy", "Courier", "Rex")])
    dialog = table.keys.act("fire")
    assert dialog is not None
    keys = Keys(qtbot)
    # Three cars: the weapon is asked first, then the target; its number chooses it, as
    # on the sheets.
    assert keys.focused() is dialog.form.editors["weapon"]
    keys.press("1")
    assert keys.focused() is dialog.form.editors["target"]
    keys.press("3")
    assert dialog.form.bindings() == {"firer": "v1", "target": "v3"}
    dialog.form.set_value("target", "v2")
    assert dialog.form.bindings() == {"firer": "v1", "target": "v2"}
    dialog.form.set_value("firer", "v2")
    assert dialog.form.bindings() == {"firer": "v2", "target": "v1"}
    assert "same vehicle" not in dialog.error.text()
    dialog.reject()


def test_range_and_side_remembered_for_the_turn_and_repeat(window: MainWindow,  # type: ignore[no-untyped-def]
                                                            start_session, qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Courier"), ("Bo", "Killer Kart")])
    dialog = table.keys.act("fire")
    assert dialog is not None and "Not measured yet" in dialog.note.text()
    _as_before(dialog)
    dialog.form.set_value("range", "7")
    dialog.form.set_value("side", "L")
    dialog.form.set_value("weapon", "2")
    dialog.dice_edit.setText("11")  # a natural 2: a miss, the MG is still spent
    dialog.apply()
    again = table.keys.act("fire")
    assert again is not None
    assert again.form.values()["range"] == "7" and again.form.values()["side"] == "L"
    assert "Remembered this turn for this pair: range 7, side L" in again.note.text()
    assert again.first_field is again.form.editors["weapon"]  # the order's first field
    again.reject()
    keys = Keys(qtbot)
    table.focus_default()
    keys.press("Shift+F")
    repeat = table.hub.runner.dialog
    assert repeat is not None and repeat.isVisible() and repeat is not again
    assert repeat.form.values()["weapon"] == "2" and repeat.form.values()["range"] == "7"
    repeat.reject()


def test_the_phase_fire_is_one_batch_a_destroyed_weapon_still_fires(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot, state) -> None:
    from carwars_desktop.gui.table.batch_dialog import BatchDialog
    from carwars_desktop.rules.mini_car_wars import MiniSheet
    from carwars_desktop.rules.mini_car_wars.model import Side

    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    game = table.context.service.game
    assert game is not None
    table.play.sheets["v2"].mark_armor(Side.FRONT, 1)  # type: ignore[attr-defined]
    start = state(table)
    events = table.play.log_dock.model.rowCount()
    keys = Keys(qtbot)
    # Killer Kart's MG at the Courier's front (1 point left): Ctrl+Enter adds it to the batch.
    keys.press("1", "f", "1", "2")  # the weapon, the target
    keys.type("3")
    keys.press("f")  # the front
    keys.type("5434")  # hit, 3 damage, past the armor: interior location 4
    keys.press("Ctrl+Enter")
    assert table.keys.batch is not None and len(table.keys.batch.shots) == 1
    assert state(table) == start  # nothing applied yet
    # The Courier's front rocket launcher at the Kart's front, dice typed in the batch.
    keys.press("2", "f")
    first = table.hub.runner.dialog
    assert first is not None
    _as_before(first)  # RL (F) at the Kart's front, 2"
    keys.press("Ctrl+Enter")
    assert len(table.keys.batch.shots) == 2
    keys.press("b")
    batch = table.keys.batch_dialog
    assert isinstance(batch, BatchDialog) and batch.isVisible()
    assert len(batch.dice_edits) == 2
    assert all("need" in label.text() for label in batch.labels)  # every shot's odds
    batch.dice_edits[1].setText("6 6 2 2")  # hit, 2d6 damage = 4 (Kart front 6 → 2)
    batch.apply()
    assert batch.error.text() == ""
    courier, kart = game.sheet("v2"), game.sheet("v1")
    assert isinstance(courier, MiniSheet) and isinstance(kart, MiniSheet)
    assert courier.armor.front == 0 and courier.weapons[0].destroyed  # destroyed by shot 1…
    assert kart.armor.front == 2  # …and it fired all the same
    assert table.play.log_dock.model.rowCount() == events + 1  # one event
    assert window.database is not None  # the Dice history: a line per shot, not one "8d6"
    lines = {r.dice_values: r.expression for r in window.database.dice_history.recent(2)}
    assert lines == {(5, 4, 3): "3d6 · mini.fire", (6, 6, 2, 2): "4d6 · mini.fire"}
    assert not table.keys.batch.shots
    table.hub.undo()
    assert state(table) == start  # one undo takes the whole batch back


def test_play_the_phase_works_in_every_ruleset(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.rules import find_ruleset

    keys = Keys(qtbot)
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")], )
    keys.press("Ctrl+P")  # phase 1: the first mover's maneuver, then (all moved) the fire
    dialog = table.hub.runner.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.procedure.id in ("mini.maneuver", "mini.fire")
    dialog.reject()
    card = next(iter(find_ruleset("battlecars").catalog()))
    table = _start(window, start_session, "battlecars",
                   [("Ann", card, "Interceptor"), ("Bo", card, "Wasp")])
    game = table.context.service.game
    assert game is not None
    keys.press("Ctrl+P")  # the secret speeds revealed (0 and 0): the first car's turn
    assert "turn" in str(game.clock) and "secret" not in str(game.clock)
    keys.press("Ctrl+P")  # its fire
    dialog = table.hub.runner.dialog
    assert dialog is not None and dialog.isVisible() and dialog.procedure.id == "battlecars.fire"
    dialog.reject()


def test_the_new_workspace_takes_the_focus(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.resolver_workspace import ResolverWorkspace

    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    keys = Keys(qtbot)
    keys.press("Ctrl+4")
    resolver = window.current_workspace()
    assert isinstance(resolver, ResolverWorkspace)
    focused = QApplication.focusWidget()
    assert focused is not None and (focused is resolver or resolver.isAncestorOf(focused))
    keys.press("Ctrl+3")
    assert window.current_workspace() is table
    keys.press("2")  # the Table's keys work at once
    assert table.keys.selected == "v2"
    keys.press("d")
    dialog = table.hub.runner.dialog
    assert dialog is not None and dialog.procedure.id == "mini.damage"
    dialog.reject()
    qtbot.waitUntil(lambda: not dialog.isVisible())
    focused = QApplication.focusWidget()
    assert focused is not None and table.isAncestorOf(focused)  # back at the Table


def test_the_quick_line_reads_shows_the_odds_takes_the_dice_and_applies(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    game = table.context.service.game
    assert game is not None
    keys = Keys(qtbot)
    keys.press("q")
    line = table.quick
    assert line.isVisible() and keys.focused() is line.edit
    keys.type("1 rl 2 f 5")
    keys.press("Enter")
    assert "'rl' is not one of the firer's weapons" in line.info.text()
    assert line.pointer.text().splitlines()[1] == "  ^^"  # under the wrong word
    line.edit.clear()
    keys.type("1 mg 2 f 5")
    keys.press("Enter")
    assert line.procedure is not None and line.procedure.id == "mini.fire"
    assert "need" in line.info.text()  # the odds before the dice
    assert line.raw["range"] == "5" and line.raw["side"] == "F"
    before = game.sheet("v2").to_json()
    assert "Enter adds the shot to the phase's batch" in line.info.text()  # §2.2
    keys.type("543")
    keys.press("Ctrl+Shift+Enter")  # resolves (never rolls) and applies this shot alone
    assert not line.isVisible()
    assert game.sheet("v2").to_json() != before
    assert table.keys.batch is not None and not table.keys.batch.shots
    # Fast damage by hand: the selected vehicle, an amount and a side, through the engine.
    keys.press("2")
    keys.press("q")
    keys.type("7 b")
    keys.press("Enter")  # no die needed (it stays in the back armor): the result at once
    assert line.pending is not None and "7 damage" in line.pending.resolution.outcome
    keys.press("Enter")
    from carwars_desktop.rules.mini_car_wars import MiniSheet

    courier = game.sheet("v2")
    assert isinstance(courier, MiniSheet) and courier.armor.back == 25 - 7
    # Past the armor: the interior roll is asked for, then applied.
    keys.press("q")
    keys.type("20 b")
    keys.press("Enter")
    assert line.pending is None and "interior location" in line.info.text()
    keys.type("4")
    keys.press("Enter")
    keys.press("Enter")
    courier = game.sheet("v2")
    assert isinstance(courier, MiniSheet) and courier.armor.back == 0
    assert not line.isVisible()


def test_the_quick_line_in_battlecars_and_autopower(window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                                    qtbot) -> None:
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    table = _start(window, start_session, "battlecars",
                   [("Ann", card, "Interceptor"), ("Bo", card, "Wasp")])
    table.quick.open()
    table.quick.read("1 rk 2 lf 3")
    assert "only the nearest areas" in table.quick.info.text()  # the rules refuse it
    table.quick.read("1 rk 2 f 3")
    assert table.quick.procedure is not None, table.quick.info.text()
    assert table.quick.raw["mount"] == "Pod A" and table.quick.raw["area"] == "front"
    assert table.quick.raw["points_between"] == 3
    table.quick.close_line()
    table = _start(window, start_session, "autopower", [("Bo", "Rhino"), ("Ann", "Longshot")])
    _to_phase(table, Keys(qtbot), "Longshot: combat")
    table.quick.open()
    table.quick.read("2 at 1 4 : 65")
    assert table.quick.pending is not None, table.quick.info.text()
    table.quick.enter()  # Enter applies
    game = table.context.service.game
    from carwars_desktop.rules.autopower.sheet import CarSheet

    rhino = game.sheet("v1") if game is not None else None
    assert isinstance(rhino, CarSheet) and rhino.total_damage == 4


def test_the_clock_waits_for_the_batch(window: MainWindow, start_session, qtbot) -> None:  # type: ignore[no-untyped-def]
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    game = table.context.service.game
    assert game is not None
    dialog = table.keys.act("fire")
    assert dialog is not None
    _as_before(dialog)
    dialog.add_to_batch()
    phase = game.clock.phase
    table.next_phase()
    assert game.clock.phase == phase and "wait in the fire batch" in table.play.message.text()
    batch = table.keys.batch_dialog
    assert batch is not None and batch.isVisible()
    batch.empty()
    batch.reject()
    table.next_phase()
    assert game.clock.phase == phase + 1


def test_choosing_the_firer_as_target_swaps_them(window: MainWindow, start_session,  # type: ignore[no-untyped-def]
                                                 qtbot) -> None:
    from PySide6.QtWidgets import QComboBox

    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier"), ("Cy", "Courier", "Rex")])
    dialog = table.keys.act("fire")
    assert dialog is not None
    keys = Keys(qtbot)
    assert keys.focused() is dialog.form.editors["weapon"]
    keys.press("1")
    assert keys.focused() is dialog.form.editors["target"]
    keys.press("2", "5", "f")  # vehicle 2, 5", its front
    target = dialog.form.bindings()["target"]
    assert target == "v2"
    dialog.form.editors["target"].setFocus()
    keys.press("1")  # the firer's own number in the target's list
    assert dialog.form.bindings() == {"firer": target, "target": "v1"}
    assert "same vehicle" not in dialog.error.text() and dialog.odds_label.text()
    weapons = dialog.form.editors["weapon"]
    assert isinstance(weapons, QComboBox)
    courier = [weapons.itemText(i) for i in range(weapons.count())]  # the new firer's list
    # The target's list by its own keys (the GM's choice too): back to the firer's vehicle.
    combo = dialog.form.editors["target"]
    assert isinstance(combo, QComboBox)
    firer_row = combo.findData(f"game:{target}")
    while combo.currentIndex() != firer_row:
        qtbot.keyClick(combo, Qt.Key.Key_Up if combo.currentIndex() > firer_row
                       else Qt.Key.Key_Down)
    assert dialog.form.bindings() == {"firer": "v1", "target": target}
    assert "same vehicle" not in dialog.error.text()
    assert [weapons.itemText(i) for i in range(weapons.count())] != courier
    # Set from code (not the GM's choice), the same vehicle is still flagged.
    dialog.form.set_value("target", "v1")
    assert "firer and target are the same vehicle" in dialog.error.text()
    dialog.reject()


def test_changing_the_target_in_the_dialog_brings_its_remembered_range_and_side(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Courier"), ("Bo", "Killer Kart"), ("Cy", "Courier", "Rex")])
    for target, range_, side in (("v2", "7", "L"), ("v3", "4", "R")):
        dialog = table.keys.act("fire")
        assert dialog is not None
        _as_before(dialog)
        dialog.form.set_value("target", target)
        dialog.form.set_value("range", range_)
        dialog.form.set_value("side", side)
        dialog.add_to_batch()  # declared: remembered like a shot applied
    assert table.keys.batch is not None and len(table.keys.batch.shots) == 2
    dialog = table.keys.act("fire")  # the firer's last target this turn: Rex
    assert dialog is not None and dialog.form.bindings()["target"] == "v3"
    assert dialog.form.values()["range"] == "4" and dialog.form.values()["side"] == "R"
    keys = Keys(qtbot)
    dialog.form.editors["target"].setFocus()
    keys.press("2")  # the GM chooses Bo's car: its range and side this turn come back
    assert dialog.form.bindings() == {"firer": "v1", "target": "v2"}
    assert dialog.form.values()["range"] == "7" and dialog.form.values()["side"] == "L"
    assert "Remembered this turn for this pair: range 7, side L" in dialog.note.text()
    assert "range 4" not in dialog.note.text()
    dialog.form.set_value("firer", "v2")  # a pair not measured this turn (Bo → Ann)
    assert dialog.form.bindings() == {"firer": "v2", "target": "v1"}
    assert "Not measured yet this turn for this pair: range, side" in dialog.note.text()
    assert "Remembered" not in dialog.note.text()
    assert "Fire is simultaneous" in dialog.note.text()  # the other lines stay
    dialog.reject()


def test_each_shot_of_an_applied_batch_is_in_the_roll_log_with_its_odds(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot, state) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    game = table.context.service.game
    assert game is not None and window.database is not None
    start = state(table)
    events = table.play.log_dock.model.rowCount()
    for firer, side, weapon, dice in (("v1", "F", None, "11"), ("v2", "L", "1", "6622")):
        table.keys.select(table.keys.number_of(firer))
        dialog = table.keys.act("fire")
        assert dialog is not None
        _as_before(dialog)
        dialog.form.set_value("side", side)
        if weapon is not None:
            dialog.form.set_value("weapon", weapon)
        dialog.dice_edit.setText(dice)
        dialog.add_to_batch()
    batch = table.keys.batch
    assert batch is not None and len(batch.shots) == 2
    odds = [batch.odds(shot, game).p_success() for shot in batch.shots]
    assert all(p is not None for p in odds)
    before = window.database.game_sessions.resolutions(table.session_id)
    dialog = table.keys.show_batch()
    assert dialog is not None
    dialog.apply()
    assert dialog.error.text() == ""
    logged = window.database.game_sessions.resolutions(table.session_id)[len(before):]
    # The batch's own line (no success of its own), then each shot with its own odds.
    assert logged == [("mini.fire", None, None, True), ("mini.fire", False, str(odds[0]), True),
                      ("mini.fire", True, str(odds[1]), True)]
    log = window.database.game_sessions.roll_log(table.session_id)
    assert [row.outcome.split(":")[0] for row in log[-2:]] == [
        "fire batch, shot 1 (Killer Kart → Courier (1))",
        "fire batch, shot 2 (Courier → Killer Kart (1))"]
    assert table.play.log_dock.model.rowCount() == events + 1  # still one event
    table.hub.undo()
    assert state(table) == start  # one undo takes the whole batch back


def test_the_clock_offers_the_fire_batch_only_where_the_ruleset_has_one(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    assert not table.play.batch_button.isHidden()
    table = _start(window, start_session, "autopower", [("Bo", "Rhino"), ("Ann", "Longshot")])
    assert table.play.batch_button.isHidden()  # one attack per turn: no batch
    table.keys.show_batch()
    assert "AUTOpower has no fire batch" in table.play.message.text()


def test_a_result_the_inputs_or_a_new_roll_replace_is_discarded_not_left_pending(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """#28 §1: Roll, change an input, Cancel: the roll-log row says discarded (not pending)
    and the roll in progress is over for the players' display; so is a result a second
    roll replaced."""
    from carwars_desktop.services import RollState

    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Killer Kart"), ("Bo", "Courier")])
    assert window.database is not None
    service = table.context.service
    dialog = table.keys.act("fire")
    assert dialog is not None
    _as_before(dialog)
    dialog.dice_edit.setText("5 4 3")
    dialog.resolve_entered()
    assert dialog.pending is not None and service.roll is not None
    assert service.roll.state is RollState.SHOWN
    dialog.form.set_value("range", "9")  # the inputs change: the result no longer stands
    assert dialog.pending is None
    # Its result is over for the players: they see the new form's need and odds (§4).
    assert service.roll.state is RollState.PREPARING and service.roll.pending is None
    dialog.dice_edit.setText("6 6 3")
    dialog.resolve_entered()
    assert dialog.error.text() == "" and dialog.pending is not None
    dialog.dice_edit.setText("2 2")  # a miss: no damage die
    dialog.resolve_entered()  # a second result replaces the first on screen
    assert dialog.error.text() == "" and dialog.pending is not None
    dialog.reject()
    states = [row.state for row in window.database.game_sessions.roll_log(table.session_id)]
    assert states == ["discarded", "discarded", "discarded"]
    assert service.roll.state is RollState.DISCARDED


FOUR_CARS = [("Ann", "Killer Kart"), ("Bo", "Courier"), ("Cy", "Courier", "Rex"),
             ("Di", "Killer Kart", "Zed")]


def test_the_table_keys_work_after_start_turn(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """#28 §3: after the Clock's Start turn the number keys, Ctrl+P and Q work at once:
    the focus is back at the Table, not on the window's ruleset switch."""
    from PySide6.QtTest import QTest

    from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel

    table = _start(window, start_session, "mini_car_wars", FOUR_CARS)
    game = table.context.service.game
    clock = table.play.clock
    assert game is not None and isinstance(clock, MiniClockPanel)
    keys = Keys(qtbot)
    for _ in range(9):
        keys.press("Ctrl+.")
    assert game.clock.phase == 9
    keys.press("Ctrl+.")  # the end of the turn: the new speeds
    assert clock.speeds_open
    # The GM clicks the button once it is on screen (the form is laid out in a turn).
    qtbot.waitUntil(lambda: not clock.start_button.visibleRegion().isEmpty())
    QTest.mouseClick(clock.start_button, Qt.MouseButton.LeftButton)
    assert game.clock.turn == 2 and game.clock.phase == 0

    def at_the_table() -> bool:
        focused = QApplication.focusWidget()
        return focused is not None and table.isAncestorOf(focused)

    qtbot.waitUntil(at_the_table)
    keys.press("3")
    assert table.keys.selected == "v3"
    keys.press("Ctrl+P")  # the phase's first mover
    dialog = table.hub.runner.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.reject()
    qtbot.waitUntil(lambda: not dialog.isVisible())
    keys.press("q")  # the quick line opens from the sheets too
    assert table.quick.isVisible() and keys.focused() is table.quick.edit


def test_the_shot_defaults_to_a_crew_member_and_weapon_that_can_still_fire(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """Mini Car Wars §1.2/§1.3: each person and each weapon fires once a turn. Once the
    driver has fired, the quick line fires with the gunner (or names him: ``g``), and the
    dialog defaults to the gunner and a weapon not fired this turn."""
    from carwars_desktop.rules.mini_car_wars import MiniSheet

    table = _start(window, start_session, "mini_car_wars",
                   [("Ann", "Courier"), ("Bo", "Killer Kart")])
    game = table.context.service.game
    assert game is not None
    line = table.quick
    line.open()
    line.read("1 rl 2 f 5 : 11", alone=True)  # the driver fires the RL: a natural 2 misses
    assert line.pending is not None, line.info.text()
    assert line.raw["person"] == "driver"
    line.enter(alone=True)
    courier = game.sheet("v1")
    assert isinstance(courier, MiniSheet) and courier.weapons[0].fired
    line.open()
    line.read("1 mg 2 f 3")
    assert line.procedure is not None, line.info.text()
    assert line.raw["person"] == "gunner" and line.raw["weapon"] == "2"
    line.close_line()
    line.open()
    line.read("1 mg 2 f 3 g : 11", alone=True)  # the gunner named
    assert line.pending is not None and line.raw["person"] == "gunner", line.info.text()
    line.discard()
    line.close_line()
    line.open()
    line.read("1 mg 2 f 3 d")  # the driver named: the rules refuse him
    assert "the driver has already fired this turn" in line.info.text()
    line.close_line()
    table.hub.runner.run("mini.fire", {"firer": "v1", "target": "v2"})
    dialog = table.hub.runner.dialog
    assert dialog is not None
    values = dialog.form.values()
    assert values["person"] == "gunner" and values["weapon"] == "2"
    dialog.reject()


# --- #28 §3: the keyboard path at a real table (4 vehicles) -----------------------------
# Each sequence typed below is quoted in docs/user-guide.md (Keyboard, "By keyboard",
# "Quick entry", "The clock by keyboard"): test_keys_the_guide_quotes_the_sequences_typed
# checks that the guide shows each one exactly, key by key.

MCW_SHOT = ("F1", "2", "2", "5", "f", "5", "4", "3", "Ctrl+Shift+Enter")
"""Vehicle 1 fires its weapon 2 (the MG) at vehicle 2's front at 5", to hit 5+4, damage 3,
applied at once."""
MCW_REPEAT = ("1", "Shift+F", "5", "4", "3", "Ctrl+Shift+Enter")
MCW_QUICK = ("Q", *"1mg2f5:543", "Enter")
MCW_QUICK_ALONE = ("Q", *"1mg2f5:543", "Ctrl+Shift+Enter")
BC_SHOT = ("F1", "2", "f", "Enter", "7", "6", "1", "1", "Ctrl+Enter")
AP_ATTACK = ("F2", "1", "4", "Enter", "6", "5", "Ctrl+Enter")
MCW_SMOKE = ("F4", "3", "Ctrl+Enter")
"""Vehicle 4 (the Mini Sherman) fires its weapon 3, the smokescreen, into the batch: it aims
at no one (§2.13), so nothing more is asked."""

MCW_FOUR = [("Ann", "Rocket Special"), ("Bo", "Courier"), ("Cy", "Killer Kart"),
            ("Di", "Mini Sherman")]
"""The Rocket Special's MG is its second weapon (its first is the RL)."""


def _last_summary(table: TableWorkspace) -> str:
    model = table.play.log_dock.model
    return model.event_at(model.rowCount() - 1).event.summary


def _sequence_text(sequence: tuple[str, ...]) -> str:
    """A sequence as the user guide writes it: each key in backticks, one space between."""
    return " ".join(f"`{key}`" for key in sequence)


def test_keys_mini_car_wars_mg_shot_four_cars_in_nine_keys(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    from carwars_desktop.rules.mini_car_wars.play import mini_sheet

    table = _start(window, start_session, "mini_car_wars", MCW_FOUR)
    game = table.context.service.game
    assert game is not None
    before = game.sheet("v2").to_json()
    keys = Keys(qtbot)
    keys.press("F1")  # vehicle 1 fires: the first field is its weapon, whatever the count
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    form = dialog.form
    assert keys.focused() is form.editors["weapon"]
    # Nothing the GM did not choose: the weapon, target, range and side start empty.
    assert dialog.unchosen == {"weapon", "target", "range", "side"}
    assert form.editors["range"].text() == ""  # type: ignore[attr-defined]
    assert form.editors["target"].currentIndex() == -1  # type: ignore[attr-defined]
    for name in ("weapon", "target", "range", "side"):  # each shows its focus frame
        assert form.editors[name].styleSheet() in (
            "QComboBox:focus { border: 2px solid palette(highlight); }",
            "QLineEdit:focus { border: 2px solid palette(highlight); }"), name
    keys.press("2")  # weapon 2, the MG: on to the target
    assert form.values()["weapon"] == "2"
    assert keys.focused() is form.editors["target"]
    keys.press("2")  # vehicle 2: on to the range
    assert form.bindings() == {"firer": "v1", "target": "v2"}
    assert keys.focused() is form.editors["range"]
    keys.press("5")
    keys.press("f")  # a letter ends the range: the side, then the dice
    assert form.values()["range"] == "5" and form.values()["side"] == "F"
    assert keys.focused() is dialog.dice_edit and dialog.pending is None
    keys.type("543")
    keys.press("Ctrl+Shift+Enter")  # this shot alone, now
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert keys.count == len(MCW_SHOT) <= 9, keys.count
    assert game.sheet("v2").to_json() != before
    assert _last_summary(table) == "hit: 3 damage to Courier's front"
    firer = mini_sheet(game.sheet("v1"))
    assert [w.fired for w in firer.weapons] == [False, True]  # the MG, not the RL

    # The next turn (all speeds 0: nobody moves), the same firer's last shot again.
    clock = table.play.clock
    assert isinstance(clock, MiniClockPanel)
    keys.press("Ctrl+J")  # phases 1→10 as one event (nobody moves)
    assert game.clock.phase == 9
    keys.press("Ctrl+J")  # the end of the turn: the new speeds
    clock.start_button.click()
    qtbot.waitUntil(lambda: game.clock.turn == 2)
    table.focus_default()
    keys.count = 0
    before = game.sheet("v2").to_json()
    keys.press("1", "Shift+F")
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert keys.focused() is dialog.dice_edit
    assert dialog.form.values()["weapon"] == "2" and dialog.form.values()["range"] == "5"
    keys.type("543")
    keys.press("Ctrl+Shift+Enter")
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert keys.count == len(MCW_REPEAT) <= 6, keys.count
    assert game.sheet("v2").to_json() != before
    assert _last_summary(table) == "hit: 3 damage to Courier's front"
    assert [w.fired for w in mini_sheet(game.sheet("v1")).weapons] == [False, True]


def test_keys_mini_car_wars_remembered_pair_and_a_wrong_key(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """A key a field does not take is refused in words (nothing moves on); the pair's
    range and side come back once the target is typed."""
    table = _start(window, start_session, "mini_car_wars", MCW_FOUR)
    keys = Keys(qtbot)
    keys.press("F1")
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog)
    keys.press("9")  # there is no weapon 9
    assert "nothing here for '9'" in dialog.error.text()
    assert keys.focused() is dialog.form.editors["weapon"]
    keys.press("2", "3", "4")  # the MG at vehicle 3, 4"
    keys.press("Enter")  # the side not typed: the dice say what is missing
    keys.press("Enter")
    assert dialog.pending is None and "side" in dialog.error.text()
    dialog.form.editors["side"].setFocus()
    keys.press("l")  # the left side
    assert keys.focused() is dialog.dice_edit and dialog.error.text() == ""
    keys.type("4")
    keys.type("3")
    keys.type("2")
    keys.press("Ctrl+Enter")  # into the phase's batch (fire is simultaneous)
    assert not dialog.isVisible()
    batch = table.keys.batch
    assert batch is not None and len(batch.shots) == 1
    keys.press("F1", "1", "3")  # the same pair: its range and side this turn come back
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog)
    assert dialog.form.values()["range"] == "4" and dialog.form.values()["side"] == "L"
    assert keys.focused() is dialog.form.editors["range"]
    assert "Remembered this turn" in dialog.note.text()
    dialog.reject()


def test_keys_mini_car_wars_quick_line_into_the_batch_in_twelve_keys(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    table = _start(window, start_session, "mini_car_wars", MCW_FOUR)
    game = table.context.service.game
    assert game is not None
    before = game.sheet("v2").to_json()
    events = table.play.log_dock.model.rowCount()
    keys = Keys(qtbot)
    keys.press(*MCW_QUICK)  # the shot goes into the phase's batch (§2.2), with its dice
    assert keys.count == len(MCW_QUICK) <= 12, keys.count
    batch = table.keys.batch
    assert batch is not None and len(batch.shots) == 1
    shot = batch.shots[0]
    assert shot.dice == "543" and shot.bindings == {"firer": "v1", "target": "v2"}
    assert shot.inputs["weapon"] == "2" and shot.inputs["range"] == "5"
    assert game.sheet("v2").to_json() == before  # not applied yet
    assert table.play.log_dock.model.rowCount() == events
    assert not table.quick.isVisible()
    keys.press("b")
    dialog = table.keys.batch_dialog
    assert dialog is not None and dialog.isVisible()
    keys.press("Ctrl+Enter")  # the phase's fire, as one event
    qtbot.waitUntil(lambda: not batch.shots)
    assert game.sheet("v2").to_json() != before
    summary = _last_summary(table)
    assert "Courier" in summary and "hit" in summary

    # Ctrl+Shift+Enter: this shot alone, now.
    keys.count = 0
    before = game.sheet("v4").to_json()
    keys.press("Q", *"3mg4f2:543", "Ctrl+Shift+Enter")
    assert keys.count == len(MCW_QUICK_ALONE) <= 12
    assert not batch.shots
    assert game.sheet("v4").to_json() != before
    assert "Mini Sherman" in _last_summary(table)

    # Without the dice: Enter reads the line (the odds), Enter on the dice declares it.
    keys.press("Q", *"4mg1f3", "Enter")
    assert "Enter adds the shot to the phase's batch" in table.quick.info.text()
    keys.press(*"65", "Enter")
    assert len(batch.shots) == 1 and batch.shots[0].dice == "65"
    assert batch.shots[0].bindings == {"firer": "v4", "target": "v1"}
    batch.clear()
    # Ctrl+Shift+Enter on the line: that shot is applied alone, its dice typed next.
    before = game.sheet("v1").to_json()
    keys.press("Q", *"4mg1f3", "Ctrl+Shift+Enter", *"543", "Enter")
    assert not batch.shots and table.quick.pending is not None
    keys.press("Enter")
    assert game.sheet("v1").to_json() != before and not table.quick.isVisible()


def test_keys_mini_car_wars_ctrl_j_skips_the_phases_nobody_moves_in(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """At 10 mph a car moves once a turn: Ctrl+J goes to its phase, then to the end of the
    turn (Ctrl+. would take a press per phase)."""
    from carwars_desktop.rules.mini_car_wars.play import mini_sheet
    from carwars_desktop.rules.mini_car_wars.play.clock import phase_movers

    table = _start(window, start_session, "mini_car_wars", MCW_FOUR)
    game = table.context.service.game
    clock = table.play.clock
    assert game is not None and isinstance(clock, MiniClockPanel)
    keys = Keys(qtbot)
    keys.press("Ctrl+J")
    keys.press("Ctrl+J")  # the new speeds
    assert clock.speeds_open
    for edit in clock.speed_edits.values():
        edit.setCurrentText("10")
    clock.start_button.click()
    qtbot.waitUntil(lambda: game.clock.turn == 2)
    table.focus_default()
    sheets = {v.key: mini_sheet(game.sheet(v.key)) for v in game.vehicles}
    eventful = [p for p in range(1, 11) if phase_movers(sheets, p)]
    assert eventful and len(eventful) < 10
    keys.count = 0
    events = table.play.log_dock.model.rowCount()
    shown = []
    while not clock.speeds_open:
        keys.press("Ctrl+J")
        shown.append(game.clock.phase + 1)
    assert eventful == [1]  # 10 mph: every car moves in phase 1 only (§2.2.1)
    assert keys.count == 2, keys.count  # phase 10 (2–9 passed), then the new speeds
    assert [p for p in shown[:-1]] == [p for p in eventful if p > 1] + \
        ([10] if 10 not in eventful else [])
    # One event per press, each saying the phases passed; every car moved once.
    assert table.play.log_dock.model.rowCount() == events + keys.count - 1
    assert all(mini_sheet(game.sheet(v.key)).phases_used >= eventful[-1]
               for v in game.vehicles)


def _smoke_left(table: TableWorkspace) -> list[str]:
    """The smoke clouds on the Mini Sherman's sheet (v4), each as "N turns left"."""
    return re.findall(r"smoke cloud behind Mini Sherman \(laid Turn \d+, phase 1\): "
                      r"(\d+ turns left)", table.play.sheets["v4"].durations_text())


def _next_turn(table: TableWorkspace, keys: Keys, qtbot: Any) -> None:
    """Ctrl+J to the end of the turn (nobody moves at 0 mph), then Start turn."""
    game = table.context.service.game
    clock = table.play.clock
    assert game is not None and isinstance(clock, MiniClockPanel)
    turn = game.clock.turn
    keys.press("Ctrl+J")
    keys.press("Ctrl+J")
    clock.start_button.click()
    qtbot.waitUntil(lambda: game.clock.turn == turn + 1)
    table.focus_default()


def test_keys_mini_car_wars_smokescreen_asks_only_its_weapon_on_every_path(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """§2.13 (MCW-A4, MCW-D16): a smokescreen has no to-hit roll and aims at no one. The
    dialog asks its weapon and nothing more (3 keys into the batch), the quick line reads
    ``4 smoke``, the Resolver greys out what it does not use; each cloud lasts 60 turns on
    the sheet, counting down."""
    from carwars_desktop.gui.resolver_workspace import ResolverWorkspace

    table = _start(window, start_session, "mini_car_wars", MCW_FOUR)
    game = table.context.service.game
    assert game is not None
    keys = Keys(qtbot)
    keys.press("F4")  # the Mini Sherman fires
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    keys.press("3")  # its smokescreen: no target, range or side to type
    form = dialog.form
    assert keys.focused() is dialog.dice_edit and dialog.unchosen == set()
    assert [name for name in ("target", "range", "side", "smoke", "hold_damage")
            if form.editors[name].isEnabled()] == []
    assert form.editors["weapon"].isEnabled() and form.editors["person"].isEnabled()
    assert dialog.odds_label.text() == "smokescreen: no to-hit roll, a cloud is placed"
    assert dialog.dice_hint.text() == "No dice: press Enter to resolve."
    keys.press("Ctrl+Enter")  # into the phase's batch
    assert not dialog.isVisible() and dialog.error.text() == ""
    assert keys.count == len(MCW_SMOKE) == 3, keys.count
    batch = table.keys.batch
    assert batch is not None and [s.bindings for s in batch.shots] == [{"firer": "v4"}]
    assert batch.shots[0].label == "Mini Sherman (3)"
    keys.press("b", "Ctrl+Enter")  # the phase's fire, one event
    qtbot.waitUntil(lambda: not batch.shots)
    assert _last_summary(table) == "fire batch of 1: 1. smoke cloud placed behind Mini Sherman"
    assert _smoke_left(table) == ["60 turns left"]
    _next_turn(table, keys, qtbot)
    assert _smoke_left(table) == ["59 turns left"]

    # The quick line: the weapon alone, declared into the batch at once (no dice to type).
    keys.press("Q", *"4smoke", "Enter")
    assert not table.quick.isVisible(), table.quick.info.text()
    assert [s.bindings for s in batch.shots] == [{"firer": "v4"}]
    keys.press("b", "Ctrl+Enter")
    qtbot.waitUntil(lambda: not batch.shots)
    assert _smoke_left(table) == ["59 turns left", "60 turns left"]
    keys.press("Q", *"4mg", "Enter")  # an MG still needs its target
    assert table.quick.info.text() == "⚠ name the target by its number next"
    keys.press("Esc")
    _next_turn(table, keys, qtbot)
    assert _smoke_left(table) == ["58 turns left", "59 turns left"]

    # The Resolver at the Table: the fields the smokescreen does not use are greyed out.
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    qtbot.waitUntil(resolver.isVisible)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "v4")
    resolver.form.set_value("weapon", "3")
    assert [name for name in ("target", "range", "side")
            if resolver.form.editors[name].isEnabled()] == []
    assert resolver.form.editors["range"].toolTip() == "not used by this move"
    resolver.resolve_entered()
    resolver.apply()
    assert _smoke_left(table) == ["58 turns left", "59 turns left", "60 turns left"]
    resolver.form.set_value("weapon", "1")  # an MG again: its fields come back
    assert all(resolver.form.editors[name].isEnabled() for name in ("target", "range", "side"))


def test_keys_battlecars_fire_four_cars(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
    from carwars_desktop.rules import find_ruleset

    card = next(iter(find_ruleset("battlecars").catalog()))
    table = _start(window, start_session, "battlecars",
                   [("Ann", card, "Interceptor"), ("Bo", card, "Wasp"),
                    ("Cy", card, "Hornet"), ("Di", card, "Viper")])
    clock = table.play.clock
    assert isinstance(clock, BattlecarsClockPanel)
    for row in clock.speed_rows.values():
        row.speed.setValue(3)
    clock.reveal_speeds()
    game = table.context.service.game
    assert game is not None and str(game.clock) == "Round 1, Interceptor's turn"
    table.focus_default()
    before = game.sheet("v2").to_json()
    keys = Keys(qtbot)
    keys.press("F1")
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert keys.focused() is dialog.form.editors["target"]  # the same first field as of two
    keys.press("2", "f")  # the Wasp's front
    assert dialog.form.bindings()["target"] == "v2"
    assert dialog.form.values()["area"] == "front"
    keys.press("Enter")
    assert keys.focused() is dialog.dice_edit
    keys.type("7611")
    keys.press("Ctrl+Enter")
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert keys.count == len(BC_SHOT) <= 9, keys.count
    assert game.sheet("v2").to_json() != before
    assert "Wasp" in _last_summary(table)
    # An area of two letters: the first leaves the choice open, the second makes it.
    keys.press("F1", "3", "l")
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog)
    assert keys.focused() is dialog.form.editors["area"]
    keys.press("f")
    assert dialog.form.values()["area"] == "left-front"
    assert keys.focused() is dialog.dice_edit
    dialog.reject()


def test_keys_autopower_attack_four_cars(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    from carwars_desktop.rules.autopower.sheet import CarSheet

    table = _start(window, start_session, "autopower",
                   [("Bo", "Rhino"), ("Ann", "Longshot"), ("Cy", "Rhino", "Rhino II"),
                    ("Di", "Longshot", "Longshot II")])
    game = table.context.service.game
    assert game is not None
    keys = Keys(qtbot)
    _to_phase(table, keys, "Longshot: combat")  # its own Combat phase (§2.3 step 4)
    keys.press("F2")  # Longshot attacks
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert keys.focused() is dialog.form.editors["target"]
    keys.press("1")  # the Rhino: on to the cards
    assert keys.focused() is dialog.form.editors["cards"]
    keys.press("4", "Enter")
    keys.type("65")
    keys.press("Ctrl+Enter")
    assert dialog.error.text() == ""
    assert not dialog.isVisible()
    assert keys.count == len(AP_ATTACK) <= 9, keys.count
    rhino = game.sheet("v1")
    assert isinstance(rhino, CarSheet) and rhino.total_damage == 4
    assert "Rhino" in _last_summary(table)


def test_keys_autopower_attack_outside_its_own_combat_phase_is_refused(  # type: ignore[no-untyped-def]
        window: MainWindow, start_session, qtbot) -> None:
    """AUTOpower §2.3 step 4: a car makes at most one attack a turn, in its own Combat
    phase. Before it (another car's phase, or its own Accelerate) the dialog and the quick
    line refuse the attack with the reason and the rule, ask for no dice and log nothing;
    in its Combat phase it is made, and a second attack that turn is refused."""
    from ..evening.harness import stored

    table = _start(window, start_session, "autopower",
                   [("Bo", "Rhino"), ("Ann", "Longshot"), ("Cy", "Rhino", "Rhino II"),
                    ("Di", "Longshot", "Longshot II")])
    game = table.context.service.game
    session = table.context.service.session_id
    assert game is not None and session is not None
    assert game.clock.phase_name == "Longshot: draw"  # the fastest car's turn first
    keys = Keys(qtbot)
    before = stored(window, session)
    events = table.play.log_dock.model.rowCount()
    reason = ("Longshot attacks only in its own Combat phase: it is Longshot's draw phase "
              "(AUTOpower §2.3 step 4)")
    keys.press("F2")  # Longshot would attack, in its Draw phase
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    keys.press("1", "4", "Enter")
    assert dialog.odds_label.text() == f"not allowed: {reason}"
    assert dialog.dice_hint.text() == "No dice: the rules refuse it as it stands."
    keys.type("65")
    keys.press("Ctrl+Enter")
    assert dialog.isVisible() and dialog.pending is None
    assert dialog.error.text() == f"⚠ not allowed: {reason}: nothing was resolved."
    keys.press("Esc")
    qtbot.waitUntil(lambda: not dialog.isVisible())
    table.quick.open()
    table.quick.read("2 at 1 4 : 65")  # the quick line: the same refusal, before any die
    assert table.quick.pending is None and table.quick.info.text() == f"⚠ {reason}"
    table.quick.read("3 at 1 4 : 65")  # another car, in Longshot's turn
    assert table.quick.info.text() == ("⚠ Rhino II attacks only in its own Combat phase: "
                                       "it is Longshot's draw phase (AUTOpower §2.3 step 4)")
    table.quick.close_line()
    _to_phase(table, keys, "Longshot: accelerate")  # its own turn, but not its Combat
    table.quick.open()
    table.quick.read("2 at 1 4 : 65")
    assert table.quick.info.text() == ("⚠ Longshot attacks only in its own Combat phase: "
                                       "it is Longshot's accelerate phase (AUTOpower §2.3 "
                                       "step 4)")
    table.quick.close_line()
    after = stored(window, session)
    assert after.resolutions == before.resolutions and after.dice == before.dice
    assert after.sheets == before.sheets
    # (the clock's moves are its own events; no attack is among them)
    assert all("attack" not in table.play.log_dock.model.event_at(row).event.summary
               for row in range(events, table.play.log_dock.model.rowCount()))

    _to_phase(table, keys, "Longshot: combat")
    keys.press(*AP_ATTACK)  # in its Combat phase: made
    assert keys.count == len(AP_ATTACK) == 7, keys.count
    assert "Rhino" in _last_summary(table)
    keys.press("F2", "1", "4", "Enter")  # a second attack this turn: refused
    dialog = table.hub.runner.dialog
    assert isinstance(dialog, ProcedureDialog) and dialog.isVisible()
    assert dialog.error.text().startswith(  # (the engine's refusal: no odds, no dice)
        "⚠ not allowed: Longshot has made this turn's one attack (§2.3 step 4)")
    assert dialog.odds_label.text() == dialog.dice_hint.text() == ""
    dialog.reject()


def test_keys_the_guide_quotes_the_sequences_typed() -> None:
    from pathlib import Path

    guide = (Path(__file__).parents[3] / "docs" / "user-guide.md").read_text(encoding="utf-8")
    typed = (MCW_SHOT, MCW_REPEAT, MCW_QUICK_ALONE, BC_SHOT, AP_ATTACK, MCW_SMOKE)
    for sequence in typed:
        assert _sequence_text(sequence) in guide, _sequence_text(sequence)
    assert "`Q` `1mg2f5:543` `Enter`" in guide
    # Both ways: every sequence the guide's list shows is one these tests type.
    listed = guide.split("The key sequences below", 1)[1].split("**The clock by keyboard", 1)[0]
    runs = [tuple(re.findall(r"`([^`]+)`", run))
            for run in re.findall(r"`[^`\n]+`(?:\s+`[^`\n]+`){2,}", listed)]
    assert set(runs) == set(typed) - {MCW_QUICK_ALONE}, runs  # (the quick line's below)
