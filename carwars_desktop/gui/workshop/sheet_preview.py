"""A design's printed record sheet, shown small: what the Library and the revisions show."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from carwars_desktop.gui.workshop.printing import PrintItem, page_images
from carwars_desktop.gui.workshop.printing.page import A4_RATIO


class SheetPreview(QWidget):
    """The first page of a design's sheet, scaled to the widget (the page's own proportions)."""

    RENDER_WIDTH = 1000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._image: QImage | None = None
        self._message = "Nothing to show"
        self.pages = 0
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 340)

    def show_item(self, item: PrintItem | None) -> None:
        if item is None:
            self._image = None
            self.pages = 0
        else:
            images = page_images([item], self.RENDER_WIDTH)
            self.pages = len(images)
            self._image = images[0] if images else None
        self.update()

    def show_message(self, message: str) -> None:
        self._image = None
        self.pages = 0
        self._message = message
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(420, round(420 * A4_RATIO))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().window())
        if self._image is None:
            painter.drawText(self.rect().adjusted(12, 12, -12, -12),  # wrapped: never cut
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                             self._message)
            painter.end()
            return
        area = self.rect().adjusted(8, 8, -8, -8)
        scaled = self._image.scaled(area.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                    Qt.TransformationMode.SmoothTransformation)
        x = area.x() + (area.width() - scaled.width()) // 2
        painter.fillRect(x + 3, area.y() + 3, scaled.width(), scaled.height(),
                         self.palette().shadow())
        painter.drawImage(x, area.y(), scaled)
        painter.end()
