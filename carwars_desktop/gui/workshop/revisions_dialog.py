"""Earlier revisions of a design: look at any of them, and go back to one."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.workshop.sheet_preview import SheetPreview
from carwars_desktop.library import DesignDataError, load_design, status_text, summarize_design
from carwars_desktop.storage import DesignRecord, Library, RevisionRecord


class RevisionsDialog(QDialog):
    go_back_requested = Signal(int)

    def __init__(self, library: Library, record: DesignRecord,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Revisions of {record.name}")
        self.record = record
        self.revisions: list[RevisionRecord] = library.revisions(record.id)
        self.list = QListWidget()
        self.list.setAccessibleName("Revisions")
        for revision in self.revisions:
            item = QListWidgetItem(self._label(revision))
            item.setData(Qt.ItemDataRole.UserRole, revision.number)
            self.list.addItem(item)
        self.preview = SheetPreview()
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.back_button = QPushButton("&Go back to this revision")
        self.back_button.setToolTip("Make it the design again, saved as a new revision "
                                    "(the later ones are kept)")
        self.back_button.setEnabled(not record.is_catalog)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.back_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        left = QVBoxLayout()
        left.addWidget(QLabel("Newest first; the top one is the saved design."))
        left.addWidget(self.list, 1)
        left.addWidget(self.detail)
        body = QHBoxLayout()
        body.addLayout(left, 2)
        body.addWidget(self.preview, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(buttons)
        self.resize(960, 720)
        self.list.currentRowChanged.connect(self._look)
        self.back_button.clicked.connect(self._go_back)
        if self.revisions:
            self.list.setCurrentRow(0)

    def _label(self, revision: RevisionRecord) -> str:
        when = revision.saved_at.astimezone().strftime("%d %b %Y %H:%M")
        return f"Revision {revision.number} — {when} — {revision.name}"

    def current(self) -> RevisionRecord | None:
        row = self.list.currentRow()
        return self.revisions[row] if 0 <= row < len(self.revisions) else None

    def _look(self) -> None:
        revision = self.current()
        if revision is None:
            return
        try:
            design = load_design(self.record.ruleset_id, self.record.kind, revision.data)
        except DesignDataError as error:
            self.preview.show_message(f"This revision cannot be read: {error}")
            return
        summary = summarize_design(self.record.ruleset_id, self.record.kind, design)
        self.detail.setText(f"<b>{revision.name}</b>: {summary.class_text}, "
                            f"{summary.cost_text}, "
                            f"{status_text(summary.legal, len(summary.problems))}")
        self.preview.show_item((self.record.ruleset_id, self.record.kind, design))
        self.back_button.setEnabled(not self.record.is_catalog and self.list.currentRow() > 0)

    def _go_back(self) -> None:
        revision = self.current()
        if revision is not None:
            self.go_back_requested.emit(revision.number)
            self.accept()
