"""The list of sessions, running and finished: resume one, or open a finished one read-only."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
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
from carwars_desktop.gui.small_widgets import error_label
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

    def update_sessions(self, infos: Sequence[SessionInfo], asked: Iterable[int]) -> None:
        """Rows by id: ``infos`` are sessions new or changed, the ids ``asked`` for and
        not among them are gone. Rows go where the order (most recently played first) puts
        them; nothing is reset, so the view keeps its selection and current row."""
        found = {info.id: info for info in infos}
        gone = set(asked) - found.keys()
        for row in reversed(range(len(self._records))):  # 1. the ones deleted
            if self._records[row].id in gone:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._records[row]
                self.endRemoveRows()
        kept = [found.get(info.id, info) for info in self._records]
        known = {info.id for info in kept}
        target = sorted([*kept, *(i for i in infos if i.id not in known)],
                        key=lambda info: (info.updated_at, info.id), reverse=True)
        order = [info for info in target if info.id in known]
        if [i.id for i in order] != [i.id for i in kept]:  # 2. the kept ones, moved
            self.layoutAboutToBeChanged.emit()
            old = self.persistentIndexList()
            rows = {info.id: row for row, info in enumerate(order)}
            new = [self.index(rows[self._records[index.row()].id], index.column())
                   if index.isValid() else QModelIndex() for index in old]
            self._records = order
            self.changePersistentIndexList(old, new)
            self.layoutChanged.emit()
        else:
            self._records = order
        last = len(self.columns) - 1
        for row, info in enumerate(self._records):  # 3. what they show
            if info.id in found:
                self.dataChanged.emit(self.index(row, 0), self.index(row, last))
        for row, info in enumerate(target):  # 4. the new ones, top down
            if info.id not in known:
                self.beginInsertRows(QModelIndex(), row, row)
                self._records.insert(row, info)
                self.endInsertRows()

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
        self.message = error_label()
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

    def update_sessions(self, infos: Sequence[SessionInfo], asked: Iterable[int]) -> None:
        """The rows of the sessions ``asked`` for, as read again (another copy of the app
        wrote them): the selection stays on the session it was on; a selected session
        deleted elsewhere is said so."""
        current = self.view.currentIndex()
        selected = self.model.record(current.row()) if current.isValid() else None
        self.model.update_sessions(infos, asked)
        if selected is not None and selected.id in set(asked) - {i.id for i in infos}:
            self.message.setText(f"Session “{selected.name}” was deleted elsewhere (in "
                                 "another copy of the app): no longer listed here.")
        if not self.view.currentIndex().isValid() and self.model.rowCount():
            self.view.selectRow(0)
        self._update_button(self.view.currentIndex().row())

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
