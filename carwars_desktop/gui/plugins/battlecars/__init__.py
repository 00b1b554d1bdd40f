"""Battlecars screens: the card editor, the card at the Table, the round's clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from carwars_desktop.gui.rulesets import RulesetUI
from carwars_desktop.rules import VEHICLE
from carwars_desktop.rules.battlecars.play.table import BATCH, KEY_ACTIONS, QUICK
from carwars_desktop.rules.builtin import BATTLECARS

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from carwars_desktop.gui.table.actions import TableActions
    from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
    from carwars_desktop.gui.workshop.editor import DesignEditor
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.page import PageFlow
    from carwars_desktop.rules.battlecars import Card
    from carwars_desktop.rules.battlecars.catalog import BoardSheet
    from carwars_desktop.rules.play import PlayRules
    from carwars_desktop.session import VehicleInPlay


def _editor(parent: QWidget | None) -> DesignEditor:
    from carwars_desktop.gui.plugins.battlecars.editor import CardEditor

    return CardEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    from carwars_desktop.gui.plugins.battlecars.sheet import BattlecarsSheetWidget

    return BattlecarsSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel

    return BattlecarsClockPanel(actions)


def _print(flow: PageFlow, design: Card) -> None:
    from carwars_desktop.gui.plugins.battlecars.print_card import paint_card

    paint_card(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    from carwars_desktop.gui.plugins.battlecars.print_live import paint_card_live

    paint_card_live(flow, item)


UI: RulesetUI[Card, BoardSheet] = RulesetUI(
    BATTLECARS, {VEHICLE: _editor}, _sheet, _clock, _print, print_sheet=_print_live,
    sheet_layouts=(1, 2), key_actions=KEY_ACTIONS, quick=QUICK, fire_batch=BATCH)
