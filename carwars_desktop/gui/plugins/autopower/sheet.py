"""The AUTOpower car: the hero card's four stats large, the cards in play beside it,
Speed and Armor, damage against armor as a row of boxes, push and control status.

The damage row has one box per point of Armor plus a last, rounded one: the
point that kills (damage > Armor, §2.7). Clicking a clear box marks damage up
to it through the engine's kill check.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMenu,
    QToolButton,
    QWidget,
)

from carwars_desktop.gui.table.box_strip import Box, BoxStrip
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame, number_label
from carwars_desktop.gui.table.tooltips import LazyTooltip
from carwars_desktop.rules import RecordSheet
from carwars_desktop.rules.autopower import CarSheet, ControlPenalty
from carwars_desktop.rules.autopower.play import car_sheet
from carwars_desktop.rules.autopower.play import marks as marks
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import VehicleInPlay

CARDS_PER_ROW = 6
STATS = (("E", "Energy", "energy"), ("F", "Fighting", "fighting"),
         ("S", "Strength", "strength"), ("I", "Intelligence", "iq"))


class PlayedCard(QToolButton):
    """A small card beside the car: its value; a menu to take it out (a correction)."""

    def __init__(self, frame: AutopowerSheetWidget, pile: str, index: int, value: int) -> None:
        super().__init__()
        self.setText(f"{pile[0].upper()}\n{value}")
        self.setFixedSize(34, 44)
        self.setObjectName("played-card")
        self.setStyleSheet("QToolButton#played-card { border: 1px solid palette(dark); "
                           "border-radius: 4px; font-weight: 600; }"
                           "QToolButton#played-card::menu-indicator { image: none; }")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        menu.addAction("Take out of play (correction)",
                       lambda: frame.mark_remove_card(pile, index))
        self.setMenu(menu)

        def tooltip() -> str:
            cause = frame.explain(f"{pile}:{index}")
            return f"{pile.capitalize()} card {value} in play" + (
                f"\nlast changed by {cause}" if cause else "")

        LazyTooltip(self, tooltip)


class AutopowerSheetWidget(SheetFrame):
    """An AUTOpower car in play (see the module docstring)."""

    def __init__(self, vehicle: VehicleInPlay, rules: PlayRules, explain: Explain,
                 parent: QWidget | None = None) -> None:
        super().__init__(vehicle, rules, explain, parent)
        self.setMinimumWidth(360)
        card = QFrame()
        card.setObjectName("hero-card")
        card.setStyleSheet("QFrame#hero-card { border: 2px solid palette(dark); "
                           "border-radius: 8px; }")
        stats = QGridLayout(card)
        stats.setContentsMargins(10, 6, 10, 6)
        self.stat_values: dict[str, QLabel] = {}
        for column, (letter, word, _attr) in enumerate(STATS):
            value = number_label(width=2)
            big = QFont(value.font())
            big.setPointSizeF(big.pointSizeF() * 1.9)
            big.setBold(True)
            value.setFont(big)
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            value.setToolTip(word)
            caption = QLabel(letter)
            caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
            caption.setToolTip(word)
            stats.addWidget(value, 0, column)
            stats.addWidget(caption, 1, column)
            self.stat_values[letter] = value

        piles = QGridLayout()
        piles.setHorizontalSpacing(6)
        self.energy_row = QGridLayout()
        self.strength_row = QGridLayout()
        for row, (title, cards) in enumerate((("Energy in play", self.energy_row),
                                              ("Strength in play", self.strength_row))):
            piles.addWidget(QLabel(title), row, 0)
            piles.addLayout(cards, row, 1)
        piles.setColumnStretch(2, 1)
        top = QHBoxLayout()
        top.addWidget(card)
        top.addLayout(piles, 1)
        self.body.addLayout(top)
        self.cards: list[PlayedCard] = []
        self._shown_cards: tuple[tuple[int, ...], tuple[int, ...]] | None = None

        self.speed = QLabel()
        self.armor = QLabel()
        self.hand = number_label(width=8)
        self.body.addWidget(self.speed)
        armor_row = QHBoxLayout()
        armor_row.addWidget(self.armor, 1)
        armor_row.addWidget(self.hand)
        self.body.addLayout(armor_row)

        self.damage = BoxStrip("damage against Armor", 12, self.explain)
        self.damage.box_activated.connect(self.damage_box_activated)
        self.damage_text = number_label(width=9)
        damage_row = QHBoxLayout()
        damage_row.addWidget(QLabel("Damage"))
        damage_row.addWidget(self.damage)
        damage_row.addStretch(1)
        damage_row.addWidget(self.damage_text)
        self.body.addLayout(damage_row)
        self.control = QLabel()
        self.body.addWidget(self.control)

        key = vehicle.key
        for title, procedure, input_name in (
                ("Draw…", "autopower.draw", "vehicle"),
                ("Accelerate…", "autopower.accelerate", "vehicle"),
                ("Armor…", "autopower.armor", "vehicle"),
                ("Attack…", "autopower.attack", "firer"),
                ("Control roll…", "autopower.control", "vehicle")):
            self.add_procedure(self.marks_menu, title, procedure, {input_name: key})
        self.marks_menu.addSeparator()
        self.marks_menu.addAction("Add damage…", self.ask_damage)
        self.marks_menu.addAction("Hand size…", self.ask_hand)
        self.marks_menu.addAction("Play a Strength card as armor…", self.ask_strength)
        self.marks_menu.addAction("Declared speed…", self.ask_declared)
        penalties = self.marks_menu.addMenu("Control penalty")
        for which, when in (("this_turn", "this turn"), ("next_turn", "next turn")):
            for penalty in ControlPenalty:
                penalties.addAction(f"{when}: {penalty.label}",
                                    partial(self.mark_penalty, which, penalty.value))
        self.marks_menu.addAction("Killed (GM's ruling)", self.mark_kill)

    # --- drawing -----------------------------------------------------------------
    def set_sheet(self, sheet: RecordSheet, read_only: bool = False) -> None:
        super().set_sheet(sheet, read_only)
        car = car_sheet(sheet)
        for letter, _word, attr in STATS:
            self.stat_values[letter].setText(str(getattr(car.car, attr)))
        if self._shown_cards != (car.energy_in_play, car.strength_in_play):
            self._shown_cards = (car.energy_in_play, car.strength_in_play)
            self._show_cards(car)
        for button in self.cards:
            button.setEnabled(not read_only)
        self.speed.setText(f"<b>{car.speed_text()}</b>")
        self.armor.setText(f"<b>{car.armor_text()}</b>")
        self.hand.setText(f"hand {car.hand_size} cards")
        boxes: list[Box] = []
        for entry, amount in enumerate(car.damage_taken):
            boxes += [Box(f"damage:{entry}", True) for _ in range(amount)]
        total = max(car.armor + 1, car.total_damage)
        boxes += [Box("damage:next", False) for _ in range(total - len(boxes))]
        boxes = [Box(b.id, b.crossed, "soft" if n == car.armor else "plain")
                 for n, b in enumerate(boxes)]
        self.damage.set_boxes(boxes)
        self.damage.enabled_for_marks = not read_only
        self.damage_text.setText(f"{car.total_damage} / {car.armor}")
        self.damage_text.setToolTip("damage taken / Armor: killed when damage > Armor (§2.7)")
        penalties = [f"{car.penalty_this_turn.label} this turn"] \
            if car.penalty_this_turn is not ControlPenalty.NONE else []
        if car.next_turn_penalty is not ControlPenalty.NONE:
            penalties.append(car.next_turn_penalty.next_turn_label)
        self.control.setText("control: " + (" · ".join(penalties) or "in control"))

    def _show_cards(self, car: CarSheet) -> None:
        for button in self.cards:
            button.hide()
            button.deleteLater()
        self.cards = []
        for pile, grid, values in (("energy", self.energy_row, car.energy_in_play),
                                   ("strength", self.strength_row, car.strength_in_play)):
            for index, value in enumerate(values):
                button = PlayedCard(self, pile, index, value)
                grid.addWidget(button, index // CARDS_PER_ROW, index % CARDS_PER_ROW)
                self.cards.append(button)

    # --- marks -------------------------------------------------------------------
    def _car(self) -> CarSheet:
        assert self.sheet is not None
        return car_sheet(self.sheet)

    def damage_box_activated(self, index: int) -> None:
        car = self._car()
        if index >= car.total_damage:
            self.mark_damage(index + 1 - car.total_damage)

    def mark_damage(self, amount: int) -> None:
        self.request_mark(lambda: marks.add_damage(self._car(), amount))

    def mark_hand(self, cards: int) -> None:
        self.request_mark(lambda: marks.set_hand(self._car(), cards))

    def mark_strength(self, value: int) -> None:
        self.request_mark(lambda: marks.play_strength(self._car(), value))

    def mark_remove_card(self, pile: str, index: int) -> None:
        self.request_mark(lambda: marks.remove_card(self._car(), pile, index))

    def mark_declared(self, speed: int) -> None:
        self.request_mark(lambda: marks.set_declared_speed(self._car(), speed))

    def mark_penalty(self, which: str, penalty: str) -> None:
        self.request_mark(lambda: marks.set_penalty(self._car(), which, penalty))

    def mark_kill(self) -> None:
        self.request_mark(lambda: marks.kill(self._car()))

    def ask_damage(self) -> None:
        value, ok = QInputDialog.getInt(self, self.vehicle.name, "Damage to add:", 1, 1, 999)
        if ok:
            self.mark_damage(value)

    def ask_hand(self) -> None:
        value, ok = QInputDialog.getInt(self, self.vehicle.name, "Cards in hand:",
                                        self._car().hand_size, 0, 99)
        if ok:
            self.mark_hand(value)

    def ask_strength(self) -> None:
        value, ok = QInputDialog.getInt(self, self.vehicle.name, "Strength card value:",
                                        1, 1, 20)
        if ok:
            self.mark_strength(value)

    def ask_declared(self) -> None:
        car = self._car()
        value, ok = QInputDialog.getInt(self, self.vehicle.name, "Declared speed (0 to E):",
                                        car.declared_speed, 0, 99)
        if ok:
            self.mark_declared(value)
