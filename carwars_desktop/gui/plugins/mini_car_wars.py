"""Mini Car Wars screens: the vehicle editor, the paper-like sheet, the ten-phase clock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carwars_desktop.gui.rulesets import (
    COLLISION,
    CONTROL,
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
    from carwars_desktop.gui.workshop.mcw_editor import MiniEditor

    return MiniEditor(parent)


def _sheet(vehicle: VehicleInPlay, rules: PlayRules, explain: Explain) -> SheetFrame:
    from carwars_desktop.gui.table.mini_sheet import MiniSheetWidget

    return MiniSheetWidget(vehicle, rules, explain)


def _clock(actions: TableActions) -> QWidget:
    from carwars_desktop.gui.table.mini_clock_panel import MiniClockPanel

    return MiniClockPanel(actions)


def _print(flow: PageFlow, design: Any) -> None:
    from carwars_desktop.gui.workshop.printing.mcw_sheet import paint_mini_sheet

    paint_mini_sheet(flow, design)


def _print_live(flow: PageFlow, item: SheetToPrint) -> None:
    from carwars_desktop.gui.workshop.printing.mcw_live import paint_mini_live

    paint_mini_live(flow, item)


def _small(sheet: Any) -> bool:
    from carwars_desktop.gui.workshop.printing.mcw_live import small_sheet

    return small_sheet(sheet)


SIDES = {"f": "F", "front": "F", "b": "B", "back": "B", "l": "L", "left": "L", "r": "R",
         "right": "R", "t": "T", "top": "T"}

KEY_ACTIONS = (
    # §2.2/§8: the phase's fire resolves together, the damage after everyone has fired.
    # Typed as the quick line reads a shot (firer, weapon, target), then the range; a side
    # letter ends the range (5 f), and the dice are next.
    KeyAction(FIRE, "mini.fire", "firer", "target", remembered=("range", "side"),
              ask=("range",), batch=True, order=("weapon", "target", "range", "side")),
    KeyAction(DAMAGE, "mini.damage", "vehicle", ask=("damage",)),
    KeyAction(CONTROL, "mini.control", "vehicle"),
    KeyAction(COLLISION, "mini.collision", "mover", "other"),
    KeyAction(SPEED, "mini.speed", "vehicle", ask=("speed",)),
)

QUICK = QuickRules("mini.fire", "firer", "target", weapon_input="weapon", side_input="side",
                   sides=SIDES, number_input="range",
                   weapon_words={"rl": "RL", "hr": "HR", "mg": "MG", "smoke": "Smokescreen",
                                 "ss": "Smokescreen"},
                   damage="mini.damage", damage_vehicle="vehicle", damage_amount="damage",
                   damage_side="side",
                   flags={"gunner": ("person", "gunner"), "g": ("person", "gunner"),
                          "driver": ("person", "driver"), "d": ("person", "driver")})

UI = RulesetUI("mini_car_wars", {VEHICLE: _editor}, _sheet, _clock, {VEHICLE: _print},
               print_sheet=_print_live, sheet_layouts=(1, 2, 4), small_sheet=_small,
               key_actions=KEY_ACTIONS, quick=QUICK,
               fire_batch=BatchRules("mini.fire", hold_input="hold_damage", damage="mini.damage",
                                     damage_vehicle="vehicle", damage_side="side",
                                     damage_amount="damage", side_input="side"))
