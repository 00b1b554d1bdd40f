"""The list of sessions, running and finished: resume one, or open a finished one read-only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.record_table_model import RIGHT_ALIGNED, RecordTableModel
from carwars_desktop.gui.theme import error_colour
from carwars_desktop.rules.registry import ruleset_title
from carwars_desktop.storage import SessionInfo

COLUMNS = ("Session", "Ruleset", "Scenario", "State", "Vehicles", "Events", "Last played")
NUMBER_COLUMNS = (4, 5)


class SessionListModel(RecordTableModel["SessionInfo"]):
    """A thin model over the sessions the database lists (most recently played first)."""

    columns = COLUMNS

    def cell(self, info: SessionInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(info, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMBER_COLUMNS:
            return RIGHT_ALIGNED
        if role == Qt.ItemDataRole.FontRole and column == 0 and info.running:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            what = "Enter resumes it" if info.running else "Enter opens it read-only"
            return f"{info.name}: {what}"
        return None

    @staticmethod
    def _display(info: SessionInfo, column: int) -> str:
        if column == 0:
            return info.name
        if column == 1:
            return ruleset_title(info.ruleset_id)
        if column == 2:
            return info.scenario or "free play"
        if column == 3:
            if info.running and info.lease is not None:
                return f"▶ {info.lease.describe()}"  # another copy of the app plays it
            return "▶ running" if info.running else "■ finished"
        if column == 4:
            return str(info.vehicle_count)
        if column == 5:
            return str(info.event_count)
        return info.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")


class SessionListPage(QWidget):
    """Sessions, and what to do with them; :attr:`open_requested` carries the session id."""

    open_requested = Signal(int)
    new_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SessionListModel()
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setAccessibleName("Sessions")
        self.view.verticalHeader().hide()
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.heading = QLabel("<h2>Sessions</h2>")
        self.hint = QLabel("Start a session (Ctrl+N), or pick one: a running session resumes, "
                           "a finished one opens read-only with its charts.")
        self.hint.setWordWrap(True)
        self.message = QLabel()
        self.message.setObjectName("error")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(f"color: {error_colour()}; font-weight: 600;")
        self.new_button = QPushButton("&New session…")
        self.new_button.setToolTip("Ctrl+N")
        self.open_button = QPushButton("&Resume")
        self.open_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.hint)
        layout.addWidget(self.message)
        layout.addWidget(self.view, 1)
        layout.addLayout(buttons)
        self.new_button.clicked.connect(self.new_requested)
        self.open_button.clicked.connect(self._open_current)
        self.view.activated.connect(lambda index: self.open_row(index.row()))
        self.view.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self._update_button(current.row()))

    def set_sessions(self, sessions: Sequence[SessionInfo]) -> None:
        self.model.reset(sessions)
        if sessions:
            self.view.selectRow(0)
        self._update_button(0 if sessions else -1)

    def _update_button(self, row: int) -> None:
        if not 0 <= row < self.model.rowCount():
            self.open_button.setEnabled(False)
            return
        running = self.model.record(row).running
        self.open_button.setEnabled(True)
        self.open_button.setText("&Resume" if running else "&Open read-only")

    def _open_current(self) -> None:
        self.open_row(self.view.currentIndex().row())

    def open_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.open_requested.emit(self.model.record(row).id)
