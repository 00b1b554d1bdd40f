"""Hand a design to a friend: "Copy as text" (a ``CWD1:…`` line for a chat), "Paste design…"
(a code or a design file's text, checked on a worker as it is typed — “Checking…”, a newer
text superseding an older check; refused with the reason, nothing written), and "Show QR
code…" (the same line for a phone's camera, drawn by segno).

The Library's "Share ▾" button holds the three; a paste is imported through the file
import's own path (:func:`~carwars_desktop.gui.workshop.exchange_actions.import_read`):
planned and written on workers, the same name-clash questions, one transaction.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.background import Job, LatestOnly, collection_paused
from carwars_desktop.gui.workshop.exchange_actions import import_read
from carwars_desktop.library import ExchangedDesign, ExchangeError, design_kind
from carwars_desktop.library.text_code import (
    check_code_length,
    encode_designs,
    looks_like_code,
    qr_fits,
    read_designs_or_code,
)

if TYPE_CHECKING:
    from carwars_desktop.gui.workshop.exchange_actions import AskClash, Warn
    from carwars_desktop.services import LibraryService
    from carwars_desktop.storage import DesignRecord

Designs = tuple[ExchangedDesign, ...]

QR_SCALE = 6
"""Pixels per QR module on screen."""


class ShareHost(Protocol):
    """What the share actions need of the Library workspace."""

    ask_clash: AskClash
    warn: Warn

    service: LibraryService

    def selected_ids(self) -> list[int]: ...

    def show_imported(self, records: Sequence[DesignRecord]) -> None: ...

    def say(self, text: str) -> None: ...


def designs_text(designs: Sequence[ExchangedDesign]) -> str:
    """``Night Courier (Mini Car Wars vehicle)``, or ``3 designs: …``."""
    names = [f"{d.name} ({design_kind(d.ruleset_id, d.kind).ruleset_title} "
             f"{design_kind(d.ruleset_id, d.kind).title.lower()})" for d in designs]
    if len(names) == 1:
        return names[0]
    shown = ", ".join(names[:4]) + ("…" if len(names) > 4 else "")
    return f"{len(names)} designs: {shown}"


def qr_png(code: str, scale: int = QR_SCALE) -> bytes:
    """The QR code of ``code`` as PNG bytes (segno, error correction M, 4-module border)."""

    import segno

    qr = segno.make_qr(code, error="m", boost_error=False, mode="byte")
    out = io.BytesIO()
    qr.save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


class CodeEdit(QPlainTextEdit):
    """The paste box: a text too long to be a design code is refused before it goes in.

    Laying out one line of 250,000 characters takes the box seconds, so such a paste never
    reaches it; :attr:`refused` carries the reason instead.
    """

    refused = Signal(str)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt's name)
        try:
            check_code_length(len(source.text()) + self.document().characterCount() - 1
                              - len(self.textCursor().selectedText()))
        except ExchangeError as error:
            self.refused.emit(str(error))
            return
        super().insertFromMimeData(source)


class PasteDesignDialog(QDialog):
    """A text box for a design code (or a design file's text), read on a worker as it
    changes (:class:`~carwars_desktop.gui.background.LatestOnly`: a newer text supersedes
    the check of an older one)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Paste design")
        self.designs: Designs = ()
        self._checks: LatestOnly[Designs] = LatestOnly(self)
        intro = QLabel("Paste a design code (CWD1:…) from a chat, or the text of a design "
                       "file. It is checked before anything is written.")
        intro.setWordWrap(True)
        self.edit = CodeEdit()
        self.edit.setAccessibleName("Design code")
        self.edit.setPlaceholderText("CWD1:…")
        self.edit.setTabChangesFocus(True)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = QPushButton("&Import")
        self.buttons.addButton(self.import_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.verdict)
        layout.addWidget(self.buttons)
        self.resize(560, 300)
        self.edit.textChanged.connect(self._check)
        self.edit.refused.connect(self._refuse)
        try:
            check_code_length(len(text))
        except ExchangeError as error:
            self._refuse(str(error))
        else:
            self.edit.blockSignals(True)  # read once, below
            self.edit.setPlainText(text)
            self.edit.blockSignals(False)
            self._check()

    @property
    def checking(self) -> bool:
        """Whether the box's text is still being read (the verdict says “Checking…”)."""
        return self._checks.busy

    def _refuse(self, reason: str) -> None:
        """A paste refused unread (by its length): the box keeps what it held."""
        self._checks.supersede()
        self.designs = ()
        self.import_button.setEnabled(False)
        self.verdict.setText(f"⚠ Refused: {reason} (a design file is imported with "
                             f"Import…). Nothing will be written.")

    def _check(self) -> None:
        text = self.edit.toPlainText()
        self.designs = ()
        self.import_button.setEnabled(False)
        if not text.strip():
            self._checks.supersede()
            self.verdict.setText("Nothing pasted yet.")
            return
        self.verdict.setText("Checking…")

        def read(job: Job) -> Designs:
            return read_designs_or_code(text, job.progress, subject="the text")

        # LatestOnly holds these bound methods weakly: a pending check never keeps a
        # parentless dialog alive.
        self._checks.submit(read, self._checked, self._not_read)

    def _checked(self, designs: Designs) -> None:
        self.designs = designs
        self.verdict.setText(f"✔ {designs_text(designs)}")
        self.import_button.setEnabled(bool(designs))

    def _not_read(self, error: BaseException) -> None:
        if not isinstance(error, ExchangeError):
            raise error
        self.verdict.setText(f"⚠ Refused: {error}. Nothing will be written.")

    def done(self, result: int) -> None:
        self._checks.supersede()  # a check still running is dropped
        super().done(result)


class QrDialog(QDialog):
    """The design code as a QR code, with the code itself to copy."""

    def __init__(self, code: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"QR code — {title}")
        self.code = code
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setAccessibleName("QR code of the design")
        caption = QLabel(f"{title}. A phone's camera reads it as text: paste that in "
                         "Carwars Desktop (Library → Share → Paste design…).")
        caption.setWordWrap(True)
        if qr_fits(code):
            pixmap = QPixmap()
            pixmap.loadFromData(qr_png(code), "PNG")
            self.picture.setPixmap(pixmap)
        else:
            self.picture.setText(f"⚠ The code is {len(code):,} characters: more than one QR "
                                 "code holds. Share fewer designs, or copy the text or "
                                 "export a file instead.")
            self.picture.setWordWrap(True)
        text = QPlainTextEdit(code)
        text.setReadOnly(True)
        text.setMaximumHeight(80)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("&Copy the text")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(code))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.picture, 1)
        layout.addWidget(caption)
        layout.addWidget(text)
        layout.addWidget(buttons)


class ShareButton(QToolButton):
    """"Share ▾": copy as text, paste a design, show the QR code (see the module docstring)."""

    def __init__(self, host: ShareHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.setText("S&hare ▾")
        self.setToolTip("Hand designs to a friend as a line of text or a QR code")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        self.copy_action = QAction("Copy as text (Ctrl+Shift+C)", menu)
        self.copy_action.setToolTip("The selected designs as one line (CWD1:…) for a chat")
        self.copy_action.triggered.connect(lambda: self.copy_as_text())
        self.paste_action = QAction("Paste design… (Ctrl+Shift+V)", menu)
        self.paste_action.triggered.connect(lambda: self.paste_design())
        self.qr_action = QAction("Show QR code…", menu)
        self.qr_action.triggered.connect(lambda: self.show_qr())
        menu.addActions([self.copy_action, self.paste_action, self.qr_action])
        self.setMenu(menu)
        self.dialog: QDialog | None = None
        # Tests replace it (the paste dialog is modal): text → the designs to import, or None.
        self.ask_paste: Callable[[str], Designs | None] = self._ask_paste

    def set_selection(self, any_selected: bool) -> None:
        self.copy_action.setEnabled(any_selected)
        self.qr_action.setEnabled(any_selected)

    def code(self) -> str | None:
        """The selected designs' code; None (the reason said) when there is none."""
        ids = self.host.selected_ids()
        if not ids:
            return None
        try:
            return encode_designs(self.host.service.exported(ids))
        except ExchangeError as error:
            self.host.say(f"⚠ Not copied: {error}.")
            return None

    def copy_as_text(self) -> str | None:
        """Put the selected designs' code on the clipboard; return it."""
        code = self.code()
        if code is None:
            return None
        QGuiApplication.clipboard().setText(code)
        count = len(self.host.selected_ids())
        self.host.say(f"Copied {count} design{'s' if count != 1 else ''} as text "
                      f"({len(code):,} characters): paste it in a chat.")
        return code

    def show_qr(self) -> QrDialog | None:
        code = self.code()
        if code is None:
            return None
        designs = self.host.service.exported(self.host.selected_ids())
        dialog = QrDialog(code, designs_text(designs), self.window())
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _ask_paste(self, text: str) -> Designs | None:
        dialog = PasteDesignDialog(text, self.window())
        self.dialog = dialog
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        designs = dialog.designs
        dialog.deleteLater()
        return designs if accepted and designs else None

    def paste_design(self, text: str | None = None) -> int:
        """Import pasted designs (the clipboard's code is offered); return how many.

        The dialog read them on a worker; they are planned and written as a file's are
        (:func:`~carwars_desktop.gui.workshop.exchange_actions.import_read`)."""

        if text is None:
            clipboard = QGuiApplication.clipboard().text()
            text = clipboard if looks_like_code(clipboard) else ""
        designs = self.ask_paste(text)
        if not designs:
            return 0
        pasted: Designs = designs
        with collection_paused():  # many designs, as a file's: see gui/background.py
            records = import_read(self.window(), self.host.service, lambda _job: pasted,
                                  f"Naming {len(pasted):,} designs…", self.host.ask_clash,
                                  self.host.warn, initiator=self.host,
                                  refused="The text was not imported")
            if not records:
                return 0
            self.host.show_imported(records)
            return len(records)
