"""The Battlecars card on paper: the three sections front to rear with their components as box
strips (and their d8 hit-location numbers), the eight armour blocks around them, the pods
with their loaded counters, the hit-location tables, the speed track and the weapons table."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen

from carwars_desktop.gui.plugins.battlecars.load import counters
from carwars_desktop.gui.workshop.printing.columns import draw_tables
from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    GREY,
    INK,
    SMALL,
    WIDTH,
    PageFlow,
    boxes_size,
    draw_boxes,
    draw_problems,
    draw_text,
    draw_title,
    font,
    rule,
)
from carwars_desktop.library import summarize_design
from carwars_desktop.rules import ReferenceTable, find_ruleset
from carwars_desktop.rules.battlecars import Card, Component
from carwars_desktop.rules.battlecars.cite import bc
from carwars_desktop.rules.battlecars.tables import DIE
from carwars_desktop.rules.battlecars.terms import SECTIONS, Block, Section
from carwars_desktop.rules.builtin import BATTLECARS

REFERENCE = ("battlecars.weapons", "battlecars.to_hit")
"""The tables printed under the card (Battlecars §1.4, §2.11, §3.7)."""

BOX = 26.0
END_W = 150.0
SECTION_GAP = 24.0
_ROW = 10


def card_body(painter: QPainter, inner_x: float, body_y: float, body_h: float,
              section_w: float, draw_section: Callable[[Section, float], object],
              gap: float = SECTION_GAP) -> None:
    """The card's body, on the blank card and the live one: its rounded frame, each section
    drawn by ``draw_section(section, x)`` from the left, a dashed line between two."""
    painter.save()
    painter.setPen(QPen(INK, 4))
    painter.drawRoundedRect(QRectF(inner_x - 14, body_y, WIDTH - 2 * inner_x + 28, body_h),
                            40, 40)
    painter.restore()
    for i, section in enumerate(SECTIONS):
        x = inner_x + i * (section_w + gap)
        draw_section(section, x)
        if i:
            painter.save()
            painter.setPen(QPen(GREY, 2, Qt.PenStyle.DashLine))
            divider = x - gap / 2
            painter.drawLine(round(divider), round(body_y + 10), round(divider),
                             round(body_y + body_h - 10))
            painter.restore()


def _faces(card: Card, component: Component) -> str:
    for table in card.hit_locations:
        if table.section is component.section:
            faces = table.faces_of(component.name)
            return ", ".join(map(str, faces)) if faces else "—"
    return "—"


def _component_height(component: Component, card: Card, width: float) -> float:
    used = max(component.boxes, sum(c.size for c in counters(card, component.name)))
    return 40 + boxes_size(used, _ROW, BOX)[1] + 16


def _block(flow: PageFlow, card: Card, block: Block, x: float, y: float, per_row: int) -> float:
    boxes = card.armour_boxes(block)
    draw_text(flow.painter, QRectF(x, y, 400, 40), f"{block.value.upper()}  {boxes}",
              font(SMALL, bold=True))
    rect = draw_boxes(flow.painter, x, y + 34, boxes, per_row, BOX)
    return 34 + rect.height()


def paint_card(flow: PageFlow, card: Card) -> None:
    summary = summarize_design(BATTLECARS.id, "vehicle", card)
    count = len(card.components)
    draw_title(flow, "Battlecars · card", card.name,
               f"Speed Track 0–{card.speed_track_max} · {count} "
               f"component{'s' if count != 1 else ''} · "
               f"{sum(a.boxes for a in card.armour)} armour boxes",
               summary.legal, len(summary.problems))
    painter = flow.painter
    inner_x = END_W + 30
    section_w = (WIDTH - 2 * (END_W + 30) - 2 * SECTION_GAP) / 3
    side_rows = int((section_w - 10) // (BOX * 1.18))

    # Right-side blocks on top (the car heads left), left-side blocks below.
    top = flow.y
    right_h = max(_block(flow, card, Block(f"right-{s.value}"),
                         inner_x + i * (section_w + SECTION_GAP), top, side_rows)
                  for i, s in enumerate(SECTIONS))
    body_y = top + right_h + 16
    heights = [sum(_component_height(c, card, section_w) for c in card.components_in(s)) + 60
               for s in SECTIONS]
    body_h = max(max(heights), 260.0)
    card_body(painter, inner_x, body_y, body_h, section_w,
              lambda section, x: _section(flow, card, section, x, body_y + 12, section_w))
    end_rows = max(1, int((END_W - 10) // (BOX * 1.18)))
    _block(flow, card, Block.FRONT, 0, body_y + body_h / 2 - 80, end_rows)
    _block(flow, card, Block.REAR, WIDTH - END_W, body_y + body_h / 2 - 80, end_rows)
    draw_text(painter, QRectF(0, body_y + 6, END_W, 40), "◀ front", font(SMALL), color=GREY)
    bottom = body_y + body_h + 16
    left_h = max(_block(flow, card, Block(f"left-{s.value}"),
                        inner_x + i * (section_w + SECTION_GAP), bottom, side_rows)
                 for i, s in enumerate(SECTIONS))
    flow.y = bottom + left_h + 24
    rule(flow)
    _speed_track(flow, card)
    draw_tables(flow, [_hit_table(card, s) for s in SECTIONS], columns=3)
    draw_problems(flow, summary.problems)
    tables = {t.id: t for t in find_ruleset(BATTLECARS.id).tables}
    draw_tables(flow, [tables[key] for key in REFERENCE if key in tables], columns=1)


def _section(flow: PageFlow, card: Card, section: Section, x: float, y: float,
             width: float) -> None:
    painter = flow.painter
    draw_text(painter, QRectF(x, y, width, 40), f"{section.value.upper()} SECTION",
              font(BODY, bold=True), Qt.AlignmentFlag.AlignHCenter)
    y += 48
    for component in card.components_in(section):
        faces = _faces(card, component)
        draw_text(painter, QRectF(x, y, width * 0.72, 40), component.label,
                  font(SMALL, bold=True))
        draw_text(painter, QRectF(x + width * 0.6, y, width * 0.4, 40), f"d8: {faces}",
                  font(SMALL), Qt.AlignmentFlag.AlignRight, GREY)
        draw_boxes(painter, x, y + 36, component.boxes, _ROW, BOX,
                   counters(card, component.name))
        y += _component_height(component, card, width)


def _speed_track(flow: PageFlow, card: Card) -> None:
    painter = flow.painter
    top = max(0, card.speed_track_max)
    draw_text(painter, QRectF(0, flow.y, 300, 40), "SPEED TRACK", font(BODY, bold=True))
    cell = min(110.0, (WIDTH - 300) / (top + 1))
    for speed in range(top + 1):
        x = 300 + speed * cell
        draw_text(painter, QRectF(x, flow.y, cell, 34), str(speed), font(SMALL),
                  Qt.AlignmentFlag.AlignHCenter)
        draw_boxes(painter, x + (cell - BOX) / 2, flow.y + 34, 1, 1, BOX)
    flow.y += 34 + BOX + 28


def _hit_table(card: Card, section: Section) -> ReferenceTable:
    entries: tuple[str, ...] = ()
    for table in card.hit_locations:
        if table.section is section:
            entries = table.entries
    rows = tuple((str(face), entries[face - 1] if face <= len(entries) else "—")
                 for face in range(1, DIE + 1))
    return ReferenceTable(f"hit_{section.value}", f"{section.value.capitalize()} hit location",
                          bc("§2.13"), ("d8", "Component hit"), rows)
