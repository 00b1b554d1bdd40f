"""The validation panel beside the editor: every problem at once; a click goes to the field."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListView, QVBoxLayout, QWidget

from carwars_desktop.gui.workshop.problems_model import FIELD_ROLE, ProblemListModel
from carwars_desktop.rules import Problem


class ProblemsPanel(QWidget):
    """A heading with the counts, and the list of problems and warnings."""

    field_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ProblemListModel()
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSpacing(2)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAccessibleName("Problems")
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        # Thousands of problems (a huge deck with a bad card) are laid out a batch per turn
        # of the event loop, not all at once before the window answers again.
        self.view.setLayoutMode(QListView.LayoutMode.Batched)
        self.view.setBatchSize(100)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(self.view, 1)
        layout.addStretch(1)
        self.view.clicked.connect(self._go)
        self.view.activated.connect(self._go)
        self.set_problems((), ())

    def set_problems(self, problems: Sequence[Problem], warnings: Sequence[Problem]) -> None:
        self.model.set_problems(problems, warnings)
        if problems:
            heading = (f"<b>⚠ {len(problems)} problem{'s' if len(problems) != 1 else ''}</b>"
                       " — the design is a draft until they are fixed")
        else:
            heading = "<b>✔ No problems</b> — the design is legal"
        if warnings:
            heading += f"<br>ℹ {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
        elif not problems:
            heading += ("<br><br>Every rule the engine checks is met. Problems appear here as "
                        "you edit, each with its rule; click one to go to its field (F8: the "
                        "next one).")
        self.heading.setText(heading)
        self.view.setVisible(bool(problems or warnings))

    def _go(self, index: QModelIndex) -> None:
        field = index.data(FIELD_ROLE)
        if field:
            self.field_requested.emit(str(field))

    def go_to_next(self) -> bool:
        """Select the next problem and go to its field (F8); False when there are none."""
        rows = self.model.rowCount()
        if not rows:
            return False
        current = self.view.currentIndex()
        row = (current.row() + 1) % rows if current.isValid() else 0
        index = self.model.index(row, 0)
        self.view.setCurrentIndex(index)
        self._go(index)
        return True
