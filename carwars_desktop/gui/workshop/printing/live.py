"""Sheets of vehicles in play on paper, as they stand: what each ruleset's painter shares.

A live painter (a UI bundle's ``print_sheet``) draws one vehicle's sheet from the top of a
:class:`CellFlow`, 1,900 units across and as tall as it needs; the session layout
(:mod:`~carwars_desktop.gui.workshop.printing.session`) scales it into its place on the
page. Boxes are drawn by :func:`draw_states`: a crossed box carries an ✕ drawn in ink, so
a sheet printed mid-game reads like the paper one the players kept. Each box drawn is noted
in the flow's :attr:`~PageFlow.drawn` list when it has one (what a test counts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    BOX,
    GREY,
    INK,
    SHADE,
    SMALL,
    TITLE,
    WIDTH,
    DrawnBox,
    PageFlow,
    draw_text,
    fitted_font,
    font,
    rule,
)
from carwars_desktop.rules import RecordSheet
from carwars_desktop.rules.play import PlayRules

CROSSED = "x"
"""A box's state in :attr:`PlayRules.boxes` when it is crossed."""


@dataclass(frozen=True)
class SheetToPrint:
    """One vehicle's sheet to print: its name and player at the table, the sheet, the rules.

    ``blank``: the sheet as the vehicle entered play (nothing crossed). ``when``: what the
    sheet shows (``as it stands, turn 3 · phase 2`` or ``blank``).
    """

    name: str
    player: str
    sheet: RecordSheet
    rules: PlayRules
    blank: bool = False
    when: str = ""

    def states(self) -> Mapping[str, str]:
        return self.rules.boxes(self.sheet)


@dataclass(frozen=True)
class LiveBox:
    """A box to draw: its id (as the play rules name it), crossed or not, a counter's label."""

    id: str
    crossed: bool = False
    label: str = ""


def boxes_of(states: Mapping[str, str], prefix: str, count: int) -> list[LiveBox]:
    """``prefix1`` … ``prefix<count>`` as boxes, crossed where the play rules say so."""
    return [LiveBox(f"{prefix}{n}", states.get(f"{prefix}{n}") == CROSSED)
            for n in range(1, count + 1)]


class _PainterTarget:
    """A painter that is already set up (a cell of a page, or a measuring picture)."""

    def __init__(self, painter: QPainter) -> None:
        self.painter = painter

    def size(self) -> tuple[int, int]:
        return round(WIDTH), 1_000_000

    def new_page(self) -> None:
        raise RuntimeError("a sheet in play is drawn in one cell of a page")


class CellFlow(PageFlow):
    """A flow down one cell: the painter's transform is the caller's, no footer, no new page."""

    def __init__(self, painter: QPainter, drawn: list[DrawnBox] | None = None) -> None:
        super().__init__(_PainterTarget(painter))
        self.drawn = drawn

    def _setup(self) -> None:
        painter = self.painter
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setPen(QPen(INK, 2))


def step_of(box: float) -> float:
    return box * 1.18


def states_size(count: int, per_row: int, box: float = BOX) -> tuple[float, float]:
    """The width and height of ``count`` boxes in rows of ``per_row``."""
    step = step_of(box)
    columns = min(max(count, 1), per_row)
    rows = max(1, -(-count // max(1, per_row)))
    return columns * step - box * 0.18, rows * step - box * 0.18


def draw_states(flow: PageFlow, x: float, y: float, boxes: Sequence[LiveBox], per_row: int,
                box: float = BOX, soft: bool = False) -> QRectF:
    """Draw ``boxes`` in rows of ``per_row`` from (x, y): crossed ones with an ✕, a
    counter's boxes shaded with its label; return the area used. ``soft``: dashed outlines
    (body armor, boxes that protect others)."""
    painter = flow.painter
    step = step_of(box)
    per_row = max(1, per_row)
    painter.save()
    outline = QPen(INK, max(1.0, box / 14),
                   Qt.PenStyle.DashLine if soft else Qt.PenStyle.SolidLine)
    cross = QPen(INK, max(1.5, box / 8))
    cross.setCapStyle(Qt.PenCapStyle.RoundCap)
    label_font = font(box * 0.55, bold=True)
    for index, item in enumerate(boxes):
        row, column = divmod(index, per_row)
        rect = QRectF(x + column * step, y + row * step, box, box)
        painter.setPen(outline)
        painter.setBrush(SHADE if item.label else Qt.BrushStyle.NoBrush)
        painter.drawRect(rect)
        if item.label:
            painter.setFont(label_font)
            painter.setPen(QPen(GREY if item.crossed else INK))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, item.label)
        if item.crossed:
            inner = rect.adjusted(box * 0.12, box * 0.12, -box * 0.12, -box * 0.12)
            painter.setPen(cross)
            painter.drawLine(inner.topLeft(), inner.bottomRight())
            painter.drawLine(inner.topRight(), inner.bottomLeft())
        if flow.drawn is not None:
            flow.drawn.append(DrawnBox(item.id, painter.combinedTransform().mapRect(rect),
                                       item.crossed, item.label))
    painter.restore()
    width, height = states_size(len(boxes), per_row, box)
    return QRectF(x, y, width if boxes else 0.0, height if boxes else 0.0)


def title_font(name: str) -> QFont:
    """The vehicle's name and player on one line beside the badge: a long one in a smaller
    type (down to 5/8 of it) rather than wrapped; only a very long one wraps."""
    shrunk = fitted_font(name, TITLE * 0.8, WIDTH * 0.7 * 0.97, bold=True)
    return shrunk if shrunk.pixelSize() >= TITLE * 0.5 else font(TITLE * 0.5, bold=True)


def draw_head(flow: PageFlow, game: str, item: SheetToPrint, subtitle: str) -> None:
    """A sheet's head: game, the vehicle's name and player, what it is, its status now."""
    painter = flow.painter
    y = flow.y
    y += draw_text(painter, QRectF(0, y, WIDTH, 50), game.upper(), font(SMALL, bold=True),
                   color=GREY)
    name = item.name + (f"  ·  {item.player}" if item.player else "")
    y += draw_text(painter, QRectF(0, y, WIDTH * 0.7, 160), name, title_font(name))
    y += 2
    y += draw_text(painter, QRectF(0, y, WIDTH * 0.7, 120), subtitle, font(BODY))
    badge = QRectF(WIDTH - 520, flow.y + 30, 520, 76)
    painter.save()
    painter.setPen(QPen(INK, 3, Qt.PenStyle.DashLine if item.blank else Qt.PenStyle.SolidLine))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(badge, 12, 12)
    painter.restore()
    draw_text(painter, badge.adjusted(10, 8, -10, 0), item.when or
              ("blank" if item.blank else "as it stands"), font(SMALL + 1, bold=True),
              Qt.AlignmentFlag.AlignHCenter)
    flow.y = max(y, badge.bottom()) + 8
    if not item.blank:
        flags = item.rules.status(item.sheet)
        text = "   ".join(str(f) for f in flags) if flags else "✓ in play"
        flow.y += draw_text(painter, QRectF(0, flow.y, WIDTH, 120), text,
                            font(BODY, bold=True)) + 8
    rule(flow, 14)


def draw_track(flow: PageFlow, label: str, values: Sequence[str], current: str | None,
               box: float = BOX) -> None:
    """A speed track: each value over a box, the current one filled (never colour alone:
    it is also ringed)."""
    painter = flow.painter
    draw_text(painter, QRectF(0, flow.y, 300, 50), label, font(BODY, bold=True))
    x0 = 300.0
    cell = min(130.0, (WIDTH - x0) / max(1, len(values)))
    for number, value in enumerate(values):
        x = x0 + number * cell
        draw_text(painter, QRectF(x, flow.y, cell, 36), value, font(SMALL),
                  Qt.AlignmentFlag.AlignHCenter)
        rect = QRectF(x + (cell - box) / 2, flow.y + 34, box, box)
        painter.save()
        painter.setPen(QPen(INK, max(1.0, box / 14)))
        painter.setBrush(INK if value == current else Qt.BrushStyle.NoBrush)
        painter.drawRect(rect)
        if value == current:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(INK, 3))
            painter.drawEllipse(rect.center(), box * 0.95, box * 0.95)
        painter.restore()
    flow.y += 34 + box + 26


def strike(painter: QPainter, rect: QRectF, color: QColor = INK) -> None:
    """A line through a lost item's text (a destroyed weapon)."""
    painter.save()
    painter.setPen(QPen(color, 3))
    middle = rect.center().y()
    painter.drawLine(QPointF(rect.left(), middle), QPointF(rect.right(), middle))
    painter.restore()


def paint_generic(flow: PageFlow, item: SheetToPrint) -> None:
    """Any ruleset's sheet as a list of its boxes and values (a plug-in without a painter)."""
    draw_head(flow, "record sheet", item, item.sheet.name)
    states = item.states()
    groups: dict[str, list[tuple[str, str]]] = {}
    for key, state in states.items():
        groups.setdefault(key.rstrip("0123456789").rstrip(":") or key, []).append((key, state))
    for group, entries in groups.items():
        crossable = all(state in ("", CROSSED) for _key, state in entries)
        draw_text(flow.painter, QRectF(0, flow.y, 420, 50), group, font(BODY, bold=True))
        if crossable and len(entries) > 1:
            rect = draw_states(flow, 440, flow.y, [LiveBox(k, s == CROSSED) for k, s in entries],
                               30)
            flow.y += max(rect.height(), 40) + 14
        else:
            text = ", ".join(state or "—" for _key, state in entries)
            flow.y += draw_text(flow.painter, QRectF(440, flow.y, WIDTH - 440, 200), text,
                                font(BODY)) + 14
