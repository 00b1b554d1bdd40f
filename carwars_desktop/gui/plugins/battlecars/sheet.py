"""The Battlecars card: front, centre and rear sections left to right, the eight armour
blocks around them, each section's components with their d8 hit-location numbers, pods
and the turret with their slots and loaded counters, the driver's boxes, the speed track.

Clicking a box covers it (and those before it) with the engine's cover rules; clicking a
covered box clears it as a correction.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.plugins.battlecars.speed_track import SpeedTrack
from carwars_desktop.gui.table.box_strip import Box, BoxStrip
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame, number_label
from carwars_desktop.gui.theme import muted_colour
from carwars_desktop.rules import RecordSheet
from carwars_desktop.rules.battlecars import CarSheet, Component
from carwars_desktop.rules.battlecars.play import car_sheet
from carwars_desktop.rules.battlecars.play import marks as marks
from carwars_desktop.rules.battlecars.terms import SECTIONS, Block, Direction, Section
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import VehicleInPlay

SIDE_BLOCKS = {  # the car points left: its right side on top, its left side below
    "top": (Block.RIGHT_FRONT, Block.RIGHT_CENTRE, Block.RIGHT_REAR),
    "bottom": (Block.LEFT_FRONT, Block.LEFT_CENTRE, Block.LEFT_REAR),
}
POD_BOX = 16


def faces_text(faces: tuple[int, ...]) -> str:
    """``(3, 4, 5, 8)`` → ``3–5,8`` (the d8 faces that hit a component)."""
    runs: list[str] = []
    for face in faces:
        if runs and face == int(runs[-1].split("–")[-1]) + 1:
            start = runs[-1].split("–")[0]
            runs[-1] = f"{start}–{face}"
        else:
            runs.append(str(face))
    return ",".join(runs) or "–"


def _new_covered(index: int, covered: int) -> int:
    return index if index < covered else index + 1


class ArmourBlock(QWidget):
    def __init__(self, frame: BattlecarsSheetWidget, block: Block, per_row: int) -> None:
        super().__init__()
        self.block = block
        self.strip = BoxStrip(f"{block.label} armour", per_row, frame.explain)
        self.strip.box_activated.connect(partial(frame.armour_box_activated, block))
        self.left = number_label(width=2)
        title = QLabel(block.label)
        title.setObjectName("block-title")
        layout = QHBoxLayout(self) if per_row > 2 else QVBoxLayout(self)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.setSpacing(3)
        layout.addWidget(title)
        layout.addWidget(self.strip)
        layout.addWidget(self.left)
        if isinstance(layout, QHBoxLayout):
            layout.addStretch(1)

    def show_block(self, sheet: CarSheet) -> None:
        boxes = sheet.card.armour_boxes(self.block)
        covered = boxes - sheet.armour_left(self.block)
        self.strip.set_boxes([Box(f"armour:{self.block.value}:{n}", n <= covered)
                              for n in range(1, boxes + 1)])
        self.left.setText(str(sheet.armour_left(self.block)))
        self.left.setToolTip(f"{self.block.label} armour boxes left")


class ComponentRow(QWidget):
    """A component: its d8 faces, its name, its boxes (a pod's counters in its slots)."""

    def __init__(self, frame: BattlecarsSheetWidget, component: Component, faces: str) -> None:
        super().__init__()
        self.frame = frame
        self.component = component
        mount = component.kind.is_mount
        self.strip = BoxStrip(component.name, 8, frame.explain,
                              box_size=POD_BOX if mount else 11)
        self.strip.box_activated.connect(self.box_activated)
        self.title = QLabel(f"<span style='color:{muted_colour()}'>{faces}</span> "
                            f"{component.label}")
        self.title.setToolTip(f"{component.name}: hit on a d8 roll of {faces} "
                              f"({component.kind.value})")
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(3)
        layout.setVerticalSpacing(1)
        layout.addWidget(self.title, 0, 0, 1, 2)
        layout.addWidget(self.strip, 1, 0)
        if mount:
            self.menu_button = QToolButton()
            self.menu_button.setText("▾")
            self.menu_button.setToolTip(f"{component.name}: fire, drop or use a round")
            self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            self.menu = QMenu(self)
            self.menu.aboutToShow.connect(self._fill_menu)
            self.menu_button.setMenu(self.menu)
            layout.addWidget(self.menu_button, 1, 1)
        layout.setColumnStretch(2, 1)

    def show_component(self, sheet: CarSheet) -> None:
        name = self.component.name
        covered = sheet.hits(name)
        boxes = [Box(f"component:{name}:{n}", True) for n in range(1, covered + 1)]
        if self.component.kind.is_mount:
            for weapon in sheet.load(name):
                size = sheet.card.counter_sizes.size(weapon)
                boxes += [Box(f"component:{name}:{len(boxes) + 1}", False,
                              text=weapon.label[:2], tip=f"{weapon.label} counter")
                          for _ in range(size)]
        boxes += [Box(f"component:{name}:{n}", False, tip="empty")
                  for n in range(len(boxes) + 1, self.component.boxes + 1)]
        self.strip.set_boxes(boxes[:self.component.boxes])

    def box_activated(self, index: int) -> None:
        sheet = self.frame.car()
        self.frame.mark_component(self.component.name,
                                  _new_covered(index, sheet.hits(self.component.name)))

    def _fill_menu(self) -> None:
        self.menu.clear()
        sheet = self.frame.car()
        name = self.component.name
        key = self.frame.vehicle.key
        self.frame.add_procedure(self.menu, f"Fire from {name}…", "battlecars.fire",
                                 {"firer": key, "mount": name})
        self.frame.add_procedure(self.menu, f"Drop from {name}…", "battlecars.drop",
                                 {"vehicle": key, "mount": name})
        self.menu.addSeparator()
        for weapon in dict.fromkeys(sheet.load(name)):
            self.menu.addAction(f"Use a {weapon.label} round (fired or dropped)",
                                partial(self.frame.mark_round, name, weapon.value))


class BattlecarsSheetWidget(SheetFrame):
    """A Battlecar in play (see the module docstring)."""

    def __init__(self, vehicle: VehicleInPlay, rules: PlayRules, explain: Explain,
                 parent: QWidget | None = None) -> None:
        super().__init__(vehicle, rules, explain, parent)
        self.blocks: dict[Block, ArmourBlock] = {}
        self.components: dict[str, ComponentRow] = {}
        self.section_boxes: dict[Section, QVBoxLayout] = {}
        card = QGridLayout()
        card.setSpacing(4)
        for column, block in enumerate(SIDE_BLOCKS["top"], start=1):
            self.blocks[block] = ArmourBlock(self, block, 6)
            card.addWidget(self.blocks[block], 0, column)
        for column, block in enumerate(SIDE_BLOCKS["bottom"], start=1):
            self.blocks[block] = ArmourBlock(self, block, 6)
            card.addWidget(self.blocks[block], 2, column)
        self.blocks[Block.FRONT] = ArmourBlock(self, Block.FRONT, 2)
        self.blocks[Block.REAR] = ArmourBlock(self, Block.REAR, 2)
        card.addWidget(self.blocks[Block.FRONT], 1, 0)
        card.addWidget(self.blocks[Block.REAR], 1, 4)
        for column, section in enumerate(SECTIONS, start=1):
            box = QWidget()
            box.setObjectName("section")
            box.setStyleSheet("QWidget#section { border: 1px solid palette(mid); "
                              "border-radius: 5px; }")
            layout = QVBoxLayout(box)
            layout.setContentsMargins(5, 3, 5, 3)
            layout.setSpacing(3)
            title = QLabel(f"<b>{section.value.upper()}</b>")
            layout.addWidget(title)
            self.section_boxes[section] = layout
            card.addWidget(box, 1, column)
        self.body.addLayout(card)
        self.track = SpeedTrack()
        self.speed_text = QLabel()
        self.allowance = QLabel()
        footer = QHBoxLayout()
        footer.addWidget(QLabel("Speed"))
        footer.addWidget(self.track)
        footer.addWidget(self.speed_text, 1)
        self.body.addLayout(footer)
        self.body.addWidget(self.allowance)

        key = vehicle.key
        for text, procedure, presets in (
                ("Record damage…", "battlecars.damage", {"vehicle": key}),
                ("Fire…", "battlecars.fire", {"firer": key}),
                ("Fuel tank check…", "battlecars.fuel_tank", {"vehicle": key}),
                ("Skid test…", "battlecars.skid", {"vehicle": key}),
                ("Re-arm (arena)…", "battlecars.rearm", {"vehicle": key})):
            self.add_procedure(self.marks_menu, text, procedure, presets)
        self.marks_menu.addSeparator()
        self.marks_menu.addAction("Set speed…", self.ask_speed)
        self.stun_action = self.marks_menu.addAction("Driver stunned")
        self.stun_action.setCheckable(True)
        self.stun_action.triggered.connect(self.mark_stunned)
        self.aboard_action = self.marks_menu.addAction("Driver aboard")
        self.aboard_action.setCheckable(True)
        self.aboard_action.triggered.connect(self.mark_occupied)

    def _build_components(self, sheet: CarSheet) -> None:
        for section in SECTIONS:
            table = sheet.card.hit_location(section)
            components = sorted(sheet.card.components_in(section),
                                key=lambda c: min(table.faces_of(c.name), default=9))
            for component in components:
                row = ComponentRow(self, component, faces_text(table.faces_of(component.name)))
                self.section_boxes[section].addWidget(row)
                self.components[component.name] = row
            self.section_boxes[section].addStretch(1)

    # --- drawing -------------------------------------------------------------------
    def set_sheet(self, sheet: RecordSheet, read_only: bool = False) -> None:
        super().set_sheet(sheet, read_only)
        car = car_sheet(sheet)
        if not self.components:
            self._build_components(car)
        for armour in self.blocks.values():
            armour.show_block(car)
            armour.strip.enabled_for_marks = not read_only
        for row in self.components.values():
            row.show_component(car)
            row.strip.enabled_for_marks = not read_only
        top = car.card.speed_track_max
        self.track.set_track(top, car.max_speed(), min(car.speed, max(top, car.speed)))
        reverse = " reverse" if car.direction is Direction.REVERSE else ""
        self.speed_text.setText(f"<b>{car.speed}</b>{reverse} · max {car.max_speed()}")
        self.allowance.setText(f"targets this turn {len(car.targets_this_turn)} of "
                               f"{car.target_limit} · drops this turn "
                               f"{len(car.drops_this_turn)}")
        self.stun_action.setChecked(car.stunned)
        self.aboard_action.setChecked(car.occupied)

    # --- marks ---------------------------------------------------------------------
    def car(self) -> CarSheet:
        assert self.sheet is not None
        return car_sheet(self.sheet)

    def armour_box_activated(self, block: Block, index: int) -> None:
        sheet = self.car()
        covered = sheet.card.armour_boxes(block) - sheet.armour_left(block)
        self.mark_armour(block, _new_covered(index, covered))

    def mark_armour(self, block: Block, covered: int) -> None:
        self.request_mark(lambda: marks.set_armour(self.car(), block.value, covered))

    def mark_component(self, name: str, covered: int) -> None:
        self.request_mark(lambda: marks.set_component(self.car(), name, covered))

    def mark_round(self, mount: str, weapon: str) -> None:
        self.request_mark(lambda: marks.take_round(self.car(), mount, weapon))

    def mark_stunned(self, stunned: bool) -> None:
        self.request_mark(lambda: marks.set_stunned(self.car(), stunned))

    def mark_occupied(self, occupied: bool) -> None:
        self.request_mark(lambda: marks.set_occupied(self.car(), occupied))

    def mark_speed(self, speed: int, direction: str) -> None:
        self.request_mark(lambda: marks.set_speed(self.car(), speed, direction))

    def ask_speed(self) -> None:
        car = self.car()
        value, ok = QInputDialog.getInt(self, self.vehicle.name, "Speed now:", car.speed, 0, 30)
        if ok:
            self.mark_speed(value, car.direction.value)
