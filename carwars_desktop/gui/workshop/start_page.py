"""What the Workshop shows with no design open: start a new one, or reopen a recent one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.library import DesignKind, class_text, cost_text, kinds_of, status_text
from carwars_desktop.rules import ruleset_title
from carwars_desktop.storage import DesignEntry

RECENT = 12


class StartPage(QWidget):
    new_requested = Signal(str, str)
    """(ruleset id, kind)"""
    open_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.buttons = QHBoxLayout()
        self.recent = QListWidget()
        self.recent.setAccessibleName("Recent designs")
        self.recent.itemActivated.connect(self._open)
        self.recent_title = QLabel("<b>Recently changed</b> (Enter or double-click opens)")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 24, 24, 24)
        layout.addWidget(self.title)
        layout.addLayout(self.buttons)
        layout.addSpacing(12)
        layout.addWidget(self.recent_title)
        layout.addWidget(self.recent, 1)
        self._kinds: tuple[DesignKind[Any, Any], ...] = ()

    def set_ruleset(self, ruleset_id: str) -> None:
        self._kinds = kinds_of(ruleset_id)
        self.title.setText(f"<h2>{ruleset_title(ruleset_id)} workshop</h2>"
                           "Start a new design, open one from the Library (Ctrl+1), or pick "
                           "one you changed recently.")
        while self.buttons.count():
            item = self.buttons.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for number, kind in enumerate(self._kinds):
            shortcut = " (Ctrl+N)" if number == 0 else ""
            button = QPushButton(f"New {kind.ruleset_title} {kind.title.lower()}{shortcut}")
            button.clicked.connect(
                lambda _c=False, k=kind: self.new_requested.emit(k.ruleset_id, k.kind))
            self.buttons.addWidget(button)
        self.buttons.addStretch(1)

    def set_recent(self, entries: Sequence[DesignEntry]) -> None:
        """The GM's most recently changed designs, newest first."""
        self.recent.clear()
        for entry in list(entries)[:RECENT]:
            r, k = entry.ruleset_id, entry.kind
            text = (f"{entry.name}  —  {class_text(r, k, entry.class_value)}, "
                    f"{cost_text(r, k, entry.cost)}, "
                    f"{status_text(entry.legal, entry.problem_count)}"
                    + ("  · unsaved changes" if entry.unsaved else ""))
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            self.recent.addItem(item)
        self.recent_title.setVisible(self.recent.count() > 0)
        self.recent.setVisible(self.recent.count() > 0)

    def _open(self, item: QListWidgetItem) -> None:
        self.open_requested.emit(int(item.data(Qt.ItemDataRole.UserRole)))
