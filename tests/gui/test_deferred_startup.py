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
from sqlalchemy import select

from carwars_desktop.gui.dice_workspace import DiceWorkspace
from carwars_desktop.gui.main_window import MainWindow
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
    qtbot.waitUntil(lambda: len(window.workspaces) == 5)
    dice = window.workspaces[4]
    assert isinstance(dice, DiceWorkspace) and dice.isVisible() is False
    qtbot.waitUntil(lambda: dice._loaded)
    again = _window(qtbot, sqlite_url, tmp_path / "again")
    assert len(again.workspaces) == 3
    again._rail.setCurrentRow(4)  # Ctrl+5 at once: the Dice are built and shown
    assert isinstance(again.current_workspace(), DiceWorkspace)
    assert again._stack.currentWidget() is again.workspaces[4]
    assert again.workspaces[4]._loaded and again.workspaces[3].title == "Resolver"
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
    assert len(window.workspaces) == 3  # the others wait for the database
    with qtbot.waitSignal(window.database_ready, timeout=60_000) as ready:
        pass
    assert ready.args == [True]
    assert window.database is not None and not window.opening
    assert _listed(window) == listed
    assert _library(window).new_button.isEnabled()
    qtbot.waitUntil(lambda: len(window.workspaces) == 5)
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
