"""AUTOpower screens: the hero-card and deck editors, the car at the Table, the turn's clock."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.plugins.autopower.car_editor import CarEditor
from carwars_desktop.gui.plugins.autopower.clock_panel import AutopowerClockPanel
from carwars_desktop.gui.plugins.autopower.deck_editor import DeckEditor
from carwars_desktop.gui.plugins.autopower.print_live import paint_car_live
from carwars_desktop.gui.plugins.autopower.print_sheets import paint_car, paint_deck
from carwars_desktop.gui.plugins.autopower.sheet import AutopowerSheetWidget
from carwars_desktop.gui.rulesets import RulesetUI
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
from carwars_desktop.gui.workshop.editor import DesignEditor
from carwars_desktop.gui.workshop.printing.live import SheetToPrint
from carwars_desktop.gui.workshop.printing.page import PageFlow
from carwars_desktop.rules import VEHICLE
from carwars_desktop.rules.autopower import Car, CarSheet, Deck
from carwars_desktop.rules.autopower.kinds import DECK
from carwars_desktop.rules.autopower.play.table import KEY_ACTIONS, QUICK
from carwars_desktop.rules.builtin import AUTOPOWER
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import VehicleInPlay


def _car_editor(parent: QWidget | None) -> DesignEditor:
    return CarEditor(parent)


def _deck_editor(parent: QWidget | None) -> DesignEditor:
    return DeckEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    return AutopowerSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    return AutopowerClockPanel(actions)


def _print_car(flow: PageFlow, design: Car) -> None:
    paint_car(flow, design)


def _print_deck(flow: PageFlow, design: Deck) -> None:
    paint_deck(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    paint_car_live(flow, item)


UI: RulesetUI[Car, CarSheet] = RulesetUI(
    AUTOPOWER, {VEHICLE: _car_editor, DECK: _deck_editor}, _sheet, _clock, _print_car,
    {DECK: _print_deck}, print_sheet=_print_live, sheet_layouts=(1, 2),
    key_actions=KEY_ACTIONS, quick=QUICK)
