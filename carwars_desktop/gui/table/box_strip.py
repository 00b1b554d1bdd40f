"""A strip of record-sheet boxes: clear ones outlined, crossed ones filled with an X.

The boxes wrap every ``per_row``; a click (or Space on the keyboard cursor)
reports the box. Hovering a box names it and, when known, the event that last
changed it. A crossed box always carries the X: colour never says it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QFont,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

BOX = 11
GAP = 2


@dataclass(frozen=True)
class Box:
    """One box: its id (for hover explanations), crossed or not, and its style."""

    id: str
    crossed: bool
    style: str = "plain"
    """``plain``, or ``soft`` (body armor: a rounded, dashed box)."""
    text: str = ""
    """A short code drawn in the box (a weapon counter in a pod)."""
    tip: str = ""
    """What the box holds, for the tooltip."""


class BoxStrip(QWidget):
    """Boxes in rows of ``per_row``; emits :attr:`box_activated` with the box's index."""

    box_activated = Signal(int)

    def __init__(self, name: str, per_row: int = 10,
                 explain: Callable[[str], str] | None = None,
                 parent: QWidget | None = None, box_size: int = BOX) -> None:
        super().__init__(parent)
        self.name = name
        self.per_row = max(1, per_row)
        self.box_size = box_size
        self._explain = explain
        self.boxes: tuple[Box, ...] = ()
        self.current = 0
        self.enabled_for_marks = True
        self.setAccessibleName(name)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    # --- content ---------------------------------------------------------
    def set_boxes(self, boxes: Sequence[Box]) -> None:
        boxes = tuple(boxes)
        if boxes == self.boxes:
            return
        resized = len(boxes) != len(self.boxes)
        self.boxes = boxes
        self.current = min(self.current, max(0, len(boxes) - 1))
        crossed = sum(1 for b in boxes if b.crossed)
        self.setAccessibleDescription(f"{crossed} of {len(boxes)} boxes crossed")
        if resized:
            self.updateGeometry()
        self.update()

    def crossed_count(self) -> int:
        return sum(1 for box in self.boxes if box.crossed)

    # --- geometry ----------------------------------------------------------
    def _rows(self) -> int:
        return max(1, -(-len(self.boxes) // self.per_row))

    def _columns(self) -> int:
        return max(1, min(self.per_row, len(self.boxes)))

    def sizeHint(self) -> QSize:  # noqa: N802
        step = self.box_size + GAP
        return QSize(self._columns() * step + GAP, self._rows() * step + GAP)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return self.sizeHint()

    def box_rect(self, index: int) -> QRect:
        row, column = divmod(index, self.per_row)
        step = self.box_size + GAP
        return QRect(GAP + column * step, GAP + row * step, self.box_size, self.box_size)

    def box_at(self, point: QPoint) -> int | None:
        for index in range(len(self.boxes)):
            if self.box_rect(index).adjusted(-1, -1, 1, 1).contains(point):
                return index
        return None

    # --- painting -----------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        if any(box.text for box in self.boxes):
            font = QFont(self.font())
            font.setPointSizeF(max(6.0, self.box_size * 0.45))
            font.setBold(True)
            painter.setFont(font)
        palette = self.palette()
        ink = palette.windowText().color()
        paper = palette.base().color()
        filled = palette.mid().color()
        for index, box in enumerate(self.boxes):
            rect = self.box_rect(index)
            pen = QPen(ink, 1)
            if box.style == "soft":
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(filled if box.crossed else paper)
            if box.style == "soft":
                painter.drawRoundedRect(rect, 3, 3)
            else:
                painter.drawRect(rect)
            if box.text and not box.crossed:
                painter.setPen(ink)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, box.text)
            if box.crossed:
                painter.setPen(QPen(ink, 1.6))
                inner = rect.adjusted(2, 2, -2, -2)
                painter.drawLine(inner.topLeft(), inner.bottomRight())
                painter.drawLine(inner.topRight(), inner.bottomLeft())
        if self.hasFocus() and self.boxes:
            painter.setPen(QPen(palette.highlight().color(), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.box_rect(self.current).adjusted(-2, -2, 2, 2))
        painter.end()

    # --- input --------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        index = self.box_at(event.position().toPoint())
        if index is None or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self.current = index
        self.activate(index)

    def activate(self, index: int) -> None:
        if self.enabled_for_marks and 0 <= index < len(self.boxes):
            self.box_activated.emit(index)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key = Qt.Key(event.key())
        moves = {Qt.Key.Key_Right: 1, Qt.Key.Key_Left: -1, Qt.Key.Key_Down: self.per_row,
                 Qt.Key.Key_Up: -self.per_row}
        if key in moves and self.boxes:
            self.current = max(0, min(len(self.boxes) - 1, self.current + moves[key]))
            self.update()
            return
        if key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.activate(self.current)
            return
        super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.box_at(event.pos())
            if index is None:
                QToolTip.hideText()
                event.ignore()
                return True
            QToolTip.showText(event.globalPos(), self.tooltip(index), self)
            return True
        return super().event(event)

    def tooltip(self, index: int) -> str:
        box = self.boxes[index]
        state = "crossed" if box.crossed else (box.tip or "clear")
        text = f"{self.name}, box {index + 1}: {state}"
        if self._explain is not None:
            cause = self._explain(box.id)
            if cause:
                text += f"\nlast changed by {cause}"
        return text
