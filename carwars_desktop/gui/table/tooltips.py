"""Tooltips computed when shown, not when drawn (hover explanations read the history)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QToolTip, QWidget


class LazyTooltip(QObject):
    """Shows ``provider()`` as the widget's tooltip, asking only when the mouse rests on it."""

    def __init__(self, widget: QWidget, provider: Callable[[], str]) -> None:
        super().__init__(widget)
        self._provider = provider
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent) \
                and isinstance(watched, QWidget):
            QToolTip.showText(event.globalPos(), self._provider(), watched)
            return True
        return False
