"""A Mini Car Wars vehicle in play on paper: the car from above with its armor boxes crossed
off as they stand, the crew and power plant, each weapon (struck through when lost, its shots
left), the speed track with the speed now and what this turn has used."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from carwars_desktop.gui.plugins.mini_car_wars.print_sheet import vehicle_body
from carwars_desktop.gui.workshop.printing.live import (
    SheetToPrint,
    boxes_of,
    draw_head,
    draw_states,
    draw_track,
    states_size,
    strike,
)
from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    BOX,
    GREY,
    SMALL,
    WIDTH,
    PageFlow,
    draw_text,
    font,
    rule,
)
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.model import Side
from carwars_desktop.rules.mini_car_wars.tables import BODY_ARMOR, PERSON_BOXES, SPEED, STOCK

_ROW = {Side.FRONT: 15, Side.BACK: 15, Side.LEFT: 6, Side.RIGHT: 6, Side.TOP: 12}
_BODY_W = 700.0


def small_sheet(sheet: object) -> bool:
    """A cycle's sheet takes half a car's place on a shared page."""
    return isinstance(sheet, MiniSheet) and sheet.is_cycle


def _weapon_lines(sheet: MiniSheet, side: Side) -> list[tuple[str, bool]]:
    lines = []
    for index, weapon in enumerate(sheet.weapons):
        if weapon.mount.side is not side:
            continue
        text = f"{index + 1}. {weapon.spec.abbreviation}"
        if weapon.link is not None:
            text += " (linked)"
        if weapon.destroyed:
            text += "  ✖ destroyed"
        elif weapon.fired:
            text += "  ● fired"
        if weapon.shots_left is not None:
            text += f"  shots {weapon.shots_left}"
        lines.append((text, weapon.destroyed))
    return lines


def _side(flow: PageFlow, item: SheetToPrint, sheet: MiniSheet, side: Side, x: float,
          y: float, width: float, draw: bool = True) -> float:
    """A side's caption, boxes and weapons; returns its height (drawn only if ``draw``)."""
    painter = flow.painter
    total = sheet.starting_armor.get(side)
    left = sheet.armor.get(side)
    caption = f"{side.label.upper()}  {left} of {total}" if not item.blank else \
        f"{side.label.upper()}  {total}"
    used = 44.0
    if draw:
        draw_text(painter, QRectF(x, y, width, 50), caption, font(BODY + 2, bold=True))
    per_row = _ROW[side]
    if total:
        if draw:
            draw_states(flow, x, y + used, boxes_of(item.states(), f"armor:{side.value}:",
                                                    total), per_row)
        used += states_size(total, per_row)[1] + 8
    else:
        if draw:
            draw_text(painter, QRectF(x, y + used, width, 40), "no armor", font(SMALL),
                      color=GREY)
        used += 40
    for text, lost in _weapon_lines(sheet, side):
        if draw:
            height = draw_text(painter, QRectF(x, y + used, width, 50), text, font(SMALL))
            if lost:
                strike(painter, QRectF(x, y + used, min(width, len(text) * SMALL * 0.45),
                                       height))
        used += 34
    return used


def _interior(flow: PageFlow, item: SheetToPrint, sheet: MiniSheet, x: float, y: float,
              width: float, draw: bool = True) -> float:
    painter = flow.painter
    states = item.states()
    start = y
    for person in sheet.crew:
        role = person.role.value
        if draw:
            draw_text(painter, QRectF(x, y, 200, 50), role.upper(), font(BODY, bold=True))
            bx = x + 200
            if person.wears_body_armor:
                draw_text(painter, QRectF(bx, y + 2, 60, 40), "BA", font(SMALL, bold=True))
                rect = draw_states(flow, bx + 50, y, boxes_of(states, f"{role}:armor:",
                                                                BODY_ARMOR.boxes),
                                   BODY_ARMOR.boxes, soft=True)
                bx = rect.right() + 24
            rect = draw_states(flow, bx, y, boxes_of(states, f"{role}:", PERSON_BOXES),
                               PERSON_BOXES)
            if not item.blank:
                draw_text(painter, QRectF(rect.right() + 16, y + 2, width, 40),
                          person.state.value, font(SMALL, italic=True))
            if person.to_hit_bonus:
                draw_text(painter, QRectF(x + 200, y + BOX + 4, width - 200, 30),
                          f"computer +{person.to_hit_bonus} to hit", font(SMALL - 3),
                          color=GREY)
        y += 84
    plant = sheet.power_plant_max
    if draw:
        caption = f"POWER PLANT  {sheet.power_plant} of {plant} DP" if not item.blank else \
            f"POWER PLANT  {plant} DP"
        draw_text(painter, QRectF(x, y, width, 44), caption, font(BODY, bold=True))
        draw_states(flow, x, y + 42, boxes_of(states, "pp:", plant), 12)
    y += 42 + states_size(plant, 12)[1] + 16
    return y - start


def paint_mini_live(flow: PageFlow, item: SheetToPrint) -> None:
    sheet = item.sheet
    assert isinstance(sheet, MiniSheet)
    stock = STOCK[sheet.stock]
    crew = "driver and gunner" if sheet.gunner is not None else "driver only"
    option = f" (option {sheet.option})" if sheet.option else ""
    draw_head(flow, "Mini Car Wars · record sheet", item,
              f"{stock.name}{option} · {sheet.size.value} · {crew}"
              + (" · turret" if sheet.turret else ""))
    cycle = sheet.is_cycle
    body_w = _BODY_W * (0.8 if cycle else 1.0)
    body_x = (WIDTH - body_w) / 2
    side_w = body_x - 40
    top = flow.y
    front_h = _side(flow, item, sheet, Side.FRONT, body_x - 100, top, body_w + 200)
    body_y = top + front_h + 16
    inner_h = _interior(flow, item, sheet, 0, 0, body_w - 60, draw=False)
    top_h = (_side(flow, item, sheet, Side.TOP, 0, 0, body_w - 60, draw=False) + 10
             if sheet.turret or sheet.starting_armor.top else 0.0)
    sides_h = max(_side(flow, item, sheet, s, 0, 0, side_w, draw=False)
                  for s in (Side.LEFT, Side.RIGHT))
    body_h = max(inner_h + top_h + 50, sides_h)
    painter = flow.painter
    vehicle_body(painter, QRectF(body_x, body_y, body_w, body_h), 50, 6, 34)
    left_w = states_size(sheet.starting_armor.left, _ROW[Side.LEFT])[0]
    if not cycle or sheet.starting_armor.left:  # a cycle has front and back armor only
        _side(flow, item, sheet, Side.LEFT, max(0.0, body_x - 30 - max(left_w, 300.0)),
              body_y, max(left_w, 300.0))
    if not cycle or sheet.starting_armor.right:
        _side(flow, item, sheet, Side.RIGHT, body_x + body_w + 30, body_y, side_w)
    y = body_y + 44
    y += _interior(flow, item, sheet, body_x + 30, y, body_w - 60)
    if top_h:
        _side(flow, item, sheet, Side.TOP, body_x + 30, y, body_w - 60)
    back_y = body_y + body_h + 16
    flow.y = back_y + _side(flow, item, sheet, Side.BACK, body_x - 100, back_y, body_w + 200)
    flow.y += 10
    rule(flow, 14)
    speeds = [str(s) for s in range(0, SPEED.top_speed + 1, SPEED.step)]
    draw_track(flow, "SPEED (mph)", speeds, None if item.blank else str(sheet.speed))
    if not item.blank:
        moves = sheet.moves_this_turn
        notes = [f"speed {sheet.velocity}", f"moved {min(sheet.phases_used, moves)} of {moves}"
                 " this turn", f"maneuvers {sheet.maneuvers}",
                 f"last turn {sheet.previous_speed} mph"]
        if sheet.skip_next_move:
            notes.append("skips its next move")
        if sheet.wrecked:
            notes.append("✖ WRECK")
        flow.y += draw_text(painter, QRectF(0, flow.y, WIDTH, 80), " · ".join(notes),
                            font(BODY)) + 10
    else:
        flow.y += draw_text(painter, QRectF(0, flow.y, WIDTH, 80),
                            "Moved this turn: ____   Maneuvers: ____", font(BODY)) + 10

