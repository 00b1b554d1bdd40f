"""The main window: a rail of workspaces, the ruleset switch, the database status."""

from __future__ import annotations

import os
import sys
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QEvent, QSettings, QSize, Qt, QTimer, Signal, qVersion
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui import startup, window_geometry
from carwars_desktop.gui.background import wait_for_workers
from carwars_desktop.gui.club_link import ClubLink, OfflineBanner
from carwars_desktop.gui.database_open import Asker, ask_with_dialog, open_with_recovery
from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.follow import Following
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.gui.shortcuts import set_action_keys
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.rules.registry import ruleset_ids, ruleset_title
from carwars_desktop.services import Services
from carwars_desktop.session.visibility import Visibility
from carwars_desktop.storage.errors import DatabaseError
from carwars_desktop.storage.locations import sqlite_path

if TYPE_CHECKING:
    from carwars_desktop.gui.club_connect import StartupPlan
    from carwars_desktop.gui.players_display import PlayerDisplay
    from carwars_desktop.gui.queue_view import QueueView
    from carwars_desktop.gui.share_dialog import ShareDialog
    from carwars_desktop.gui.table import TableWorkspace
    from carwars_desktop.gui.table.phone_queue import PhoneQueue
    from carwars_desktop.gui.workshop import WorkshopWorkspace
    from carwars_desktop.services.fire_batch import DeclaredShot
    from carwars_desktop.services.phone_requests import PhoneRequest
    from carwars_desktop.storage import Database
    from carwars_desktop.storage.club import ClubConnection, ClubConnectionError

RULESET_KEY = "ruleset"
HIDDEN_LOAD_DELAY_MS = 100
"""How long after start-up the hidden workspaces begin to be built, then load their heavy
parts (the app is fully loaded by then)."""
RAIL_STYLE = "QListWidget#workspace-rail::item { padding: 10px 12px; }"
"""The rail's rows (set again when the theme switches: a widget with a style sheet keeps
the palette it was polished with)."""

WORKSPACE_TITLES = ("Library", "Workshop", "Table", "Resolver", "Dice", "Ledger")
"""The rail, in order; the workspaces themselves are built after the first paint."""


def display_url(url: str) -> str:
    """A SQLite file's path, a club database's user@host:port/name, or the URL without password."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return parsed.database
    if parsed.get_backend_name() == "postgresql":
        from carwars_desktop.storage.club import ClubConnection

        return "club " + ClubConnection.from_url(url).display()
    return parsed.render_as_string(hide_password=True)


def report_view_error(error: BaseException) -> None:
    """A view that failed on a change is reported as any failing slot is (the app's
    excepthook: printed, and under ``--smoke`` the run fails); what changed stays done."""
    sys.excepthook(type(error), error, error.__traceback__)


class MainWindow(QMainWindow):
    """Workspaces on a left rail; the ruleset choice is remembered between runs."""

    ruleset_changed = Signal(str)
    database_ready = Signal(bool)
    """After a first screen shown before the database was open (:attr:`opening`): it is
    open and every workspace has it (True), or it could not be opened (False: quit)."""
    all_built = Signal()
    """Every workspace is built and has loaded its heavy parts (on idle turns after
    start-up, or as the GM switched to them): :meth:`everything_built`."""
    workshop: WorkshopWorkspace
    table: TableWorkspace
    phone_queue: PhoneQueue

    def __init__(self, db_url_hint: str | None = None, interactive: bool = True,
                 settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._db_url_hint = db_url_hint
        self._local_url_hint = db_url_hint
        self._interactive = interactive
        self._settings = settings if settings is not None else QSettings()
        self.database: Database | None = None
        self._unloaded: list[Workspace] = []
        self._ahead: dict[int, Workspace] = {}
        """Workspaces built before one above them on the rail (the GM switched to them
        first), by row: they join :attr:`workspaces` once the rows above are built."""
        self._started = False
        """finish_startup has built the first screen and opened the database."""
        self._opening: startup.Opening | None = None
        self._all_built_said = False
        self._shut_down = False
        """:meth:`shutdown` ran: the turns still queued build and load nothing."""
        self._attached: list[Workspace] = []
        """The workspaces that have :attr:`database` (attached once each)."""
        self._resume_with_table = False
        """The Table, built after the database opened behind the Library's list, still has
        to resume the last running game (one started meanwhile by another copy)."""
        self._first_input = startup.FirstInput(lambda: self.opening,
                                               self.wait_until_open, self)
        self._following_rail = False
        self.setWindowTitle("Carwars Desktop")
        window_geometry.restore(self, self._settings)

        self._ruleset_box = ElidedComboBox()
        self._ruleset_box.setAccessibleName("Ruleset")
        self._ruleset_box.setToolTip("The rule system at the table (Ctrl+Shift+R cycles)")
        for ruleset_id in ruleset_ids():
            self._ruleset_box.addItem(ruleset_title(ruleset_id), ruleset_id)
        saved = str(self._settings.value(RULESET_KEY, ruleset_ids()[0]))
        index = self._ruleset_box.findData(saved)
        self._ruleset_box.setCurrentIndex(max(index, 0))
        self._ruleset_box.currentIndexChanged.connect(self._on_ruleset_chosen)

        toolbar = QToolBar("Ruleset")
        toolbar.setObjectName("ruleset-toolbar")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel("  Ruleset: "))
        toolbar.addWidget(self._ruleset_box)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)

        self._rail = QListWidget()
        self._rail.setObjectName("workspace-rail")
        self._rail.setIconSize(QSize(24, 24))
        self._rail.setFixedWidth(140)
        self._rail.setStyleSheet(RAIL_STYLE)
        self._stack = QStackedWidget()
        self.workspaces: list[Workspace] = []
        """The workspaces built, in the rail's order from its top, each at its row (one
        built ahead of a row above it waits in :attr:`_ahead`: :meth:`workspace_at`)."""
        self._rail.currentRowChanged.connect(self._show_built)
        self._rail.currentRowChanged.connect(self._focus_workspace)

        self.club_link = ClubLink(parent=self)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        row = QHBoxLayout()
        row.setSpacing(0)
        row.addWidget(self._rail)
        row.addWidget(self._stack, 1)
        column.addLayout(row, 1)
        self.setCentralWidget(central)
        # Over the workspaces' top edge, outside the layout: shown, it moves nothing.
        self.offline_banner = OfflineBanner(self.club_link, central, anchor=self._stack)
        self.offline_banner.queue_button.clicked.connect(self.show_queue)
        self.queue_view: QueueView | None = None
        """What waits on this laptop for the club server (made when first shown)."""

        self.services = Services()
        """The application layer: one change bus, the Table and Library services."""
        self.services.bus.on_error = report_view_error
        self.game_context = GameContext(self, self.services.table)
        self.following = Following(self.services.bus, self)
        """What other connections write to the database, told on the bus (issue 31)."""
        self.following.resumed.connect(self._lists_again)
        for number, title in enumerate(WORKSPACE_TITLES, start=1):
            self._add_rail_entry(number, title)
        self._rail.setCurrentRow(0)

        self.player_display: PlayerDisplay | None = None
        self.phone_sharing = PhoneSharing(self.services, self)
        """Share to players' devices (off until the GM turns it on for a session)."""
        self.phone_sharing.changed.connect(self._sharing_changed)
        self.phone_sharing.requests_changed.connect(self._phone_requests_changed)
        self.phone_sharing.resumed.connect(self._sharing_resumed)
        self._phone_shots: dict[int, DeclaredShot] = {}
        """Each phone's shot accepted into the fire batch, by its request's number."""
        self.share_dialog: ShareDialog | None = None
        self._db_label = QLabel("Opening the database…")
        self.statusBar().addPermanentWidget(self._db_label)
        self._build_menus()

    # --- workspaces ----------------------------------------------------
    def _add_rail_entry(self, number: int, title: str) -> None:
        item = QListWidgetItem(title)
        item.setToolTip(f"{title} (Ctrl+{number})")
        self._rail.addItem(item)
        action = QAction(title, self)
        set_action_keys(action, f"global.{title.lower()}")
        action.triggered.connect(lambda: self._rail.setCurrentRow(number - 1))
        self.addAction(action)

    def build_workspaces(self, hidden: bool = True) -> None:
        """Create the workspaces (once). Start-up calls it right after the first paint:
        their modules are most of the app's import time. Without ``hidden``, only the
        ones the first screen needs (Library, Workshop, Table: the last running session
        opens at the Table); the others are built by :meth:`_load_next_hidden`, one per
        later turn of the event loop, or alone when the GM switches to one. (A first screen read
        before the database is open needs fewer: :meth:`_show_first_screen`.)"""
        self._build_library(with_table=True)
        if hidden:
            for row in range(len(WORKSPACE_TITLES)):
                self._build_row(row)
        self._show_built(self._rail.currentRow())

    def _build_library(self, with_table: bool) -> None:
        """The Library and the Workshop it opens designs in (once); then the Table."""
        for row in range(WORKSPACE_TITLES.index("Table") + (1 if with_table else 0)):
            self._build_row(row)

    def _build_workshop(self) -> WorkshopWorkspace:
        """The Workshop (once; the Library opens designs in it, so it comes first)."""
        if not hasattr(self, "workshop"):
            _, workshop_workspace = startup.workshop()
            self.workshop = workshop_workspace(self, services=self.services)
            self.workshop.show_requested.connect(
                lambda: self._rail.setCurrentRow(self.workspaces.index(self.workshop)))
            # the open design's verdict follows the session's house rules as they change
            self.game_context.game_changed.connect(self.workshop.follow_house_rules)
            self.game_context.changed.connect(lambda _: self.workshop.follow_house_rules())
        return self.workshop

    def _build_table(self) -> TableWorkspace:
        """The Table (once): built before the Library and the Workshop when a running game
        is the first screen, after them when their list is (:meth:`_show_first_screen`)."""
        if not hasattr(self, "table"):
            self.table = startup.table()(self.game_context, self)
            window_geometry.restore_docks(self.table.play, self._settings)
            self.table.set_ruleset(self.ruleset())
            self.table.play.share_action.triggered.connect(self._share_from_table)
            self.club_link.reopen_requested.connect(self.table.open_session)
            self._add_phone_queue(self.table)
        return self.table

    def _add_phone_queue(self, table: TableWorkspace) -> None:
        """The GM's queue of the phones' requests, a dock beside the sheets."""
        self.phone_queue = startup.phone_queue()(self.phone_sharing, self._edit_phone_request,
                                                 table.play)
        # A tab beside the session log, right of the sheets (the sheets keep their room).
        table.play.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.phone_queue)
        table.play.tabifyDockWidget(table.play.log_dock, self.phone_queue)
        self.phone_queue.setVisible(self.phone_sharing.sharing)
        self.phone_sharing.desk.declare = self._declare_phone_shot
        self.phone_sharing.desk.on_dice = self._phone_shot_dice

    def _declare_phone_shot(self, request: PhoneRequest) -> str:
        """An accepted shot from a phone joins the phase's fire batch (with its dice, when
        typed already); why not, or ""."""
        keys = self.table.keys
        ui = keys.ui()
        action = next((a for a in (ui.key_actions if ui is not None else ())
                       if ui is not None and ui.fire_batch is not None
                       and a.procedure_id == ui.fire_batch.fire), None)
        if action is None or keys.batch is None:
            return "this ruleset has no fire batch"
        values, bindings, dice, label = self.phone_sharing.desk.shot_declaration(request)
        refused = keys.declare(action, values, bindings, dice, label)  # kept with its label
        if not refused:
            self._phone_shots[request.number] = keys.batch.shots[-1]
        return refused

    def _phone_shot_dice(self, request: PhoneRequest) -> None:
        """The dice a phone typed for its shot in the batch go with that shot."""
        shot = self._phone_shots.get(request.number)
        batch = self.table.keys.batch if hasattr(self, "table") else None
        if shot is None and batch is not None:  # declared before a restart: found by its
            values, bindings, _dice, label = self.phone_sharing.desk.shot_declaration(request)
            shot = next((s for s in batch.shots if s.bindings == bindings  # phone's label
                         and s.label.endswith(label)
                         and all(str(s.inputs.get(k)) == str(v) for k, v in values.items())),
                        None)
        if shot is not None and batch is not None and shot in batch.shots:
            batch.set_dice(shot, str(request.values.get("dice", "")))

    def _edit_phone_request(self, request: PhoneRequest) -> None:
        """E in the queue: the request in the normal dialog, its values preset."""
        procedure, presets, note = self.phone_sharing.edited(request)
        keys = self.table.keys if hasattr(self, "table") else None
        ui = keys.ui() if keys is not None else None
        action = next((a for a in (ui.key_actions if ui is not None else ())
                       if a.procedure_id == procedure), None)
        if keys is not None and action is not None:
            keys.open_action(action, presets, note)

    def workspace_at(self, row: int) -> Workspace | None:
        """The workspace at the rail's ``row``, if it is built."""
        if 0 <= row < len(self.workspaces):
            return self.workspaces[row]
        return self._ahead.get(row)

    def _build_row(self, row: int) -> Workspace:
        """The workspace at the rail's ``row``, built now if it is not yet, alone: the
        Library with the Workshop it opens designs in, the others each on its own (the
        rows above it wait for later turns: :meth:`_load_next_hidden`)."""
        built = self.workspace_at(row)
        if built is not None:
            return built
        if row == WORKSPACE_TITLES.index("Library"):
            library_workspace, _ = startup.workshop()
            workshop = self._build_workshop()
            library = library_workspace(workshop, self, self._settings)
            self._place(row, library)
            if self.workspace_at(row + 1) is None:
                self._place(row + 1, workshop)
            return library
        workspace = self._hidden_workspace(row)
        self._place(row, workspace)
        return workspace

    def _hidden_workspace(self, position: int) -> Workspace:
        """The workspace at ``position`` of the rail (not the Library: :meth:`_build_row`)."""
        if position == WORKSPACE_TITLES.index("Workshop"):
            return self._build_workshop()
        if position == WORKSPACE_TITLES.index("Table"):
            return self._build_table()
        if position == WORKSPACE_TITLES.index("Resolver"):
            return startup.resolver()(self.game_context, self, self._settings)
        if position == WORKSPACE_TITLES.index("Dice"):
            return startup.dice()(self, self.services.bus)
        return startup.ledger()(self.services, self)

    def _show_row(self, row: int) -> None:
        """The GM switched to ``row``, perhaps before its workspace was built in the
        background: it is built in this turn, alone (the others on later turns), and
        loads its heavy parts from the next turn on, saying so meanwhile."""
        if row < 0:
            return
        self.wait_until_open()
        if row != self._rail.currentRow():
            return  # (the opening's ready turn moved the rail on: to a game resumed)
        workspace = self._build_row(row)
        if self._stack.currentWidget() is not workspace:
            self._stack.setCurrentWidget(workspace)
            self._focus_workspace(row)
        if workspace in self._unloaded:
            workspace.show_loading()
            QTimer.singleShot(0, self, lambda: self._load(workspace))

    def _show_built(self, row: int) -> None:
        """The rail's ``row`` on screen, if its workspace is built (else :meth:`_show_row`
        builds it)."""
        workspace = self.workspace_at(row)
        if workspace is not None:
            self._stack.setCurrentWidget(workspace)

    def _focus_workspace(self, row: int) -> None:
        """The workspace just shown takes the keyboard focus (its keys work at once)."""
        workspace = self.workspace_at(row)
        if workspace is not None:
            workspace.focus_default()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        """The theme switched while running: the rail, whose style sheet froze the
        palette it was first drawn with, takes the new one."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.ApplicationPaletteChange,
                            QEvent.Type.PaletteChange):
            self._rail.setStyleSheet("")
            self._rail.setStyleSheet(RAIL_STYLE)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        """The window's size, place and the Table's docks are kept for the next run."""
        docks = self.table.play.saveState() if hasattr(self, "table") else None
        window_geometry.save(self, self._settings, docks)
        self.following.stop()
        super().closeEvent(event)

    def add_workspace(self, workspace: Workspace) -> None:
        """``workspace`` at the first row of the rail not built yet."""
        self._place(len(self.workspaces), workspace)

    def _place(self, position: int, workspace: Workspace) -> None:
        """``workspace`` at the rail's row ``position``: in :attr:`workspaces` when the
        rows above are built (with those built ahead of it that follow), else ahead."""
        if position >= len(WORKSPACE_TITLES) or WORKSPACE_TITLES[position] != workspace.title:
            expected = WORKSPACE_TITLES[position] if position < len(WORKSPACE_TITLES) else "none"
            raise ValueError(f"workspace {position + 1} should be {expected}, "
                             f"not {workspace.title}")
        if self.workspace_at(position) is not None:
            raise ValueError(f"workspace {position + 1} ({workspace.title}) is built already")
        if position == len(self.workspaces):
            self.workspaces.append(workspace)
            while len(self.workspaces) in self._ahead:
                self.workspaces.append(self._ahead.pop(len(self.workspaces)))
        else:
            self._ahead[position] = workspace
        if self._stack.indexOf(workspace) < 0:  # (the Table of a game may be there first)
            self._stack.addWidget(workspace)  # (shown by widget: the current one stays)
        workspace.set_ruleset(self.ruleset())
        if self._started:  # built after start-up, in the background or when first shown
            self._attach(workspace)
            if workspace not in self._unloaded:
                self._unloaded.append(workspace)
            if workspace is getattr(self, "table", None) and self._resume_with_table:
                self._resume_with_table = False
                on_first_screen = self._rail.currentRow() == WORKSPACE_TITLES.index("Library")
                if self.table.reopen_last_running() and on_first_screen:
                    self._rail.setCurrentRow(WORKSPACE_TITLES.index("Table"))

    def _attach(self, workspace: Workspace) -> None:
        """Give ``workspace`` the database (once per database)."""
        if self.database is not None and workspace not in self._attached:
            self._attached.append(workspace)
            workspace.attach_database(self.database)

    def current_workspace(self) -> Workspace:
        return self._build_row(self._rail.currentRow())

    # --- ruleset -------------------------------------------------------
    def ruleset(self) -> str:
        return str(self._ruleset_box.currentData())

    def set_ruleset(self, ruleset_id: str) -> None:
        self._ruleset_box.setCurrentIndex(self._ruleset_box.findData(ruleset_id))

    def _on_ruleset_chosen(self) -> None:
        ruleset_id = self.ruleset()
        self._settings.setValue(RULESET_KEY, ruleset_id)
        self._settings.sync()
        for workspace in [*self.workspaces, *self._ahead.values()]:
            workspace.set_ruleset(ruleset_id)
        self.ruleset_changed.emit(ruleset_id)

    def _cycle_ruleset(self) -> None:
        self._ruleset_box.setCurrentIndex((self._ruleset_box.currentIndex() + 1)
                                          % self._ruleset_box.count())

    # --- start-up and database -----------------------------------------
    def finish_startup(self, defer_hidden: bool = False) -> bool:
        """Build the workspaces, open the database, let workspaces load their heavy parts.

        Called once the window has been painted. With ``defer_hidden`` (the app's own
        start) only the workspaces the first screen needs are built, and only the one on
        screen loads its heavy parts now; the others are built, then load theirs, on
        later turns of the event loop, one per turn, or (alone) when first shown. The
        app's own start may also list the Library before the database is open
        (:meth:`_show_first_screen`); it is then open when :attr:`database_ready` says so.
        """
        from carwars_desktop.gui.club_connect import ClubSettings, startup_plan

        plan = startup_plan(self._db_url_hint, ClubSettings(self._settings))
        if defer_hidden and self._show_first_screen(plan):
            return True
        self.build_workspaces(hidden=not defer_hidden)
        database, local_instead = self._open_club_at_startup(plan)
        if database is None and local_instead:
            database = open_with_recovery(self._local_url_hint, self._asker())
        if database is None:
            return False
        self._start_with(database, defer_hidden)
        return True

    def _asker(self) -> Asker | None:
        return (lambda error: ask_with_dialog(self, error)) if self._interactive else None

    def _start_with(self, database: Database, defer_hidden: bool) -> None:
        self.build_workspaces(hidden=not defer_hidden)  # (built already, but after a game)
        self.attach_database(database)
        if self.table.reopen_last_running():
            # A game was going on: the GM comes back to its sheets.
            self._rail.setCurrentRow(self.workspaces.index(self.table))
        self._unloaded = list(self.workspaces)
        self._started = True
        if defer_hidden:
            self._load(self.current_workspace())
            self._follow_rail()
            QTimer.singleShot(HIDDEN_LOAD_DELAY_MS, self, self._load_next_hidden)
        else:
            for workspace in list(self._unloaded):
                self._load(workspace)

    def _follow_rail(self) -> None:
        if not self._following_rail:
            self._rail.currentRowChanged.connect(self._show_row)
            self._following_rail = True

    # --- the first screen before SQLAlchemy ----------------------------
    @property
    def opening(self) -> bool:
        """The first screen is shown and the database still opening on a worker
        (:attr:`database_ready` says when it is open)."""
        return self._opening is not None

    def _show_first_screen(self, plan: StartupPlan) -> bool:
        """Show the first screen from the local file before SQLAlchemy has loaded (the
        running game at the Table, or the Library's list), and open the database on a
        worker meanwhile (``storage/first_screen.py`` says when this can be); False:
        nothing was shown, the database is to be opened first, as always.

        Until it is open, the GM's first key or click waits for it (``startup.FirstInput``), then
        goes where it was meant; the other workspaces are built and load once it is.
        """
        from carwars_desktop.storage.first_screen import read_first_screen

        if plan.connection is not None:
            return False
        hint = self._local_url_hint = plan.local_url
        screen = read_first_screen(hint, os.environ)
        if screen is None:
            return False
        if screen.game is not None:  # a game is running: the GM comes back to its sheets
            # Its Table alone is built now; the Library and the Workshop once the
            # database is open (the GM's first key waits for it).
            table = self._build_table()
            self._stack.addWidget(table)
            self._stack.setCurrentWidget(table)
            if not table.show_from_file(screen.game):
                return False
            self._rail.setCurrentRow(WORKSPACE_TITLES.index("Table"))
        else:  # the Library's list: its workspace and the Workshop's now, the Table after
            self._build_library(with_table=False)
            library = self.workspaces[WORKSPACE_TITLES.index("Library")]
            library_workspace, _ = startup.workshop()
            if screen.entries is None or not isinstance(library, library_workspace) \
                    or not library.show_first_screen(screen.entries):
                return False
        self._db_label.setText(f"Database: {sqlite_path(hint, os.environ)}")
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self._first_input)
        self._follow_rail()  # a switch of workspace waits for the database too
        self._opening = startup.Opening()
        self._opening.open_on_worker(hint, self._opened, self)
        return True

    def wait_until_open(self) -> None:
        """Return once the database opening after the first screen is open (at once if
        none is): the GM's first key or click calls this."""
        opening = self._opening
        if opening is None:
            return
        opening.start()
        if not opening.done.is_set():
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                opening.done.wait()
            finally:
                QApplication.restoreOverrideCursor()
        self._opened()

    def _opened(self) -> None:
        """The worker opened the database (or could not): every workspace gets it, as
        at any start; a database the checks refused goes to the GM as at any start."""
        opening = self._opening
        if opening is None or not opening.done.is_set():
            return
        self._opening = None
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self._first_input)
        database = opening.database
        if database is None:
            error = opening.error
            if not isinstance(error, DatabaseError):  # a bug: the traceback is shown
                self.database_ready.emit(False)
                raise error if error is not None else RuntimeError("no database opened")
            print(f"carwars-desktop: {error}", file=sys.stderr, flush=True)
            if hasattr(self, "table"):
                self.table.forget_shown()  # what another database holds is read from it
            database = open_with_recovery(self._local_url_hint, self._asker(),
                                          first_refusal=error)
        if database is None:
            self.database_ready.emit(False)
            return
        self._take_over(database)
        self.database_ready.emit(True)

    def _take_over(self, database: Database) -> None:
        """The database opened behind the first screen. In this turn only the workspaces
        of the first screen get it (and the game shown is resumed under its lease): from
        here on the GM's first key is answered at once. The other workspaces' modules are
        imported on a worker (``gui/startup.py``); then they are built, get the database
        and load, one per turn (:meth:`_load_next_hidden`), or the one the GM switches
        to alone in that turn, loaded on the next (:meth:`_show_row`)."""
        self.attach_database(database)
        self._started = True
        self._unloaded = self._built()
        table = getattr(self, "table", None)
        if table is not None:  # a game was shown: it goes on, from the database now
            if table.reopen_last_running():
                self._rail.setCurrentRow(WORKSPACE_TITLES.index("Table"))
        else:
            self._resume_with_table = True
        shown = self._stack.currentWidget()
        if isinstance(shown, Workspace):
            self._load(shown)
        self._follow_rail()
        built = {workspace.title for workspace in self._built()}
        startup.import_for_workspaces(
            [title for title in WORKSPACE_TITLES if title not in built],
            lambda: QTimer.singleShot(0, self, self._load_next_hidden), parent=self)

    def _open_club_at_startup(self, plan: StartupPlan) -> tuple[Database | None, bool]:
        """(the club database to start on, or None; whether to open a local one instead)."""
        from carwars_desktop.gui.club_connect import open_startup_club

        self._local_url_hint = plan.local_url
        return open_startup_club(plan, self._interactive, self.connect_to_club,
                                 self._offer_local_database)

    def _offer_local_database(self, error: ClubConnectionError) -> bool:
        """Say the club server is unreachable; True: open the last local database instead."""
        from carwars_desktop.gui.club_connect import offer_local_database

        local = self._local_url_hint
        where = display_url(local) if local else "the database in your user folder"
        return self._interactive and offer_local_database(self, error, where)

    def _load(self, workspace: Workspace) -> None:
        if workspace in self._unloaded and not self._shut_down:
            self._unloaded.remove(workspace)
            workspace.load_deferred()

    def _load_next_hidden(self) -> None:
        """One step per turn: build the next workspace not built yet (the Workshop on a
        turn of its own before the Library), else load the next one not loaded."""
        if self._shut_down:
            return
        if not self.workspaces and not hasattr(self, "workshop"):
            self._build_workshop()
            QTimer.singleShot(0, self, self._load_next_hidden)
        elif len(self.workspaces) < len(WORKSPACE_TITLES):
            self._build_row(len(self.workspaces))  # the next hidden one, in this turn
            QTimer.singleShot(0, self, self._load_next_hidden)
        elif self._unloaded:
            self._load(self._unloaded[0])
            QTimer.singleShot(0, self, self._load_next_hidden)
        elif self.everything_built() and not self._all_built_said:
            self._all_built_said = True
            self.all_built.emit()

    def everything_built(self) -> bool:
        """Every workspace is built, has the database and has loaded its heavy parts."""
        return (self._started and len(self.workspaces) == len(WORKSPACE_TITLES)
                and not self._unloaded)

    def attach_database(self, database: Database) -> None:
        from carwars_desktop.gui.club_connect import ClubSettings
        from carwars_desktop.storage.club import is_server_url

        switching = self.database is not None and self.database is not database
        if switching:
            self.table.release_lease()
            if self.game_context.service.game is not None:
                self.game_context.service.close()
                self.table.show_sessions()
            assert self.database is not None
            self.database.close()
        self.database = database
        self.game_context.database = database
        self.club_link.attach_database(database)
        shown = display_url(database.url)
        self._db_label.setText(f"Database: {shown}" + (" (read-only)" if database.read_only
                                                       else ""))
        self._db_label.setToolTip(shown)
        if database.backup is not None:
            self.statusBar().showMessage(
                f"Before upgrading the database, a copy was made: {database.backup}", 30000)
        self.setWindowTitle(f"Carwars Desktop — {shown}" if is_server_url(database.url)
                            else "Carwars Desktop")
        if not is_server_url(database.url):
            ClubSettings(self._settings).remember_local(database.url)
        self._attached = []
        for workspace in self._built():
            self._attach(workspace)
        self.following.follow(database)

    def _lists_again(self) -> None:
        """The database's watcher is open again after the server was away: the Library and
        the session list are read again whole, on workers (what was written meanwhile was
        not told)."""
        from carwars_desktop.gui.workshop import LibraryWorkspace

        for workspace in self._built():
            if isinstance(workspace, LibraryWorkspace):
                workspace.refresh_later()
        table = getattr(self, "table", None)
        if table is not None:
            table.refresh_sessions_later()

    def _built(self) -> list[Workspace]:
        """The workspaces built so far: the rail's (those built ahead too), and a game's
        Table built before them."""
        table = getattr(self, "table", None)
        built = [*self.workspaces, *self._ahead.values()]
        return [*built, *([table] if table is not None and table not in built else [])]

    def connect_to_club(self, initial: ClubConnection | None = None, message: str = "",
                        attach: bool = True) -> Database | None:
        """File › Connect to a club database…: the dialog; the database it opened, or None."""
        from carwars_desktop.gui.club_connect import ClubSettings, ConnectDialog
        from carwars_desktop.storage.credentials import PasswordStore

        dialog = ConnectDialog(ClubSettings(self._settings), PasswordStore(),
                               initial=initial, message=message, parent=self)
        self.connect_dialog = dialog
        if dialog.exec() != ConnectDialog.DialogCode.Accepted or dialog.database is None:
            return None
        if dialog.keyring_problem is not None:
            self.statusBar().showMessage(f"⚠ {dialog.keyring_problem}", 60000)
        if attach:
            self.attach_database(dialog.database)
            self.table.reopen_last_running()
        return dialog.database

    def open_local_database(self) -> bool:
        """File › Open local database: back to the laptop's own file."""
        from carwars_desktop.gui.club_connect import ClubSettings

        database = open_with_recovery(
            ClubSettings(self._settings).last_local(),
            (lambda error: ask_with_dialog(self, error)) if self._interactive else None)
        if database is None:
            return False
        self.attach_database(database)
        self.table.reopen_last_running()
        return True

    def shutdown(self) -> None:
        self._shut_down = True
        self.phone_sharing.end()  # nothing listens once the app is gone
        if self.player_display is not None:
            self.player_display.close()
        if hasattr(self, "table"):
            self.table.release_lease()
        self.club_link.stop()  # queued entries stay in the queue file for the next start
        self.following.stop()
        wait_for_workers()  # none may still be using the database it closes
        if self._opening is not None and self._opening.database is not None:
            self._opening.database.close()  # opened as the app closed: never attached
            self._opening = None
        if self.database is not None:
            self.database.close()
            self.database = None

    def show_queue(self) -> QueueView:
        """The queue view (one, not modal), activated, its list focused."""
        if self.queue_view is None:
            from carwars_desktop.gui.queue_view import QueueView

            self.queue_view = QueueView(self.club_link, self)
        self.queue_view.show()
        self.queue_view.activateWindow()  # (to the front: the window manager's doing)
        return self.queue_view

    # --- menus ---------------------------------------------------------
    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        backup_action = file_menu.addAction("&Back up database…")
        backup_action.triggered.connect(lambda: self.back_up_database())
        club = file_menu.addAction("&Connect to a club database…")
        club.triggered.connect(lambda: self.connect_to_club())
        local = file_menu.addAction("Open &local database")
        local.triggered.connect(self.open_local_database)
        file_menu.addSeparator()
        report = file_menu.addAction("Battle &report…")
        report.setToolTip("A session's report as HTML or PDF: the sheets, the game turn by "
                          "turn, the kills, the victory check and the luck chart")
        report.triggered.connect(lambda: self.battle_report())
        replay = file_menu.addAction("Re&play session…")
        replay.setToolTip("Any session, finished or running, event by event: the sheets, the "
                          "clock and the odds of each roll as they were (read only)")
        replay.triggered.connect(lambda: self.replay_session())
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit")
        set_action_keys(quit_action, "global.quit")
        quit_action.triggered.connect(self.close)
        view_menu = self.menuBar().addMenu("&View")
        cycle = view_menu.addAction("Next &ruleset")
        set_action_keys(cycle, "global.next_ruleset")
        cycle.triggered.connect(self._cycle_ruleset)
        view_menu.addSeparator()
        display = view_menu.addAction("&Player display")
        set_action_keys(display, "global.player_display")
        display.setToolTip("A second window for the table's TV: what the players may see")
        display.triggered.connect(self.open_player_display)
        full = view_menu.addAction("Player display &full screen")
        set_action_keys(full, "global.player_display_full_screen")
        full.triggered.connect(self._player_display_full_screen)
        share = view_menu.addAction("Share to players' &devices…")
        set_action_keys(share, "global.share_phones")
        share.triggered.connect(self.open_share_dialog)
        queue = view_menu.addAction("Offline &queue…")
        queue.setToolTip("The entries waiting on this laptop for the club server, and any "
                         "that met another client's entries")
        queue.triggered.connect(self.show_queue)
        self._players_menu = view_menu.addMenu("What the players &see")
        self._players_menu.aboutToShow.connect(self._fill_players_menu)
        help_menu = self.menuBar().addMenu("&Help")
        about = help_menu.addAction("&About Carwars Desktop")
        about.triggered.connect(self._show_about)

    def battle_report(self) -> QWidget | None:
        """File › Battle report…: the dialog, on the session at the Table if there is one
        (returned, open; None before the database is open)."""
        from carwars_desktop.gui.report_dialog import ReportDialog

        if self.database is None:
            return None
        dialog = ReportDialog(self.database, self.services.table.session_id, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def replay_session(self) -> QWidget | None:
        """File › Replay session…: the session picker, on the session at the Table if
        there is one (returned, open; None before the database is open)."""
        from carwars_desktop.gui.replay_view import ReplayPicker

        if self.database is None:
            return None
        dialog = ReplayPicker(self.database, self.services.table.session_id, self,
                              tv=self.open_player_display)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def back_up_database(self, target: str | None = None) -> bool:
        """File › Back up database…: a consistent copy of the SQLite file, where the GM says."""
        from carwars_desktop.storage.database import sqlite_file_path

        if self.database is None:
            return False
        source = sqlite_file_path(self.database.url)
        if target is None:
            suggested = "" if source is None else str(source.with_name(
                f"{source.stem}-{datetime.now():%Y-%m-%d-%H%M}.backup{source.suffix}"))
            target, _ = QFileDialog.getSaveFileName(self, "Back up the database", suggested,
                                                    "Carwars databases (*.sqlite3)")
            if not target:
                return False
        try:
            copy = self.database.back_up(Path(target))
        except DatabaseError as error:
            self.statusBar().showMessage(f"⚠ Not backed up: {error}", 30000)
            if self._interactive:
                QMessageBox.warning(self, "Back up database", str(error))
            return False
        self.statusBar().showMessage(f"Backed up to {copy}", 30000)
        return True

    # --- the players' display ---------------------------------------------------------
    def open_player_display(self) -> PlayerDisplay:
        """Open (or raise) the players' display, on the screen it was on last time."""
        from carwars_desktop.gui.players_display import PlayerDisplay

        if self.player_display is None:
            self.player_display = PlayerDisplay(self.services, self._settings)
            self.player_display.destroyed.connect(self._player_display_gone)
            # the phones follow a replay shown on the TV (issue 36 §1)
            self.player_display.replayed_changed.connect(
                lambda view: self.phone_sharing.show_replayed(view))
            self.player_display.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.player_display.open()
        self.phone_sharing.set_display_open(True)  # (reopened with the links after a restart)
        self._sharing_changed()
        return self.player_display

    # --- share to players' devices -----------------------------------------------------
    def open_share_dialog(self) -> ShareDialog:
        """The address, QR code and link of the phones' page, Start/Stop and New link."""
        from carwars_desktop.gui.share_dialog import ShareDialog

        if self.share_dialog is None:
            self.share_dialog = ShareDialog(self.phone_sharing, self, self._settings)
        self.share_dialog.show()
        self.share_dialog.activateWindow()
        return self.share_dialog

    def _share_from_table(self, checked: bool) -> None:
        """The Table's Share to phones button: on with the default address, or off."""
        if not checked:
            self.phone_sharing.stop()
            return
        dialog = self.open_share_dialog()
        dialog.start()
        self._sharing_changed()

    def _sharing_changed(self) -> None:
        sharing = self.phone_sharing
        if hasattr(self, "table"):
            self.table.play.share_action.setChecked(sharing.sharing)
            if sharing.problem and not sharing.sharing:
                self.table.play.show_message(f"⚠ {sharing.problem}", True)
        if self.player_display is not None:
            self.player_display.show_sharing(sharing.url)
        if hasattr(self, "phone_queue") and self.phone_queue.isVisible() != sharing.sharing:
            self.phone_queue.setVisible(sharing.sharing)
            if sharing.sharing:
                self.phone_queue.raise_()
        self._phone_requests_changed()

    def _phone_requests_changed(self) -> None:
        """The TV says whose secret choice is awaited (never the values); the queue's tab
        comes forward when a request waits."""
        if hasattr(self, "phone_queue") and self.phone_sharing.desk.waiting():
            self.phone_queue.raise_()
        if self.player_display is not None:
            self.player_display.show_waiting(self.phone_sharing.desk.waiting_for())

    def _player_display_gone(self) -> None:
        self.player_display = None
        if not self._shut_down:  # the GM closed it (quitting closes it after sharing ends)
            self.phone_sharing.set_display_open(False)

    def _sharing_resumed(self, listening: bool, display_open: bool) -> None:
        """The session opened was shared when it was last played: the players' display
        reopens if it was open (on the screen it was on, if that screen is still there);
        sharing could not listen again (:attr:`PhoneSharing.problem` says why): the share
        dialog opens on it, offering the next start."""
        if display_open and not self._shut_down:
            self.open_player_display()
        if not listening and not self._shut_down:
            self.open_share_dialog()

    def _player_display_full_screen(self) -> None:
        if self.player_display is None:
            self.open_player_display()
        assert self.player_display is not None
        self.player_display.toggle_full_screen()

    def _fill_players_menu(self) -> None:
        """The session's visibility: each choice is an event of the session (undoable)."""
        menu = self._players_menu
        menu.clear()
        table = self.services.table
        game = table.game
        if game is None or table.read_only:
            menu.addAction("Open a running session at the Table first").setEnabled(False)
            return
        visibility = Visibility.of(game.settings)

        def choose(new: Visibility) -> None:
            try:
                table.set_visibility(new, initiator=self)
            except ValueError as error:
                QMessageBox.warning(self, "Players' display", str(error))

        sheets = menu.addAction("Players see each other's record sheets")
        sheets.setCheckable(True)
        sheets.setChecked(visibility.sheets_open)
        sheets.triggered.connect(lambda checked: choose(
            Visibility(checked, visibility.odds_shown, visibility.hidden_vehicles)))
        odds = menu.addAction("Show the odds before the dice")
        odds.setCheckable(True)
        odds.setChecked(visibility.odds_shown)
        odds.triggered.connect(lambda checked: choose(
            Visibility(visibility.sheets_open, checked, visibility.hidden_vehicles)))
        menu.addSeparator()
        for vehicle in game.vehicles:
            hide = menu.addAction(f"Hide {vehicle.name} (an ambush)")
            hide.setCheckable(True)
            hide.setChecked(not visibility.shows(vehicle.key))
            hide.triggered.connect(lambda checked, key=vehicle.key: choose(
                visibility.with_hidden(key, checked)))

    def _show_about(self) -> None:
        QMessageBox.about(self, "About Carwars Desktop", self.about_html())

    @staticmethod
    def about_html() -> str:
        """The About box: the version, and each component with its version and license."""
        import platform  # (7 ms: the About box only)

        from carwars_desktop import __version__  # (read from the metadata when asked)

        def installed(distribution: str) -> str:
            try:
                return version(distribution)
            except PackageNotFoundError:  # a checkout run without installing
                return ""

        components = [
            ("Carwars Desktop", __version__, "MIT License"),
            ("Qt", qVersion(), "GNU LGPL v3"),
            ("Qt for Python (PySide6, shiboken6)", pyside_version, "GNU LGPL v3"),
            ("Python", platform.python_version(), "PSF License v2"),
            *((name, installed(name), license_name) for name, license_name in (
                ("SQLAlchemy", "MIT License"), ("Alembic", "MIT License"),
                ("Mako", "MIT License"), ("pyqtgraph", "MIT License"),
                ("NumPy", "BSD 3-Clause License"), ("platformdirs", "MIT License"),
                ("psycopg", "GNU Lesser GPL v3"), ("keyring", "MIT License"),
                ("segno", "BSD 3-Clause License"), ("aiohttp", "Apache License 2.0"))),
        ]
        rows = "".join(
            f"<tr><td>{name}</td><td align='right'>&nbsp;{number}&nbsp;</td>"
            f"<td>{license_name}</td></tr>" for name, number, license_name in components)
        return (
            f"<h3>Carwars Desktop {__version__}</h3>"
            "<p>A game master's companion for Mini Car Wars, Battlecars and AUTOpower.</p>"
            f"<table cellspacing='2'>{rows}</table>"
            "<p>Qt and Qt for Python are used under the GNU Lesser General Public License v3, "
            "as unmodified shared libraries that you may replace with your own builds. "
            "Their source code: <a href='https://download.qt.io/official_releases/'>"
            "download.qt.io/official_releases</a> and "
            "<a href='https://code.qt.io/'>code.qt.io</a>.</p>"
            "<p>The license texts ship with the program: THIRD-PARTY-NOTICES.txt among its "
            "files, and on Debian /usr/share/doc/carwars-desktop/copyright.</p>"
            "<p>Mini Car Wars and Car Wars are trademarks of Steve Jackson Games, Battlecars "
            "of Games Workshop; this program is not affiliated with either.</p>"
        )

