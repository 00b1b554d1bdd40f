"""Table › Replay session…: any session, finished or running, replayed event by event
(issue 36 §1) in a window of its own. Read only: nothing here writes to the database.

The sheets are the Table's own (the ruleset's sheet widgets, read-only), the clock its
header, the log the Table's log model with event N's line selected; ←/→ step one event
of the main line, Shift+←/→ every event (into an undone branch: its state with it
applied), PgUp/PgDn one turn, Home/End; the slider runs over the main line, a mark where
each turn begins. "What were the odds?" tells each roll of event N
(:func:`~carwars_desktop.services.replay.roll_odds`). The states are rebuilt by
:class:`~carwars_desktop.session.replay.Replay` (Qt-free), a step at most K events.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QCloseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSplitter,
    QStyle,
    QStyleOptionSlider,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import Cancelled, Job, run_with_progress
from carwars_desktop.gui.players_display import PlayerDisplay
from carwars_desktop.gui.rulesets import ruleset_ui
from carwars_desktop.gui.session_box import session_box
from carwars_desktop.gui.shortcuts import key_text, shortcut
from carwars_desktop.gui.table.clock_header import ClockHeader
from carwars_desktop.gui.table.event_log import EventLogModel, event_table
from carwars_desktop.gui.table.sheet_frame import SheetFrame
from carwars_desktop.gui.table.sheet_grid import SheetGrid
from carwars_desktop.gui.theme import muted_colour
from carwars_desktop.services.replay import ReplayError, ReplaySession, open_replay, roll_odds
from carwars_desktop.session import Clock
from carwars_desktop.storage import Database, DatabaseError


class TurnSlider(QSlider):
    """A slider over the main line with a tick where each turn begins."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.marks: list[int] = []
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the window's keys step, not its own
        self.setMinimumHeight(28)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if not self.marks or self.maximum() <= self.minimum():
            return
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        groove = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                             QStyle.SubControl.SC_SliderGroove, self)
        handle = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                             QStyle.SubControl.SC_SliderHandle, self)
        span = groove.width() - handle.width()
        painter = QPainter(self)
        painter.setPen(QPen(self.palette().text().color(), 1))
        for mark in self.marks:
            x = groove.left() + handle.width() // 2 + round(
                span * (mark - self.minimum()) / (self.maximum() - self.minimum()))
            painter.drawLine(x, self.height() - 6, x, self.height() - 1)
        painter.end()


class ReplayView(QWidget):
    """One session's replay (a window): see the module docstring."""
    def __init__(self, session: ReplaySession, parent: QWidget | None = None,
                 tv: Callable[[], PlayerDisplay] | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)

        self.session = session
        self._tv = tv
        """Opens (or gives) the players' display, when there is one to follow the replay."""
        self.on_tv: PlayerDisplay | None = None
        """The players' display while it shows the replay (:meth:`toggle_tv`)."""
        self.replay = session.replay
        self.ruleset = session.ruleset
        self.rules = session.ruleset.play()
        self.index = 0
        state = "running: replayed as it stood when opened" if session.info.running \
            else "finished"
        self.setWindowTitle(f"Replay — {session.title}")
        self.setObjectName("replay-view")
        self.heading = QLabel(f"<b>{session.title}</b> · {self.ruleset.title} · {state} · "
                              "read only")
        self.where = QLabel()
        self.where.setObjectName("replay-where")
        self.where.setWordWrap(True)
        screens = ruleset_ui(self.ruleset.id)
        self.sheets: dict[str, SheetFrame] = {}
        for vehicle in session.vehicles:
            widget = screens.sheet_widget(vehicle, self.rules, lambda _key, _box: "")
            self.sheets[vehicle.key] = widget
        self.grid = SheetGrid()
        self.grid.set_sheets(list(self.sheets.values()))
        self.clock = ClockHeader()
        self.durations = QLabel()
        self.durations.setWordWrap(True)
        self.odds = QLabel()
        self.odds.setObjectName("replay-odds")
        self.odds.setWordWrap(True)
        self.odds.setTextFormat(Qt.TextFormat.RichText)
        self.odds.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.log_model = EventLogModel(self.replay.pages)
        self.log = event_table(self.log_model)
        self.log.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.log.clicked.connect(self._log_clicked)
        self.slider = TurnSlider()
        self.slider.setRange(0, len(self.replay.main_line) - 1)
        self.slider.marks = self.replay.turn_starts()
        self.slider.setAccessibleName("Replay position (the main line)")
        self.slider.valueChanged.connect(self._slid)
        keys = {"replay.previous": "◀", "replay.next": "▶", "replay.previous_turn": "◀◀ turn",
                "replay.next_turn": "turn ▶▶", "replay.first": "|◀ start", "replay.last": "end ▶|"}
        self.buttons: dict[str, QPushButton] = {}
        moves: dict[str, Callable[[int], int]] = {
            "replay.previous": self.replay.previous_event, "replay.next": self.replay.next_event,
            "replay.previous_any": self.replay.previous_any,
            "replay.next_any": self.replay.next_any,
            "replay.previous_turn": self.replay.previous_turn,
            "replay.next_turn": self.replay.next_turn,
            "replay.first": lambda _at: 0, "replay.last": lambda _at: self.replay.last}
        for action_id, move in moves.items():
            shortcut(action_id, self, self._mover(move))
        shortcut("replay.show_on_tv", self, self.toggle_tv)
        self.tv_button = QPushButton("Show on the TV")
        self.tv_button.setCheckable(True)
        self.tv_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tv_button.setToolTip(f"The players' display follows the replay "
                                  f"({key_text('replay.show_on_tv')}); again: the table's "
                                  "game back on the TV")
        self.tv_button.setEnabled(tv is not None)
        self.tv_button.clicked.connect(lambda _=False: self.toggle_tv())
        row = QHBoxLayout()
        for action_id, text in keys.items():
            button = QPushButton(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setToolTip(f"{text} ({key_text(action_id)}); Shift+←/→: every event, "
                              "undone ones included")
            button.clicked.connect(self._mover(moves[action_id]))
            row.addWidget(button)
            self.buttons[action_id] = button
        row.addWidget(self.slider, 1)
        row.addWidget(self.tv_button)
        right = QWidget()
        side = QVBoxLayout(right)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.clock)
        side.addWidget(self.durations)
        side.addWidget(QLabel("<b>What were the odds?</b>"))
        side.addWidget(self.odds)
        side.addWidget(self.log, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.grid)
        splitter.addWidget(right)
        splitter.setSizes([700, 420])
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.where)
        layout.addWidget(splitter, 1)
        layout.addLayout(row)
        self.resize(1200, 760)
        self.go(self.replay.last)

    # --- moving --------------------------------------------------------------------------
    def _mover(self, move: Callable[[int], int]) -> Callable[[], None]:
        return lambda: self.go(move(self.index))

    def go(self, index: int) -> None:
        """Show the state after position ``index`` (0: the start); a step whose events
        cannot be read again (the database gone, the session's history changed) says why
        and stays where it was."""

        index = max(0, min(index, len(self.replay) - 1))
        try:
            state = self.replay.state(index)
        except (DatabaseError, ValueError) as error:
            self.where.setText(f"⚠ Event {self.replay.positions[index].seq} cannot be "
                               f"shown: {error}")
            return
        self.index = index
        sheets = {key: self.ruleset.sheet_from_json(data) for key, data in state.sheets.items()}
        for key, widget in self.sheets.items():
            if key in sheets:
                widget.set_sheet(sheets[key], read_only=True)
        clock = Clock.from_json(state.clock)
        self.clock.show_clock(clock, clock.phase_name,
                              [str(n + 1) for n in range(len(clock.phases))])
        view = {v.key: (v.name, sheets[v.key]) for v in self.session.vehicles if v.key in sheets}
        running = self.rules.durations(clock, view)
        for key, widget in self.sheets.items():
            widget.set_durations([d for d in running if d.vehicle == key])
        self.durations.setText("\n".join(str(d) for d in running))
        self.grid.refresh()
        self.slider.blockSignals(True)
        self.slider.setValue(self.replay.main_rank(self.index))
        self.slider.blockSignals(False)
        if self.on_tv is not None:
            self.on_tv.show_replayed(self.session.players_view_at(self.index))
        self.where.setText(self.where_text())
        self.odds.setText(self.odds_text())
        if self.index == 0:
            self.log.clearSelection()
            self.log.scrollToTop()
        else:
            self.log.selectRow(self.index - 1)
            self.log.scrollTo(self.log_model.index(self.index - 1, 0),
                              QAbstractItemView.ScrollHint.PositionAtCenter)

    def toggle_tv(self) -> None:
        """Event N on the players' display, following each step; again (or closing the
        replay): the table's game back on it."""
        if self.on_tv is not None:
            self.on_tv.show_replayed(None)
            self.on_tv = None
        elif self._tv is not None:
            self.on_tv = self._tv()
            self.on_tv.destroyed.connect(self._tv_gone)
            self.on_tv.show_replayed(self.session.players_view_at(self.index))
        self.tv_button.setChecked(self.on_tv is not None)

    def _tv_gone(self) -> None:
        self.on_tv = None
        self.tv_button.setChecked(False)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        if self.on_tv is not None:
            self.toggle_tv()
        super().closeEvent(event)

    def where_text(self) -> str:
        position = self.replay.positions[self.index]
        total = len(self.replay.main_line) - 1
        stored = self.replay.stored(self.index)
        if stored is None:
            return f"The start: no event yet ({total} events in force)"
        event = stored.event
        when = f"turn {event.turn}" + (f", {event.phase}" if event.phase else "") \
            if event.turn is not None else ""
        rank = self.replay.main_rank(self.index)
        text = f"After event {position.seq}" + (f" ({when})" if when else "") + \
            f": {event.summary}"
        if position.main:
            return f"{text} — {rank} of {total} in force"
        return (f"{text} — <i>undone branch</i> (after event "
                f"{self.replay.positions[position.base].seq} of the main line; "
                f"{key_text('replay.next')} goes back to it)")

    def odds_text(self) -> str:
        stored = self.replay.stored(self.index)
        if stored is None:
            return f"<span style='color:{muted_colour()}'>No roll</span>"
        rolls = roll_odds(stored)
        if not rolls:
            return f"<span style='color:{muted_colour()}'>No roll in this event</span>"
        return "<br>".join(r.words() for r in rolls)

    def highlighted_row(self) -> int | None:
        """The log's selected row (event N's line), None when none is."""
        rows = self.log.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def _slid(self, rank: int) -> None:
        self.go(self.replay.main_line[rank])

    def _log_clicked(self, index: QModelIndex) -> None:
        self.go(index.row() + 1)


class ReplayPicker(QDialog):
    """Choose the session to replay (the one at the Table first)."""

    def __init__(self, database: Database, current: int | None = None,
                 parent: QWidget | None = None,
                 tv: Callable[[], PlayerDisplay] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Replay session")
        self.tv = tv
        self.database = database
        self.view: ReplayView | None = None
        self.sessions = session_box(database, current)
        some = self.sessions.count() > 0
        self.message = QLabel("" if some else "No session yet: start one at the Table.")
        self.message.setWordWrap(True)
        self.replay_button = QPushButton("&Replay")
        self.replay_button.setEnabled(some)
        self.replay_button.setDefault(True)
        self.replay_button.clicked.connect(lambda: self.open_view())
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        form = QFormLayout()
        form.addRow("Session", self.sessions)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.replay_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addLayout(buttons)

    def open_view(self) -> ReplayView | None:
        """Read the chosen session's events on a worker and open its replay (returned)."""

        session_id = self.sessions.currentData()
        if session_id is None:
            return None
        database = self.database

        def read(job: Job) -> ReplaySession:
            session = open_replay(database, int(session_id))
            job.check()
            return session

        try:
            session = run_with_progress(self, "Replay", read, "Reading the session's events…")
        except Cancelled:
            self.message.setText("Not opened: cancelled")
            return None
        except (ReplayError, DatabaseError) as error:
            self.message.setText(f"⚠ Not opened: {error}")
            return None
        view = ReplayView(session, self.parentWidget(), self.tv)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        view.show()
        self.view = view
        self.accept()
        return view
