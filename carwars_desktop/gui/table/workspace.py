"""The Table: start or resume a session, play it on live record sheets, finish it.

Sessions live in the database (``game_sessions``): opening one reads its
vehicles, current sheets and clock — never its events — so a long evening opens
at once. The last running session reopens at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from PySide6.QtWidgets import QMessageBox, QStackedWidget, QVBoxLayout, QWidget

from carwars_desktop.gui.background import Cancelled, run_with_progress
from carwars_desktop.gui.club_link import guarded
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.shortcuts import TABLE
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.new_session import NewSessionDialog
from carwars_desktop.gui.table.play_view import PlayView
from carwars_desktop.gui.table.session_list import SessionListPage
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.rules import ruleset_ids
from carwars_desktop.services import SessionOpenError
from carwars_desktop.session import Changes
from carwars_desktop.session.setup import Setup

if TYPE_CHECKING:
    from carwars_desktop.storage import Database

SYNC_CHART_EVENTS = 300
"""A finished session of at most this many events gets its charts aggregated at once
(tens of milliseconds); a longer one on a worker thread, with progress and Cancel."""


@runtime_checkable
class RulesetSwitch(Protocol):
    """The main window's ruleset switch (the Resolver follows it)."""

    def ruleset(self) -> str: ...

    def set_ruleset(self, ruleset_id: str) -> None: ...


class TableWorkspace(Workspace):
    title = "Table"
    shortcut_context = TABLE

    def __init__(self, context: GameContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.database: Database | None = None
        self._ruleset = ruleset_ids()[0]
        self.session_id: int | None = None
        self.hub = TableActions(context, self)
        self.sessions_page = SessionListPage()
        self.play = PlayView(self.hub)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.sessions_page)
        self.pages.addWidget(self.play)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)
        self.new_dialog: NewSessionDialog | None = None
        self.print_dialog: QWidget | None = None

        self.sessions_page.new_requested.connect(self.new_session)
        self.sessions_page.open_requested.connect(self.open_session)
        self.play.sessions_action.triggered.connect(self.show_sessions)
        self.play.undo_action.triggered.connect(self.undo)
        self.play.redo_action.triggered.connect(self.redo)
        self.play.finish_action.triggered.connect(lambda: self.finish_session(confirm=True))
        # The victory check's offer: the GM already said yes by pressing it.
        self.play.victory_finish.clicked.connect(lambda: self.finish_session(confirm=False))
        self.play.print_action.triggered.connect(self.print_session)
        self.context.changed.connect(self._changed)

        for action_id, slot in (("table.undo", self.undo), ("table.redo", self.redo),
                                ("table.new_session", self.new_session),
                                ("table.sessions", self.show_sessions),
                                ("table.log", self.toggle_log),
                                ("table.next_phase", self.next_phase),
                                ("table.play_phase", self.play_phase),
                                ("table.print_session", self.print_session)):
            self._shortcut(action_id, slot)

    # --- Workspace hooks ----------------------------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset = ruleset_id

    def attach_database(self, database: Database) -> None:
        self.database = database
        self.context.database = database
        self.refresh_sessions()

    # --- sessions -----------------------------------------------------------------------
    def refresh_sessions(self) -> None:
        if self.database is not None:
            self.sessions_page.set_sessions(self.database.game_sessions.all())

    def show_sessions(self) -> None:
        self.refresh_sessions()
        self.pages.setCurrentWidget(self.sessions_page)
        self.sessions_page.view.setFocus()

    def reopen_last_running(self) -> bool:
        """Open the most recently played running session, if any (at start-up)."""
        if self.database is None:
            return False
        last = self.context.service.last_running()
        if last is None:
            self.show_sessions()
            return False
        return self.open_session(last)

    def new_session(self) -> None:
        if self.database is None:
            self.sessions_page.message.setText("⚠ the database is not open yet")
            return
        dialog = NewSessionDialog(self.database, self._ruleset, self)
        dialog.accepted.connect(lambda: self._created(dialog))
        dialog.finished.connect(dialog.deleteLater)
        self.new_dialog = dialog
        dialog.open()

    def _created(self, dialog: NewSessionDialog) -> None:
        from carwars_desktop.storage import SessionDataError

        if dialog.result_setup is not None:
            try:
                self.start_session(dialog.ruleset_id(), dialog.name_edit.text().strip(),
                                   dialog.scenario_name(), dialog.result_setup)
            except SessionDataError as error:
                self.show_sessions()
                self.sessions_page.message.setText(f"⚠ the session was not started: {error}")

    def start_session(self, ruleset_id: str, name: str, scenario: str, setup: Setup) -> int:
        """Create the session (one transaction) and open it."""
        assert self.database is not None, "the database opens before the Table is used"
        session_id = self.context.service.start(ruleset_id, name, scenario, setup,
                                                initiator=self)
        self.open_session(session_id)
        return session_id

    def open_session(self, session_id: int) -> bool:
        """Resume a running session, or open a finished one read-only with its charts.

        A session the rules cannot read (a sheet from a changed engine, say) stays as it is
        in the database; the session list says why it did not open.
        """
        assert self.database is not None
        service = self.context.service
        try:
            # On a club server a running session's entries wait on the laptop while the
            # connection is down (gui/club_link.py); SQLite's events are used as they are.
            opened = service.open(session_id, initiator=self,
                                  wrap=lambda events: guarded(self, events))
        except SessionOpenError as error:
            self.show_sessions()
            self.sessions_page.message.setText(f"⚠ session {session_id} cannot be opened: "
                                               f"{error}")
            return False
        info = opened.loaded.info
        read_only = opened.read_only
        self.session_id = session_id

        def charts() -> None:
            if service.stored_charts(opened) is None and \
                    opened.events.count() > SYNC_CHART_EVENTS:
                try:
                    run_with_progress(
                        self, "Charts", lambda job: service.aggregate_charts(opened, job.progress),
                        f"Reading the {opened.events.count():,} events of {info.name} for its "
                        "charts…")
                except Cancelled:
                    self.play.charts.summary.setText("The charts were not drawn (cancelled): "
                                                     "open this tab again to draw them.")
                    self.play.set_charts_loader(charts)
                    return
            history, session_luck = service.history(opened)
            # A long session's four charts are drawn one per turn of the event loop.
            self.play.charts.show_history(history, session_luck,
                                          stepwise=history.events > SYNC_CHART_EVENTS)

        self.play.show_session(opened.game, opened.title, opened.store, read_only,
                               charts if read_only else None)
        self.pages.setCurrentWidget(self.play)
        self.sessions_page.message.setText("")
        window = self.window()
        if isinstance(window, RulesetSwitch) and window.ruleset() != info.ruleset_id:
            window.set_ruleset(info.ruleset_id)
        return True

    def finish_session(self, confirm: bool = True) -> None:
        """End the running session; it reopens read-only, with its charts."""
        if self.database is None or self.session_id is None or self.context.read_only:
            return
        if confirm and QMessageBox.question(
                self, "Finish session",
                "Finish this session? It stays in the list, read-only, with its charts.") \
                != QMessageBox.StandardButton.Yes:
            return
        session_id = self.context.service.finish(initiator=self)
        if session_id is None:
            return
        self.open_session(session_id)
        self.play.tabs.setCurrentIndex(1)

    # --- play ---------------------------------------------------------------------------
    def undo(self) -> None:
        if self.context.game is not None and not self.context.read_only:
            self.hub.undo()

    def redo(self) -> None:
        if self.context.game is not None and not self.context.read_only:
            self.hub.redo()

    def next_phase(self) -> None:
        if self.play.clock is not None and self.pages.currentWidget() is self.play:
            self.play.clock.next_phase()

    def play_phase(self) -> None:
        clock = self.play.clock
        if clock is not None and hasattr(clock, "play_phase"):
            clock.play_phase()

    def print_session(self) -> QWidget | None:
        """The print dialog of the open session (all vehicles or one, blank or as they stand)."""
        from carwars_desktop.gui.table.print_session import PrintSessionDialog

        game = self.play.game
        if game is None or self.pages.currentWidget() is not self.play:
            return None
        dialog = PrintSessionDialog(game, self.play.session_title, self)
        dialog.finished.connect(dialog.deleteLater)
        self.print_dialog = dialog
        dialog.open()
        return dialog

    def toggle_log(self) -> None:
        self.play.log_action.trigger()

    def _changed(self, changes: Changes) -> None:
        if self.context.game is self.play.game:
            self.play.apply_changes(changes)
