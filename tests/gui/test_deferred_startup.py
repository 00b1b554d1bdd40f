"""Start-up puts off what the first screen does not need: the hidden workspaces' heavy
parts, and (on every start but the first) checking the catalog against the rules."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import WORKSPACE_TITLES, MainWindow
from carwars_desktop.gui.resolver_workspace import ResolverWorkspace
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.library import kinds_of
from carwars_desktop.rules import ruleset_ids
from carwars_desktop.storage import open_database
from carwars_desktop.storage.models import DesignRow


def _window(qtbot, url: str, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    """A window on ``url``, finish_startup as the app's own start does it."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup(defer_hidden=True)
    return window


def test_hidden_workspaces_load_after_the_first_screen(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, sqlite_url, tmp_path)
    # The first screen needs the Library, the Workshop and the Table only; the others
    # are built on later turns (or here at once, as switching to one does).
    assert [w.title for w in window.workspaces] == ["Library", "Workshop", "Table"]
    window.build_workspaces()
    resolver = next(w for w in window.workspaces if isinstance(w, ResolverWorkspace))
    dice = next(w for w in window.workspaces if isinstance(w, DiceWorkspace))
    assert not dice._loaded and resolver.procedure_model.rowCount() == 0
    qtbot.waitUntil(lambda: dice._loaded and resolver.procedure_model.rowCount() > 0)
    window.shutdown()


def test_every_design_kinds_editor_is_built_after_start_up(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Opening the first design of a kind costs no more than the next one: its editor
    was built on an idle turn, the current ruleset's first."""
    window = _window(qtbot, sqlite_url, tmp_path)
    workshop = window.workshop
    expected = {(r, kind.kind) for r in ruleset_ids() for kind in kinds_of(r)}
    assert len(expected) >= 4
    qtbot.waitUntil(lambda: set(workshop._editors) == expected)
    first = workshop.editor_stack.indexOf(workshop._editors[(window.ruleset(), "vehicle")])
    assert all(workshop.editor_stack.indexOf(e) >= first for e in workshop._editors.values())
    design = next(e for e in window.database.library.entries() if e.ruleset_id == "battlecars")
    editor = workshop._editors[("battlecars", "vehicle")]
    assert workshop.open_design(design.id) and workshop.editor is editor
    window.shutdown()


def test_hidden_workspaces_are_built_after_start_up_or_when_shown(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = _window(qtbot, sqlite_url, tmp_path)
    assert len(window.workspaces) == 3
    qtbot.waitUntil(lambda: len(window.workspaces) == len(WORKSPACE_TITLES))
    dice = window.workspaces[4]
    assert isinstance(dice, DiceWorkspace) and dice.isVisible() is False
    qtbot.waitUntil(lambda: dice._loaded)
    again = _window(qtbot, sqlite_url, tmp_path / "again")
    assert len(again.workspaces) == 2  # its list read from the file: the Table comes later
    again._rail.setCurrentRow(4)  # Ctrl+5 at once: the Dice alone are built and shown
    shown = again.current_workspace()
    assert isinstance(shown, DiceWorkspace) and again._stack.currentWidget() is shown
    assert again.workspace_at(4) is shown and [w.title for w in again.workspaces] == [
        "Library", "Workshop"]  # the Table and the Resolver above it come on later turns
    assert not shown._loaded  # its heavy parts on the next turn
    qtbot.waitUntil(lambda: shown._loaded)
    qtbot.waitUntil(lambda: len(again.workspaces) == len(WORKSPACE_TITLES))
    assert again.workspaces[4] is shown and again.workspaces[3].title == "Resolver"
    assert again._stack.currentWidget() is shown and again._rail.currentRow() == 4
    window.shutdown()
    again.shutdown()


def test_an_installed_catalog_is_checked_after_start_up(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with open_database(sqlite_url) as database:
        assert database.library.install_catalog() > 0
        with database.sessions.begin() as session:  # as an older version wrote it
            row = session.scalars(select(DesignRow)
                                  .where(DesignRow.catalog_name == "Courier")).one()
            row.data = json.dumps(json.loads(row.data), indent=1)
            row.cost = 1
    window = _window(qtbot, sqlite_url, tmp_path)
    library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))

    def courier_cost() -> object:
        return next(e.cost for e in library.model.entries()
                    if e.is_catalog and e.name == "Courier")

    qtbot.waitUntil(lambda: courier_cost() != 1)  # brought up to date, list refreshed
    window.shutdown()


def _existing(url: str) -> list[str]:
    """Make the database at ``url`` as a first start does; the names it lists."""
    with open_database(url) as database:
        database.library.install_catalog()
        return sorted(e.name for e in database.library.entries())


def _listed(window: MainWindow) -> list[str]:
    model = _library(window).model
    return sorted(e.name for e in model.entries_at(range(model.rowCount())))



def _library(window: MainWindow) -> LibraryWorkspace:
    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace)
    return library


def test_the_library_is_listed_before_the_database_is_open(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """storage/first_screen.py: an existing local file with nothing to migrate or resume
    is listed before SQLAlchemy has loaded; the database opens on a worker meanwhile."""
    listed = _existing(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    assert window.opening and window.database is None
    assert not _library(window).new_button.isEnabled()  # it needs the database
    _library(window).ruleset_box.setCurrentIndex(0)  # all rulesets
    assert _listed(window) == listed and listed
    assert [w.title for w in window.workspaces] == ["Library", "Workshop"]  # the others wait
    with qtbot.waitSignal(window.database_ready, timeout=60_000) as ready:
        pass
    assert ready.args == [True]
    assert window.database is not None and not window.opening
    assert _listed(window) == listed
    assert _library(window).new_button.isEnabled()
    qtbot.waitUntil(lambda: len(window.workspaces) == len(WORKSPACE_TITLES))
    window.shutdown()


def test_the_first_key_waits_for_the_database_then_does_its_work(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _existing(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    library = _library(window)
    assert window.opening
    library.view.setFocus()
    library.view.setCurrentIndex(library.model.index(0, 0))
    QTest.keyClick(library.view, Qt.Key.Key_Down)  # the list is not reset under it
    assert window.database is not None and not window.opening
    assert library.view.currentIndex().row() == 1
    window.shutdown()


def test_a_database_its_checks_refuse_after_the_first_screen_is_not_used(
        qtbot, sqlite_url: str, tmp_path: Path,  # type: ignore[no-untyped-def]
        capfd: pytest.CaptureFixture[str]) -> None:
    _existing(sqlite_url)
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("DROP TABLE design_revisions")
    window = _window(qtbot, sqlite_url, tmp_path)
    assert window.opening  # its list is readable: the checks come with the opening
    with qtbot.waitSignal(window.database_ready, timeout=60_000) as ready:
        pass
    assert ready.args == [False] and window.database is None
    assert "design_revisions" in capfd.readouterr().err
    window.shutdown()


def _game_running(url: str) -> int:
    """A database as a first start makes it, with a Mini Car Wars game running in it."""
    from carwars_desktop.rules.registry import find_ruleset
    from carwars_desktop.services.table import TableService
    from carwars_desktop.session.setup import Entry, prepare

    ruleset = find_ruleset("mini_car_wars")
    catalog = ruleset.catalog()
    setup = prepare(ruleset, [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                              Entry("Bo", "Killer Kart", catalog["Killer Kart"].to_json())],
                    "road_duel")
    with open_database(url) as database:
        database.library.install_catalog()
        return TableService(database=database).start("mini_car_wars", "Club night",
                                                      "Road Duel", setup)


def test_a_running_game_is_shown_before_the_database_is_open(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """storage/first_screen.py: the game start-up resumes is shown from the file, its
    Table alone built; once the database is open the same sheets go on, under a lease."""
    session_id = _game_running(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    table = window.table
    assert window.opening and window.database is None and window.workspaces == []
    assert window._stack.currentWidget() is table and window._rail.currentRow() == 2
    assert table.pages.currentWidget() is table.play and table.session_id == session_id
    shown = table.play.game
    sheets = dict(table.play.sheets)
    assert shown is not None and [s.vehicle.name for s in sheets.values()] == [
        "Courier", "Killer Kart"]
    assert "Club night — Road Duel" in table.play.title.text()
    assert window.services.table.game is None  # nothing can be written before it is open
    with qtbot.waitSignal(window.database_ready, timeout=60_000) as ready:
        pass
    assert ready.args == [True]
    assert window.workspaces == []  # the others come on later turns (tests/gui/test_ready_turns.py)
    assert window._stack.currentWidget() is table and window._rail.currentRow() == 2
    qtbot.waitUntil(lambda: [w.title for w in window.workspaces][:3] == [
        "Library", "Workshop", "Table"])
    assert window._stack.currentWidget() is table and window._rail.currentRow() == 2
    assert window.services.table.game is shown and not window.services.table.read_only
    assert table.play.sheets == sheets and table.lease is not None
    assert shown.store is not None and not hasattr(shown.store, "path")  # the database's
    # As a session opened from the database is: its fire batch, the acting vehicle chosen.
    from carwars_desktop.gui.vehicle_order import acting_order

    assert table.keys.batch is not None
    assert table.keys.selected == acting_order(shown)[0]
    window.shutdown()


def test_the_first_key_on_a_game_shown_early_waits_then_acts(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _game_running(sqlite_url)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()  # the Table's keys are the window's shortcuts
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert window.finish_startup(defer_hidden=True)
    table = window.table
    assert window.opening and QApplication.focusWidget() is table.play.grid
    sheets = dict(table.play.sheets)
    QTest.keyClick(table.play.grid, Qt.Key.Key_2)  # select the second vehicle
    assert window.database is not None and not window.opening
    assert table.keys.selected == list(sheets)[1] and table.play.sheets == sheets
    assert QApplication.focusWidget() is table.play.grid
    window.shutdown()


def test_a_game_written_meanwhile_is_shown_again_from_the_database(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Another copy wrote between the file's read and the opening: the Table shows the
    game as the database has it now, never the older sheets it read."""
    session_id = _game_running(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    shown = window.table.play.game
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE game_sessions SET version = version + 1, clock = "
                           "json_set(clock, '$.turn', 7) WHERE id = ?", (session_id,))
    with qtbot.waitSignal(window.database_ready, timeout=60_000):
        pass
    game = window.services.table.game
    assert game is not None and game is not shown and window.table.play.game is game
    assert game.clock.turn == 7
    window.shutdown()


def test_a_game_another_copy_took_meanwhile_is_not_resumed(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    session_id = _game_running(sqlite_url)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("ruleset", "battlecars")  # the GM's last choice, not the game's
    settings.sync()
    window = _window(qtbot, sqlite_url, tmp_path)
    assert window.table.play.game is not None and window.ruleset() == "mini_car_wars"
    with open_database(sqlite_url) as other:  # another copy took it just now
        lease = other.game_sessions.acquire(session_id, holder=("gm2", "LAPTOP-2"))
        with qtbot.waitSignal(window.database_ready, timeout=60_000):
            pass
        table = window.table
        assert table.pages.currentWidget() is table.sessions_page
        assert "open on LAPTOP-2 by gm2" in table.sessions_page.message.text()
        assert window.services.table.game is None and table.lease is None
        assert table.session_id is None
        assert window.ruleset() == "battlecars"  # as it was: nothing was resumed
        other.game_sessions.release(lease)
    window.shutdown()


def test_a_new_game_under_the_same_number_is_not_taken_for_the_one_shown(
        qtbot, sqlite_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Another copy deleted the game shown and started a new one meanwhile: SQLite may
    give it the same id, at the same version (none written): its own sheets are shown."""
    session_id = _game_running(sqlite_url)
    window = _window(qtbot, sqlite_url, tmp_path)
    shown = window.table.play.game
    with open_database(sqlite_url) as other:
        other.game_sessions.delete(session_id)
        from carwars_desktop.rules.registry import find_ruleset
        from carwars_desktop.services.table import TableService
        from carwars_desktop.session.setup import Entry, prepare

        ruleset = find_ruleset("mini_car_wars")
        sherman = ruleset.catalog()["Mini Sherman"].to_json()
        setup = prepare(ruleset, [Entry("Cy", "Mini Sherman", sherman),
                                  Entry("Di", "Mini Sherman", sherman)], "road_duel")
        again = TableService(database=other).start("mini_car_wars", "Rematch", "", setup)
    assert again == session_id  # the number given again
    with qtbot.waitSignal(window.database_ready, timeout=60_000):
        pass
    game = window.services.table.game
    assert game is not None and game is not shown
    assert [v.name for v in game.vehicles] == ["Mini Sherman", "Mini Sherman #2"]
    window.shutdown()
