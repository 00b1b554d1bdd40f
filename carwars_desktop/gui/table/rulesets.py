"""Which sheet widget and clock panel each ruleset uses at the Table.

Imported lazily: a ruleset's widgets (and its rules engine) load when its first
session opens, not when the app starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.sheet_frame import Explain, SheetFrame
from carwars_desktop.session import Game, VehicleInPlay
from carwars_desktop.session.play import PlayRules

if TYPE_CHECKING:
    from carwars_desktop.gui.table.autopower_clock_panel import AutopowerClockPanel
    from carwars_desktop.gui.table.battlecars_clock_panel import BattlecarsClockPanel
    from carwars_desktop.gui.table.mini_clock_panel import MiniClockPanel

    AnyClockPanel = MiniClockPanel | AutopowerClockPanel | BattlecarsClockPanel


class ClockPanel(Protocol):
    def show_game(self, game: Game, read_only: bool) -> None: ...

    def next_phase(self) -> None: ...


def sheet_widget(ruleset_id: str, vehicle: VehicleInPlay, rules: PlayRules,
                 explain: Explain) -> SheetFrame:
    if ruleset_id == "mini_car_wars":
        from carwars_desktop.gui.table.mini_sheet import MiniSheetWidget

        return MiniSheetWidget(vehicle, rules, explain)
    if ruleset_id == "autopower":
        from carwars_desktop.gui.table.autopower_sheet import AutopowerSheetWidget

        return AutopowerSheetWidget(vehicle, rules, explain)
    if ruleset_id == "battlecars":
        from carwars_desktop.gui.table.battlecars_sheet import BattlecarsSheetWidget

        return BattlecarsSheetWidget(vehicle, rules, explain)
    raise ValueError(f"the Table has no sheet for {ruleset_id!r}")


def clock_panel(ruleset_id: str, actions: TableActions) -> AnyClockPanel:
    if ruleset_id == "mini_car_wars":
        from carwars_desktop.gui.table.mini_clock_panel import MiniClockPanel

        return MiniClockPanel(actions)
    if ruleset_id == "autopower":
        from carwars_desktop.gui.table.autopower_clock_panel import AutopowerClockPanel

        return AutopowerClockPanel(actions)
    if ruleset_id == "battlecars":
        from carwars_desktop.gui.table.battlecars_clock_panel import BattlecarsClockPanel

        return BattlecarsClockPanel(actions)
    raise ValueError(f"the Table has no clock for {ruleset_id!r}")
