"""Qt's print preview of record sheets (printing and "save as PDF" are offered from it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.workshop.printing import PrintItem, paint_document, prepare
from carwars_desktop.gui.workshop.printing.session import (
    SessionPrint,
    paint_session_document,
    prepare_paper,
)


class _OwnPrinterPreview(QPrintPreviewDialog):
    """A print preview that owns its printer (the Qt dialog only borrows it), titled
    ``title``, its pages painted by ``paint`` (which returns how many it painted);
    :attr:`pages` is how many pages its last painting took."""

    def __init__(self, printer: QPrinter, title: str, parent: QWidget | None,
                 paint: Callable[[QPrinter], int]) -> None:
        self.sheet_printer = printer
        printer.setDocName(title[:200])
        super().__init__(printer, parent)
        self.pages = 0
        self._paint_pages = paint
        self.setWindowTitle(f"Print preview — {title}")
        self.paintRequested.connect(self._paint)
        self.resize(1000, 900)

    def _paint(self, printer: QPrinter) -> None:
        self.pages = self._paint_pages(printer)


class SheetPrintPreview(_OwnPrinterPreview):
    """Record sheets in Qt's print preview."""

    def __init__(self, items: Sequence[PrintItem], parent: QWidget | None = None) -> None:
        self.items = list(items)
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        prepare(printer)
        super().__init__(printer, ", ".join(item[2].name for item in items)[:200], parent,
                         lambda printer: paint_document(printer, self.items))


class SessionPrintPreview(_OwnPrinterPreview):
    """A session's sheets in Qt's print preview: the page setup there (paper, margins)
    is what the pages are laid out on."""

    def __init__(self, job: SessionPrint, paper: str = "A4",
                 parent: QWidget | None = None) -> None:

        self.job = job
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        prepare_paper(printer, paper)
        super().__init__(printer, job.title, parent,
                         lambda printer: paint_session_document(printer, self.job))
