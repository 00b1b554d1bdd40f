"""Loading a Battlecar: each pod and turret with its boxes, filling up as counters go in."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.workshop.boxes import BoxStrip, Counter
from carwars_desktop.gui.workshop.editor import mark_input
from carwars_desktop.rules.battlecars import Card, Component
from carwars_desktop.rules.battlecars.terms import Kind, Weapon

SHORT = {Weapon.ROCKET: "R", Weapon.SHELL: "S", Weapon.MG: "MG", Weapon.FLAME: "F",
         Weapon.SMOKE: "Sm", Weapon.OIL: "O", Weapon.SPIKES: "Sp", Weapon.MINES: "Mi"}
"""The letter printed on a counter in its first box."""


def counters(card: Card, mount: str) -> list[Counter]:
    return [Counter(card.counter_sizes.size(w), SHORT[w]) for w in card.load_of(mount)]


def load_text(card: Card, mount: Component) -> str:
    weapons = card.load_of(mount.name)
    used = card.counter_space(weapons)
    tally: dict[Weapon, int] = {}
    for weapon in weapons:
        tally[weapon] = tally.get(weapon, 0) + 1
    listed = ", ".join(f"{n} {w.label}" for w, n in tally.items()) or "empty"
    state = "full" if used == mount.boxes else (f"⚠ over by {used - mount.boxes}"
                                                if used > mount.boxes
                                                else f"{mount.boxes - used} free")
    return f"{listed} — {used}/{mount.boxes} boxes, {state}"


class MountRow(QWidget):
    """A pod or turret in the list: its name and way of firing, its boxes, its load."""

    def __init__(self) -> None:
        super().__init__()
        self.title = QLabel()
        self.strip = BoxStrip(per_row=12, box=14)
        self.load = QLabel()
        layout = QGridLayout(self)
        layout.setContentsMargins(4, 3, 4, 3)
        layout.addWidget(self.title, 0, 0)
        layout.addWidget(self.load, 0, 1, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.strip, 1, 0, 1, 2, Qt.AlignmentFlag.AlignLeft)

    def show_mount(self, card: Card, mount: Component) -> None:
        self.title.setText(f"<b>{mount.label}</b> · {mount.section.value} section")
        self.strip.set_boxes(mount.boxes, counters(card, mount.name))
        self.load.setText(load_text(card, mount))


class LoadPanel(QWidget):
    """Pick a pod or the turret, then press a weapon to load one counter into it."""

    load_requested = Signal(str, object)
    """(mount name, weapon)"""
    unload_requested = Signal(str)
    empty_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mounts = QListWidget()
        self.mounts.setAccessibleName("Pods and turrets")
        self.mounts.setMinimumHeight(150)
        self.weapon_buttons: dict[Weapon, QPushButton] = {}
        weapons = QGridLayout()
        weapons.addWidget(QLabel("Load one:"), 0, 0)
        for number, weapon in enumerate(Weapon):
            button = QPushButton(f"{weapon.label} ({SHORT[weapon]})")
            button.setToolTip(f"Load one {weapon.label} counter into the pod or turret "
                              "selected above")
            button.clicked.connect(lambda _c=False, w=weapon: self._load(w))
            self.weapon_buttons[weapon] = button
            row, column = divmod(number, 4)
            weapons.addWidget(mark_input(button), row, column + 1)
        weapons.setColumnStretch(5, 1)
        self.unload_button = QPushButton("Take out the last")
        self.empty_button = QPushButton("Empty")
        actions = QHBoxLayout()
        actions.addWidget(mark_input(self.unload_button))
        actions.addWidget(mark_input(self.empty_button))
        actions.addStretch(1)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.mounts, 1)
        layout.addLayout(weapons)
        layout.addLayout(actions)
        layout.addWidget(self.hint)
        self.unload_button.clicked.connect(self._unload)
        self.empty_button.clicked.connect(self._empty)
        self._rows: dict[str, MountRow] = {}

    def _selected(self) -> str:
        item = self.mounts.currentItem()
        return "" if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _unload(self) -> None:
        if self._selected():
            self.unload_requested.emit(self._selected())

    def _empty(self) -> None:
        if self._selected():
            self.empty_requested.emit(self._selected())

    def _load(self, weapon: Weapon) -> None:
        mount = self._selected()
        if mount:
            self.load_requested.emit(mount, weapon)

    def select(self, mount: str) -> bool:
        for row in range(self.mounts.count()):
            item = self.mounts.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == mount:
                self.mounts.setCurrentRow(row)
                return True
        return False

    def show_card(self, card: Card) -> None:
        mounts = [c for c in card.components if c.kind in (Kind.POD, Kind.TURRET)]
        names = [m.name for m in mounts]
        current = self._selected()
        if names != list(self._rows):
            self.mounts.clear()
            self._rows = {}
            for mount in mounts:
                item = QListWidgetItem()
                item.setData(Qt.ItemDataRole.UserRole, mount.name)
                row = MountRow()
                self.mounts.addItem(item)
                self.mounts.setItemWidget(item, row)
                self._rows[mount.name] = row
        for mount in mounts:
            row = self._rows[mount.name]
            row.show_mount(card, mount)
            item = self.mounts.item(names.index(mount.name))
            item.setSizeHint(row.sizeHint())
        if not self.select(current) and mounts:
            self.mounts.setCurrentRow(0)
        self.hint.setText("" if mounts else "This card has no weapon pod or turret yet: add "
                          "one as a component of a section.")
