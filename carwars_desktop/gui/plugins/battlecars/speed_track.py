"""A Battlecars speed track: the speeds 0…top, the current one framed twice and bold, those
above the current max speed crossed out, the max speed's cell drawn thick (never colour
alone)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

CELL = 20


class SpeedTrack(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.top = 0
        self.maximum = 0
        self.speed = 0
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Speed track")

    def set_track(self, top: int, maximum: int, speed: int) -> None:
        if (top, maximum, speed) == (self.top, self.maximum, self.speed):
            return
        resized = top != self.top
        self.top, self.maximum, self.speed = top, maximum, speed
        self.setAccessibleDescription(f"speed {speed}, max speed {maximum} of {top}")
        self.setToolTip(f"speed {speed}; max speed {maximum} (the track goes to {top}); "
                        "crossed: above the max speed")
        if resized:
            self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize((self.top + 1) * CELL + 2, CELL + 2)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        palette = self.palette()
        ink = palette.windowText().color()
        font = QFont(self.font())
        for value in range(self.top + 1):
            rect = QRect(1 + value * CELL, 1, CELL - 2, CELL - 2)
            painter.setPen(QPen(ink, 2 if value == self.maximum else 1))
            painter.setBrush(palette.mid().color() if value == self.speed else palette.base())
            painter.drawRect(rect)
            font.setBold(value == self.speed)
            painter.setFont(font)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(value))
            if value == self.speed:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.adjusted(2, 2, -2, -2))
            if value > self.maximum:
                painter.setPen(QPen(ink, 1))
                painter.drawLine(rect.topLeft(), rect.bottomRight())
                painter.drawLine(rect.topRight(), rect.bottomLeft())
        painter.end()
