"""The GM's window onto Share to players' devices: the address to listen on, the QR code
and the link, Stop sharing and New link (which revokes the old one)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.phone_share import PhoneSharing

SHARED_TEXT = (
    "Phones on the table's network open a read-only page: the clock, whose move it is, "
    "every shown vehicle as the players' display shows it, the roll in progress (its "
    "need and odds unless the odds are hidden) and the last events. Hidden vehicles, "
    "hidden odds and, with secret record sheets, armor left and weapons are never sent. "
    "Nothing on the page changes the game.")


def pixmap_of(png: bytes) -> QPixmap:
    pixmap = QPixmap()
    pixmap.loadFromData(png, "PNG")
    return pixmap


class ShareDialog(QDialog):
    """Non-modal: it stays open beside the Table while the GM plays."""

    def __init__(self, sharing: PhoneSharing, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Share to players' devices")
        self.sharing = sharing
        layout = QVBoxLayout(self)
        about = QLabel(SHARED_TEXT)
        about.setWordWrap(True)
        layout.addWidget(about)
        row = QHBoxLayout()
        row.addWidget(QLabel("Listen on:"))
        self.address = QComboBox()
        self.address.setObjectName("share-address")
        row.addWidget(self.address, 1)
        layout.addLayout(row)
        self.allow_public = QCheckBox(
            "Allow public addresses (anyone on the internet could open the page)")
        self.allow_public.setObjectName("share-allow-public")
        self.allow_public.toggled.connect(self._fill_addresses)
        layout.addWidget(self.allow_public)
        self.link = QLabel()
        self.link.setObjectName("share-link")
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link.setWordWrap(True)
        layout.addWidget(self.link)
        self.qr = QLabel()
        self.qr.setObjectName("share-qr")
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.qr, 1)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        buttons = QDialogButtonBox()
        self.toggle = QPushButton("Start sharing")
        self.toggle.setObjectName("share-toggle")
        self.toggle.clicked.connect(self._toggle)
        self.renew = QPushButton("New link")
        self.renew.setToolTip("A new address: the old link and QR code stop working")
        self.renew.setObjectName("share-new-link")
        self.renew.clicked.connect(self._new_link)
        self.copy = QPushButton("Copy link")
        self.copy.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.sharing.url))
        for button in (self.toggle, self.renew, self.copy):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close).clicked.connect(self.close)
        layout.addWidget(buttons)
        self._fill_addresses()
        sharing.changed.connect(self.refresh)
        self.refresh()

    def _fill_addresses(self) -> None:
        self.address.clear()
        for interface in self.sharing.choices(self.allow_public.isChecked()):
            self.address.addItem(interface.label, interface.address)
            if interface.default:
                self.address.setCurrentIndex(self.address.count() - 1)

    def _toggle(self) -> None:
        if self.sharing.sharing:
            self.sharing.stop()
            return
        self.start()

    def start(self) -> None:
        from carwars_desktop.services.phone_server import ShareError

        try:
            self.sharing.start(str(self.address.currentData() or ""),
                               allow_public=self.allow_public.isChecked())
        except (ShareError, ValueError) as error:
            self.message.setText(f"⚠ {error}")
            return
        self.message.setText("")

    def _new_link(self) -> None:
        self.sharing.new_link()

    def refresh(self) -> None:
        on = self.sharing.sharing
        self.toggle.setText("Stop sharing" if on else "Start sharing")
        self.renew.setEnabled(on)
        self.copy.setEnabled(on)
        self.address.setEnabled(not on)
        self.allow_public.setEnabled(not on)
        if on:
            self.link.setText(f"Open on a phone: {self.sharing.url}")
            self.qr.setPixmap(pixmap_of(self.sharing.qr_png()))
        else:
            self.link.setText("Not shared: nothing is listening.")
            self.qr.clear()
        if not self.sharing.can_share() and not on:
            self.message.setText("Open a session at the Table to share it.")
