"""The GM's queue of the phones' requests, a dock beside the sheets (issue 33 §2).

Each waiting request shows who sent it, what it would do and its odds (a secret speed
says that it is allowed, never its value: the Table may be seen by the players);
**Enter** accepts the selected one, **E** opens it in the normal dialog to edit (the
request then counts as accepted: the dialog's result is the event), **Delete** refuses it
with the reason typed in the Reason field (the phone shows it). A Battlecars secret
mission (and its "done") shows its goal only in the line's tooltip. The header says
"3 of 4 speeds in" while secret speeds are being chosen; **Reveal speeds** applies those
in now; *Accept secret speeds automatically* is the session's switch (still checked
against the rules). Nothing a phone sends changes the game until it is accepted here.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.phone_share import PhoneSharing
from carwars_desktop.services.phone_requests import PhoneRequest, RequestState

REFUSED = "refused by the GM"
"""The reason a refusal gives when the GM typed none."""


class PhoneQueue(QDockWidget):
    """See the module docstring. ``edit`` opens a request in the normal dialog
    (:meth:`PhoneSharing.edited` gives what to open)."""

    def __init__(self, sharing: PhoneSharing, edit: Callable[[PhoneRequest], None],
                 parent: QWidget | None = None) -> None:
        super().__init__("Phones' requests", parent)
        self.setObjectName("phone-queue")
        self.sharing = sharing
        self.edit = edit
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 6, 6, 6)
        self.speeds = QLabel()
        self.speeds.setObjectName("speeds-in")
        self.speeds.setWordWrap(True)
        layout.addWidget(self.speeds)
        self.list = QListWidget()
        self.list.setObjectName("phone-requests")
        self.list.setMinimumWidth(120)
        self.list.setToolTip("Enter accepts, E edits in the dialog, Delete refuses with the "
                             "reason below")
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.installEventFilter(self)
        layout.addWidget(self.list, 1)
        reason_row = QHBoxLayout()
        reason_row.addWidget(QLabel("Reason:"))
        self.reason = QLineEdit()
        self.reason.setObjectName("refusal-reason")
        self.reason.setPlaceholderText(REFUSED)
        reason_row.addWidget(self.reason, 1)
        layout.addLayout(reason_row)
        buttons = QHBoxLayout()
        self.accept_button = QPushButton("Accept")
        self.accept_button.setToolTip("Accept the selected request (Enter)")
        self.edit_button = QPushButton("Edit…")
        self.edit_button.setToolTip("Open it in the normal dialog to change it (E)")
        self.refuse_button = QPushButton("Refuse")
        self.refuse_button.setToolTip("Refuse it with the reason above (Delete)")
        for button, slot in ((self.accept_button, self.accept_selected),
                             (self.edit_button, self.edit_selected),
                             (self.refuse_button, self.refuse_selected)):
            button.clicked.connect(slot)
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self.reveal_button = QPushButton("Reveal the speeds in")
        self.reveal_button.setToolTip("Apply the secret speeds in now, as one event, without "
                                      "waiting for the others")
        self.reveal_button.setObjectName("reveal-speeds")
        self.reveal_button.clicked.connect(sharing.reveal)
        layout.addWidget(self.reveal_button)
        self.auto = QCheckBox("Auto-accept secret speeds")
        self.auto.setToolTip("Let a secret speed in as soon as it arrives (still checked "
                             "against the rules)")
        self.auto.setObjectName("auto-speeds")
        self.auto.toggled.connect(sharing.set_auto_speeds)
        layout.addWidget(self.auto)
        self.setWidget(box)
        sharing.requests_changed.connect(self.refresh)
        sharing.changed.connect(self.refresh)
        self.refresh()

    # --- drawing -------------------------------------------------------------------------
    def refresh(self) -> None:
        desk = self.sharing.desk
        selected = self.selected()
        self.list.clear()
        for request in desk.waiting():
            item = QListWidgetItem(self.line(request))
            item.setData(Qt.ItemDataRole.UserRole, request.number)
            item.setToolTip(self.secret(request))
            self.list.addItem(item)
            if selected is not None and request.number == selected.number:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        # (Not sharing: no phone chooses, and the turn's events are not read for it.)
        done, total = desk.speeds_in() if self.sharing.sharing else (0, 0)
        waiting = desk.waiting_for() if total else []
        self.speeds.setText(f"{done} of {total} speeds in" + (
            f" — waiting for: {', '.join(waiting)}" if waiting else "") if total else
            "No secret choice open." if self.sharing.sharing else
            "Share to phones to take the players' requests.")
        self.reveal_button.setEnabled(done > 0)
        has = self.list.count() > 0
        for button in (self.accept_button, self.edit_button, self.refuse_button):
            button.setEnabled(has)
        self.auto.blockSignals(True)
        self.auto.setChecked(desk.auto_speeds)
        self.auto.blockSignals(False)

    def line(self, request: PhoneRequest) -> str:
        """One request as the Table shows it: a secret speed without its value."""
        who = self.sharing.desk.player_of(request.seat)
        if request.kind == "speed":
            return f"{who}'s phone: a secret speed ({request.odds})"
        if request.kind == "vehicle":
            return f"{who}'s phone: a secret vehicle card ({request.odds}; hover to read it)"
        if request.kind == "mission":
            return f"{who}'s phone: a secret mission ({request.odds}; hover to read it)"
        if request.kind == "mission_done":
            return f"{who}'s phone: mission accomplished? (hover to read it)\n    {request.odds}"
        return f"{who}'s phone: {request.summary}\n    {request.odds}"

    def secret(self, request: PhoneRequest) -> str:
        """What only the GM reads of a secret request (its tooltip): a mission's goal."""
        if request.kind == "mission":
            return f"{request.values.get('goal', '')} — {request.values.get('story', '')}"
        if request.kind == "vehicle":
            return str(request.values.get("card", ""))
        return request.summary if request.kind == "mission_done" else ""

    def texts(self) -> list[str]:
        return [self.list.item(row).text() for row in range(self.list.count())]

    # --- the keys ------------------------------------------------------------------------
    def selected(self) -> PhoneRequest | None:
        item = self.list.currentItem() if hasattr(self, "list") else None
        if item is None:
            return None
        number = item.data(Qt.ItemDataRole.UserRole)
        return next((r for r in self.sharing.desk.requests if r.number == number), None)

    def accept_selected(self) -> None:
        request = self.selected()
        if request is not None:
            self.sharing.accept(request)

    def refuse_selected(self) -> None:
        request = self.selected()
        if request is not None:
            self.sharing.refuse(request, self.reason.text().strip() or REFUSED)
            self.reason.clear()

    def edit_selected(self) -> None:
        request = self.selected()
        if request is not None and request.state is RequestState.WAITING:
            self.edit(request)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.list and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.accept_selected()
                return True
            if key == Qt.Key.Key_E and not event.modifiers():
                self.edit_selected()
                return True
            if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.refuse_selected()
                return True
        return super().eventFilter(watched, event)
