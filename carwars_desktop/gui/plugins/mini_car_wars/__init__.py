"""Mini Car Wars screens: the vehicle editor, the paper-like sheet, the ten-phase clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from carwars_desktop.gui.plugins.mini_car_wars.clock_panel import MiniClockPanel
from carwars_desktop.gui.plugins.mini_car_wars.sheet import MiniSheetWidget
from carwars_desktop.gui.rulesets import RulesetUI
from carwars_desktop.rules import VEHICLE
from carwars_desktop.rules.builtin import MINI_CAR_WARS
from carwars_desktop.rules.mini_car_wars.play.table import BATCH, KEY_ACTIONS, QUICK

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from carwars_desktop.gui.table.actions import TableActions
    from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
    from carwars_desktop.gui.workshop.editor import DesignEditor
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.page import PageFlow
    from carwars_desktop.rules.mini_car_wars import MiniDesign, MiniSheet
    from carwars_desktop.rules.play import PlayRules
    from carwars_desktop.session import VehicleInPlay


def _editor(parent: QWidget | None) -> DesignEditor:
    from carwars_desktop.gui.plugins.mini_car_wars.editor import MiniEditor

    return MiniEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    return MiniSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    return MiniClockPanel(actions)


def _print(flow: PageFlow, design: MiniDesign) -> None:
    from carwars_desktop.gui.plugins.mini_car_wars.print_sheet import paint_mini_sheet

    paint_mini_sheet(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    from carwars_desktop.gui.plugins.mini_car_wars.print_live import paint_mini_live

    paint_mini_live(flow, item)


def _small(sheet: MiniSheet) -> bool:
    from carwars_desktop.gui.plugins.mini_car_wars.print_live import small_sheet

    return small_sheet(sheet)


UI: RulesetUI[MiniDesign, MiniSheet] = RulesetUI(
    MINI_CAR_WARS, {VEHICLE: _editor}, _sheet, _clock, _print, print_sheet=_print_live,
    sheet_layouts=(1, 2, 4), small_sheet=_small, key_actions=KEY_ACTIONS, quick=QUICK,
    fire_batch=BATCH)
