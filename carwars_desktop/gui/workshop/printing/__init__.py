"""Record sheets on paper: a print preview (Qt PrintSupport) and PDF files (Qt's PDF writer).

Pages are drawn with QPainter by one module per ruleset (its UI bundle's
``print_pages``); :func:`paint_document`
draws any list of designs on any paged device (printer, PDF writer), one design
after the other, each starting on a new page.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QImage, QPagedPaintDevice, QPageLayout, QPageSize, QPdfWriter
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.rulesets import ruleset_ui
from carwars_desktop.gui.workshop.printing.page import DeviceTarget, ImageTarget, PageFlow
from carwars_desktop.library import design_kind
from carwars_desktop.rules import Design

PrintItem = tuple[str, str, Design]
"""(ruleset id, kind, design)"""
RESOLUTION = 300
MARGIN_MM = 10.0


def paint_item(flow: PageFlow, item: PrintItem) -> None:
    """Draw one design's sheet with its ruleset's printed page (its UI bundle's)."""
    ruleset_id, kind, design = item
    painter = ruleset_ui(ruleset_id).print_page(kind)
    painter(flow, design_kind(ruleset_id, kind).own(design))


def paint_pages(target: DeviceTarget | ImageTarget, items: Sequence[PrintItem]) -> int:
    """Draw every design's sheet, each from a new page; return the number of pages."""
    try:
        flow = PageFlow(target, _footer(items[0]))
        for number, item in enumerate(items):
            if number:
                flow.footer = _footer(item)
                flow.new_page()
            paint_item(flow, item)
        return flow.pages
    finally:
        target.finish()


def paint_document(device: QPagedPaintDevice, items: Sequence[PrintItem]) -> int:
    """Draw every design's sheet on a printer or PDF writer; return the number of pages."""
    if not items:
        return 0
    return paint_pages(DeviceTarget(device), items)


def page_images(items: Sequence[PrintItem], width: int = 900) -> list[QImage]:
    """The pages as images ``width`` pixels wide (A4 proportions), for previews."""
    if not items:
        return []
    target = ImageTarget(width)
    paint_pages(target, items)
    return target.images


def _footer(item: PrintItem) -> str:
    return item[2].name


def prepare(device: QPagedPaintDevice) -> None:
    """A4 portrait with 10 mm margins, the page the layout is drawn for."""
    device.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))


def write_pdf(path: str, items: Sequence[PrintItem]) -> int:
    """Save the sheets of ``items`` as a PDF file; return the number of pages written."""
    writer = QPdfWriter(path)
    writer.setResolution(RESOLUTION)
    writer.setTitle(", ".join(item[2].name for item in items)[:200])
    writer.setCreator("Carwars Desktop")
    prepare(writer)
    return paint_document(writer, items)


def show_print_preview(items: Sequence[PrintItem], parent: QWidget | None = None) -> QWidget:
    """Open Qt's print preview of the sheets (print or save from there); returns the dialog.

    Keep the returned dialog referenced while it is open (it holds its printer).
    """
    from carwars_desktop.gui.workshop.printing.preview import SheetPrintPreview

    dialog = SheetPrintPreview(list(items), parent)
    dialog.open()
    return dialog
