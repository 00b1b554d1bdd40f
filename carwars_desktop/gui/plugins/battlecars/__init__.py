"""Battlecars screens: the card editor, the card at the Table, the round's clock."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel
from carwars_desktop.gui.plugins.battlecars.editor import CardEditor
from carwars_desktop.gui.plugins.battlecars.print_card import paint_card
from carwars_desktop.gui.plugins.battlecars.print_live import paint_card_live
from carwars_desktop.gui.plugins.battlecars.sheet import BattlecarsSheetWidget
from carwars_desktop.gui.rulesets import RulesetUI
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
from carwars_desktop.gui.workshop.editor import DesignEditor
from carwars_desktop.gui.workshop.printing.live import SheetToPrint
from carwars_desktop.gui.workshop.printing.page import PageFlow
from carwars_desktop.rules import VEHICLE
from carwars_desktop.rules.battlecars import Card
from carwars_desktop.rules.battlecars.catalog import BoardSheet
from carwars_desktop.rules.battlecars.play.table import BATCH, KEY_ACTIONS, QUICK
from carwars_desktop.rules.builtin import BATTLECARS
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.session import VehicleInPlay


def _editor(parent: QWidget | None) -> DesignEditor:
    return CardEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    return BattlecarsSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    return BattlecarsClockPanel(actions)


def _print(flow: PageFlow, design: Card) -> None:
    paint_card(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    paint_card_live(flow, item)


UI: RulesetUI[Card, BoardSheet] = RulesetUI(
    BATTLECARS, {VEHICLE: _editor}, _sheet, _clock, _print, print_sheet=_print_live,
    sheet_layouts=(1, 2), key_actions=KEY_ACTIONS, quick=QUICK, fire_batch=BATCH)
