"""AUTOpower screens: the hero-card and deck editors, the car at the Table, the turn's clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carwars_desktop.gui.rulesets import (
    COLLISION,
    CONTROL,
    FIRE,
    LASER,
    SPEED,
    KeyAction,
    RulesetUI,
)
from carwars_desktop.rules import VEHICLE
from carwars_desktop.rules.autopower.kinds import DECK
from carwars_desktop.services.quick_entry import QuickRules

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from carwars_desktop.gui.table.actions import TableActions
    from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
    from carwars_desktop.gui.workshop.editor import DesignEditor
    from carwars_desktop.gui.workshop.printing.live import SheetToPrint
    from carwars_desktop.gui.workshop.printing.page import PageFlow
    from carwars_desktop.rules.play import PlayRules
    from carwars_desktop.session import VehicleInPlay


def _car_editor(parent: QWidget | None) -> DesignEditor:
    from carwars_desktop.gui.plugins.autopower.car_editor import CarEditor

    return CarEditor(parent)


def _deck_editor(parent: QWidget | None) -> DesignEditor:
    from carwars_desktop.gui.plugins.autopower.deck_editor import DeckEditor

    return DeckEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    from carwars_desktop.gui.plugins.autopower.sheet import AutopowerSheetWidget

    return AutopowerSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    from carwars_desktop.gui.plugins.autopower.clock_panel import AutopowerClockPanel

    return AutopowerClockPanel(actions)


def _print_car(flow: PageFlow, design: Any) -> None:
    from carwars_desktop.gui.plugins.autopower.print_sheets import paint_car

    paint_car(flow, design)


def _print_deck(flow: PageFlow, design: Any) -> None:
    from carwars_desktop.gui.plugins.autopower.print_sheets import paint_deck

    paint_deck(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    from carwars_desktop.gui.plugins.autopower.print_live import paint_car_live

    paint_car_live(flow, item)


KEY_ACTIONS = (
    KeyAction(FIRE, "autopower.attack", "firer", "target", ask=("cards",)),
    KeyAction(LASER, "autopower.laser", "firer", "target", ask=("cards",)),
    KeyAction(COLLISION, "autopower.ram", "rammer", "target", ask=("cards",)),
    KeyAction(CONTROL, "autopower.control", "vehicle", ask=("damage",)),
    KeyAction(SPEED, "autopower.accelerate", "vehicle"),
)

QUICK = QuickRules("autopower.attack", "firer", "target", number_input="cards",
                   many_numbers=True,
                   procedures={"attack": ("autopower.attack", "firer", "target"),
                               "at": ("autopower.attack", "firer", "target"),
                               "laser": ("autopower.laser", "firer", "target"),
                               "ram": ("autopower.ram", "rammer", "target")})

UI = RulesetUI("autopower", {VEHICLE: _car_editor, DECK: _deck_editor}, _sheet, _clock,
               {VEHICLE: _print_car, DECK: _print_deck},
               print_sheet=_print_live, sheet_layouts=(1, 2), key_actions=KEY_ACTIONS,
               quick=QUICK)
