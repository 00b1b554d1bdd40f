"""A Battlecar in play on paper: the card's three sections with each component's boxes
covered as they stand (a pod's or turret's rounds still loaded as lettered counters), the
eight armour blocks around them, the speed track with the speed now, the driver's state."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt

from carwars_desktop.gui.plugins.battlecars.load import SHORT
from carwars_desktop.gui.plugins.battlecars.print_card import card_body
from carwars_desktop.gui.workshop.printing.live import (
    CROSSED,
    LiveBox,
    SheetToPrint,
    boxes_of,
    draw_head,
    draw_states,
    draw_track,
    states_size,
)
from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    GREY,
    SMALL,
    WIDTH,
    PageFlow,
    draw_text,
    font,
    rule,
)
from carwars_desktop.rules.battlecars import CarSheet, Component
from carwars_desktop.rules.battlecars.terms import SECTIONS, Block, Section

BOX = 30.0
END_W = 170.0
GAP = 24.0
_ROW = 10


def _component_boxes(item: SheetToPrint, sheet: CarSheet, component: Component) -> list[LiveBox]:
    """Covered boxes first, then the counters still loaded, then the empty ones (§2.14)."""
    name = component.name
    states = item.states()
    boxes = [LiveBox(f"component:{name}:{n}",
                     states.get(f"component:{name}:{n}") == CROSSED)
             for n in range(1, sheet.hits(name) + 1)]
    if component.kind.is_mount:
        for weapon in sheet.load(name):
            for part in range(sheet.card.counter_sizes.size(weapon)):
                number = len(boxes) + 1
                boxes.append(LiveBox(f"component:{name}:{number}", False,
                                     SHORT[weapon] if part == 0 else "·"))
    boxes += [LiveBox(f"component:{name}:{n}", False)
              for n in range(len(boxes) + 1, component.boxes + 1)]
    return boxes[:component.boxes]


def _component_height(component: Component) -> float:
    return 40 + states_size(component.boxes, _ROW, BOX)[1] + 18


def _block(flow: PageFlow, item: SheetToPrint, sheet: CarSheet, block: Block, x: float,
           y: float, per_row: int) -> float:
    total = sheet.card.armour_boxes(block)
    caption = f"{block.value.upper()}  {total}" if item.blank else \
        f"{block.value.upper()}  {sheet.armour_left(block)} of {total}"
    draw_text(flow.painter, QRectF(x, y, 500, 40), caption, font(SMALL, bold=True))
    rect = draw_states(flow, x, y + 34, boxes_of(item.states(), f"armour:{block.value}:",
                                                 total), per_row, BOX)
    return 34 + max(rect.height(), BOX)


def _section(flow: PageFlow, item: SheetToPrint, sheet: CarSheet, section: Section, x: float,
             y: float, width: float) -> None:
    painter = flow.painter
    draw_text(painter, QRectF(x, y, width, 40), f"{section.value.upper()} SECTION",
              font(BODY, bold=True), Qt.AlignmentFlag.AlignHCenter)
    y += 48
    for component in sheet.card.components_in(section):
        label = component.label
        if not item.blank and sheet.destroyed(component.name):
            label += "  ✖ destroyed"
        draw_text(painter, QRectF(x, y, width, 40), label, font(SMALL, bold=True))
        draw_states(flow, x, y + 36, _component_boxes(item, sheet, component), _ROW, BOX)
        y += _component_height(component)


def paint_card_live(flow: PageFlow, item: SheetToPrint) -> None:
    sheet = item.sheet
    assert isinstance(sheet, CarSheet)
    card = sheet.card
    draw_head(flow, "Battlecars · card", item,
              f"{card.name} · Speed Track 0–{card.speed_track_max}")
    painter = flow.painter
    inner_x = END_W + 30
    section_w = (WIDTH - 2 * inner_x - 2 * GAP) / 3
    side_rows = int((section_w - 10) // (BOX * 1.18))
    top = flow.y
    right_h = max(_block(flow, item, sheet, Block(f"right-{s.value}"),
                         inner_x + i * (section_w + GAP), top, side_rows)
                  for i, s in enumerate(SECTIONS))
    body_y = top + right_h + 16
    heights = [sum(_component_height(c) for c in card.components_in(s)) + 60 for s in SECTIONS]
    body_h = max(max(heights), 260.0)
    card_body(painter, inner_x, body_y, body_h, section_w,
              lambda section, x: _section(flow, item, sheet, section, x, body_y + 12,
                                          section_w), GAP)
    end_rows = max(1, int((END_W - 10) // (BOX * 1.18)))
    _block(flow, item, sheet, Block.FRONT, 0, body_y + body_h / 2 - 80, end_rows)
    _block(flow, item, sheet, Block.REAR, WIDTH - END_W, body_y + body_h / 2 - 80, end_rows)
    draw_text(painter, QRectF(0, body_y + 6, END_W, 40), "◀ front", font(SMALL), color=GREY)
    bottom = body_y + body_h + 16
    left_h = max(_block(flow, item, sheet, Block(f"left-{s.value}"),
                        inner_x + i * (section_w + GAP), bottom, side_rows)
                 for i, s in enumerate(SECTIONS))
    flow.y = bottom + left_h + 20
    rule(flow, 14)
    speeds = [str(s) for s in range(max(0, card.speed_track_max) + 1)]
    draw_track(flow, "SPEED TRACK", speeds, None if item.blank else str(sheet.speed), BOX)
    if item.blank:
        notes = ["Direction: forward / reverse", "Stunned: ____"]
    else:
        notes = [f"speed {sheet.speed} {sheet.direction.value}",
                 f"last round {sheet.previous_speed}",
                 f"driver {sheet.driver_hits} of {sheet.driver.boxes} boxes hit"]
        if sheet.stunned:
            notes.append("stunned")
        if not sheet.occupied:
            notes.append("no driver aboard")
        if sheet.exploded:
            notes.append("✖ exploded")
    flow.y += draw_text(painter, QRectF(0, flow.y, WIDTH, 80), " · ".join(notes),
                        font(BODY)) + 10
