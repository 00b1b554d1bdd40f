"""The session log: every event with its explanation, read lazily page by page.

:class:`EventLogModel` is a thin Qt model over the session's event pages
(``SessionEvents.count``/``page``): it knows how many events there are and
reads only the pages the view shows, so a 100,000-event evening opens as fast
as a short one. Undone events stay listed, marked "undone" in words.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PySide6.QtCore import (
    QItemSelection,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHeaderView,
    QSplitter,
    QTableView,
    QTextBrowser,
    QWidget,
)

from carwars_desktop.gui.record_table_model import ColumnsTableModel
from carwars_desktop.session import Changes, EventPages, StoredEvent

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("#", "Turn", "What happened")
PAGE = 100
KEPT_PAGES = 16
KEPT_TOOLTIPS = 20_000
"""Hover explanations kept (a GM hovers a few hundred rows in an evening)."""
KIND_WORDS = {"resolution": "roll", "mark": "mark", "clock": "clock", "note": "note"}


class EventLogModel(ColumnsTableModel):
    """Rows are events in order (row = seq − 1); pages are read when first shown."""

    columns = COLUMNS

    def __init__(self, pages: EventPages | None = None) -> None:
        super().__init__()
        self._pages = pages
        self._count = 0
        self._cache: OrderedDict[int, list[StoredEvent]] = OrderedDict()
        self.reads = 0
        self._tooltips: OrderedDict[tuple[int, bool, bool], str] = OrderedDict()
        self.tooltip_builds = 0
        """Hover explanations built (each event's once, while it stays among the kept)."""
        self.set_pages(pages)

    def set_pages(self, pages: EventPages | None) -> None:
        self.beginResetModel()
        self._pages = pages
        self._cache.clear()
        self._tooltips.clear()
        self.reads = 0
        self.tooltip_builds = 0
        self._count = 0 if pages is None else pages.count(include_undone=True)
        self.endResetModel()

    def reload(self) -> None:
        self.set_pages(self._pages)

    # --- reading ------------------------------------------------------------------
    def event_at(self, row: int) -> StoredEvent | None:
        if self._pages is None or not 0 <= row < self._count:
            return None
        number = row // PAGE
        page = self._cache.get(number)
        if page is None:
            page = self._pages.page(number * PAGE, PAGE)
            self.reads += 1
            self._cache[number] = page
            while len(self._cache) > KEPT_PAGES:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(number)
        offset = row - number * PAGE
        return page[offset] if offset < len(page) else None

    def row_total(self) -> int:
        return self._count

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        stored = self.event_at(index.row())
        if stored is None:
            return None
        column = index.column()
        event = stored.event
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return str(stored.seq)
            if column == 1:
                return "" if event.turn is None else str(event.turn)
            if column == 2:
                if stored.undone:
                    return f"{undone_words(stored)}: {event.summary}"
                return event.summary
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 1):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and stored.undone:
            font = QFont()
            font.setItalic(True)
            font.setStrikeOut(column == 2)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(stored)
        return None

    def tooltip(self, stored: StoredEvent) -> str:
        """The row's hover explanation, built once per event (and state) and kept."""
        key = (stored.seq, stored.undone, stored.abandoned)
        text = self._tooltips.get(key)
        if text is None:
            self.tooltip_builds += 1
            text = self._tooltips[key] = tooltip_text(stored)
            while len(self._tooltips) > KEPT_TOOLTIPS:
                self._tooltips.popitem(last=False)
        else:
            self._tooltips.move_to_end(key)
        return text

    # --- keeping up -------------------------------------------------------------
    def note(self, changes: Changes) -> None:
        """Follow an event, undo or redo that has just been committed (no query when the
        event is simply added after the others)."""
        stored = changes.event
        if self._pages is None or stored is None:
            return
        row = stored.seq - 1
        if not changes.undone and row == self._count:
            self._abandon_undone(row)
            self.beginInsertRows(QModelIndex(), row, row)
            self._count += 1
            page = self._cache.get(row // PAGE)
            if page is not None and len(page) == row % PAGE:
                page.append(stored)
            self.endInsertRows()
            return
        cached = self._cached(row)
        same = cached is not None and cached.created_at == stored.created_at
        if changes.undone or (same and self._pages.count(include_undone=True) == self._count):
            self._replace(row, StoredEvent(stored.seq, stored.event, stored.created_at,
                                           changes.undone))
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
            return
        self.reload()

    def _abandon_undone(self, before: int) -> None:
        """A new event follows: the undone events before it stay listed, no longer redoable
        (as the store now keeps them)."""
        for number, page in self._cache.items():
            for offset, stored in enumerate(page):
                row = number * PAGE + offset
                if row < before and stored.undone and not stored.abandoned:
                    page[offset] = StoredEvent(stored.seq, stored.event, stored.created_at,
                                               True, True)
                    self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def _cached(self, row: int) -> StoredEvent | None:
        page = self._cache.get(row // PAGE)
        offset = row % PAGE
        return page[offset] if page is not None and offset < len(page) else None

    def _replace(self, row: int, stored: StoredEvent) -> None:
        page = self._cache.get(row // PAGE)
        if page is not None and row % PAGE < len(page):
            page[row % PAGE] = stored


def undone_words(stored: StoredEvent) -> str:
    """How the log names an undone event: redoable, or left behind by a new event."""
    if stored.abandoned:
        return "↶ undone, not redoable (a new event followed)"
    return "↶ undone"


def tooltip_text(stored: StoredEvent) -> str:
    """An event's hover explanation: when, what kind, its summary and every step."""
    event = stored.event
    kind = KIND_WORDS.get(event.kind.value, event.kind.value)
    when = f"turn {event.turn}, {event.phase}: " if event.turn is not None else ""
    state = f" ({undone_words(stored)[2:]})" if stored.undone else ""
    return "\n".join((f"{when}{kind}{state}", event.summary, *event.steps))


def details_html(stored: StoredEvent) -> str:
    event = stored.event
    state = f" <i>({undone_words(stored)[2:]})</i>" if stored.undone else ""
    when = f"turn {event.turn}, {event.phase} · " if event.turn is not None else ""
    steps = "".join(f"<li>{step}</li>" for step in event.steps)
    dice = " ".join(str(d.get("value")) for d in event.dice)
    kind = KIND_WORDS.get(event.kind.value, event.kind.value)
    parts = [f"<p><b>#{stored.seq} {event.summary}</b>{state}</p>",
             f"<p>{kind} · {when}{stored.created_at.astimezone().strftime('%H:%M:%S')}"
             + (f" · {event.procedure_id}" if event.procedure_id else "")
             + (f" · dice {dice}" if dice else "") + "</p>"]
    if steps:
        parts.append(f"<ol>{steps}</ol>")
    return "".join(parts)


def event_table(model: EventLogModel) -> QTableView:
    """A session's events as a read-only table, a whole row selected at a time; the
    number and turn columns are fixed widths (sizing them to their contents would read
    every page of the history), the text takes the rest."""
    view = QTableView()
    view.setModel(model)
    view.setAccessibleName("Session events")
    view.verticalHeader().hide()
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setWordWrap(False)
    header = view.horizontalHeader()
    metrics = view.fontMetrics()
    for column, sample in enumerate(("99999", "Turn")):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(column, metrics.horizontalAdvance(sample) + 14)
    header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
    return view


class EventLogDock(QDockWidget):
    """The "Session log" dock: the event list and the selected event's explanation."""

    event_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Session log", parent)
        self.setObjectName("session-log")
        self.model = EventLogModel()
        self.view = event_table(self.model)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.details = QTextBrowser()
        self.details.setAccessibleName("Event explanation")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        splitter.addWidget(self.details)
        splitter.setSizes([300, 160])
        self.setWidget(splitter)
        self.view.selectionModel().selectionChanged.connect(self._selected)
        self.model.rowsInserted.connect(lambda *_: self.show_last())
        self.model.modelReset.connect(self.show_last)

    def show_last(self) -> None:
        rows = self.model.rowCount()
        if rows:
            self.view.scrollToBottom()
            self.view.selectRow(rows - 1)
        else:
            self.details.clear()

    def _selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        if not indexes:
            return
        stored = self.model.event_at(indexes[0].row())
        if stored is not None:
            self.details.setHtml(details_html(stored))
