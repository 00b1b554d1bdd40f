"""A one-line label that never widens what holds it: too long for its room, it ends in
"…" (the whole text in :attr:`ElidedLabel.full_text` and its tooltip)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class FittedLabel(QLabel):
    """A label whose text is fitted to the room it has (:meth:`refit`), again whenever it
    is resized or its font changes."""

    def refit(self) -> None:
        """Fit the text to the label's room as it is now."""

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.refit()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.refit()


class ElidedLabel(FittedLabel):
    """One line that never widens the window: too long for its room, it ends in "…" (the
    whole text in :attr:`full_text` and its tooltip)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self.full_text = text
        self.refit()

    def refit(self) -> None:
        shown = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight,
                                              max(0, self.contentsRect().width()))
        super().setText(shown)
        self.setToolTip(self.full_text if shown != self.full_text else "")

    def is_elided(self) -> bool:
        return super().text() != self.full_text

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        return QSize(metrics.horizontalAdvance(self.full_text) + margins.left()
                     + margins.right() + 2, metrics.height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = self.sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("M…") * 2),
                     hint.height())
