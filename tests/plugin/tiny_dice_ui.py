"""The screens of Tiny Dice Derby (the test-only ruleset): editor, sheet, clock, printed page."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget
from tiny_dice import ENTRY, Racer, RacerSheet

from carwars_desktop.gui.rulesets import RulesetUI
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
from carwars_desktop.gui.workshop.editor import DesignEditor, mark_input
from carwars_desktop.gui.workshop.printing.page import PageFlow, draw_text, draw_title, font
from carwars_desktop.rules import VEHICLE, RecordSheet
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import Game, VehicleInPlay


class RacerEditor(DesignEditor):
    ruleset_id = ENTRY.id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.armor = QSpinBox()
        self.armor.setRange(0, 9)
        mark_input(self.armor)
        self.armor.valueChanged.connect(self._armor_changed)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Armor"))
        layout.addWidget(self.armor)

    def show_design(self, design: Any) -> None:
        super().show_design(design)
        self.armor.blockSignals(True)
        self.armor.setValue(design.armor)
        self.armor.blockSignals(False)

    def _armor_changed(self, value: int) -> None:
        design = self.design()
        assert isinstance(design, Racer)
        self.propose(Racer(design.name, value), "armor", "armor")


class RacerSheetWidget(SheetFrame):
    def __init__(self, vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> None:
        super().__init__(vehicle, rules, explain)
        self.armor_left = QLabel()
        self.body.addWidget(self.armor_left)

    def set_sheet(self, sheet: RecordSheet, read_only: bool = False) -> None:
        super().set_sheet(sheet, read_only)
        assert isinstance(sheet, RacerSheet)
        self.armor_left.setText(f"armor {sheet.armor - sheet.hits} of {sheet.armor}")


class ShotsClock(QWidget):
    def __init__(self, actions: TableActions) -> None:
        super().__init__()
        self.actions = actions
        self.game: Game | None = None
        self.turn = QLabel()
        self.next_button = QPushButton("Next turn")
        self.next_button.clicked.connect(self.next_phase)
        layout = QVBoxLayout(self)
        layout.addWidget(self.turn)
        layout.addWidget(self.next_button)

    def show_game(self, game: Game, read_only: bool) -> None:
        self.game = game
        self.turn.setText(str(game.clock))
        self.next_button.setEnabled(not read_only)

    def next_phase(self) -> None:
        if self.game is not None:
            clock = self.game.clock.advanced()
            self.actions.clock(clock, f"{clock.word} {clock.turn}")


def _print(flow: PageFlow, design: Racer) -> None:
    draw_title(flow, "Tiny Dice Derby", design.name, "racer", not design.problems(),
               len(design.problems()))
    flow.y += draw_text(flow.painter, QRectF(0, flow.y, 1000, 80), f"armor {design.armor}",
                        font(12))


UI: RulesetUI[Racer, RacerSheet] = RulesetUI(ENTRY, {VEHICLE: RacerEditor}, RacerSheetWidget,
                                             ShotsClock, _print)
