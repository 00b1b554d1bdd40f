"""The database turns read-only mid-evening: every workspace shows the banner with the
reason, shows nothing as done, and Retry goes through once it is writable again."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
from carwars_desktop.gui.write_banner import WriteBanner
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.autopower import Car
from carwars_desktop.session import Clock, Game, VehicleInPlay
from carwars_desktop.storage import NewVehicle

ReadOnlySwitch = Any  # tests/gui/conftest.py: read_only() and writable()

READ_ONLY = "the database is read-only"


def _shows_read_only(banner: WriteBanner) -> None:
    assert banner.isVisible()
    assert READ_ONLY in banner.label.text()
    assert "Traceback" not in banner.label.text()
    assert banner.retry_button.isVisible()


def _retry(qtbot, banner: WriteBanner) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(banner.retry_button, Qt.MouseButton.LeftButton)
    assert not banner.isVisible()


def test_dice_roll_on_a_read_only_database(window: MainWindow, switch: ReadOnlySwitch,
                                           qtbot) -> None:  # type: ignore[no-untyped-def]
    dice = next(w for w in window.workspaces if isinstance(w, DiceWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(dice))
    dice.expression_edit.setText("2d6")
    switch.read_only()
    qtbot.keyClicks(dice.dice_edit, "5 4")
    qtbot.keyClick(dice.dice_edit, Qt.Key.Key_Return)
    _shows_read_only(dice.banner)
    assert dice.history_model.rowCount() == 0
    assert "9" not in dice.result_label.text()
    assert "Not kept" in dice.dice_error.text()
    qtbot.mouseClick(dice.banner.retry_button, Qt.MouseButton.LeftButton)  # still read-only
    _shows_read_only(dice.banner)
    assert dice.history_model.rowCount() == 0
    switch.writable()
    _retry(qtbot, dice.banner)
    assert dice.history_model.rowCount() == 1
    assert window.database is not None and window.database.dice_history.count() == 1
    assert "9" in dice.result_label.text()


def _start_game(window: MainWindow) -> Game:
    assert window.database is not None
    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    vehicles = [VehicleInPlay(f"v{n}", name, f"Player {n}", catalog[name].to_json())
                for n, name in enumerate(["Courier (b)", "Courier"], start=1)]
    sheets = {v.key: ruleset.sheet_for_design(ruleset.design_from_json(v.design))
              for v in vehicles}
    clock = Clock.start("mini_car_wars", [v.name for v in vehicles])
    sessions = window.database.game_sessions
    session_id = sessions.create("mini_car_wars", "Test night", "", [
        NewVehicle(v, sheets[v.key].to_json()) for v in vehicles], clock.to_json())
    game = Game(ruleset, vehicles, sheets, clock, sessions.events(session_id))
    window.game_context.service.show(game, session_id)
    return game


def test_resolver_apply_on_a_read_only_database(window: MainWindow, switch: ReadOnlySwitch,
                                                qtbot) -> None:  # type: ignore[no-untyped-def]
    game = _start_game(window)
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(resolver))
    resolver.select_procedure("mini.fire")
    resolver.form.set_value("side", "L")
    resolver.form.set_value("range", "5")
    resolver.dice_edit.setText("4 4 5 6 6")
    resolver.resolve_entered()
    before = game.sheet("v2")
    switch.read_only()
    qtbot.mouseClick(resolver.apply_button, Qt.MouseButton.LeftButton)
    _shows_read_only(resolver.banner)
    assert game.sheet("v2") == before
    assert resolver.resolution is not None  # still pending: not shown as applied
    assert resolver.status_label.text().startswith("⚠ Not applied")
    switch.writable()
    _retry(qtbot, resolver.banner)
    assert resolver.resolution is None and game.sheet("v2") != before
    assert resolver.status_label.text().startswith("Applied")
    assert window.database is not None
    assert window.database.game_sessions.resolutions(window.game_context.service.session_id or 0) \
        == [("mini.fire", True, "5/6", True)]


def test_library_duplicate_on_a_read_only_database(window: MainWindow, switch: ReadOnlySwitch,
                                                   qtbot) -> None:  # type: ignore[no-untyped-def]
    library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
    window._rail.setCurrentRow(window.workspaces.index(library))
    assert window.database is not None
    first = window.database.library.entries()[0]
    library.select_ids([first.id])
    count = window.database.library.count()
    switch.read_only()
    assert library.duplicate_selected() is False
    _shows_read_only(library.write_banner)
    assert window.database.library.count() == count
    assert "Copied" not in library.message.text()
    switch.writable()
    _retry(qtbot, library.write_banner)
    assert window.database.library.count() == count + 1
    assert "Copied" in library.message.text() or "Duplicated" in library.message.text()


def test_workshop_edit_and_save_on_a_read_only_database(
        window: MainWindow, switch: ReadOnlySwitch, qtbot) -> None:  # type: ignore[no-untyped-def]
    workshop = next(w for w in window.workspaces if isinstance(w, WorkshopWorkspace))
    assert workshop.new_design("autopower", "vehicle")
    assert workshop.record is not None and window.database is not None
    record_id, revision = workshop.record.id, workshop.record.revision
    switch.read_only()
    edited = Car("Zoom", 7, 5, 5, 2)
    workshop._edited(edited, "Energy", "energy")
    _shows_read_only(workshop.write_banner)
    assert workshop.design != edited  # the edit is not shown as made
    switch.writable()
    _retry(qtbot, workshop.write_banner)
    assert workshop.design == edited
    assert window.database.library.get(record_id).working == edited.to_json()
    switch.read_only()
    assert workshop.save() is False
    _shows_read_only(workshop.write_banner)
    assert window.database.library.get(record_id).revision == revision
    assert "Not saved" in workshop.message.text()
    switch.writable()
    _retry(qtbot, workshop.write_banner)
    assert window.database.library.get(record_id).revision == revision + 1
    assert "Saved" in workshop.message.text()
