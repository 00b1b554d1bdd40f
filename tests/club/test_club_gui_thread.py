"""Which SQL statements a club-server evening runs on the GUI thread (issue 31 §2).

A listener on every engine's ``before_cursor_execute`` records, for each statement run on
the GUI thread, the app's GUI function that led to it, while a GM drives an evening on a
club server through the widgets: the Library browsed, a design previewed, copied, opened
and saved in the Workshop, a session started at the Table, a mark made, a roll applied,
the session finished and its charts drawn.
"""

from __future__ import annotations

import collections
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from sqlalchemy import event
from sqlalchemy.engine import Engine

import carwars_desktop
from carwars_desktop.gui.main_window import MainWindow
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.gui.workshop import LibraryWorkspace, WorkshopWorkspace
from carwars_desktop.rules import find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.session.setup import Entry, prepare
from carwars_desktop.storage.club import ClubConnection

GUI = str(Path(carwars_desktop.__file__).parent / "gui")

STILL_ON_THE_GUI_THREAD = {
    # What each step still runs on the GUI thread, by calling GUI function. Start-up
    # opens the database and attaches it to each workspace in the order start-up owns;
    # the others are the writes the GM waits for
    # (an Op runs its call on the GUI thread: gui/operation.py) and the reads that show
    # what the write made (the Library's new row, the log's new line, the session just
    # opened). Each is bounded by the connection's timeouts and the stuck-call cut
    # (storage/stuck_calls.py, 20 s), and a refused one shows the banner. The preview,
    # the session list, the start page's recent designs, the Dice's recent rolls, a
    # design's opening and the charts' questions run on workers: no step lists them.
    "start-up": {
        "gui/club_connect.py:open_startup_club",  # the database opened and checked
        "gui/game_context.py:database",  # rolls left shown by a stopped run, settled
        "gui/club_link.py:attach_database",  # the server's identity (the queue's target)
        "gui/workshop/library_workspace.py:<lambda>",  # the catalog installed/checked
        "gui/workshop/library_workspace.py:_fill_rules_box",  # the house-rules profiles
        "gui/workshop/library_workspace.py:_refresh",  # the design list (shown at once)
        "gui/table/workspace.py:_reopen_last_running",  # is a session to resume?
    },
    "preview": set(),
    "copy": {
        "gui/workshop/library_workspace.py:duplicate_selected",  # the copy written
        "gui/workshop/library_workspace.py:update_rows",  # its row read for the list
    },
    "open": set(),
    "save": {
        "gui/workshop/workshop_workspace.py:_run_write",  # the revision written
        "gui/workshop/library_workspace.py:update_rows",
    },
    "start a session": {
        "gui/table/workspace.py:start_session",  # the session created
        "gui/table/workspace.py:take",  # its row read, its lease taken
        "gui/table/event_log.py:set_pages",  # the log's first page
        "gui/table/play_view.py:update_actions",  # undo/redo: is there one?
        "gui/table/keyboard.py:restore_batch",  # the batch left unapplied
    },
    "mark": {
        "gui/table/actions.py:commit",  # the event written (queued when the server is away)
        "gui/table/event_log.py:event_at",  # the new row of the log
    },
    "roll": {
        "gui/table/procedure_dialog.py:resolve",  # the roll kept in the roll log as shown
        "gui/table/procedure_runner.py:<lambda>",  # the result applied: its event written
    },
    "finish, charts": {
        "gui/table/workspace.py:<lambda>",  # the session finished (its Op)
        "gui/table/workspace.py:take",  # reopened read-only: its row read
        "gui/table/event_log.py:set_pages",
        "gui/table/event_log.py:event_at",
    },
}


def _gui_caller() -> str:
    """The innermost frame of the app's GUI code that led to the statement."""
    for frame in reversed(traceback.extract_stack()):
        if frame.filename.startswith(GUI + "/"):
            return f"gui/{frame.filename[len(GUI) + 1:]}:{frame.name}"
    return "(no GUI code)"


class Statements:
    """Statements run, by thread: the GUI thread's by calling GUI function."""

    def __init__(self) -> None:
        self.on_gui_thread: collections.Counter[str] = collections.Counter()
        self.on_workers = 0
        self.steps: dict[str, dict[str, int]] = {}

    def __call__(self, *_args: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            self.on_gui_thread[_gui_caller()] += 1
        else:
            self.on_workers += 1

    def step(self, name: str) -> None:
        """What the GUI thread ran since the last step is ``name``'s."""
        self.steps[name] = dict(self.on_gui_thread)
        self.on_gui_thread.clear()


@pytest.fixture
def statements() -> Iterator[Statements]:
    seen = Statements()
    event.listen(Engine, "before_cursor_execute", seen)
    yield seen
    event.remove(Engine, "before_cursor_execute", seen)


def test_a_club_evening_runs_only_the_listed_statements_on_the_gui_thread(
        qtbot: Any, tmp_path: Path, club: ClubConnection, club_password: str,
        statements: Statements) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    try:
        assert window.finish_startup()
        library = next(w for w in window.workspaces if isinstance(w, LibraryWorkspace))
        workshop = next(w for w in window.workspaces if isinstance(w, WorkshopWorkspace))
        window._rail.setCurrentRow(window.workspaces.index(library))
        qtbot.waitUntil(lambda: library.model.rowCount() > 1)
        statements.step("start-up")

        library.search.setText("Courier")  # browse: search as the GM types
        qtbot.waitUntil(lambda: library.model.rowCount() >= 1)
        courier = library.model.entries_at([0])[0]
        library.view.selectRow(0)
        qtbot.waitUntil(lambda: library.preview.pages > 0 and courier.name
                        in library.detail.text())
        statements.step("preview")

        library.duplicate_button.click()
        qtbot.waitUntil(lambda: "Copied into your designs" in library.message.text())
        copy = library.selected_entries()[0]
        assert copy.id != courier.id
        statements.step("copy")

        library.open_button.click()
        qtbot.waitUntil(lambda: workshop.record is not None and workshop.record.id == copy.id)
        statements.step("open")

        workshop.save()  # the Save button's call (a design opened unchanged saves anew)
        qtbot.waitUntil(lambda: "Saved" in workshop.message.text())
        statements.step("save")

        ruleset = find_ruleset(MINI_CAR_WARS.id)
        catalog = ruleset.catalog()
        entries = [Entry("Ann", "Courier", catalog["Courier"].to_json()),
                   Entry("Bo", "Killer Kart", catalog["Killer Kart"].to_json())]
        table = window.table
        window._rail.setCurrentRow(window.workspaces.index(table))
        table.start_session(ruleset.id, "Club night", "road_duel",
                            prepare(ruleset, entries, "road_duel"))
        statements.step("start a session")

        sheet = table.play.sheets["v1"]
        assert isinstance(sheet, MiniSheetWidget)
        sheet.mark_armor(Side.LEFT, 0)
        qtbot.waitUntil(lambda: table.play.log_dock.model.rowCount() == 1)
        statements.step("mark")

        table.hub.runner.run("mini.fire", {"firer": "v1", "target": "v2"})
        fire = table.hub.runner.dialog
        assert isinstance(fire, ProcedureDialog)
        fire.dice_edit.setText("6 6 3 3")
        fire.resolve_entered()
        assert fire.resolution is not None, fire.error.text()
        fire.apply()
        qtbot.waitUntil(lambda: table.play.log_dock.model.rowCount() == 2)
        statements.step("roll")

        table.finish_session(confirm=False)  # then shown read-only with its charts
        charts = table.play.charts
        qtbot.waitUntil(lambda: not charts.drawing and len(charts.plots) == 4,
                        timeout=60_000)
        statements.step("finish, charts")
    finally:
        window.shutdown()
    assert statements.on_workers > 0  # the listener hears the workers' statements too
    found = {step: set(calls) for step, calls in statements.steps.items()}
    assert found == STILL_ON_THE_GUI_THREAD, statements.steps


def test_the_session_list_is_read_on_a_worker_and_says_when_the_server_is_away(
        qtbot: Any, tmp_path: Path, club: ClubConnection, club_password: str,
        club_server: Any, statements: Statements) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(db_url_hint=club.url(club_password), interactive=False,
                        settings=settings)
    qtbot.addWidget(window)
    window.show()
    try:
        assert window.finish_startup()
        ruleset = find_ruleset(MINI_CAR_WARS.id)
        entries = [Entry("Ann", "Courier", ruleset.catalog()["Courier"].to_json())]
        table = window.table
        table.start_session(ruleset.id, "Club night", "", prepare(ruleset, entries, ""))
        statements.on_gui_thread.clear()
        table.show_sessions()
        page = table.sessions_page
        qtbot.waitUntil(lambda: page.model.rowCount() == 1)
        assert "table/workspace.py:refresh_sessions" not in " ".join(statements.on_gui_thread)
        try:
            club_server.stop()
            table.show_sessions()
            qtbot.waitUntil(lambda: "not listed" in page.message.text(), timeout=10_000)
            assert "not answering" in page.message.text()
            assert "psycopg" not in page.message.text()
            assert page.model.rowCount() == 1  # the list as last read stays
        finally:
            club_server.start_if_stopped()
    finally:
        window.shutdown()
