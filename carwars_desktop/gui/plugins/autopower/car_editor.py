"""The AUTOpower car editor: the hero card's four stats, its class and the division shown.

Class, divisions and the car's starting speed and armor come from the engine
(``Car.total``, ``Car.car_class``, ``Car.problems(division)``, ``new_sheet``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.workshop.editor import DesignEditor, mark_input, two_columns
from carwars_desktop.rules import Design
from carwars_desktop.rules.autopower import Car, new_sheet
from carwars_desktop.rules.autopower.car import STATS
from carwars_desktop.rules.autopower.tables import DIVISIONS
from carwars_desktop.rules.builtin import AUTOPOWER

ROLES = {"energy": "Speed Rating", "fighting": "Weapons Rating", "strength": "Armor Rating",
         "intelligence": "the human element"}
"""What each stat of the hero card is for the car (AUTOpower §1.1)."""


class CarEditor(DesignEditor):
    ruleset_id = AUTOPOWER.id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stats: dict[str, QSpinBox] = {}
        card = QFrame()
        card.setObjectName("hero-card")
        card.setFrameShape(QFrame.Shape.StyledPanel)
        card.setStyleSheet("QFrame#hero-card { border: 3px solid palette(dark); "
                           "border-radius: 14px; }")
        grid = QGridLayout(card)
        grid.setContentsMargins(18, 18, 18, 18)
        big = QFont(self.font())
        big.setPointSizeF(big.pointSizeF() * 2.6)
        big.setBold(True)
        for column, stat in enumerate(STATS):
            spin = QSpinBox()
            spin.setRange(-99, 99)
            spin.setFont(big)
            spin.setAlignment(Qt.AlignmentFlag.AlignCenter)
            spin.setMinimumWidth(110)
            spin.setAccessibleName(stat.capitalize())
            spin.valueChanged.connect(lambda value, stat=stat: self._stat_edited(stat, value))
            self.stats[stat] = spin
            title = QLabel(f"<b>{stat.upper()}</b>")
            title.setAlignment(Qt.AlignmentFlag.AlignCenter)
            title.setBuddy(spin)
            role = QLabel(ROLES[stat])
            role.setAlignment(Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(mark_input(spin), 0, column)
            grid.addWidget(title, 1, column)
            grid.addWidget(role, 2, column)
        self.no_intelligence = QCheckBox("The card prints no Intelligence (counts as 0)")
        self.no_intelligence.toggled.connect(self._intelligence_toggled)
        grid.addWidget(mark_input(self.no_intelligence), 3, 0, 1, 4)
        self.total = QLabel()
        total_font = QFont(self.font())
        total_font.setPointSizeF(total_font.pointSizeF() * 1.6)
        total_font.setBold(True)
        self.total.setFont(total_font)
        self.total.setAlignment(Qt.AlignmentFlag.AlignCenter)
        grid.addWidget(self.total, 4, 0, 1, 4)

        self.notes = QPlainTextEdit()
        self.notes.setAccessibleName("Notes")
        self.notes.setPlaceholderText("Where the card comes from, house rules…")
        self.notes.setMaximumHeight(110)
        self.notes.textChanged.connect(self._notes_edited)
        notes_box = QGroupBox("Notes")
        QVBoxLayout(notes_box).addWidget(mark_input(self.notes))

        self.divisions = QLabel()
        self.divisions.setWordWrap(True)
        self.divisions.setTextFormat(Qt.TextFormat.RichText)
        self.start = QLabel()
        self.start.setWordWrap(True)
        class_box = QGroupBox("Class and divisions (§1.1, AP-D2)")
        class_layout = QVBoxLayout(class_box)
        class_layout.addWidget(self.divisions)
        class_layout.addWidget(QLabel("<b>At the start of a game</b>"))
        class_layout.addWidget(self.start)

        two_columns(self, (card, notes_box), (class_box,), (3, 2))

    def car(self) -> Car:
        return self.design_as(Car)

    def show_design(self, design: Design) -> None:
        assert isinstance(design, Car)
        super().show_design(design)
        for stat, spin in self.stats.items():
            value = getattr(design, stat)
            shown = 0 if value is None else int(value)
            if spin.value() != shown:
                spin.blockSignals(True)
                spin.setValue(shown)
                spin.blockSignals(False)
        missing = design.intelligence is None
        if self.no_intelligence.isChecked() != missing:
            self.no_intelligence.blockSignals(True)
            self.no_intelligence.setChecked(missing)
            self.no_intelligence.blockSignals(False)
        self.stats["intelligence"].setEnabled(not missing and not self.read_only)
        if self.notes.toPlainText() != design.notes:
            self.notes.blockSignals(True)
            self.notes.setPlainText(design.notes)
            self.notes.blockSignals(False)
        division = design.car_class
        self.total.setText(f"Total {design.total}  →  "
                           + (f"Division {division}" if division else "no division"))
        lines = []
        for number in DIVISIONS:
            problems = design.problems(number)
            over = [p for p in problems if p.code.startswith("division")]
            lines.append(f"Division {number}: " + (f"✘ {over[0].message}" if over
                                                   else "✔ may enter"))
        own = (f"the smallest that fits: <b>Division {division}</b>" if division
               else "<b>no division</b>: above 25, play it only by agreement")
        self.divisions.setText(f"Class (E + F + S + I) <b>{design.total}</b>; {own}.<br><br>"
                               + "<br>".join(lines))
        if all(getattr(design, s) is None or getattr(design, s) >= 0 for s in STATS):
            sheet = new_sheet(design)
            self.start.setText(f"{sheet.speed_text()}<br>{sheet.armor_text()}<br>"
                               f"Safe speed up to {sheet.safe_speed}; armor cap "
                               f"{sheet.armor_cap}")
        else:
            self.start.setText("— (a stat below 0 cannot take the table)")

    # --- editing ---------------------------------------------------------------------------
    def _stat_edited(self, stat: str, value: int) -> None:
        car = self.car()
        if stat == "intelligence" and car.intelligence is None:
            return
        changes: dict[str, Any] = {stat: value}
        self.propose(replace(car, **changes), f"{stat.capitalize()} {value}", stat)

    def _intelligence_toggled(self, missing: bool) -> None:
        car = self.car()
        value = None if missing else self.stats["intelligence"].value()
        self.propose(replace(car, intelligence=value),
                     "No Intelligence" if missing else "Intelligence printed")

    def _notes_edited(self) -> None:
        self.propose(replace(self.car(), notes=self.notes.toPlainText()), "Notes", "notes")

    def focus_field(self, field: str) -> bool:
        if field in self.stats:
            self.stats[field].setFocus(Qt.FocusReason.OtherFocusReason)
            return True
        if field == "total":
            self.stats["energy"].setFocus(Qt.FocusReason.OtherFocusReason)
            return True
        if field == "notes":
            self.notes.setFocus(Qt.FocusReason.OtherFocusReason)
            return True
        return False
