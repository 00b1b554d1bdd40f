"""A session on paper: every vehicle's sheet as it stands (or blank), one or several to a page.

Each ruleset draws its sheets in play with its UI bundle's ``print_sheet`` (from the top of
a cell, 1,900 units across); here each sheet is measured, then scaled into its place: the
whole page, or one of 2 or 4 places like the paper games' counter sheets (a ruleset's small
sheets, Mini Car Wars cycles, take half a place). The footer says the session, the turn and
the house rules on every page. Paper size and margins are the device's: the printer's page
setup, or the PDF's chosen paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QImage,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QPicture,
)

from carwars_desktop.gui.rulesets import ruleset_ui
from carwars_desktop.gui.workshop.printing.live import CellFlow, SheetToPrint
from carwars_desktop.gui.workshop.printing.page import (
    RULE_GREY,
    WIDTH,
    DeviceTarget,
    DrawnBox,
    ImageTarget,
    PageFlow,
    PageTarget,
)

GAP = 44.0
"""Between the places of a shared page (where the scissors go)."""
RESOLUTION = 300
MARGIN_MM = 10.0
PAPERS = {"A4": QPageSize.PageSizeId.A4, "Letter": QPageSize.PageSizeId.Letter}


@dataclass(frozen=True)
class SessionPrint:
    """What to print of a session.

    Args:
        title: the session's name (and scenario).
        when: where the game stands (``Turn 2, phase 3``).
        house_rules: the rules in force beyond the book, as words.
        sheets: (ruleset id, sheet) in the order they print.
        per_page: 1, 2 or 4 sheets to a page.
    """

    title: str
    when: str
    house_rules: str
    sheets: tuple[tuple[str, SheetToPrint], ...]
    per_page: int = 1

    @property
    def footer(self) -> str:
        return f"{self.title} · {self.when} · house rules: {self.house_rules}"


def grids(per_page: int) -> list[tuple[int, int]]:
    """The (rows, columns) a page of ``per_page`` places may have: 4 as 2 × 2 or 4 × 1."""
    return [(rows, per_page // rows) for rows in range(1, per_page + 1)
            if per_page % rows == 0 and per_page // rows <= 2] or [(1, 1)]


def places(per_page: int, width: float, height: float,
           grid: tuple[int, int] | None = None) -> list[QRectF]:
    """The places of one page in ``grid`` (rows, columns), row by row; by default the most
    square grid."""
    rows, columns = grid or min(grids(per_page), key=lambda g: (abs(g[0] - g[1]), -g[0]))
    place_w = (width - GAP * (columns - 1)) / columns
    place_h = (height - GAP * (rows - 1)) / rows
    return [QRectF(column * (place_w + GAP), row * (place_h + GAP), place_w, place_h)
            for row in range(rows) for column in range(columns)]


def _scale(place: QRectF, height: float) -> float:
    return min(1.0, place.width() / WIDTH, place.height() / height)


def best_grid(per_page: int, width: float, height: float,
              heights: Sequence[float]) -> tuple[int, int]:
    """The grid that prints the sheets largest: wide sheets stack, tall ones go side by side."""
    tallest = max(heights, default=1.0)
    return max(grids(per_page),
               key=lambda grid: _scale(places(per_page, width, height, grid)[0], tallest))


def _halves(place: QRectF) -> tuple[QRectF, QRectF]:
    """A place split in two along its longer side (two cycles in a car's place)."""
    if place.width() >= place.height():
        half = (place.width() - GAP) / 2
        return (QRectF(place.x(), place.y(), half, place.height()),
                QRectF(place.x() + half + GAP, place.y(), half, place.height()))
    half = (place.height() - GAP) / 2
    return (QRectF(place.x(), place.y(), place.width(), half),
            QRectF(place.x(), place.y() + half + GAP, place.width(), half))


def _paint_one(flow: PageFlow, ruleset_id: str, item: SheetToPrint) -> None:
    ruleset_ui(ruleset_id).print_sheet(flow, item)


def measure(ruleset_id: str, item: SheetToPrint) -> float:
    """How tall the sheet is at full width (drawn once on a picture that is thrown away)."""
    picture = QPicture()
    painter = QPainter(picture)
    try:
        flow = CellFlow(painter)
        _paint_one(flow, ruleset_id, item)
        return max(flow.y, 1.0)
    finally:
        painter.end()


def _cut_lines(flow: PageFlow, rects: Sequence[QRectF]) -> None:
    painter = flow.painter
    painter.save()
    painter.setPen(QPen(RULE_GREY, 2, Qt.PenStyle.DashLine))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for rect in rects:
        painter.drawRect(rect.adjusted(-GAP / 3, -GAP / 3, GAP / 3, GAP / 3))
    painter.restore()


def paint_session(target: PageTarget, job: SessionPrint,
                  drawn: list[DrawnBox] | None = None) -> int:
    """Draw the session's sheets on ``target``; return the number of pages.

    ``drawn`` collects every box drawn, in device pixels (what the tests count).
    """
    if not job.sheets:
        return 0
    heights = [measure(ruleset_id, item) for ruleset_id, item in job.sheets]
    flow = PageFlow(target, job.footer)
    area = flow.bottom - 20
    page_places = places(job.per_page, WIDTH, area,
                         best_grid(job.per_page, WIDTH, area, heights))
    free = list(page_places)
    half_open: QRectF | None = None
    used: list[QRectF] = []
    for (ruleset_id, item), height in zip(job.sheets, heights, strict=True):
        small = job.per_page > 1 and ruleset_ui(ruleset_id).small_sheet(item.sheet)
        if small and half_open is not None:
            place, half_open = half_open, None
        else:
            if not free:
                if job.per_page > 1:
                    _cut_lines(flow, used)
                flow.new_page()
                free, used, half_open = list(page_places), [], None
            place = free.pop(0)
            if small:
                place, half_open = _halves(place)
        used.append(place)
        scale = _scale(place, height)
        painter = flow.painter
        painter.save()
        painter.translate(place.x() + (place.width() - WIDTH * scale) / 2, place.y())
        painter.scale(scale, scale)
        cell = CellFlow(painter, drawn)
        _paint_one(cell, ruleset_id, item)
        painter.restore()
    if job.per_page > 1:
        _cut_lines(flow, used)
    return flow.pages


def prepare_paper(device: QPagedPaintDevice, paper: str = "A4") -> None:
    """Portrait ``paper`` (A4 or Letter) with 10 mm margins."""
    device.setPageLayout(QPageLayout(QPageSize(PAPERS[paper]), QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))


def paint_session_document(device: QPagedPaintDevice, job: SessionPrint,
                           drawn: list[DrawnBox] | None = None) -> int:
    """Draw the session on a printer or PDF writer as its page layout says."""
    if not job.sheets:
        return 0
    target = DeviceTarget(device)
    try:
        return paint_session(target, job, drawn)
    finally:
        target.finish()


def write_session_pdf(path: str, job: SessionPrint, paper: str = "A4",
                      drawn: list[DrawnBox] | None = None) -> int:
    """Save the session's sheets as a PDF on ``paper``; return the number of pages."""
    writer = QPdfWriter(path)
    writer.setResolution(RESOLUTION)
    writer.setTitle(job.title[:200])
    writer.setCreator("Carwars Desktop")
    prepare_paper(writer, paper)
    return paint_session_document(writer, job, drawn)


def session_images(job: SessionPrint, width: int = 900,
                   drawn: list[DrawnBox] | None = None) -> list[QImage]:
    """The pages as images (A4 proportions), for a preview on screen."""
    if not job.sheets:
        return []
    target = ImageTarget(width)
    try:
        paint_session(target, job, drawn)
    finally:
        target.finish()
    return target.images
