"""An open session: the sheets in the middle; the clock and the session log in docks beside.

A finished session opens read-only, with its charts in a second tab. The view
redraws only what a :class:`~carwars_desktop.session.Changes` names: the sheets
of the vehicles it touched, the clock, one row of the log.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from typing import cast

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.rulesets import ClockPanel, ruleset_ui
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.charts import SessionCharts
from carwars_desktop.gui.table.event_log import EventLogDock
from carwars_desktop.gui.table.sheet_frame import SheetFrame
from carwars_desktop.gui.table.sheet_grid import SheetGrid
from carwars_desktop.gui.theme import error_colour
from carwars_desktop.rules import RecordSheet
from carwars_desktop.session import Changes, EventPages, Game
from carwars_desktop.session.provenance import Provenance

CLOCK_WIDTH = 370
LOG_ROWS = 4
"""The session log shows at least this many events, however much the Clock needs (the
Clock scrolls inside itself instead)."""


class PlayView(QMainWindow):
    """See the module docstring. The owner wires the toolbar actions."""

    def __init__(self, actions: TableActions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlags(Qt.WindowType.Widget)
        self.actions_hub = actions
        self.game: Game | None = None
        self.session_title = ""
        self.read_only = False
        self.provenance: Provenance | None = None
        self.sheets: dict[str, SheetFrame] = {}
        self.clock: ClockPanel | None = None
        self._charts_loader: Callable[[], None] | None = None

        toolbar = QToolBar("Session")
        toolbar.setObjectName("session-toolbar")
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.title = QLabel()
        self._title_head = ""
        self.state = ""
        self.title.setTextFormat(Qt.TextFormat.RichText)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.sessions_action = QAction("◧ Sessions", self)
        self.sessions_action.setToolTip("All sessions (Ctrl+O)")
        self.undo_action = QAction("↶ Undo", self)
        self.undo_action.setToolTip("Undo the last event (Ctrl+Z)")
        self.redo_action = QAction("↷ Redo", self)
        self.redo_action.setToolTip("Redo (Ctrl+Shift+Z)")
        self.print_action = QAction("▤ Print session…", self)
        self.print_action.setToolTip("Print or save as PDF every sheet as it stands, or blank "
                                     "(Ctrl+Shift+P)")
        self.share_action = QAction("Share to phones", self)
        self.share_action.setObjectName("share-to-phones")
        self.share_action.setCheckable(True)
        self.share_action.setToolTip("Share to players' devices: a read-only page on the "
                                     "table's network, with a QR code (Ctrl+Shift+S)")
        self.finish_action = QAction("■ Finish session", self)
        self.finish_action.setToolTip("End the session: it stays readable, with its charts")
        toolbar.addAction(self.sessions_action)
        toolbar.addWidget(self.title)
        toolbar.addWidget(spacer)
        toolbar.addAction(self.undo_action)
        toolbar.addAction(self.redo_action)
        self.log_dock = EventLogDock(self)
        self._log_floor()
        self.log_action = self.log_dock.toggleViewAction()
        self.log_action.setText("☰ Session log")
        self.log_action.setToolTip("Show or hide the session log (Ctrl+L)")
        toolbar.addAction(self.log_action)
        toolbar.addAction(self.print_action)
        toolbar.addAction(self.share_action)
        toolbar.addAction(self.finish_action)
        # Every procedure that acts on vehicles, the selected one preset (the A key; the
        # Table's keyboard module fills the menu).
        self.actions_button = QToolButton()
        self.actions_button.setObjectName("vehicle-actions")
        self.actions_button.setText("⚡ Actions ▾")
        self.actions_button.setToolTip("Every action on the selected vehicle: fire, damage, "
                                       "collision, ram, crash, laser… (A; the number keys "
                                       "select a vehicle)")
        self.actions_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        toolbar.insertWidget(self.undo_action, self.actions_button)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
        self.clock_area = QScrollArea()
        self.clock_area.setWidgetResizable(True)
        self.clock_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.clock_dock = QDockWidget("Clock", self)
        self.clock_dock.setObjectName("clock")
        # The Clock offers the vehicle actions too (the same menu) and the fire batch.
        self.clock_actions = QToolButton()
        self.clock_actions.setText("⚡ Vehicle actions ▾")
        self.clock_actions.setToolTip(self.actions_button.toolTip())
        self.clock_actions.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.batch_button = QToolButton()
        self.batch_button.setText("Fire batch…")
        self.batch_button.setToolTip("The phase's declared shots: odds, dice, one Apply (B)")
        clock_box = QWidget()
        clock_column = QVBoxLayout(clock_box)
        clock_column.setContentsMargins(0, 0, 0, 0)
        clock_row = QHBoxLayout()
        clock_row.addWidget(self.clock_actions)
        clock_row.addWidget(self.batch_button)
        clock_row.addStretch(1)
        clock_column.addLayout(clock_row)
        clock_column.addWidget(self.clock_area, 1)
        # What a clock panel keeps in sight below its scrolling part (the Start button of
        # the Mini Car Wars speeds form): the panel's ``footer``, placed here.
        self.clock_footer = QVBoxLayout()
        self.clock_footer.setContentsMargins(9, 0, 9, 4)
        clock_column.addLayout(self.clock_footer)
        self.clock_dock.setWidget(clock_box)
        self.clock_dock.setMinimumWidth(CLOCK_WIDTH)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.clock_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.log_dock)
        # fit_clock() gives the Clock more when it needs it (at 1366×768 it must show whole).
        self.resizeDocks([self.clock_dock, self.log_dock], [460, 300], Qt.Orientation.Vertical)

        self.message = QLabel()
        self.message.setObjectName("table-message")
        self.message.setWordWrap(True)
        self.grid = SheetGrid()
        self.charts = SessionCharts()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.grid, "Sheets")
        self.tabs.addTab(self.charts, "Charts")
        self.tabs.currentChanged.connect(self._tab_chosen)
        self.victory_bar = QFrame()
        self.victory_bar.setObjectName("victory-bar")
        self.victory_bar.setFrameShape(QFrame.Shape.StyledPanel)
        self.victory_label = QLabel()
        self.victory_label.setWordWrap(True)
        self.victory_label.setTextFormat(Qt.TextFormat.RichText)
        self.victory_finish = QPushButton("■ Finish the session")
        self.victory_finish.setToolTip("It stays in the list, read-only, with its charts")
        self.victory_keep = QPushButton("Keep playing")
        self.victory_keep.clicked.connect(self.victory_bar.hide)
        bar = QHBoxLayout(self.victory_bar)
        bar.setContentsMargins(8, 4, 8, 4)
        bar.addWidget(self.victory_label, 1)
        bar.addWidget(self.victory_finish)
        bar.addWidget(self.victory_keep)
        self.victory_bar.hide()
        self._verdict = ""
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addWidget(self.message)
        layout.addWidget(self.victory_bar)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        actions.message.connect(self.show_message)

    # --- opening ----------------------------------------------------------------------
    def show_session(self, game: Game, title: str, pages: EventPages, read_only: bool,
                     charts: Callable[[], None] | None) -> None:
        """Build the sheets and clock of ``game``; ``charts`` draws them when first shown."""
        for _ in self.session_steps(game, title, pages, read_only, charts):
            pass

    def session_steps(self, game: Game, title: str, pages: EventPages, read_only: bool,
                      charts: Callable[[], None] | None,
                      state: str | None = None) -> Iterator[int | None]:
        """:meth:`show_session` in steps, each a turn of the event loop's work (the
        caller runs one per turn): each sheet built, then the grid, then the clock and
        the rest. Until the step that puts them in the grid, the sheets are built off
        screen and the view shows what it showed (such a step yields 0: it asked for no
        repaint, the next may come at once; the others yield None)."""
        rules = game.ruleset.play()
        screens = ruleset_ui(game.ruleset.id)
        sheets: dict[str, SheetFrame] = {}
        for vehicle in game.vehicles:
            widget = screens.sheet_widget(vehicle, rules, self._explain)
            widget.mark_requested.connect(self.actions_hub.mark)
            widget.procedure_requested.connect(
                lambda procedure, presets: self.actions_hub.run(procedure, presets))
            widget.house = lambda: game.house
            widget.set_sheet(game.sheet(vehicle.key), read_only)
            widget.set_illegal(game.illegal_lines(vehicle.key))
            sheets[vehicle.key] = widget
            yield 0
        self.game = game
        self.session_title = title
        self.read_only = read_only
        self.provenance = Provenance(game.ruleset, rules, pages)
        self._title_head = f"<b>{title}</b> · {game.ruleset.title}"
        self.set_state(state or ("read-only, finished" if read_only else "running"))
        self.sheets = sheets
        self.clock = None  # (the next step makes this game's)
        self.grid.set_sheets(list(self.sheets.values()))
        yield None
        panel = screens.clock_panel(self.actions_hub)
        old = self.clock_area.takeWidget()
        if old is not None:
            old.deleteLater()
        while self.clock_footer.count():
            item = self.clock_footer.takeAt(0)
            gone = None if item is None else item.widget()
            if gone is not None:
                gone.hide()
                gone.deleteLater()
        footer = getattr(panel, "footer", None)
        if isinstance(footer, QWidget):
            self.clock_footer.addWidget(footer)
        holder = QWidget()
        holder_layout = QVBoxLayout(holder)
        holder_layout.setContentsMargins(0, 0, 0, 0)
        holder_layout.addWidget(panel)
        self.durations_box = QWidget()
        self.durations_label = QLabel()
        self.durations_label.setWordWrap(True)
        self.durations_label.setObjectName("clock-durations")
        heading = QLabel("<b>Durations</b> (ended by the clock)")
        durations_layout = QVBoxLayout(self.durations_box)
        durations_layout.setContentsMargins(9, 0, 9, 4)
        durations_layout.setSpacing(0)
        durations_layout.addWidget(heading)
        durations_layout.addWidget(self.durations_label)
        holder_layout.addWidget(self.durations_box)
        holder_layout.addStretch(1)
        self.clock_area.setWidget(holder)
        self.clock = cast(ClockPanel, panel)
        self.clock.show_game(game, read_only)
        self.show_durations()
        self.grid.refresh()
        self._verdict = ""
        self.victory_bar.hide()
        self.check_verdict()
        QTimer.singleShot(0, self, lambda: self.fit_clock(shrink=True))
        self.log_dock.model.set_pages(pages)
        self._charts_loader = charts
        self.charts.reset()  # another session's charts are never shown for this one
        self.tabs.setTabVisible(1, charts is not None)
        self.tabs.setCurrentIndex(0)
        for action in (self.undo_action, self.redo_action, self.finish_action):
            action.setVisible(not read_only)
        # Only a ruleset whose phase's fire resolves as one batch offers it (AUTOpower's
        # one attack per turn has none).
        self.batch_button.setVisible(screens.fire_batch is not None and not read_only)
        self.show_message("", False)
        self.update_actions()

    def set_state(self, state: str) -> None:
        """The title's last part: running, read-only, finished, or how a followed session
        is followed ("following, live", "following, connection lost — retrying")."""
        self.state = state
        self.title.setText(f"&nbsp;{self._title_head} · {html.escape(state)}&nbsp;")

    def keep_session(self, pages: EventPages) -> None:
        """The session on screen goes on with its history read through ``pages`` (it was
        shown from the file at start-up; the database is open now): the same sheets and
        clock stay, with the keyboard focus where it was."""
        assert self.game is not None
        self.provenance = Provenance(self.game.ruleset, self.game.ruleset.play(), pages)
        self.log_dock.model.set_pages(pages)
        self.update_actions()

    def _explain(self, key: str, box: str) -> str:
        if self.provenance is None:
            return ""
        cause = self.provenance.explain(key, box)
        return "" if cause is None else str(cause)

    def set_charts_loader(self, charts: Callable[[], None]) -> None:
        """Draw the charts with ``charts`` when their tab is next chosen (after a Cancel)."""
        self._charts_loader = charts
        if self.tabs.currentIndex() == 1:
            self.tabs.setCurrentIndex(0)

    def _tab_chosen(self, index: int) -> None:
        if index == 1 and self._charts_loader is not None:
            loader, self._charts_loader = self._charts_loader, None
            loader()

    # --- keeping up ---------------------------------------------------------------------
    def apply_changes(self, changes: Changes) -> None:
        game = self.game
        if game is None:
            return
        if self.provenance is not None:
            self.provenance.note(changes)
        for key in changes.vehicles:
            widget = self.sheets.get(key)
            if widget is not None:
                widget.set_sheet(game.sheet(key), self.read_only)
        settings = changes.settings
        if settings:  # the house rules may have changed: each design is judged again
            for key, widget in self.sheets.items():
                widget.set_illegal(game.illegal_lines(key))
        if self.clock is not None:
            self.clock.show_game(game, self.read_only)
        self.show_durations()
        self.grid.refresh(tuple(self.sheets) if settings else tuple(changes.vehicles) or ("",))
        self.check_verdict()
        QTimer.singleShot(0, self, self.fit_clock)
        self.log_dock.model.note(changes)
        self.update_actions()

    def show_durations(self) -> None:
        """Every duration with what is left: on the Clock, and on its vehicle's sheet."""
        game = self.game
        if game is None:
            return
        running = game.ruleset.play().durations(game.clock, game.vehicles_view())
        for key, widget in self.sheets.items():
            widget.set_durations([d for d in running if d.vehicle == key])
        self.durations_label.setText("\n".join(str(d) for d in running))
        self.durations_label.setToolTip("\n".join(f"{d.label}: {d.rule}" for d in running))
        self.durations_box.setVisible(bool(running))

    def check_verdict(self) -> None:
        """When the rules' victory check declares a winner (or a draw), offer to finish the
        session, once per verdict (undoing the deciding event takes the offer back)."""
        game = self.game
        verdict = "" if game is None else game.ruleset.play().verdict(game.vehicles_view())
        if verdict == self._verdict:
            return
        self._verdict = verdict
        self.victory_label.setText(f"⚑ <b>{verdict}</b> — the game is decided. Finish the "
                                   "session?" if verdict else "")
        self.victory_bar.setVisible(bool(verdict) and not self.read_only)

    def _log_floor(self) -> int:
        """The session log's least height: :data:`LOG_ROWS` events under the list's header
        and two lines of the event's explanation (set as the dock's minimum, so that
        neither the Clock nor a dragged separator squeezes it further)."""
        view, details = self.log_dock.view, self.log_dock.details
        rows = view.verticalHeader().defaultSectionSize() * LOG_ROWS
        view.setMinimumHeight(view.horizontalHeader().sizeHint().height() + rows
                              + 2 * view.frameWidth())
        details.setMinimumHeight(2 * details.fontMetrics().lineSpacing()
                                 + 2 * details.frameWidth() + 8)
        return self.log_dock.minimumSizeHint().height()

    def fit_clock(self, shrink: bool = False) -> None:
        """The Clock whole, without a scrollbar, when the log below can give it the room
        (the log keeps :meth:`_log_floor`; the Clock scrolls beyond that); with ``shrink``
        (a session opens) the log gets back what the Clock does not need."""
        holder = self.clock_area.widget()
        if holder is None or self.log_dock.isHidden() or self.clock_dock.isFloating():
            return
        need = holder.sizeHint().height() + 2 * self.clock_area.frameWidth()
        have = self.clock_area.viewport().height()
        if need <= have and not (shrink and need + 40 < have):
            return
        total = self.clock_dock.height() + self.log_dock.height()
        clock = min(self.clock_dock.height() + need - have, total - self._log_floor())
        self.resizeDocks([self.clock_dock, self.log_dock], [clock, total - clock],
                         Qt.Orientation.Vertical)

    def durations_text(self) -> str:
        return self.durations_label.text() if self.durations_box.isVisibleTo(self) else ""

    def update_actions(self) -> None:
        game = self.game
        running = game is not None and not self.read_only
        self.undo_action.setEnabled(running and game is not None and game.can_undo())
        self.redo_action.setEnabled(running and game is not None and game.can_redo())

    def sheet_of(self, key: str) -> RecordSheet:
        assert self.game is not None
        return self.game.sheet(key)

    def show_message(self, text: str, error: bool) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(f"color: {error_colour()}; font-weight: 600;" if error else "")
