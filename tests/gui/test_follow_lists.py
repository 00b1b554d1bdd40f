"""The Library list, its preview and the session list follow what another connection
writes (issue 31): a second engine on the same SQLite file plays the other copy of the
app; nothing is reconnected, and the GM's selection stays where it was."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.workshop import LibraryWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.storage import Database, NewDesign, open_database

CLOCK = {"turn": 1, "phase": 0, "phases": ["phase 1"], "word": "turn"}


def _courier(name: str) -> NewDesign:
    data = find_ruleset(MINI_CAR_WARS.id).catalog()["Courier"].to_json()
    data["name"] = name
    return NewDesign(MINI_CAR_WARS.id, data)


@pytest.fixture
def elsewhere(sqlite_url: str) -> Iterator[Database]:
    """Another copy of the app on the same file: an engine of its own."""
    with open_database(sqlite_url) as database:
        yield database


def _library(window: MainWindow) -> LibraryWorkspace:
    library = window.workspaces[0]
    assert isinstance(library, LibraryWorkspace)
    return library


def _names(library: LibraryWorkspace) -> list[str]:
    model = library.model
    return [e.name for e in model.entries_at(range(model.rowCount()))]


def _quick(window: MainWindow) -> None:
    window.following.timer.setInterval(50)  # (the test need not wait 1.5 s a poll)
    window.following.timer.start()


def test_designs_written_elsewhere_appear_and_the_selection_stays(
        qtbot: Any, window: MainWindow, elsewhere: Database) -> None:
    library = _library(window)
    _quick(window)
    library.wait_for_rows()
    mine = elsewhere.library.add(_courier("Aardvark"))  # first by name: its row moves
    qtbot.waitUntil(lambda: "Aardvark" in _names(library), timeout=10_000)
    library.select_ids([mine.id])
    qtbot.waitUntil(lambda: "Aardvark" in library.detail.text())
    rows_before = library.model.rowCount()

    renamed = elsewhere.library.rename(mine.id, "Zebra")  # now the last by name
    qtbot.waitUntil(lambda: "Zebra" in _names(library), timeout=10_000)
    assert "Aardvark" not in _names(library)
    assert library.model.rowCount() == rows_before  # a row changed, none added
    assert library.selected_ids() == [mine.id]  # the GM's selection followed the design
    qtbot.waitUntil(lambda: "Zebra" in library.detail.text())  # and so did the preview
    assert f"revision {renamed.revision}" in library.detail.text()

    other = elsewhere.library.add(_courier("Mongoose"))
    qtbot.waitUntil(lambda: "Mongoose" in _names(library), timeout=10_000)
    assert library.model.rowCount() == rows_before + 1
    assert library.selected_ids() == [mine.id]

    elsewhere.library.delete(other.id)  # not the one selected: quietly gone
    qtbot.waitUntil(lambda: "Mongoose" not in _names(library), timeout=10_000)
    assert library.selected_ids() == [mine.id] and "elsewhere" not in library.message.text()

    elsewhere.library.delete(mine.id)  # the one selected: said in words
    qtbot.waitUntil(lambda: "Zebra" not in _names(library), timeout=10_000)
    assert "“Zebra” was deleted elsewhere" in library.message.text()
    assert library.selected_ids() == []
    qtbot.waitUntil(lambda: "Select a design" in library.detail.text())


def test_sessions_written_elsewhere_appear_and_the_selection_stays(
        qtbot: Any, window: MainWindow, elsewhere: Database) -> None:
    table = window.table
    table.show_sessions()
    _quick(window)
    page = table.sessions_page
    first = elsewhere.game_sessions.create(MINI_CAR_WARS.id, "Monday duel", "", [], CLOCK)
    qtbot.waitUntil(lambda: page.model.rowCount() == 1, timeout=10_000)
    page.view.selectRow(0)
    assert page.model.record(0).id == first

    second = elsewhere.game_sessions.create(MINI_CAR_WARS.id, "Friday arena", "", [], CLOCK)
    qtbot.waitUntil(lambda: page.model.rowCount() == 2, timeout=10_000)
    assert page.model.record(0).id == second  # most recently played first
    assert page.model.record(page.view.currentIndex().row()).id == first  # still selected
    assert [i.row() for i in page.view.selectionModel().selectedRows()] == [1]

    elsewhere.game_sessions.finish(first)
    qtbot.waitUntil(lambda: not page.model.record(
        page.view.currentIndex().row()).running, timeout=10_000)
    assert page.model.record(page.view.currentIndex().row()).id == first
    assert page.open_button.text() == "&Open read-only"  # the button follows too

    elsewhere.game_sessions.delete(first)
    qtbot.waitUntil(lambda: page.model.rowCount() == 1, timeout=10_000)
    assert "“Monday duel” was deleted elsewhere" in page.message.text()
    assert page.model.record(0).id == second


def test_the_watcher_closes_with_the_window(qtbot: Any, settings: Any, sqlite_url: str,
                                            elsewhere: Database) -> None:
    """Its connection of its own is closed when the window shuts down (before the
    database: SQLite folds its WAL back into the file only once the last one is gone)."""
    import sqlite3

    window = MainWindow(db_url_hint=sqlite_url, interactive=False, settings=settings)
    qtbot.addWidget(window)
    window.show()
    assert window.finish_startup()
    qtbot.waitUntil(lambda: window.following.follower is not None, timeout=10_000)
    follower = window.following.follower
    assert follower is not None
    watcher = follower.watcher
    elsewhere.library.add(_courier("Rover"))
    assert watcher.poll()  # open and seeing
    window.shutdown()
    assert window.following.follower is None and not window.following.timer.isActive()
    with pytest.raises(sqlite3.ProgrammingError):
        watcher.poll()


def test_a_command_line_import_shows_in_the_library(qtbot: Any, window: MainWindow,
                                                   tmp_path: Path) -> None:
    """``carwars-desktop design import`` run by another process on the same file."""
    library = _library(window)
    _quick(window)
    library.wait_for_rows()
    catalog = next(e for e in library.model.entries() if e.name == "Courier" and e.is_catalog)
    library.select_ids([catalog.id])
    exported = tmp_path / "courier.carwars.json"
    for arguments in (["design", "export", "Courier", "-o", str(exported)],
                      ["design", "import", str(exported)]):
        command = [sys.executable, "-m", "carwars_desktop", *arguments,
                   "--db", str(tmp_path / "carwars.sqlite3")]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False)
        assert done.returncode == 0, done.stderr

    def imported() -> list[str]:
        return [e.name for e in library.model.entries() if not e.is_catalog]

    qtbot.waitUntil(lambda: any(name.startswith("Courier") for name in imported()),
                    timeout=15_000)
    assert library.selected_ids() == [catalog.id]


def test_the_list_does_not_scroll_under_the_gm(qtbot: Any, window: MainWindow,
                                               elsewhere: Database) -> None:
    """A design added elsewhere above the rows shown leaves the same row at the top."""
    library = _library(window)
    _quick(window)
    library.wait_for_rows()
    elsewhere.library.add_many([_courier(f"Racer {n:02d}") for n in range(80)])
    qtbot.waitUntil(lambda: "Racer 79" in _names(library), timeout=10_000)
    view = library.view
    view.scrollTo(library.model.index(60, 0), view.ScrollHint.PositionAtTop)
    qtbot.waitUntil(lambda: view.indexAt(view.viewport().rect().topLeft()).row() > 0)

    def top() -> str:
        return library.model.entry(view.indexAt(view.viewport().rect().topLeft()).row()).name

    shown = top()
    elsewhere.library.add(_courier("Aardvark"))  # first by name: above every row shown
    qtbot.waitUntil(lambda: "Aardvark" in _names(library), timeout=10_000)
    assert top() == shown


def test_rows_that_cannot_be_read_are_said_and_read_with_the_next_change(
        qtbot: Any, window: MainWindow, elsewhere: Database,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    library = _library(window)
    _quick(window)
    library.wait_for_rows()
    assert window.database is not None
    mine = window.database.library

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise OperationalError("SELECT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(mine, "entries", refused)
    elsewhere.library.add(_courier("Rover"))
    qtbot.waitUntil(lambda: "could not be read" in library.message.text(), timeout=10_000)
    assert library.message.text() == (
        "⚠ Designs changed in another copy of the app could not be read (the database "
        "said: disk I/O error); the list shows them as they were read last.")
    assert "Rover" not in _names(library)
    monkeypatch.undo()
    elsewhere.library.add(_courier("Scout"))
    qtbot.waitUntil(lambda: {"Rover", "Scout"} <= set(_names(library)), timeout=10_000)


def test_hundreds_of_designs_imported_elsewhere_are_listed_whole(
        qtbot: Any, window: MainWindow, elsewhere: Database) -> None:
    """More new rows than are worth inserting one by one: the list is read again whole
    (on a worker), the selection kept."""
    from carwars_desktop.gui.workshop.library_workspace import BULK_ROWS

    library = _library(window)
    _quick(window)
    library.wait_for_rows()
    kept = library.model.entry(3).id
    library.select_ids([kept])
    installs: list[bool] = []
    library.model.modelReset.connect(lambda: installs.append(True))
    count = BULK_ROWS + 50
    elsewhere.library.add_many([_courier(f"Import {n:03d}") for n in range(count)])
    qtbot.waitUntil(lambda: sum(n.startswith("Import ") for n in _names(library)) == count,
                    timeout=15_000)
    assert installs  # one new list, not hundreds of inserted rows
    assert library.selected_ids() == [kept]
