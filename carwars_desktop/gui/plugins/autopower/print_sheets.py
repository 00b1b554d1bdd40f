"""AUTOpower on paper: the car (its hero card's stats, class and division, what it starts
the game with) and a deck list with its counts per icon and value."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QPen

from carwars_desktop.gui.workshop.printing.columns import draw_tables
from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    GREY,
    HEADING,
    INK,
    SHADE,
    SMALL,
    WIDTH,
    PageFlow,
    draw_problems,
    draw_table,
    draw_text,
    draw_title,
    fitted_font,
    font,
    rule,
)
from carwars_desktop.library import summarize_design
from carwars_desktop.rules import ReferenceTable, find_ruleset
from carwars_desktop.rules.autopower import Car, Deck, Icon, new_sheet
from carwars_desktop.rules.autopower.deck_lines import group_cards
from carwars_desktop.rules.autopower.tables import DIVISIONS, MAX_CARD_VALUE, ap
from carwars_desktop.rules.builtin import AUTOPOWER

REFERENCE = ("autopower.divisions", "autopower.push_targets", "autopower.control_failure")
STAT_CAPTIONS = (("energy", "ENERGY", "Speed Rating"), ("fighting", "FIGHTING", "Weapons Rating"),
                 ("strength", "STRENGTH", "Armor Rating"),
                 ("intelligence", "INTELLIGENCE", "the human element"))


def stat_font(shown: str, box_width: float) -> QFont:
    """The big figure of a stat box: two digits ("15") fit inside it, not over its sides."""
    return fitted_font(shown, 190, box_width - 40, bold=True)


def paint_car(flow: PageFlow, car: Car) -> None:
    summary = summarize_design(AUTOPOWER.id, "vehicle", car)
    draw_title(flow, "AUTOpower · car (hero card)", car.name,
               f"{car.stats_text()} · total {car.total} · {summary.class_text}",
               summary.legal, len(summary.problems))
    painter = flow.painter
    card = QRectF(0, flow.y, WIDTH * 0.62, 620)
    painter.save()
    painter.setPen(QPen(INK, 5))
    painter.drawRoundedRect(card, 30, 30)
    painter.restore()
    cell = (card.width() - 80) / 4
    for index, (stat, title, caption) in enumerate(STAT_CAPTIONS):
        x = card.x() + 40 + index * cell
        value = getattr(car, stat)
        box = QRectF(x + 10, card.y() + 40, cell - 20, 300)
        painter.save()
        painter.setPen(QPen(INK, 3))
        painter.setBrush(SHADE)
        painter.drawRoundedRect(box, 16, 16)
        shown = "—" if value is None else str(value)
        painter.setFont(stat_font(shown, box.width()))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, shown)
        painter.restore()
        draw_text(painter, QRectF(x, box.bottom() + 14, cell, 50), title, font(BODY, True),
                  Qt.AlignmentFlag.AlignHCenter)
        draw_text(painter, QRectF(x, box.bottom() + 54, cell, 50), caption, font(SMALL),
                  Qt.AlignmentFlag.AlignHCenter, GREY)
    total = (f"Total (class) {car.total}  →  "
             + (f"Division {car.car_class}" if car.car_class else "fits no division"))
    draw_text(painter, QRectF(card.x() + 40, card.bottom() - 110, card.width() - 80, 60), total,
              font(HEADING, bold=True), Qt.AlignmentFlag.AlignHCenter)

    side_x = card.right() + 50
    side_w = WIDTH - side_x
    y = flow.y
    y += draw_text(painter, QRectF(side_x, y, side_w, 60), "Divisions", font(BODY, True)) + 8
    for division in DIVISIONS:
        fits = not car.problems(division)
        mark = "✔ may enter" if fits else "✘ too strong"
        y += draw_text(painter, QRectF(side_x, y, side_w, 50), f"Division {division}: {mark}",
                       font(BODY)) + 4
    y += 20
    sheet = new_sheet(car)
    y += draw_text(painter, QRectF(side_x, y, side_w, 60), "At the start", font(BODY, True)) + 8
    for line in (sheet.speed_text(), sheet.armor_text(),
                 f"Safe speed up to {sheet.safe_speed}", f"Armor cap {sheet.armor_cap}"):
        y += draw_text(painter, QRectF(side_x, y, side_w, 80), line, font(SMALL)) + 4
    flow.y = max(card.bottom(), y) + 24
    if car.notes:
        flow.y += draw_text(painter, QRectF(0, flow.y, WIDTH, 300), f"Notes: {car.notes}",
                            font(SMALL, italic=True)) + 16
    _play_track(flow)
    rule(flow)
    draw_problems(flow, summary.problems)
    tables = {t.id: t for t in find_ruleset(AUTOPOWER.id).tables}
    draw_tables(flow, [tables[key] for key in REFERENCE if key in tables])


def _play_track(flow: PageFlow) -> None:
    """Blank lines to keep the car's state by hand: speed, armor, damage, control."""
    painter = flow.painter
    labels = ("Energy cards in play", "Strength cards in play", "Damage against armor",
              "Control penalty next turn")
    for label in labels:
        draw_text(painter, QRectF(0, flow.y, 520, 50), label, font(BODY))
        painter.save()
        painter.setPen(QPen(GREY, 2))
        painter.drawLine(530, round(flow.y + 36), round(WIDTH), round(flow.y + 36))
        painter.restore()
        flow.y += 62
    flow.y += 10


def paint_deck(flow: PageFlow, deck: Deck) -> None:
    summary = summarize_design(AUTOPOWER.id, "deck", deck)
    draw_title(flow, "AUTOpower · deck list", deck.name,
               f"{len(deck.cards)} cards · {deck.multi_icon_count} multi-icon",
               summary.legal, len(summary.problems))
    lines = group_cards(deck.cards)
    rows = tuple((str(line.count), line.card.title or "(untitled)", line.icons_text)
                 for line in lines) or (("0", "no cards yet", ""),)
    draw_table(flow, ReferenceTable("deck_list", "Deck list", ap("§1.3"),
                                    ("Count", "Card", "Numbered icons"), rows), width=WIDTH)
    counts = deck.counts()
    values = list(range(1, MAX_CARD_VALUE + 1))
    used = [v for v in values if any(v in counts[icon] for icon in Icon)] or [1]
    grid = tuple((icon.label, *(str(counts[icon].get(v, "")) for v in used),
                  str(sum(counts[icon].values()))) for icon in Icon)
    draw_table(flow, ReferenceTable(
        "deck_counts", "Cards per icon and value", ap("§1.3"),
        ("Icon", *(str(v) for v in used), "All"), grid,
        "A multi-icon card counts under each of its icons."), width=WIDTH)
    draw_problems(flow, summary.problems + summary.warnings)
