"""A banner for a write the database refused: the reason, and Retry. It never blocks.

Every workspace keeps one at its top. Its writes run through
:class:`carwars_desktop.gui.operation.Ops`: if the database refuses one (read-only,
locked, full) the banner shows why and nothing is shown as done. Retry runs the same
operation again and, once it goes through, the banner hides and the operation's success
callbacks show the result.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


def write_failure(error: BaseException) -> str | None:
    """The banner text for a refused write, or None if ``error`` is something else."""
    from carwars_desktop.storage.errors import WriteFailedError

    if isinstance(error, WriteFailedError):
        return str(error)
    return None


class WriteBanner(QFrame):
    """⚠ *what was not saved, and why* [Retry] [×] — hidden until a write fails."""

    retried = Signal(bool)
    """After a Retry: True if the write went through."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("write-banner")
        self.setStyleSheet("QFrame#write-banner { background: #fff3cd; border: 1px solid "
                           "#e0b400; border-radius: 3px; } QLabel { color: #5c4400; }")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAccessibleName("Write failure")
        self.retry_button = QPushButton("&Retry")
        self.retry_button.clicked.connect(self.retry)
        self.close_button = QPushButton("×")
        self.close_button.setToolTip("Hide (the change stays unsaved)")
        self.close_button.setFixedWidth(28)
        self.close_button.clicked.connect(self.dismiss)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(self.label, 1)
        row.addWidget(self.retry_button)
        row.addWidget(self.close_button)
        self._retry: Callable[[], bool] | None = None
        self.hide()

    def show_message(self, text: str, retry: Callable[[], bool] | None = None) -> None:
        """Show ``text``; Retry (shown only with ``retry``) calls it, True = it worked."""
        self.label.setText(f"⚠ {text}")
        self._retry = retry
        self.retry_button.setVisible(retry is not None)
        self.show()

    def retry(self) -> None:
        retry = self._retry
        if retry is None:
            return
        self.dismiss()  # a write refused again shows the banner again, with its reason
        worked = retry()
        self.retried.emit(worked)

    def dismiss(self) -> None:
        self._retry = None
        self.label.clear()
        self.hide()
