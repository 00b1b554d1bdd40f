"""The GM's window onto Share to players' devices: the address to listen on, the QR code
and the table's common link, each vehicle's seat link with its own QR code (shown to
that vehicle's player only), Stop sharing and New link (which revokes them all)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.phone_share import PhoneSharing, qr_png
from carwars_desktop.services.phone_server import ShareError

SHARED_TEXT = (
    "Phones on the table's network open a read-only page: the clock, whose move it is, "
    "every shown vehicle as the players' display shows it, the roll in progress (its "
    "need and odds unless the odds are hidden) and the last events. Hidden vehicles, "
    "hidden odds and, with secret record sheets, armor left and weapons are never sent "
    "to the common link (only a vehicle's own seat link gets its own). "
    "Nothing on the page changes the game.")
SEATS_TEXT = (
    "Seat links: each vehicle's own link also shows that vehicle's whole record sheet "
    "(armor, weapons, crew, speed, ammunition), even with secret sheets. Show each "
    "player their own QR code only; the players' display shows the common link.")
SEAT_QR_SCALE = 4
ADDRESS_KEY = "phone_share/address"
"""The address the GM last chose to listen on (kept for the next run)."""


def _public(address: str) -> bool:
    from carwars_desktop.services.share_network import is_public

    try:
        return is_public(address)
    except ValueError:
        return False


def pixmap_of(png: bytes) -> QPixmap:
    pixmap = QPixmap()
    pixmap.loadFromData(png, "PNG")
    return pixmap


class ShareDialog(QDialog):
    """Non-modal: it stays open beside the Table while the GM plays."""

    def __init__(self, sharing: PhoneSharing, parent: QWidget | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.setWindowTitle("Share to players' devices")
        self.sharing = sharing
        layout = QVBoxLayout(self)
        about = QLabel(SHARED_TEXT)
        about.setWordWrap(True)
        layout.addWidget(about)
        row = QHBoxLayout()
        row.addWidget(QLabel("Listen on:"))
        self.address = ElidedComboBox()
        self.address.setObjectName("share-address")
        self.chosen = str(settings.value(ADDRESS_KEY, "")) if settings is not None else ""
        """The address the GM picked (kept across Start and Stop, when the list is filled
        again, and in the settings for the next run), or empty for the default."""
        self.address.activated.connect(
            lambda _index: setattr(self, "chosen", str(self.address.currentData() or "")))
        self._size_before: QSize | None = None
        """The dialog's size before sharing grew it for the QR codes (Stop gives it back)."""
        row.addWidget(self.address, 1)
        layout.addLayout(row)
        self.allow_public = QCheckBox(
            "Allow public addresses (anyone on the internet could open the page)")
        self.allow_public.setObjectName("share-allow-public")
        self.allow_public.toggled.connect(self._fill_addresses)
        layout.addWidget(self.allow_public)
        # The common link and its QR code on the left, the seat links on the right: both
        # QR codes whole on a 768-pixel screen (a clipped code cannot be scanned).
        columns = QHBoxLayout()
        common = QVBoxLayout()
        self.link = QLabel()
        self.link.setObjectName("share-link")
        self.link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link.setWordWrap(True)
        common.addWidget(self.link)
        self.qr = QLabel()
        self.qr.setObjectName("share-qr")
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        common.addWidget(self.qr)
        common.addStretch(1)
        columns.addLayout(common)
        seats = QVBoxLayout()
        self.seats_about = QLabel(SEATS_TEXT)
        self.seats_about.setWordWrap(True)
        seats.addWidget(self.seats_about)
        self.seats_area = QScrollArea()
        self.seats_area.setObjectName("share-seats")
        self.seats_area.setWidgetResizable(True)
        self.seats_area.setMinimumHeight(SEAT_QR_SCALE * 45)
        seats.addWidget(self.seats_area, 1)
        columns.addLayout(seats, 1)
        layout.addLayout(columns, 1)
        self.seat_links: dict[str, QLineEdit] = {}
        """Vehicle key → the label holding its seat link (and the QR code's pixmap in
        :attr:`seat_qrs`)."""
        self.seat_qrs: dict[str, QLabel] = {}
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
        """The addresses to offer, the GM's choice selected if it is still offered (else
        the default)."""
        self.address.clear()
        for interface in self.sharing.choices(self.allow_public.isChecked()):
            self.address.addItem(interface.label, interface.address)
            if interface.default:
                self.address.setCurrentIndex(self.address.count() - 1)
        kept = self.address.findData(self.chosen) if self.chosen else -1
        if kept >= 0:
            self.address.setCurrentIndex(kept)

    def _toggle(self) -> None:
        if self.sharing.sharing:
            self.sharing.stop()
            return
        self.start()

    def start(self) -> None:
        try:
            self.sharing.start(str(self.address.currentData() or ""),
                               allow_public=self.allow_public.isChecked())
        except (ShareError, ValueError) as error:
            self.message.setText(f"⚠ {error}")
            return
        self.message.setText("")
        self._choose(str(self.address.currentData() or ""))

    def _choose(self, address: str) -> None:
        """``address`` is the GM's choice: kept (in the settings too) for the next start."""
        self.chosen = address
        if self._settings is not None and address:
            self._settings.setValue(ADDRESS_KEY, address)
            self._settings.sync()

    def _new_link(self) -> None:
        self.sharing.new_link()

    def refresh(self) -> None:
        on = self.sharing.sharing
        if on and self._size_before is None:
            self._size_before = self.size()  # before the QR codes make it grow
        self.toggle.setText("Stop sharing" if on else "Start sharing")
        self.toggle.setToolTip(
            "Nothing listens any more, and every link stops working: the next start makes "
            "new ones" if on else "Listen for the phones, with new links")
        self.renew.setEnabled(on)
        self.copy.setEnabled(on)
        self.address.setEnabled(not on)
        self.allow_public.setEnabled(not on)
        listening = self.sharing.listening_on() or (
            self.sharing.resume_from[0] if self.sharing.resume_from else "")
        if listening and listening != self.chosen:
            # Where it listens (or listened before the restart): shown, and kept as the
            # GM's choice for the next start.
            self._choose(listening)
            if self.address.findData(listening) < 0:
                self.allow_public.setChecked(self.allow_public.isChecked()
                                             or _public(listening))
                self._fill_addresses()
            if self.address.findData(listening) < 0:  # (an address of another network)
                self.address.addItem(f"{listening} (kept from the last time)", listening)
            self.address.setCurrentIndex(self.address.findData(listening))
        if on:
            self.link.setText(f"Open on a phone: {self.sharing.url}")
            pixmap = pixmap_of(self.sharing.qr_png())
            self.qr.setPixmap(pixmap)
            self.qr.setMinimumSize(pixmap.size())  # never shrunk: it must scan
        else:
            self.link.setText("Not shared: nothing is listening.")
            self.qr.clear()
            self.qr.setMinimumSize(0, 0)
        self._fill_seats()
        if on:
            self._grow_to_fit()
        elif self._size_before is not None:
            before, self._size_before = self._size_before, None
            # As it was before sharing grew it, once the layout has given back the QR
            # codes' room.
            QTimer.singleShot(0, lambda: self._shrink_to(before))
        if self.sharing.problem:
            self.message.setText(f"⚠ {self.sharing.problem}")
        elif on:
            self.message.setText("")
        if not self.sharing.can_share() and not on:
            self.message.setText("Open a session at the Table to share it.")

    def _grow_to_fit(self) -> None:
        """Large enough for the QR codes just shown (within the screen's free area)."""
        hint = self.sizeHint()
        width, height = max(self.width(), hint.width()), max(self.height(), hint.height())
        screen = self.screen()
        if screen is not None:
            free = screen.availableGeometry()
            width, height = min(width, free.width()), min(height, free.height() - 40)
        self.resize(width, height)

    def _shrink_to(self, size: QSize) -> None:
        layout = self.layout()
        if layout is not None:
            layout.invalidate()
            layout.activate()
        self.resize(size)

    def _fill_seats(self) -> None:
        """One row per vehicle: its name, its seat link and that link's QR code."""
        seats = self.sharing.seats()
        self.seat_links, self.seat_qrs = {}, {}
        self.seats_about.setVisible(bool(seats))
        self.seats_area.setVisible(bool(seats))
        panel = QWidget()
        grid = QGridLayout(panel)
        for row, (key, name, url) in enumerate(seats):
            # The QR code, and beside it the name, the link (a read-only line: a long
            # token scrolls in it, never clipped) and Copy.
            title = QLabel(f"<b>{escape(name)}</b>")
            title.setWordWrap(True)
            link = QLineEdit(url)
            link.setObjectName(f"share-seat-{key}")
            link.setReadOnly(True)
            link.setCursorPosition(0)
            qr = QLabel()
            qr.setPixmap(pixmap_of(qr_png(url, SEAT_QR_SCALE)))
            copy = QPushButton("Copy")
            copy.setAccessibleName(f"Copy {name}'s seat link")
            copy.clicked.connect(lambda _=False, u=url: QGuiApplication.clipboard().setText(u))
            side = QVBoxLayout()
            side.addStretch(1)
            side.addWidget(title)
            side.addWidget(link)
            side.addWidget(copy, 0, Qt.AlignmentFlag.AlignLeft)
            side.addStretch(1)
            grid.addWidget(qr, row, 0)
            grid.addLayout(side, row, 1)
            grid.setColumnStretch(1, 1)
            self.seat_links[key], self.seat_qrs[key] = link, qr
        self.seats_area.setWidget(panel)
