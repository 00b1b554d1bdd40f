"""The sheets of the vehicles in play, as many side by side as the width allows."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QScrollArea, QWidget

from carwars_desktop.gui.table.sheet_frame import SheetFrame

SPACING = 8
SLACK = 16
"""Room for a label that grows in play (a weapon marked fired)."""


class SheetGrid(QScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self._inner = QWidget()
        self._grid = QGridLayout(self._inner)
        self._grid.setSpacing(SPACING)
        self._grid.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setWidget(self._inner)
        self.sheets: list[SheetFrame] = []
        self._columns = 0

    def set_sheets(self, sheets: Sequence[SheetFrame]) -> None:
        for sheet in self.sheets:
            self._grid.removeWidget(sheet)
            sheet.hide()
            sheet.deleteLater()
        self.sheets = list(sheets)
        self._columns = 0
        if self.sheets:
            widest = max(max(sheet.sizeHint().width(), sheet.minimumSizeHint().width(),
                                 sheet.minimumWidth()) for sheet in self.sheets) + SLACK
            for sheet in self.sheets:
                sheet.setFixedWidth(widest)
        self._arrange()

    def _arrange(self) -> None:
        if not self.sheets:
            return
        widest = self.sheets[0].width()
        columns = max(1, (self.viewport().width() - SPACING) // (widest + SPACING))
        columns = min(columns, len(self.sheets))
        if columns == self._columns:
            return
        self._columns = columns
        for sheet in self.sheets:
            self._grid.removeWidget(sheet)
        for index, sheet in enumerate(self.sheets):
            self._grid.addWidget(sheet, index // columns, index % columns,
                                 Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._arrange()
