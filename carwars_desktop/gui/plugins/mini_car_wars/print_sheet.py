"""The Mini Car Wars vehicle record sheet: the car from above with its armor boxes per side,
crew and power-plant boxes, weapons with their mounts, the speed track, and the charts."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen

from carwars_desktop.gui.workshop.printing.columns import draw_tables
from carwars_desktop.gui.workshop.printing.page import (
    BODY,
    BOX,
    GREY,
    INK,
    SMALL,
    WIDTH,
    PageFlow,
    boxes_size,
    draw_boxes,
    draw_problems,
    draw_table,
    draw_text,
    draw_title,
    font,
    rule,
)
from carwars_desktop.library import summarize_design
from carwars_desktop.rules import ReferenceTable, find_ruleset
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars import MiniDesign
from carwars_desktop.rules.mini_car_wars.cite import mcw
from carwars_desktop.rules.mini_car_wars.model import Mount, Role, Side
from carwars_desktop.rules.mini_car_wars.tables import (
    BODY_ARMOR,
    PERSON_BOXES,
    SPEED,
    WEAPONS,
    WeaponFit,
)

REFERENCE = ("weapons", "to_hit_modifiers", "control", "interior")
"""The charts printed with the sheet (Mini Car Wars §1.3, §3.2, §3.4, §3.5)."""

_BODY_W = 600.0
_SIDE_ROW = {Side.FRONT: 15, Side.BACK: 15, Side.LEFT: 8, Side.RIGHT: 8, Side.TOP: 12}


def vehicle_body(painter: QPainter, body: QRectF, radius: float, label_top: float,
                 label_height: float) -> None:
    """The vehicle's body outline on the blank sheet and the live one: a rounded frame with
    "▲ front" at its top (``label_top`` below the frame's edge, ``label_height`` tall)."""
    painter.save()
    painter.setPen(QPen(INK, 4))
    painter.drawRoundedRect(body, radius, radius)
    painter.setFont(font(SMALL))
    painter.setPen(QPen(GREY))
    painter.drawText(QRectF(body.x(), body.y() + label_top, body.width(), label_height),
                     Qt.AlignmentFlag.AlignCenter, "▲ front")
    painter.restore()


def _weapons_on(fits: tuple[WeaponFit, ...], side: Side) -> str:
    names = [f"{WEAPONS[f.kind].abbreviation}{' (linked)' if f.link is not None else ''}"
             for f in fits if f.mount.side is side]
    return ", ".join(names)


def _side_block(flow: PageFlow, design: MiniDesign, side: Side, x: float, y: float,
                width: float, fits: tuple[WeaponFit, ...]) -> float:
    """A side's caption (points, weapons mounted there) and its boxes; returns the height."""
    painter = flow.painter
    points = design.armor.get(side)
    weapons = _weapons_on(fits, side)
    caption = f"{side.label.upper()}  {points}"
    used = draw_text(painter, QRectF(x, y, width, 60), caption, font(BODY + 2, bold=True))
    if weapons:
        used += draw_text(painter, QRectF(x, y + used, width, 60), f"weapons: {weapons}",
                          font(SMALL, italic=True))
    used += 6
    per_row = _SIDE_ROW[side]
    _, box_h = boxes_size(points, per_row)
    if points:
        draw_boxes(painter, x, y + used, points, per_row)
    else:
        draw_text(painter, QRectF(x, y + used, width, 40), "no armor", font(SMALL), color=GREY)
        box_h = 34.0
    return used + box_h


def _block_height(design: MiniDesign, side: Side, fits: tuple[WeaponFit, ...]) -> float:
    extra = 30 if _weapons_on(fits, side) else 0
    points = design.armor.get(side)
    return 46 + extra + (boxes_size(points, _SIDE_ROW[side])[1] if points else 34)


def paint_mini_sheet(flow: PageFlow, design: MiniDesign) -> None:
    summary = summarize_design(MINI_CAR_WARS.id, "vehicle", design)
    configuration = design.configuration()
    vehicle = design.stock_vehicle
    fits = configuration.weapons
    crew = "driver and gunner" if configuration.gunner else "driver only"
    draw_title(flow, "Mini Car Wars · vehicle record sheet", design.name,
               f"{design.title} · {vehicle.size.value} · {summary.cost_text} · {crew}"
               + (" · turret" if configuration.turret else ""),
               summary.legal, len(summary.problems))
    painter = flow.painter

    # The car from above: front up, left on the left.
    body_x = (WIDTH - _BODY_W) / 2
    side_w = body_x - 40
    top_y = flow.y
    front_h = _block_height(design, Side.FRONT, fits)
    _side_block(flow, design, Side.FRONT, body_x, top_y, _BODY_W + 200, fits)
    body_y = top_y + front_h + 20
    inner = _interior_height(design, configuration.gunner, configuration.turret)
    side_h = max(_block_height(design, Side.LEFT, fits), _block_height(design, Side.RIGHT, fits))
    body_h = max(inner, side_h) + 40
    vehicle_body(painter, QRectF(body_x, body_y, _BODY_W, body_h), 60, 8, 36)
    left_w = max(boxes_size(design.armor.left, _SIDE_ROW[Side.LEFT])[0], 260.0)
    _side_block(flow, design, Side.LEFT, body_x - 40 - left_w, body_y + 20, left_w, fits)
    _side_block(flow, design, Side.RIGHT, body_x + _BODY_W + 40, body_y + 20, side_w, fits)
    _interior(flow, design, body_x + 40, body_y + 54, _BODY_W - 80)
    back_y = body_y + body_h + 20
    _side_block(flow, design, Side.BACK, body_x, back_y, _BODY_W + 200, fits)
    flow.y = back_y + _block_height(design, Side.BACK, fits) + 24
    rule(flow)
    _speed_track(flow)
    draw_table(flow, _weapon_table(design), width=WIDTH)
    draw_problems(flow, summary.problems)
    tables = {t.id: t for t in find_ruleset(MINI_CAR_WARS.id).tables}
    draw_tables(flow, [tables[key] for key in REFERENCE if key in tables])


def _interior_height(design: MiniDesign, gunner: bool, turret: bool) -> float:
    height = 80.0 + (80 if gunner else 0) + 130
    if turret or design.armor.top:
        height += 60 + boxes_size(design.armor.top, _SIDE_ROW[Side.TOP])[1]
    return height


def _interior(flow: PageFlow, design: MiniDesign, x: float, y: float, width: float) -> None:
    """Crew boxes (with body armor), the power plant's DP boxes, top armor and the turret."""
    painter = flow.painter
    configuration = design.configuration()
    roles = [Role.DRIVER] + ([Role.GUNNER] if configuration.gunner else [])
    for role in roles:
        kit = design.kit(role)
        draw_text(painter, QRectF(x, y, 190, 50), role.value.upper(), font(BODY, bold=True))
        draw_boxes(painter, x + 190, y, PERSON_BOXES, PERSON_BOXES)
        notes = []
        if kit.body_armor:
            draw_text(painter, QRectF(x + 330, y + 2, 60, 40), "BA", font(SMALL, bold=True))
            draw_boxes(painter, x + 375, y, BODY_ARMOR.boxes, BODY_ARMOR.boxes)
        bonus = kit.to_hit_bonus()
        if bonus:
            notes.append(f"computer +{bonus} to hit")
        if notes:
            draw_text(painter, QRectF(x + 190, y + BOX + 4, width - 190, 30), ", ".join(notes),
                      font(SMALL - 3, italic=True), color=GREY)
        y += 80
    plant = configuration.stock.power_plant
    draw_text(painter, QRectF(x, y, width, 40), f"POWER PLANT  {plant} DP",
              font(BODY, bold=True))
    draw_boxes(painter, x, y + 40, plant, 12)
    y += 40 + boxes_size(plant, 12)[1] + 20
    if configuration.turret or design.armor.top:
        turret = [f for f in configuration.weapons if f.mount is Mount.TURRET]
        label = f"TOP  {design.armor.top}" + (
            f" · turret: {_weapons_on(tuple(turret), Side.TOP)}" if turret else
            (" · turret (empty)" if configuration.turret else ""))
        draw_text(painter, QRectF(x, y, width, 40), label, font(BODY, bold=True))
        if design.armor.top:
            draw_boxes(painter, x, y + 44, design.armor.top, _SIDE_ROW[Side.TOP])


def _speed_track(flow: PageFlow) -> None:
    painter = flow.painter
    speeds = list(range(0, SPEED.top_speed + 1, SPEED.step))
    draw_text(painter, QRectF(0, flow.y, 400, 50), "SPEED (mph)", font(BODY, bold=True))
    x = 300.0
    cell = (WIDTH - x) / len(speeds)
    for speed in speeds:
        draw_text(painter, QRectF(x, flow.y, cell, 40), str(speed), font(SMALL),
                  Qt.AlignmentFlag.AlignHCenter)
        draw_boxes(painter, x + (cell - BOX) / 2, flow.y + 34, 1, 1)
        x += cell
    flow.y += 34 + BOX + 30


def _weapon_table(design: MiniDesign) -> ReferenceTable:
    rows = []
    for number, fit in enumerate(design.configuration().weapons, start=1):
        spec = WEAPONS[fit.kind]
        shots = "unlimited" if spec.shots is None else "□" * spec.shots
        rows.append((str(number), spec.name, fit.mount.label,
                     "—" if spec.to_hit is None else f"{spec.to_hit}+",
                     "smoke" if spec.makes_smoke else f"{spec.damage_dice}d6",
                     shots, "linked" if fit.link is not None else ""))
    return ReferenceTable("sheet_weapons", "Weapons carried", mcw("§1.1, §1.3"),
                          ("#", "Weapon", "Mount", "To hit", "Damage", "Shots", "Link"),
                          tuple(rows) or (("—", "no weapons", "", "", "", "", ""),))
