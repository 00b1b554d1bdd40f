"""A banner for a write the database refused: the reason, and Retry. It never blocks.

Every workspace keeps one at its top. Its writes run through
:class:`carwars_desktop.gui.operation.Ops`: if the database refuses one (read-only,
locked, full) the banner shows why and nothing is shown as done. Retry runs the same
operation again and, once it goes through, the banner hides and the operation's success
callbacks show the result.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from carwars_desktop.gui.club_link import HasClubLink
from carwars_desktop.storage.errors import WriteFailedError


def write_failure(error: BaseException) -> str | None:
    """The banner text for a refused write, or None if ``error`` is something else.

    A read or write that met the club server's connection lost (outside a write's own
    words) is refused in words too: "Not done: the club server is not answering…"."""
    from carwars_desktop.storage.writes import NOT_ANSWERING, is_lost_server

    if isinstance(error, WriteFailedError):
        return str(error)
    if is_lost_server(error):
        return (f"Not done: {NOT_ANSWERING}, and the library and the sessions' lists are "
                "kept on it (nothing was changed). Retry once it answers.")
    return None


def is_outage(text: str) -> bool:
    """The refused write was lost with the club server's connection (said in the window's
    one outage banner, :class:`~carwars_desktop.gui.club_link.OfflineBanner`)."""
    from carwars_desktop.storage.writes import NOT_ANSWERING

    return NOT_ANSWERING in text


class Overlay(QObject):
    """Keeps ``banner`` over the top edge of ``anchor`` (both children of one parent, or
    ``anchor`` the banner's parent): shown, it covers the content instead of pushing it
    down, so nothing under the pointer moves."""

    def __init__(self, banner: QWidget, anchor: QWidget) -> None:
        super().__init__(banner)
        self.banner = banner
        self.anchor = anchor
        anchor.installEventFilter(self)
        banner.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show,
                            QEvent.Type.LayoutRequest):
            self.place()
        return False

    def place(self) -> None:
        banner, anchor = self.banner, self.anchor
        parent = banner.parentWidget()
        if parent is None:
            return
        top_left = anchor.mapTo(parent, anchor.rect().topLeft()) if anchor is not parent \
            else parent.rect().topLeft()
        width = anchor.width()
        # As tall as its words wrapped to this width need (a wrapped label's size hint is
        # a guess at another width: a one-line banner was 80 px tall, hiding the row
        # under it).
        height = banner.heightForWidth(width) if banner.hasHeightForWidth() \
            else banner.sizeHint().height()
        height = max(height, banner.minimumSizeHint().height())
        banner.setGeometry(top_left.x(), top_left.y(), width, height)
        banner.raise_()


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
        """Show ``text``; Retry (shown only with ``retry``) calls it, True = it worked.

        A write lost with the club server's connection is handed to the window's
        :class:`~carwars_desktop.gui.club_link.ClubLink` instead: its one banner says so
        in words and retries it with the queue."""
        if is_outage(text):
            window = self.window()
            if isinstance(window, HasClubLink) and window.club_link.connection_lost(retry):
                return
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
