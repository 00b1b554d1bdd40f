"""The Ledger workspace: the club's ledger (issue 36 §3) — per player or per vehicle
design, over every finished session of the database; filtered by ruleset, date range and
house-rules profile; sorted by any column (click its heading); exported as CSV.

The table is :class:`~carwars_desktop.services.ledger.LedgerService`'s (the command line's
``carwars-desktop ledger`` prints the same). It is drawn again when a session finishes:
this copy's finish is heard on the change bus; another copy's (sharing a club database)
by a cheap look at the finished sessions every few seconds while the Ledger is shown
(:meth:`LedgerService.poll`, which publishes it on the bus).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QDate, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDateEdit,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import LatestOnly
from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.workspace import Workspace
from carwars_desktop.rules.registry import ruleset_ids, ruleset_title
from carwars_desktop.services import Changes, Services
from carwars_desktop.services.ledger import (
    COLUMNS,
    DESIGN,
    HEADINGS,
    PLAYER,
    Ledger,
    LedgerFilter,
    LedgerService,
    luck_text,
)
from carwars_desktop.storage import Database

POLL_MS = 5000
"""How often the Ledger, while shown, looks for sessions other copies finished."""
ALL = "All"


class _Cell(QTableWidgetItem):
    """A cell shown as text and sorted by its number."""

    def __init__(self, text: str, key: float | str) -> None:
        super().__init__(text)
        self.key = key
        if not isinstance(key, str):
            self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setFlags(self.flags() & ~Qt.ItemFlag.ItemIsEditable)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, _Cell) and type(self.key) is type(other.key):
            return self.key < other.key  # type: ignore[operator]
        return super().__lt__(other)


def _text(item: QTableWidgetItem | None) -> str:
    return "" if item is None else item.text()


def _ask_csv_path(parent: QWidget, suggested: str) -> str:
    path, _ = QFileDialog.getSaveFileName(parent, "Export the ledger", suggested,
                                          "CSV (*.csv);;All files (*)")
    return path


class LedgerWorkspace(Workspace):
    title = "Ledger"

    def __init__(self, services: Services, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services = services
        self.service: LedgerService | None = None
        self.ledger: Ledger | None = None
        self._stale = True
        self._ruleset = ""
        self.ask_path: Callable[[QWidget, str], str] = _ask_csv_path
        """Asks where to export (a dialog; tests replace it)."""

        self.rows_box = ElidedComboBox()
        self.rows_box.setAccessibleName("Rows")
        self.rows_box.addItem("Players", PLAYER)
        self.rows_box.addItem("Vehicle designs", DESIGN)
        self.ruleset_box = ElidedComboBox()
        self.ruleset_box.setAccessibleName("Ruleset")
        self.ruleset_box.addItem(ALL, None)
        for rid in ruleset_ids():
            self.ruleset_box.addItem(ruleset_title(rid), rid)
        self.profile_box = ElidedComboBox()
        self.profile_box.setAccessibleName("House rules profile")
        self.profile_box.addItem(ALL, None)
        today = QDate.currentDate()
        self.since_check = QCheckBox("&From")
        self.since_edit = QDateEdit(today.addYears(-1))
        self.until_check = QCheckBox("&To")
        self.until_edit = QDateEdit(today)
        for edit in (self.since_edit, self.until_edit):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setEnabled(False)
        self.since_edit.setAccessibleName("From day")
        self.until_edit.setAccessibleName("To day")
        self.export_button = QPushButton("&Export CSV…")
        self.export_button.setToolTip("Save the table as shown as a CSV file")
        self.summary = QLabel("")
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("ledger-table")
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)

        filters = QHBoxLayout()
        for label, widget in (("&Rows:", self.rows_box), ("R&uleset:", self.ruleset_box),
                              ("&House rules:", self.profile_box)):
            text = QLabel(label)
            text.setBuddy(widget)
            filters.addWidget(text)
            filters.addWidget(widget, 1)
        for check, edit in ((self.since_check, self.since_edit),
                            (self.until_check, self.until_edit)):
            filters.addWidget(check)
            filters.addWidget(edit)
        filters.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)

        for box in (self.rows_box, self.ruleset_box, self.profile_box):
            box.currentIndexChanged.connect(self.refresh)
        for check, edit in ((self.since_check, self.since_edit),
                            (self.until_check, self.until_edit)):
            check.toggled.connect(edit.setEnabled)
            check.toggled.connect(self.refresh)
            edit.dateChanged.connect(self.refresh)
        self.export_button.clicked.connect(self.export)
        self.changes = ChangeSignal(services.bus, self)
        self.changes.changed.connect(self._heard)
        self.poll_timer = QTimer(self)
        self.poll_timer.setInterval(POLL_MS)
        self.poll_timer.timeout.connect(self.poll)
        self.counting: LatestOnly[object] = LatestOnly(self)
        """Reads or computes the summaries not yet at hand, off the GUI thread."""
        self._again = False

    # --- the workspace's hooks -----------------------------------------------------------
    def set_ruleset(self, ruleset_id: str) -> None:
        """The ledger counts every ruleset's sessions (its own Ruleset box chooses)."""
        self._ruleset = ruleset_id

    def attach_database(self, database: Database) -> None:
        self.service = LedgerService(database, self.services.bus)
        self._stale = True
        if self.isVisible():
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self.service is not None:
            self.service.poll(self)  # (the first look only takes the stamp)
            self.poll_timer.start()
            if self._stale:
                self.refresh()

    def hideEvent(self, event: object) -> None:  # noqa: N802 (Qt's name)
        self.poll_timer.stop()
        super().hideEvent(event)  # type: ignore[arg-type]

    # --- the table ---------------------------------------------------------------------
    def _heard(self, changes: Changes) -> None:
        if not changes.sessions:
            return
        self._stale = True
        if self.isVisible():
            self.refresh()

    def poll(self) -> bool:
        """Look for sessions finished elsewhere (the bus then tells this workspace)."""
        return self.service is not None and self.service.poll(self)

    def wanted(self) -> LedgerFilter:
        since = self.since_edit.date().toPython() if self.since_check.isChecked() else None
        until = self.until_edit.date().toPython() if self.until_check.isChecked() else None
        return LedgerFilter(self.ruleset_box.currentData(), since,  # type: ignore[arg-type]
                            until, self.profile_box.currentData())  # type: ignore[arg-type]

    def by(self) -> str:
        return str(self.rows_box.currentData())

    def refresh(self) -> None:
        """Draw the table again from the ledger. Summaries not yet at hand (the first look
        at a database, sessions finished since) are read or computed on a worker first,
        the window answering meanwhile; then the table is drawn."""
        if self.service is None:
            return
        self._stale = False
        if self.counting.busy:
            self._again = True  # drawn when the count ends
            return
        if not self.service.up_to_date():
            service = self.service
            self.summary.setText("Counting the finished sessions' results…")
            self.counting.submit(lambda job: service.summaries(job.progress),
                                 self._counted, self._count_failed)
            return
        self._draw()

    def _counted(self, _summaries: object) -> None:
        self._again = False
        self._draw()

    def _count_failed(self, error: BaseException) -> None:
        self._again = False
        self.summary.setText(f"⚠ The ledger could not be counted: {error}")

    def _draw(self) -> None:
        assert self.service is not None
        self._fill_profiles()
        self.ledger = self.service.ledger(self.wanted())
        by = self.by()
        lead = ["Player"] if by == PLAYER else ["Design", "Ruleset"]
        headings = lead + [HEADINGS[c] for c in COLUMNS]
        header = self.table.horizontalHeader()
        sort_column = header.sortIndicatorSection()
        order = header.sortIndicatorOrder()
        self.table.setSortingEnabled(False)
        self.table.clear()
        self.table.setColumnCount(len(headings))
        self.table.setHorizontalHeaderLabels(headings)
        rows = self.ledger.rows(by)
        self.table.setRowCount(len(rows))
        for number, row in enumerate(rows):
            cells = [_Cell(row.name, row.name.casefold())]
            if by == DESIGN:
                cells.append(_Cell(ruleset_title(row.ruleset), ruleset_title(row.ruleset)))
            for column in COLUMNS:
                value = row.value(column)
                text = luck_text(row.luck) if column == "luck" else str(value)
                cells.append(_Cell(text, float(value)))
            for index, cell in enumerate(cells):
                self.table.setItem(number, index, cell)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for index in range(1, len(headings)):
            header.setSectionResizeMode(index, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setSortingEnabled(True)
        if 0 <= sort_column < len(headings):
            self.table.sortByColumn(sort_column, order)
        else:
            self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        count = self.ledger.sessions
        self.summary.setText(f"{count} finished session{'s' if count != 1 else ''} counted. "
                             "Luck: successes beyond the exact odds (Σ success − P).")

    def _fill_profiles(self) -> None:
        assert self.service is not None
        chosen = self.profile_box.currentData()
        names = self.service.profiles()
        if [self.profile_box.itemData(i) for i in range(1, self.profile_box.count())] == names:
            return
        self.profile_box.blockSignals(True)
        self.profile_box.clear()
        self.profile_box.addItem(ALL, None)
        for name in names:
            self.profile_box.addItem(name, name)
        self.profile_box.setCurrentIndex(max(0, self.profile_box.findData(chosen)))
        self.profile_box.blockSignals(False)

    def shown_rows(self) -> list[list[str]]:
        """The table's cells as shown (sorted as shown)."""
        return [[_text(self.table.item(r, c)) for c in range(self.table.columnCount())]
                for r in range(self.table.rowCount())]

    def export(self) -> Path | None:
        """Save the rows as shown (filter and order) as CSV; the file, or None."""

        if self.ledger is None:
            return None
        path = self.ask_path(self, f"ledger-{self.by()}s.csv")
        if not path:
            return None
        headings = [_text(self.table.horizontalHeaderItem(c))
                    for c in range(self.table.columnCount())]
        with open(path, "w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file, lineterminator="\n")
            writer.writerow(headings)
            for row in self.shown_rows():
                writer.writerow([cell.replace("−", "-").lstrip("+") for cell in row])
        return Path(path)
