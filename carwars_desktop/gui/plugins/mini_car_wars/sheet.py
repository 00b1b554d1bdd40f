"""The Mini Car Wars record sheet, laid out like the paper one: a car seen from above.

Front armor on top, left and right beside the interior (driver, gunner, power
plant), back below, the turret's top last; each weapon sits by the side whose
armor protects it and is struck through when lost. Clicking a box crosses it
(and every box before it) through the engine's damage; clicking a crossed box
clears it as a correction.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtGui import QAction, QFont
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

from carwars_desktop.gui.table.box_strip import Box, BoxStrip
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame, number_label
from carwars_desktop.gui.table.tooltips import LazyTooltip
from carwars_desktop.rules import RecordSheet
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.model import Role, Side
from carwars_desktop.rules.mini_car_wars.play import armor_crossed, mini_sheet
from carwars_desktop.rules.mini_car_wars.play import marks as marks
from carwars_desktop.rules.mini_car_wars.tables import BODY_ARMOR, PERSON_BOXES
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import VehicleInPlay

SIDE_TITLES = {Side.FRONT: "FRONT", Side.LEFT: "LEFT", Side.RIGHT: "RIGHT", Side.BACK: "BACK",
               Side.TOP: "TOP (turret)"}
ROLE_TITLES = {Role.DRIVER: "DRV", Role.GUNNER: "GUN"}


def _new_crossed(index: int, crossed: int) -> int:
    """Clicking box ``index``: cross through it, or clear it and those after it."""
    return index if index < crossed else index + 1


class WeaponButton(QToolButton):
    """A weapon: its label, struck through when destroyed; a menu of its marks."""

    def __init__(self, frame: MiniSheetWidget, index: int) -> None:
        super().__init__()
        self.frame = frame
        self.index = index
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAutoRaise(True)
        menu = QMenu(self)
        self.destroyed_action = QAction("Destroyed", menu, checkable=True)
        self.destroyed_action.triggered.connect(
            lambda checked: frame.mark_weapon(index, destroyed=checked))
        self.fired_action = QAction("Fired this turn", menu, checkable=True)
        self.fired_action.triggered.connect(
            lambda checked: frame.mark_weapon(index, fired=checked))
        self.shots_action = QAction("Shots left…", menu)
        self.shots_action.triggered.connect(lambda: frame.ask_shots(index))
        fire = QAction("Fire it…", menu)
        fire.setToolTip("mini.fire")
        menu.setToolTipsVisible(True)
        fire.triggered.connect(lambda: frame.request_procedure(
            "mini.fire", {"firer": frame.vehicle.key, "weapon": str(index + 1)}))
        menu.addActions([fire, self.destroyed_action, self.fired_action, self.shots_action])
        self.setMenu(menu)
        LazyTooltip(self, self.tooltip)

    def show_weapon(self, sheet: MiniSheet) -> None:
        weapon = sheet.weapons[self.index]
        # The side it sits by is its mount; the turret says so.
        name = weapon.spec.abbreviation + (" (T)" if weapon.mount.side is Side.TOP else "")
        lines = [f"✖ {name}" if weapon.destroyed else name]
        if weapon.status != "ready":
            lines.append("● fired" if weapon.status == "fired" else weapon.status)
        if weapon.shots_left and not weapon.destroyed:  # (spent: the status says "no shots")
            lines.append(f"{weapon.shots_left} shots")
        self.setText("\n".join(lines))
        font = QFont(self.font())
        font.setStrikeOut(weapon.destroyed)
        self.setFont(font)
        self.destroyed_action.setChecked(weapon.destroyed)
        self.fired_action.setChecked(weapon.fired)
        self.shots_action.setEnabled(weapon.shots_left is not None)

    def tooltip(self) -> str:
        assert self.frame.sheet is not None
        weapon = mini_sheet(self.frame.sheet).weapons[self.index]
        cause = self.frame.explain(f"weapon:{self.index}")
        return (f"{weapon.label}, damage {weapon.spec.damage_dice}d6; click for its marks"
                + (f"\nlast changed by {cause}" if cause else ""))


class SideBlock(QWidget):
    """One side's title, armor boxes, armor left and the weapons it protects."""

    def __init__(self, frame: MiniSheetWidget, side: Side, per_row: int,
                 upright: bool = False) -> None:
        super().__init__()
        self.side = side
        self.strip = BoxStrip(f"{side.label} armor", per_row, frame.explain)
        self.strip.box_activated.connect(partial(frame.armor_box_activated, side))
        self.left = number_label(width=2)
        self.left.setToolTip(f"{side.label} armor left")
        self.weapons = QVBoxLayout()
        self.weapons.setSpacing(0)
        title = QLabel(SIDE_TITLES[side])
        title.setObjectName("side-title")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(1, 1, 1, 1)
        layout.setSpacing(2)
        if upright:  # left and right: a narrow column, the number under the boxes
            layout.addWidget(title)
            layout.addWidget(self.strip)
            layout.addWidget(self.left)
        else:
            head = QHBoxLayout()
            head.setSpacing(4)
            head.addWidget(title)
            head.addStretch(1)
            head.addWidget(self.left)
            layout.addLayout(head)
            layout.addWidget(self.strip)
        layout.addLayout(self.weapons)

    def show_side(self, sheet: MiniSheet) -> None:
        crossed = armor_crossed(sheet, self.side)
        total = max(sheet.starting_armor.get(self.side), sheet.armor.get(self.side))
        self.strip.set_boxes([Box(f"armor:{self.side.value}:{n}", n <= crossed)
                              for n in range(1, total + 1)])
        self.left.setText(str(sheet.armor.get(self.side)))


class MiniSheetWidget(SheetFrame):
    """A Mini Car Wars vehicle in play (see the module docstring)."""

    def __init__(self, vehicle: VehicleInPlay, rules: PlayRules, explain: Explain,
                 parent: QWidget | None = None) -> None:
        super().__init__(vehicle, rules, explain, parent)
        self.sides = {Side.FRONT: SideBlock(self, Side.FRONT, 10),
                      Side.LEFT: SideBlock(self, Side.LEFT, 3, upright=True),
                      Side.RIGHT: SideBlock(self, Side.RIGHT, 3, upright=True),
                      Side.BACK: SideBlock(self, Side.BACK, 10),
                      Side.TOP: SideBlock(self, Side.TOP, 10)}
        self.weapon_buttons: list[WeaponButton] = []

        self.crew: dict[Role, tuple[QLabel, BoxStrip, QLabel]] = {}
        interior = QGridLayout()
        interior.setHorizontalSpacing(6)
        interior.setVerticalSpacing(3)
        for row, role in enumerate((Role.DRIVER, Role.GUNNER)):
            title = QLabel(ROLE_TITLES[role])
            strip = BoxStrip(role.value, 6, self.explain)
            strip.box_activated.connect(partial(self.crew_box_activated, role))
            state = QLabel()
            interior.addWidget(title, row, 0)
            interior.addWidget(strip, row, 1)
            interior.addWidget(state, row, 2)
            self.crew[role] = (title, strip, state)
        self.plant = BoxStrip("power plant", 8, self.explain)
        self.plant.box_activated.connect(self.plant_box_activated)
        self.plant_left = number_label(width=5)
        interior.addWidget(QLabel("PP"), 2, 0)
        interior.addWidget(self.plant, 2, 1)
        interior.addWidget(self.plant_left, 2, 2)
        interior_box = QWidget()
        interior_box.setObjectName("interior")
        interior_box.setStyleSheet("QWidget#interior { border: 1px solid palette(mid); "
                                   "border-radius: 6px; }")
        interior_box.setLayout(interior)

        car = QGridLayout()
        car.setSpacing(4)
        car.addWidget(self.sides[Side.FRONT], 0, 1)
        car.addWidget(self.sides[Side.LEFT], 1, 0)
        car.addWidget(interior_box, 1, 1)
        car.addWidget(self.sides[Side.RIGHT], 1, 2)
        car.addWidget(self.sides[Side.BACK], 2, 1)
        car.addWidget(self.sides[Side.TOP], 3, 1)
        self.body.addLayout(car)

        self.speed_button = QToolButton()
        self.speed_button.setToolTip("Set the speed by hand (a collision, a ruling)")
        self.speed_button.clicked.connect(self.ask_speed)
        self.turn_label = QLabel()
        footer = QHBoxLayout()
        footer.addWidget(self.speed_button)
        footer.addWidget(self.turn_label, 1)
        self.body.addLayout(footer)

        key = self.vehicle.key
        self.add_procedure(self.marks_menu, "Fire…", "mini.fire", {"firer": key})
        self.add_procedure(self.marks_menu, "Damage to a side…", "mini.damage", {"vehicle": key})
        self.add_procedure(self.marks_menu, "Control roll…", "mini.control", {"vehicle": key})
        self.marks_menu.addSeparator()
        self.marks_menu.addAction("Set speed…", self.ask_speed)
        self.marks_menu.addAction("Set power plant DP…", self.ask_power_plant)
        self.marks_menu.addAction("Crash and burn (wreck)", self.mark_wreck)

    # --- drawing ----------------------------------------------------------------
    def set_sheet(self, sheet: RecordSheet, read_only: bool = False) -> None:
        super().set_sheet(sheet, read_only)
        mini = mini_sheet(sheet)
        for block in self.sides.values():
            block.show_side(mini)
            block.strip.enabled_for_marks = not read_only
        self.sides[Side.TOP].setVisible(mini.turret or mini.starting_armor.top > 0)
        if len(self.weapon_buttons) != len(mini.weapons):
            self._build_weapons(mini)
        for button in self.weapon_buttons:
            button.show_weapon(mini)
            button.setEnabled(not read_only)
        for role, (title, strip, state) in self.crew.items():
            person = mini.person(role)
            for widget in (title, strip, state):
                widget.setVisible(person is not None)
            if person is None:
                continue
            armor_boxes = BODY_ARMOR.boxes if person.wears_body_armor else 0
            lost = armor_boxes - person.body_armor
            boxes = [Box(f"{role.value}:armor:{n}", n <= lost, "soft")
                     for n in range(1, armor_boxes + 1)]
            boxes += [Box(f"{role.value}:{n}", n <= person.hits)
                      for n in range(1, PERSON_BOXES + 1)]
            strip.set_boxes(boxes)
            strip.enabled_for_marks = not read_only
            state.setText(person.state.value)
        lost = mini.power_plant_max - mini.power_plant
        self.plant.set_boxes([Box(f"pp:{n}", n <= lost)
                              for n in range(1, mini.power_plant_max + 1)])
        self.plant.enabled_for_marks = not read_only
        self.plant_left.setText(f"{mini.power_plant} DP")
        self.speed_button.setText(f"Speed {mini.velocity}")
        self.speed_button.setEnabled(not read_only)
        moves = mini.moves_this_turn
        self.turn_label.setText(f"moved {min(mini.phases_used, moves)} of {moves} · "
                                f"maneuvers {mini.maneuvers}")

    def _build_weapons(self, sheet: MiniSheet) -> None:
        for button in self.weapon_buttons:
            button.hide()
            button.deleteLater()
        self.weapon_buttons = []
        for index, weapon in enumerate(sheet.weapons):
            button = WeaponButton(self, index)
            self.sides[weapon.mount.side].weapons.addWidget(button)
            self.weapon_buttons.append(button)

    # --- marks ------------------------------------------------------------------
    def _mini(self) -> MiniSheet:
        assert self.sheet is not None
        return mini_sheet(self.sheet)

    def armor_box_activated(self, side: Side, index: int) -> None:
        sheet = self._mini()
        crossed = _new_crossed(index, armor_crossed(sheet, side))
        left = sheet.starting_armor.get(side) - crossed
        self.mark_armor(side, max(0, left))

    def mark_armor(self, side: Side, left: int) -> None:
        self.request_mark(lambda: marks.set_armor(self._mini(), side.value, left))

    def crew_box_activated(self, role: Role, index: int) -> None:
        strip = self.crew[role][1]
        self.mark_crew(role, _new_crossed(index, strip.crossed_count()))

    def mark_crew(self, role: Role, crossed: int) -> None:
        self.request_mark(lambda: marks.set_crew(self._mini(), role.value, crossed))

    def plant_box_activated(self, index: int) -> None:
        sheet = self._mini()
        crossed = _new_crossed(index, sheet.power_plant_max - sheet.power_plant)
        self.mark_power_plant(sheet.power_plant_max - crossed)

    def mark_power_plant(self, dp: int) -> None:
        self.request_mark(lambda: marks.set_power_plant(self._mini(), dp))

    def mark_weapon(self, index: int, *, destroyed: bool | None = None,
                    fired: bool | None = None, shots_left: int | None = None) -> None:
        self.request_mark(lambda: marks.set_weapon(self._mini(), index, destroyed=destroyed,
                                                   fired=fired, shots_left=shots_left))

    def mark_speed(self, text: str) -> None:
        self.request_mark(lambda: marks.set_speed(self._mini(), text))

    def mark_wreck(self) -> None:
        self.request_mark(lambda: marks.wreck(self._mini()))

    def ask_shots(self, index: int) -> None:
        weapon = self._mini().weapons[index]
        value, ok = QInputDialog.getInt(self, weapon.label, "Shots left:",
                                        weapon.shots_left or 0, 0, 999)
        if ok:
            self.mark_weapon(index, shots_left=value)

    def ask_speed(self) -> None:
        text, ok = QInputDialog.getText(self, self.vehicle.name,
                                        "Speed now (40, or 20R for reverse):",
                                        text=str(self._mini().speed))
        if ok:
            self.mark_speed(text)

    def ask_power_plant(self) -> None:
        sheet = self._mini()
        value, ok = QInputDialog.getInt(self, self.vehicle.name, "Power plant DP:",
                                        sheet.power_plant, 0, sheet.power_plant_max)
        if ok:
            self.mark_power_plant(value)
