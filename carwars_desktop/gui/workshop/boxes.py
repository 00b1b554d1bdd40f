"""Rows of damage boxes, as on the paper sheets: drawn on screen and on printed pages.

A box is an outlined square; a loaded box (a pod holding a counter) is shaded and
carries the counter's letter, so its meaning never rests on colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget


@dataclass(frozen=True)
class Counter:
    """A weapon counter in a pod: how many boxes it covers and its short label."""

    size: int
    label: str


def rows_needed(count: int, per_row: int) -> int:
    return max(1, -(-count // max(1, per_row))) if count > 0 else 1


def paint_boxes(painter: QPainter, origin: QPointF, count: int, box: float, per_row: int,
                counters: Sequence[Counter] = (), ink: QColor | None = None) -> QRectF:
    """Draw ``count`` boxes in rows of ``per_row`` from ``origin``; return the area used.

    ``counters`` fill the boxes in order; counters beyond the last box are drawn
    after it, struck through ("does not fit").
    """
    ink = ink or QColor(20, 20, 20)
    gap = box * 0.18
    step = box + gap
    per_row = max(1, per_row)
    painter.save()
    painter.setPen(QPen(ink, max(0.6, box / 14)))
    painter.setBrush(Qt.BrushStyle.NoBrush)

    def cell(index: int) -> QRectF:
        row, column = divmod(index, per_row)
        return QRectF(origin.x() + column * step, origin.y() + row * step, box, box)

    for index in range(count):
        painter.drawRect(cell(index))
    position = 0
    font = QFont(painter.font())
    font.setPixelSize(max(6, int(box * 0.62)))
    font.setBold(True)
    painter.setFont(font)
    for counter in counters:
        for part in range(counter.size):
            rect = cell(position + part).adjusted(1.5, 1.5, -1.5, -1.5)
            overflowing = position + part >= count
            painter.setBrush(QColor(200, 60, 50, 90) if overflowing else QColor(60, 60, 60, 70))
            painter.setPen(QPen(ink, max(0.6, box / 14),
                                Qt.PenStyle.DashLine if overflowing else Qt.PenStyle.SolidLine))
            painter.drawRect(rect)
            if overflowing:
                painter.drawLine(rect.topLeft(), rect.bottomRight())
            if part == 0:
                painter.setPen(QPen(ink))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, counter.label)
        # One counter is one piece of card: outline the boxes it covers on each row.
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(ink, max(1.2, box / 7)))
        start = position
        while start < position + counter.size:
            row_end = min(position + counter.size, (start // per_row + 1) * per_row)
            span = cell(start).united(cell(row_end - 1)).adjusted(-gap / 3, -gap / 3,
                                                                   gap / 3, gap / 3)
            painter.drawRoundedRect(span, box / 5, box / 5)
            start = row_end
        position += counter.size
    painter.restore()
    used = max(count, position)
    rows = rows_needed(used, per_row)
    columns = min(used, per_row) if used else 1
    return QRectF(origin.x(), origin.y(), columns * step - gap, rows * step - gap)


class BoxStrip(QWidget):
    """A row (or rows) of boxes that redraws as the count or the loaded counters change."""

    def __init__(self, per_row: int = 10, box: int = 12, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._count = 0
        self._counters: tuple[Counter, ...] = ()
        self._per_row = per_row
        self._box = box
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    @property
    def count(self) -> int:
        return self._count

    @property
    def counters(self) -> tuple[Counter, ...]:
        return self._counters

    def set_boxes(self, count: int, counters: Sequence[Counter] = ()) -> None:
        count = max(0, count)
        if (count, tuple(counters)) == (self._count, self._counters):
            return
        self._count = count
        self._counters = tuple(counters)
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def _used(self) -> int:
        return max(self._count, sum(c.size for c in self._counters))

    def sizeHint(self) -> QSize:  # noqa: N802
        step = self._box * 1.18
        used = self._used()
        columns = min(max(used, 1), self._per_row)
        rows = rows_needed(used, self._per_row)
        return QSize(int(columns * step) + 2, int(rows * step) + 2)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        ink = self.palette().windowText().color()
        paint_boxes(painter, QPointF(1, 1), self._count, self._box, self._per_row,
                    self._counters, ink)
        painter.end()
