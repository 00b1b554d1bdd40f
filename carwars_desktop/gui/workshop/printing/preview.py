"""Qt's print preview of record sheets (printing and "save as PDF" are offered from it)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.workshop.printing import PrintItem, paint_document, prepare
from carwars_desktop.gui.workshop.printing.session import (
    SessionPrint,
    paint_session_document,
    prepare_paper,
)


class SheetPrintPreview(QPrintPreviewDialog):
    """A print preview that owns its printer (the Qt dialog only borrows it)."""

    def __init__(self, items: Sequence[PrintItem], parent: QWidget | None = None) -> None:
        self.sheet_printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        prepare(self.sheet_printer)
        self.sheet_printer.setDocName(", ".join(item[2].name for item in items)[:200])
        super().__init__(self.sheet_printer, parent)
        self.items = list(items)
        self.pages = 0
        self.setWindowTitle(f"Print preview — {self.sheet_printer.docName()}")
        self.paintRequested.connect(self._paint)
        self.resize(1000, 900)

    def _paint(self, printer: QPrinter) -> None:
        self.pages = paint_document(printer, self.items)


class SessionPrintPreview(QPrintPreviewDialog):
    """A session's sheets in Qt's print preview: the page setup there (paper, margins)
    is what the pages are laid out on."""

    def __init__(self, job: SessionPrint, paper: str = "A4",
                 parent: QWidget | None = None) -> None:

        self.sheet_printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        prepare_paper(self.sheet_printer, paper)
        self.sheet_printer.setDocName(job.title[:200])
        super().__init__(self.sheet_printer, parent)
        self.job = job
        self.pages = 0
        self.setWindowTitle(f"Print preview — {job.title}")
        self.paintRequested.connect(self._paint)
        self.resize(1000, 900)

    def _paint(self, printer: QPrinter) -> None:
        self.pages = paint_session_document(printer, self.job)
