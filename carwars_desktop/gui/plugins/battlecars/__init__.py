"""Battlecars screens: the card editor, the card at the Table, the round's clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carwars_desktop.gui.rulesets import (
    COLLISION,
    CONTROL,
    CRASH,
    DAMAGE,
    FIRE,
    SPEED,
    KeyAction,
    RulesetUI,
)
from carwars_desktop.rules import VEHICLE
from carwars_desktop.services.fire_batch import BatchRules
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


def _editor(parent: QWidget | None) -> DesignEditor:
    from carwars_desktop.gui.plugins.battlecars.editor import CardEditor

    return CardEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    from carwars_desktop.gui.plugins.battlecars.sheet import BattlecarsSheetWidget

    return BattlecarsSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    from carwars_desktop.gui.plugins.battlecars.clock_panel import BattlecarsClockPanel

    return BattlecarsClockPanel(actions)


def _print(flow: PageFlow, design: Any) -> None:
    from carwars_desktop.gui.plugins.battlecars.print_card import paint_card

    paint_card(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    from carwars_desktop.gui.plugins.battlecars.print_live import paint_card_live

    paint_card_live(flow, item)


AREAS = ("front", "left-front", "right-front", "left-centre", "right-centre", "left-rear",
         "right-rear", "rear")
SIDES = {area: area for area in AREAS} | {
    "f": "front", "b": "rear", "r": "rear", "lf": "left-front", "rf": "right-front",
    "lc": "left-centre", "rc": "right-centre", "lr": "left-rear", "rr": "right-rear",
    "l": "left-centre"}

KEY_ACTIONS = (
    KeyAction(FIRE, "battlecars.fire", "firer", "target",
              remembered=("area", "bearing", "points_between"), ask=("area",)),
    KeyAction(DAMAGE, "battlecars.damage", "vehicle", ask=("area", "amount")),
    KeyAction(CONTROL, "battlecars.skid", "vehicle"),
    KeyAction(COLLISION, "battlecars.ram", "rammer", "target"),
    KeyAction(CRASH, "battlecars.crash", "vehicle", ask=("speed",)),
    KeyAction(SPEED, "battlecars.speed", "vehicle", ask=("speed",)),
)

QUICK = QuickRules("battlecars.fire", "firer", "target", weapon_input="mount",
                   side_input="area", sides=SIDES, number_input="points_between",
                   weapon_words={"rk": "rocket", "rl": "rocket", "sh": "shell", "fl": "flame"},
                   damage="battlecars.damage", damage_vehicle="vehicle",
                   damage_amount="amount", damage_side="area",
                   flags={"ret": ("mode", "return-fire"), "own": ("mode", "own-turn")})

UI = RulesetUI("battlecars", {VEHICLE: _editor}, _sheet, _clock, {VEHICLE: _print},
               print_sheet=_print_live, sheet_layouts=(1, 2), key_actions=KEY_ACTIONS,
               quick=QUICK, fire_batch=BatchRules("battlecars.fire"))
