"""The queue view: what waits on this laptop for the club server, and what conflicted.

Reached from the outage banner (Show queue…) and from View ▸ Offline queue…. Each entry made
while the server was away is listed in order with its state: *conflicted* (another client
wrote to the session in between: the replay stopped there, the reason is shown), *waits
behind the conflicted entry*, or *waits to be sent*. For the conflicted entry the GM chooses
Apply again on top (a new event after the server's, the other client's entries kept) or
Drop (after a confirmation, :attr:`QueueView.confirm_drop`); the entries behind it then go
on top (:mod:`carwars_desktop.storage.offline_queue`). The list follows the queue as it
replays (the link's ``state_changed``). With a file on this laptop open there is no club
server and no queue: the view says so (:data:`NO_SERVER`).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.club_link import ClubLink
from carwars_desktop.gui.theme import error_colour, muted_colour
from carwars_desktop.storage.offline_queue import QueuedEntry, entry_words

CONFLICTED, BEHIND, WAITING = "Conflicted", "Waits behind the conflicted entry", "Waits to be sent"
NO_SERVER = ("No club server: the database open is a file on this laptop, and every change "
             "is written to it at once. Entries wait here only while a club server's "
             "database is open and the server does not answer.")
"""The heading with a local file open (nothing is ever queued for it)."""


def entry_state(entry: QueuedEntry, entries: list[QueuedEntry]) -> str:
    """Its state in words: conflicted, waiting behind a conflicted one, or waiting."""
    if entry.conflict is not None:
        return CONFLICTED
    if any(e.conflict is not None and e.session_id == entry.session_id and e.id < entry.id
           for e in entries):
        return BEHIND
    return WAITING


def _coloured(colour: str, text: str) -> str:
    return f"<span style='color:{colour}'>{escape(text, quote=False)}</span>"


def _ask_drop(parent: QWidget, words: str) -> bool:
    answer = QMessageBox.question(parent, "Drop the entry",
                                  f"Drop “{words}”? It is removed from this laptop and never "
                                  "sent; the entries behind it then go on top of the other "
                                  "client's.")
    return answer == QMessageBox.StandardButton.Yes


class QueueView(QDialog):
    """The entries waiting on this laptop; Apply again on top and Drop for the selected one."""

    def __init__(self, link: ClubLink, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Offline queue — entries waiting on this laptop")
        self.setObjectName("queue-view")
        self._link = link
        self._entries: list[QueuedEntry] = []
        self.confirm_drop: Callable[[str], bool] = lambda words: _ask_drop(self, words)
        """Asked before Drop with the entry's words; True drops it (tests answer here)."""
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.list = QListWidget()
        self.list.setAccessibleName("Queued entries")
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setSpacing(3)
        self.list.setAlternatingRowColors(True)
        self.list.currentRowChanged.connect(self._show_selected)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setAccessibleName("The selected entry")
        self.apply_button = QPushButton("&Apply again on top")
        self.apply_button.setToolTip("A new event after the server's current ones, with the "
                                     "time it was made at the table; the other client's "
                                     "entries stay")
        self.apply_button.clicked.connect(self.apply_again)
        self.drop_button = QPushButton("&Drop…")
        self.drop_button.setToolTip("Remove it from this laptop, never sent (asks first)")
        self.drop_button.clicked.connect(self.drop)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName("What happened")
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        actions = QHBoxLayout()
        actions.addWidget(self.apply_button)
        actions.addWidget(self.drop_button)
        actions.addStretch(1)
        column = QVBoxLayout(self)
        column.addWidget(self.heading)
        column.addWidget(self.list, 1)
        column.addWidget(self.details)
        column.addLayout(actions)
        column.addWidget(self.message)
        column.addWidget(close)
        self.resize(720, 480)
        # Read again as the queue replays, while on screen (shown: read at once).
        link.state_changed.connect(self._replayed)

    def _replayed(self, _state: object) -> None:
        if self.isVisible():
            self.refresh()

    def refresh(self) -> None:
        """Read the queue again (the laptop's file), keeping the selected entry if it stays."""
        current = self.selected()
        self._entries = self._link.entries()
        self.list.blockSignals(True)
        self.list.clear()
        for entry in self._entries:
            state = entry_state(entry, self._entries)
            mark = "⚠ " if state == CONFLICTED else ""
            item = QListWidgetItem(f"{mark}{state}: {entry_words(entry, self._entries)} — "
                                   f"{self._link.session_name(entry.session_id)}, made at the "
                                   f"table at {self._when(entry)}")
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            item.setToolTip(entry.conflict or state)
            self.list.addItem(item)
        self.list.blockSignals(False)
        conflicted = sum(1 for e in self._entries if e.conflict is not None)
        count = len(self._entries)
        if not self._link.has_server:
            self.heading.setText(NO_SERVER)
        elif count == 0:
            self.heading.setText("Nothing waits on this laptop: every entry reached the club "
                                 "server.")
        else:
            words = f"{count} entr{'y waits' if count == 1 else 'ies wait'} on this laptop"
            if conflicted:
                words += (f", {conflicted} conflicted: another client wrote to the session "
                          "in between. Apply it again on top of theirs, or drop it; the "
                          "entries behind it wait until you do, then follow on top")
            else:
                words += ", to be sent in order when the club server answers"
            self.heading.setText(words + ".")
        ids = [e.id for e in self._entries]
        row = ids.index(current.id) if current is not None and current.id in ids else \
            next((n for n, e in enumerate(self._entries) if e.conflict is not None), 0)
        if self._entries:
            self.list.setCurrentRow(row)
        self._show_selected()

    @staticmethod
    def _when(entry: QueuedEntry) -> str:
        return entry.created_at.astimezone().strftime("%H:%M:%S on %d %b %Y")

    def selected(self) -> QueuedEntry | None:
        row = self.list.currentRow()
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def _show_selected(self) -> None:
        entry = self.selected()
        why = None if entry is None else self._link.can_decide(entry)
        self.apply_button.setEnabled(entry is not None and why is None)
        self.drop_button.setEnabled(entry is not None and why is None)
        if entry is None:
            self.details.setText("")
            return
        if entry.conflict is not None:
            self.details.setText(_coloured(error_colour(), f"⚠ {entry.conflict}"))
        else:
            self.details.setText(_coloured(muted_colour(), why or ""))

    def apply_again(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        before = len(self._entries)
        problem = self._link.apply_again_on_top(entry.id)
        behind = before - len(self._link.entries()) - 1
        also = f" with the {behind} behind it" if behind > 0 else ""
        self._done(problem, f"“{entry_words(entry)}”{also} {'are' if also else 'is'} on the "
                            "server now, after the other client's entries.")

    def drop(self) -> None:
        entry = self.selected()
        if entry is None or not self.confirm_drop(entry_words(entry, self._entries)):
            return
        before = len(self._entries)
        problem = self._link.drop(entry.id)
        sent = before - len(self._link.entries()) - 1
        also = f"; the {sent} behind it went on top of the other client's entries" \
            if sent > 0 else ""
        self._done(problem, f"“{entry_words(entry)}” was dropped{also}.")

    def _done(self, problem: str | None, words: str) -> None:
        self.refresh()
        if problem is not None:
            self.message.setText(_coloured(error_colour(), f"⚠ {problem}"))
        else:
            self.message.setText(words)
        self.list.setFocus()

    def showEvent(self, event: object) -> None:  # noqa: N802 (Qt's name)
        self.refresh()
        super().showEvent(event)  # type: ignore[arg-type]
        self.list.setFocus()
