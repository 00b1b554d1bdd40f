"""An AUTOpower car in play on paper: its hero card's ratings, then what stands beside it now
(speed and armor with the cards that make them, each attack's damage against armor, the cards
in hand, control penalties, killed), with blank lines to go on by hand."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPen

from carwars_desktop.gui.plugins.autopower.print_sheets import STAT_CAPTIONS
from carwars_desktop.gui.workshop.printing.live import SheetToPrint, draw_head
from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    GREY,
    INK,
    SHADE,
    SMALL,
    WIDTH,
    PageFlow,
    draw_text,
    font,
    rule,
)
from carwars_desktop.rules.autopower import CarSheet


def _cards(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values) if values else "none"


def paint_car_live(flow: PageFlow, item: SheetToPrint) -> None:
    sheet = item.sheet
    assert isinstance(sheet, CarSheet)
    car = sheet.car
    draw_head(flow, "AUTOpower · car in play", item, f"{car.name} · {car.stats_text()}")
    painter = flow.painter
    cell = WIDTH / 4
    for index, (stat, title, caption) in enumerate(STAT_CAPTIONS):
        x = index * cell
        value = getattr(car, stat)
        box = QRectF(x + 20, flow.y, cell - 40, 150)
        painter.save()
        painter.setPen(QPen(INK, 3))
        painter.setBrush(SHADE)
        painter.drawRoundedRect(box, 14, 14)
        painter.setFont(font(100, bold=True))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, "—" if value is None else str(value))
        painter.restore()
        draw_text(painter, QRectF(x, box.bottom() + 8, cell, 40), f"{title} · {caption}",
                  font(SMALL, bold=True), Qt.AlignmentFlag.AlignHCenter)
    flow.y += 150 + 56
    rule(flow, 14)
    if item.blank:
        rows = [("Speed", f"declared 0–{car.energy}; Energy cards in play: ______"),
                ("Armor", f"{car.strength}; Strength cards in play: ______"),
                ("Damage against armor", "______"),
                ("Cards in hand", str(sheet.hand_size)),
                ("Control penalty", "this turn ______   next turn ______")]
    else:
        rows = [("Speed", f"{sheet.speed_text()}  (Energy cards in play: "
                          f"{_cards(sheet.energy_in_play)})"),
                ("Armor", f"{sheet.armor_text()}  (Strength cards in play: "
                          f"{_cards(sheet.strength_in_play)})"),
                ("Damage against armor", f"{sheet.total_damage} of {sheet.armor}"
                 + (f"  ({' + '.join(map(str, sheet.damage_taken))})"
                    if sheet.damage_taken else "")),
                ("Cards in hand", str(sheet.hand_size)),
                ("Control penalty", f"this turn {sheet.penalty_this_turn.value}, "
                                    f"next turn {sheet.next_turn_penalty.value}"),
                ("Attacked this turn", "yes" if sheet.attacked_this_turn else "no"),
                ("Killed", "✖ KILLED" if sheet.killed else "no")]
    for label, value in rows:
        draw_text(painter, QRectF(0, flow.y, 520, 50), label, font(BODY, bold=True))
        height = draw_text(painter, QRectF(540, flow.y, WIDTH - 540, 100), value, font(BODY))
        flow.y += max(height, 40) + 12
    flow.y += 6
    draw_text(painter, QRectF(0, flow.y, WIDTH, 40), "Notes", font(SMALL, bold=True),
              color=GREY)
    painter.save()
    painter.setPen(QPen(GREY, 2))
    for line in range(2):
        y = round(flow.y + 70 + line * 56)
        painter.drawLine(0, y, round(WIDTH), y)
    painter.restore()
    flow.y += 70 + 2 * 56
