"""The Resolver: forms from declarations, exact odds before the dice, apply to a session."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.reference_model import ProcedureListModel, ReferenceTableModel
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.rules import all_procedures, find_procedure, find_ruleset
from carwars_desktop.session import Clock, Game, VehicleInPlay
from carwars_desktop.storage import NewVehicle


def _resolver(window: MainWindow) -> ResolverWorkspace:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    return resolver


def _start_game(window: MainWindow, ruleset_id: str, names: list[str]) -> Game:
    """A running session with catalog vehicles, opened in the window's game context.

    A name may repeat (two copies of one card): each vehicle in play is its own copy,
    named apart ("… #2") as the rules need to tell firer from target.
    """
    assert window.database is not None
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    vehicles = []
    for n, name in enumerate(names, start=1):
        design = catalog[name].to_json()
        if names.count(name) > 1:
            design["name"] = f"{name} #{n}"
        vehicles.append(VehicleInPlay(f"v{n}", design["name"], f"Player {n}", design))
    sheets = {v.key: ruleset.sheet_for_design(ruleset.design_from_json(v.design))
              for v in vehicles}
    clock = Clock.start(ruleset_id, names)
    sessions = window.database.game_sessions
    session_id = sessions.create(ruleset_id, "Test night", "", [
        NewVehicle(v, sheets[v.key].to_json()) for v in vehicles], clock.to_json())
    game = Game(ruleset, vehicles, sheets, clock, sessions.events(session_id))
    window.game_context.service.show(game, session_id)
    return game


def test_procedures_of_the_ruleset_listed(window: MainWindow, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    resolver = _resolver(window)
    model = resolver.procedure_model
    assert isinstance(model, ProcedureListModel)
    titles = [model.index(r, 0).data() for r in range(model.rowCount())]
    assert titles == [p.title for p in all_procedures("mini_car_wars")]
    qtmodeltester.check(model)
    window.set_ruleset("autopower")
    assert model.procedure(model.rowCount() - 1).ruleset == "autopower"
    assert resolver.procedure is not None and resolver.procedure.ruleset == "autopower"


def test_reference_tables(window: MainWindow, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    resolver = _resolver(window)
    tables = find_ruleset("mini_car_wars").tables
    assert resolver.reference_choice.count() == len(tables)
    model = resolver.reference_model
    assert isinstance(model, ReferenceTableModel)
    assert model.rowCount() == len(tables[0].rows)
    assert model.headerData(0, Qt.Orientation.Horizontal) == tables[0].columns[0]
    qtmodeltester.check(model)


def test_odds_shown_match_the_engine(window: MainWindow) -> None:
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "Courier (b)")
    resolver.form.set_value("target", "Courier")
    resolver.form.set_value("side", "L")
    resolver.form.set_value("range", "5")
    procedure = find_procedure("mini.fire")
    expected = procedure.odds(procedure.bind(resolver.form.values()))
    assert resolver.need_label.text() == expected.summary
    assert "need 5+" in expected.summary
    rows = resolver.outcome_table.rowCount()
    assert rows == len(expected.outcomes)
    assert resolver.modifier_table.rowCount() == len(expected.modifiers)
    assert resolver.modifier_table.item(0, 1).text() == f"{expected.modifiers[0].value:+d}"
    assert "2d6 to hit" in resolver.dice_hint.text()
    assert resolver.chart.bars  # the distribution is drawn
    resolver.form.set_value("range", "")  # not valid: no chart, not the last one kept
    assert resolver.need_label.text() == "" and resolver.chart.bars == []


def test_bad_dice_refused_and_kept(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    qtbot.keyClicks(resolver.dice_edit, "6 7")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert "cannot show 7" in resolver.dice_error.text()
    assert resolver.dice_edit.text() == "6 7"
    assert resolver.resolution is None


def test_without_a_session_results_cannot_be_applied(window: MainWindow) -> None:
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "Courier (b)")
    resolver.form.set_value("target", "Courier")
    resolver.form.set_value("side", "L")
    resolver.dice_edit.setText("4 4 5 6 6 1")
    resolver.resolve_entered()
    assert "1 typed die was not needed: 1" in resolver.dice_error.text()
    assert resolver.resolution is None
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    assert resolver.resolution is not None
    assert not resolver.apply_button.isEnabled()
    assert "Start or resume a session" in resolver.status_label.text()
    resolver.discard()
    assert window.database is not None
    assert window.database.game_sessions.resolutions(0) == []


def test_apply_to_a_running_session_and_undo(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    game = _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    form = resolver.form
    assert form.bindings() == {"firer": "v1", "target": "v2"}
    form.set_value("side", "L")
    form.set_value("range", "5")
    before = game.sheet("v2")
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    assert resolver.resolution is not None
    assert "17" in resolver.resolution.outcome
    assert resolver.apply_button.isEnabled()
    expected = next(e.sheet for e in resolver.resolution.effects if e.input_name == "target")
    changes: list[object] = []
    window.game_context.changed.connect(changes.append)
    qtbot.mouseClick(resolver.apply_button, Qt.MouseButton.LeftButton)
    assert len(changes) == 1
    after = game.sheet("v2")
    assert after != before
    assert after == expected
    assert window.database is not None
    logged = window.database.game_sessions.resolutions(window.game_context.service.session_id or 0)
    assert logged == [("mini.fire", True, "5/6", True)]
    window.game_context.service.undo()
    assert game.sheet("v2") == before


def test_keyboard_only_path(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    game = _start_game(window, "autopower", ["Booster Gold", "Two Face"])
    service = window.game_context.service
    while game.clock.phase_name != "Booster Gold: combat":  # its own Combat phase (§2.3)
        service.set_clock(game.clock.advanced(), "on")
    window.set_ruleset("autopower")
    resolver = _resolver(window)
    window.activateWindow()
    resolver.search.setFocus()
    qtbot.keyClick(resolver.search, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(resolver.search, "attack fighting")
    qtbot.keyClick(resolver.search, Qt.Key.Key_Return)
    assert resolver.procedure is not None and resolver.procedure.id == "autopower.attack"
    qtbot.waitUntil(lambda: QApplication.focusWidget() is resolver.form.editors["firer"])
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)  # target
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)  # the Fighting cards
    assert QApplication.focusWidget() is resolver.form.editors["cards"]
    qtbot.keyClicks(QApplication.focusWidget(), "5,4")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is resolver.dice_edit
    qtbot.keyClicks(resolver.dice_edit, "5 4")
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.resolution is not None, resolver.dice_error.text()
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert resolver.resolution is None
    assert game.can_undo()
    assert game.store.last_active() is not None


def test_an_attack_outside_its_cars_combat_phase_is_refused_before_the_dice(  # type: ignore[no-untyped-def]
        window: MainWindow, qtbot) -> None:
    """AUTOpower §2.3 step 4 at the Resolver bound to a session: the refusal in place of the
    odds, no dice asked, nothing resolved or logged."""
    game = _start_game(window, "autopower", ["Booster Gold", "Two Face"])
    assert game.clock.phase_name == "Booster Gold: draw"
    window.set_ruleset("autopower")
    resolver = _resolver(window)
    resolver.select_procedure("autopower.attack")
    resolver.form.set_value("cards", "5, 4")
    reason = ("Booster Gold attacks only in its own Combat phase: it is Booster Gold's draw "
              "phase (AUTOpower §2.3 step 4)")
    assert resolver.need_label.text() == f"not allowed: {reason}"
    assert resolver.dice_hint.text() == "No dice: the rules refuse it as it stands."
    resolver.dice_edit.setText("5 4")
    resolver.resolve_entered()
    assert resolver.resolution is None and reason in resolver.dice_error.text()
    assert game.store.last_active() is None


def test_battlecars_fire_applied_and_undone(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    card = "TEST-1 (example card, not official)"
    game = _start_game(window, "battlecars", [card, card])
    window.set_ruleset("battlecars")
    resolver = _resolver(window)
    resolver.select_procedure("battlecars.fire")
    form = resolver.form
    assert form.bindings()["firer"] == "v1" and form.bindings()["target"] == "v2"
    form.set_value("mount", "Pod A")
    form.set_value("weapon", "rocket")
    form.set_value("area", "front")
    form.set_value("points_between", 3)
    procedure = find_procedure("battlecars.fire")
    assert resolver.need_label.text() == procedure.odds(procedure.bind(form.values())).summary
    before = game.sheet("v2")
    resolver.dice_edit.setText("4 3 6 8 2 1 8")
    resolver.resolve_entered()
    assert resolver.resolution is not None, resolver.dice_error.text()
    assert resolver.resolution.outcome.startswith("hit")
    qtbot.mouseClick(resolver.apply_button, Qt.MouseButton.LeftButton)
    assert game.sheet("v2") != before
    window.game_context.service.undo()
    assert game.sheet("v2") == before


def test_same_vehicle_twice_is_flagged(window: MainWindow) -> None:
    _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("target", "v1")
    assert "firer and target are the same vehicle" in resolver.form_error.text()
    resolver.dice_edit.setText("6 6 6 6 6")
    resolver.resolve_entered()
    assert resolver.resolution is None
    assert "Fix the form first" in resolver.dice_error.text()


def test_a_pending_result_is_logged_when_the_sheets_change(window: MainWindow) -> None:
    game = _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "L")
    resolver.form.set_value("range", "5")
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    assert resolver.resolution is not None
    marked = find_ruleset("mini_car_wars").sheet_from_json(game.sheet("v2").to_json())
    window.game_context.service.announce(game.mark("v2", marked, "a mark at the Table"))
    assert resolver.resolution is None
    assert window.database is not None
    logged = window.database.game_sessions.resolutions(window.game_context.service.session_id or 0)
    assert logged == [("mini.fire", True, "5/6", False)]


def test_a_table_dialog_preset_keeps_the_other_vehicle_apart(window: MainWindow,
                                                             qtbot) -> None:  # type: ignore[no-untyped-def]
    from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog

    game = _start_game(window, "autopower", ["Longshot", "Bishop"])
    dialog = ProcedureDialog(find_procedure("autopower.attack"), game, {"firer": "v2"})
    qtbot.addWidget(dialog)
    assert dialog.form.bindings() == {"firer": "v2", "target": "v1"}
    dialog.form.set_value("target", "v2")
    dialog.refresh()
    assert "firer and target are the same vehicle" in dialog.error.text()


def test_enter_again_keeps_the_result(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "L")
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    pending = resolver.resolution
    assert pending is not None
    qtbot.keyClick(resolver.dice_edit, Qt.Key.Key_Return)
    assert resolver.resolution is pending
    assert "Ctrl+Enter applies it" in resolver.status_label.text()


def test_weapons_listed_from_the_firers_sheet(window: MainWindow) -> None:
    from PySide6.QtWidgets import QComboBox

    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("firer", "Killer Kart")
    weapons = resolver.form.editors["weapon"]
    assert isinstance(weapons, QComboBox)
    assert [weapons.itemText(i) for i in range(weapons.count())] == ["1: MG (F)"]
    resolver.form.set_value("firer", "Courier")
    assert [weapons.itemData(i) for i in range(weapons.count())] == ["1", "2", "3", "4"]
    assert weapons.itemText(0) == "1: RL (F)"
    resolver.form.set_value("weapon", "3")
    assert resolver.form.values()["weapon"] == "3"
    window.set_ruleset("battlecars")
    resolver.select_procedure("battlecars.fire")
    mounts = resolver.form.editors["mount"]
    assert isinstance(mounts, QComboBox)
    labels = [mounts.itemText(i) for i in range(mounts.count())]
    assert labels[0] == "—" and any(label.startswith("Pod A (rocket") for label in labels)
