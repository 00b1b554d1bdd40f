"""A combo box that never cuts a name short silently: too long, it ends in "…", whole in
its tooltip.

Qt's own combo box draws its current text clipped at the edge of its field ("Courier (b)
+$10,200 — Remove the RL, all three MG"), with nothing to say more follows. Every combo box
of the app is this one; those holding long names may also be let narrower than their
longest item (:meth:`ElidedComboBox.let_shrink`), so that a long stock option does not
widen the whole Workshop.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QHelpEvent, QPaintEvent
from PySide6.QtWidgets import (
    QComboBox,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QToolTip,
)

ELLIPSIS = "…"


class ElidedComboBox(QComboBox):
    """A :class:`QComboBox` whose current text is elided on the right when it does not fit."""

    def let_shrink(self, characters: int = 24) -> None:
        """Be as narrow as ``characters`` letters at least, whatever its longest item."""
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(characters)

    def _option(self) -> QStyleOptionComboBox:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        return option

    def _room(self, option: QStyleOptionComboBox) -> int:
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        room = field.width() - 2  # the style draws the text 1 px in from each side
        if not option.currentIcon.isNull():
            room -= option.iconSize.width() + 4
        return room

    def shown_text(self) -> str:
        """The current text as drawn: whole, or cut with an ellipsis to fit."""
        option = self._option()
        return self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight,
                                             self._room(option))

    def is_elided(self) -> bool:
        return not self.isEditable() and self.shown_text() != self.currentText()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        if self.isEditable():
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        option = self._option()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self.shown_text()
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def elided_tooltip(self) -> str | None:
        """The tooltip of an elided text: the whole text (then its own tooltip, if any)."""
        if not self.is_elided():
            return None
        own = self.toolTip() or self.currentData(Qt.ItemDataRole.ToolTipRole) or ""
        return self.currentText() + (f"\n{own}" if own and own != self.currentText() else "")

    def event(self, event: QEvent) -> bool:
        whole = self.elided_tooltip() if event.type() == QEvent.Type.ToolTip else None
        if whole is not None:
            assert isinstance(event, QHelpEvent)
            QToolTip.showText(event.globalPos(), whole, self)
            return True
        return super().event(event)
