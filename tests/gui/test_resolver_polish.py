"""The Resolver's manners: a stale result goes, the firer can act, the last procedure stays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.vehicle_order import acting_order
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.mini_car_wars.play import marks as mini_marks
from carwars_desktop.session import Clock, Game, VehicleInPlay
from carwars_desktop.storage import NewVehicle


def _resolver(window: MainWindow) -> ResolverWorkspace:
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    return resolver


def _start_game(window: MainWindow, ruleset_id: str, names: list[str], phase: int = 0) -> Game:
    """A running session with catalog vehicles named "Car 1", "Car 2"…, at ``phase``."""
    assert window.database is not None
    ruleset = find_ruleset(ruleset_id)
    catalog = ruleset.catalog()
    vehicles = []
    for n, name in enumerate(names, start=1):
        design = catalog[name].to_json()
        design["name"] = f"Car {n}"
        vehicles.append(VehicleInPlay(f"v{n}", design["name"], f"Player {n}", design))
    sheets = {v.key: ruleset.sheet_for_design(ruleset.design_from_json(v.design))
              for v in vehicles}
    start = Clock.start(ruleset_id, [v.name for v in vehicles])
    clock = Clock(start.turn, phase, start.phases, start.word)
    sessions = window.database.game_sessions
    session_id = sessions.create(ruleset_id, "Test night", "", [
        NewVehicle(v, sheets[v.key].to_json()) for v in vehicles], clock.to_json())
    game = Game(ruleset, vehicles, sheets, clock, sessions.events(session_id))
    window.game_context.service.show(game, session_id)
    return game


def _fire(resolver: ResolverWorkspace) -> None:
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "L")
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    assert resolver.resolution is not None
    assert resolver.result_view.toPlainText()


def test_another_procedure_clears_a_pending_result(window: MainWindow) -> None:
    _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    _fire(resolver)
    resolver.select_procedure("mini.collision")
    assert resolver.resolution is None
    assert resolver.result_view.toPlainText() == ""
    assert window.database is not None
    logged = window.database.game_sessions.resolutions(window.game_context.service.session_id or 0)
    assert [(procedure, applied) for procedure, _, _, applied in logged] == [("mini.fire", False)]


def test_another_procedure_clears_an_applied_result(window: MainWindow) -> None:
    _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    _fire(resolver)
    resolver.apply()
    # The applied event redraws the form with the same inputs: the result stays to be read.
    assert resolver.result_view.toPlainText()
    assert resolver.status_label.text().startswith("Applied")
    resolver.select_procedure("mini.collision")
    assert resolver.result_view.toPlainText() == ""
    assert resolver.status_label.text() == ""


def test_an_input_change_clears_the_result(window: MainWindow) -> None:
    _start_game(window, "mini_car_wars", ["Courier (b)", "Courier"])
    resolver = _resolver(window)
    _fire(resolver)
    resolver.form.set_value("range", "7")
    assert resolver.resolution is None
    assert resolver.result_view.toPlainText() == ""
    assert not resolver.apply_button.isEnabled()


def test_the_default_firer_can_act(window: MainWindow) -> None:
    game = _start_game(window, "mini_car_wars", ["Courier (b)", "Courier", "Killer Kart"])
    killed = mini_marks.set_crew(game.sheet("v1"), "driver", 3)
    window.game_context.service.announce(game.mark("v1", killed.sheet, killed.summary))
    assert acting_order(game) == ["v2", "v3", "v1"]
    resolver = _resolver(window)
    resolver.select_procedure("mini.fire")
    assert resolver.form.bindings() == {"firer": "v2", "target": "v3"}


def test_the_default_firer_is_the_one_whose_turn_it_is(window: MainWindow) -> None:
    card = "TEST-1 (example card, not official)"
    game = _start_game(window, "battlecars", [card, card, card], phase=2)
    assert game.clock.phase_name == "Car 2's turn"
    assert acting_order(game) == ["v2", "v3", "v1"]
    window.set_ruleset("battlecars")
    resolver = _resolver(window)
    resolver.select_procedure("battlecars.fire")
    bindings = resolver.form.bindings()
    assert bindings["firer"] == "v2" and bindings["target"] == "v3"


def test_longer_names_are_not_taken_for_shorter(window: MainWindow) -> None:
    names = ["Booster Gold"] * 10
    game = _start_game(window, "autopower", names, phase=9 * 4)
    assert game.clock.phase_name == "Car 10: draw"
    assert acting_order(game)[:2] == ["v10", "v1"]


@pytest.fixture
def remembering(tmp_path: Path) -> Iterator[QSettings]:
    """One settings file shared by two windows opened in turn (a restart)."""
    yield QSettings(str(tmp_path / "remembered.ini"), QSettings.Format.IniFormat)


def _open(qtbot, settings: QSettings, sqlite_url: str) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    return window


def test_the_last_procedure_of_each_ruleset_is_remembered(qtbot, remembering: QSettings,  # type: ignore[no-untyped-def]
                                                          sqlite_url: str) -> None:
    window = _open(qtbot, remembering, sqlite_url)
    resolver = _resolver(window)
    first = resolver.procedure
    assert first is not None and first.id != "mini.collision"
    resolver.select_procedure("mini.collision")
    window.set_ruleset("battlecars")
    resolver.select_procedure("battlecars.ram")
    window.set_ruleset("mini_car_wars")
    assert resolver.procedure is not None and resolver.procedure.id == "mini.collision"
    window.shutdown()
    again = _open(qtbot, QSettings(remembering.fileName(), QSettings.Format.IniFormat),
                  sqlite_url)
    try:
        resolver = _resolver(again)
        assert resolver.procedure is not None and resolver.procedure.id == "mini.collision"
        again.set_ruleset("battlecars")
        assert resolver.procedure is not None and resolver.procedure.id == "battlecars.ram"
    finally:
        again.shutdown()


def test_a_resolver_without_settings_remembers_nothing(window: MainWindow) -> None:
    resolver = ResolverWorkspace(window.game_context, QWidget())
    assert resolver._remembered_procedure() is None
