"""Pages drawn with QPainter in a device-independent unit: 1,900 units across (≈ 0.1 mm on
A4), whatever the paper, printer or PDF resolution. Text, boxes and reference tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPagedPaintDevice, QPainter, QPen

from carwars_desktop.gui.workshop.boxes import Counter, paint_boxes, rows_needed
from carwars_desktop.rules import Problem, ReferenceTable

WIDTH = 1900.0
"""Logical page width (the printable area's width)."""
INK = QColor(15, 15, 15)
GREY = QColor(120, 120, 120)
RULE_GREY = QColor(190, 190, 190)
SHADE = QColor(235, 235, 235)

BODY = 28
SMALL = 23
HEADING = 40
TITLE = 66
BOX = 34.0
FOOTER = 50.0


def font(size: float, bold: bool = False, italic: bool = False) -> QFont:
    result = QFont("DejaVu Sans")
    result.setStyleHint(QFont.StyleHint.SansSerif)
    result.setPixelSize(max(1, round(size)))
    result.setBold(bold)
    result.setItalic(italic)
    return result


def fitted_font(text: str, size: float, width: float, bold: bool = False) -> QFont:
    """``font(size, bold)``, made smaller if need be so that ``text`` fits ``width``."""
    qfont = font(size, bold)
    needed = QFontMetricsF(qfont).horizontalAdvance(text)
    return qfont if needed <= width else font(size * width / needed, bold)


class PageTarget(Protocol):
    """Where pages go: a printer or PDF writer, or images for an on-screen preview."""

    painter: QPainter

    def size(self) -> tuple[int, int]: ...

    def new_page(self) -> None: ...


class DeviceTarget:
    """Pages on a printer or a PDF writer."""

    def __init__(self, device: QPagedPaintDevice) -> None:
        self.device = device
        self.painter = QPainter(device)

    def size(self) -> tuple[int, int]:
        return self.device.width(), self.device.height()

    def new_page(self) -> None:
        self.device.newPage()

    def finish(self) -> None:
        self.painter.end()


class ImageTarget:
    """Pages as images (A4 proportions), for previews on screen."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.height = round(width * A4_RATIO)
        self.images: list[QImage] = []
        self.painter = QPainter()
        self.new_page()

    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def new_page(self) -> None:
        if self.painter.isActive():
            self.painter.end()
        image = QImage(self.width, self.height, QImage.Format.Format_RGB32)
        image.fill(QColor("white"))
        self.images.append(image)
        self.painter.begin(image)

    def finish(self) -> None:
        if self.painter.isActive():
            self.painter.end()


A4_RATIO = 277 / 190
"""Height over width of an A4 page's printable area (10 mm margins)."""


@dataclass(frozen=True)
class DrawnBox:
    """A box a sheet drew: its id, where it is on the device (pixels), whether crossed, the
    counter's label printed in it."""

    id: str
    rect: QRectF
    crossed: bool
    label: str = ""


class PageFlow:
    """Where the next thing goes: a cursor down the page, new pages when one is full.

    ``drawn``, when a list, notes every box a sheet in play draws (what tests count).
    """

    def __init__(self, target: PageTarget, footer: str = "") -> None:
        self.target = target
        self.drawn: list[DrawnBox] | None = None
        self.pages = 1
        self.footer = footer
        width, height = target.size()
        self.height = WIDTH * height / max(1, width)
        self.y = 0.0
        self._setup()

    @property
    def painter(self) -> QPainter:
        return self.target.painter

    def _setup(self) -> None:
        painter = self.painter
        width, height = self.target.size()
        painter.setViewport(0, 0, width, height)
        painter.setWindow(0, 0, round(WIDTH), round(self.height))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setPen(QPen(INK, 2))
        self._draw_footer()

    @property
    def bottom(self) -> float:
        return self.height - FOOTER

    @property
    def room(self) -> float:
        return self.bottom - self.y

    def new_page(self) -> None:
        self.target.new_page()
        self.pages += 1
        self.y = 0.0
        self._setup()

    def ensure(self, height: float) -> None:
        """Start a new page unless ``height`` fits below the cursor (or the page is new)."""
        if height > self.room and self.y > 0:
            self.new_page()

    def footer_line(self) -> tuple[str, str]:
        """The footer's words and its page number; words too long for the room the page
        number leaves end in "…" (a long house-rules list ran over "page 1")."""
        metrics = QFontMetricsF(font(SMALL - 3))
        number = f"page {self.pages}"
        room = WIDTH - metrics.horizontalAdvance(number) - metrics.horizontalAdvance("  ")
        words = f"Carwars Desktop · {self.footer} · printed {date.today():%d %b %Y}"
        return metrics.elidedText(words, Qt.TextElideMode.ElideMiddle, room), number

    def _draw_footer(self) -> None:
        painter = self.painter
        painter.save()
        painter.setFont(font(SMALL - 3))
        painter.setPen(QPen(GREY))
        rect = QRectF(0, self.height - FOOTER + 14, WIDTH, FOOTER - 14)
        words, number = self.footer_line()
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         words)
        painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         number)
        painter.restore()


def text_height(painter: QPainter, width: float, text: str, qfont: QFont) -> float:
    painter.save()
    painter.setFont(qfont)
    bound = painter.boundingRect(QRectF(0, 0, width, 100_000),
                                 int(Qt.TextFlag.TextWordWrap), text)
    painter.restore()
    return bound.height()


def draw_text(painter: QPainter, rect: QRectF, text: str, qfont: QFont,
              align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft,
              color: QColor = INK) -> float:
    """Draw word-wrapped text from the top of ``rect``; return the height it took."""
    painter.save()
    painter.setFont(qfont)
    painter.setPen(QPen(color))
    flags = int(align | Qt.AlignmentFlag.AlignTop) | int(Qt.TextFlag.TextWordWrap)
    bound = painter.boundingRect(QRectF(rect.x(), rect.y(), rect.width(), 100_000), flags, text)
    painter.drawText(QRectF(rect.x(), rect.y(), rect.width(), bound.height() + 2), flags, text)
    painter.restore()
    return bound.height()


def draw_title(flow: PageFlow, game: str, name: str, subtitle: str, legal: bool,
               problem_count: int) -> None:
    """The sheet's head: the game and sheet kind, the design's name, its state."""
    painter = flow.painter
    y = flow.y
    y += draw_text(painter, QRectF(0, y, WIDTH, 60), game.upper(), font(SMALL, bold=True),
                   color=GREY)
    y += draw_text(painter, QRectF(0, y, WIDTH * 0.72, 200), name, font(TITLE, bold=True))
    y += 4
    y += draw_text(painter, QRectF(0, y, WIDTH * 0.72, 200), subtitle, font(BODY))
    state = "✔ LEGAL" if legal else f"⚠ DRAFT · {problem_count} problem" + (
        "s" if problem_count != 1 else "")
    badge = QRectF(WIDTH - 430, flow.y + 40, 430, 70)
    painter.save()
    painter.setPen(QPen(INK, 3, Qt.PenStyle.SolidLine if legal else Qt.PenStyle.DashLine))
    painter.setBrush(Qt.BrushStyle.NoBrush if legal else SHADE)
    painter.drawRoundedRect(badge, 12, 12)
    painter.setFont(font(BODY + 4, bold=True))
    painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, state)
    painter.restore()
    flow.y = max(y, badge.bottom()) + 16
    rule(flow)


def rule(flow: PageFlow, gap: float = 18) -> None:
    painter = flow.painter
    painter.save()
    painter.setPen(QPen(RULE_GREY, 2))
    painter.drawLine(QPointF(0, flow.y), QPointF(WIDTH, flow.y))
    painter.restore()
    flow.y += gap


def boxes_size(count: int, per_row: int, box: float = BOX) -> tuple[float, float]:
    step = box * 1.18
    columns = min(max(count, 1), per_row)
    return columns * step - box * 0.18, rows_needed(count, per_row) * step - box * 0.18


def draw_boxes(painter: QPainter, x: float, y: float, count: int, per_row: int,
               box: float = BOX, counters: Sequence[Counter] = ()) -> QRectF:
    return paint_boxes(painter, QPointF(x, y), count, box, per_row, counters, INK)


def draw_problems(flow: PageFlow, problems: Sequence[Problem]) -> None:
    """A draft's problems, each with its rule, so the printed sheet says why it is a draft."""
    if not problems:
        return
    lines = "\n".join(f"⚠ {p.message} [{p.rule}]" for p in problems)
    height = text_height(flow.painter, WIDTH, lines, font(SMALL)) + 60
    flow.ensure(height)
    flow.y += draw_text(flow.painter, QRectF(0, flow.y, WIDTH, 60),
                        "Why this design is a draft", font(BODY, bold=True)) + 6
    flow.y += draw_text(flow.painter, QRectF(0, flow.y, WIDTH, height), lines, font(SMALL)) + 16


# --- reference tables ------------------------------------------------------------------------

_CELL_PAD = 8.0


def _column_widths(painter: QPainter, table: ReferenceTable, width: float,
                   qfont: QFont) -> list[float]:
    """Columns as wide as their longest cell when they fit; else at least their longest
    word, sharing what is left in proportion to how much more each would like."""
    painter.save()
    pad = 2 * _CELL_PAD + 4
    natural: list[float] = []
    least: list[float] = []
    for index, header in enumerate(table.columns):
        cells = [row[index] if index < len(row) else "" for row in table.rows]
        painter.setFont(font(qfont.pixelSize(), bold=True))
        head = painter.fontMetrics()
        painter.setFont(qfont)
        body = painter.fontMetrics()
        longest = max([float(head.horizontalAdvance(header))]
                      + [float(body.horizontalAdvance(c)) for c in cells])
        word = max([float(head.horizontalAdvance(w)) for w in _words(header)] +
                   [float(body.horizontalAdvance(w)) for c in cells for w in _words(c)] + [0.0])
        natural.append(longest + pad)
        least.append(word + pad)
    painter.restore()
    total = sum(natural)
    if total <= width:
        if total > width * 0.6:
            extra = (width - total) / len(natural)
            return [w + extra for w in natural]
        return natural
    floor = sum(least)
    if floor >= width:
        return [w * width / floor for w in least]
    wish = [n - m for n, m in zip(natural, least, strict=True)]
    share = (width - floor) / max(1.0, sum(wish))
    return [m + w * share for m, w in zip(least, wish, strict=True)]


def _words(cell: str) -> list[str]:
    """What may not be broken: each word, or the whole of a short cell (``≥ 6``)."""
    return [cell] if len(cell) <= 8 else cell.split()


def _row_height(painter: QPainter, cells: Sequence[str], widths: Sequence[float],
                qfont: QFont) -> float:
    return max(text_height(painter, w - 2 * _CELL_PAD, c, qfont)
               for c, w in zip(cells, widths, strict=False)) + 2 * _CELL_PAD - 4


def table_height(painter: QPainter, table: ReferenceTable, width: float,
                 size: float = SMALL) -> float:
    qfont = font(size)
    widths = _column_widths(painter, table, width, qfont)
    height = text_height(painter, width, f"{table.title} ({table.rule})", font(BODY, True)) + 8
    height += _row_height(painter, table.columns, widths, font(size, True))
    for row in table.rows:
        height += _row_height(painter, row, widths, qfont)
    if table.note:
        height += text_height(painter, width, table.note, font(size - 2, italic=True)) + 8
    return height + 24


def draw_table(flow: PageFlow, table: ReferenceTable, x: float = 0.0,
               width: float = WIDTH, size: float = SMALL) -> float:
    """A reference table of the rules, as printed: title, rule, header, rows, note."""
    painter = flow.painter
    total = table_height(painter, table, width, size)
    flow.ensure(total)
    qfont = font(size)
    bold = font(size, True)
    widths = _column_widths(painter, table, width, qfont)
    y = flow.y
    y += draw_text(painter, QRectF(x, y, width, 80), f"{table.title}  ({table.rule})",
                   font(BODY, True)) + 8
    aligns = column_aligns(table)
    for number, cells in enumerate([table.columns, *table.rows]):
        height = _row_height(painter, cells, widths, bold if number == 0 else qfont)
        painter.save()
        if number == 0:
            painter.fillRect(QRectF(x, y, sum(widths), height), SHADE)
        painter.setPen(QPen(RULE_GREY, 1.5))
        painter.drawLine(QPointF(x, y + height), QPointF(x + sum(widths), y + height))
        painter.restore()
        cx = x
        for index, (cell, w) in enumerate(zip(cells, widths, strict=False)):
            align = aligns[index] if index < len(aligns) else Qt.AlignmentFlag.AlignLeft
            draw_text(painter, QRectF(cx + _CELL_PAD, y + _CELL_PAD - 2, w - 2 * _CELL_PAD,
                                      height), cell, bold if number == 0 else qfont, align)
            cx += w
        y += height
    if table.note:
        y += 6
        y += draw_text(painter, QRectF(x, y, width, 200), table.note,
                       font(size - 2, italic=True), color=GREY)
    flow.y = y + 24
    return total


PLACEHOLDERS = frozenset({"", "—", "–", "-"})
"""Cells that say "nothing here": they do not make a column of numbers a column of text."""


def column_aligns(table: ReferenceTable) -> list[Qt.AlignmentFlag]:
    """Each column's alignment, its header's too: right for numbers (a dash for "none" among
    them included), left for text, so a header sits over its values."""
    aligns = []
    for index in range(len(table.columns)):
        cells = [row[index] for row in table.rows if index < len(row)]
        values = [cell for cell in cells if cell.strip() not in PLACEHOLDERS]
        numeric = bool(values) and all(_numeric(cell) for cell in values)
        aligns.append(Qt.AlignmentFlag.AlignRight if numeric else Qt.AlignmentFlag.AlignLeft)
    return aligns


def _numeric(cell: str) -> bool:
    stripped = cell.replace("$", "").replace(",", "").replace("+", "").replace("−", "") \
        .replace("-", "").replace("%", "").replace(".", "").replace("/", "").strip()
    return stripped.isdigit()
