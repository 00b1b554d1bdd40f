"""The AUTOpower clock: whose turn it is and its phases — draw, accelerate, armor, combat.

Each phase is played with the engine's procedure for it (``autopower.draw``,
``.accelerate``, ``.armor``, ``.attack``); the turn order comes from
``autopower.first_player`` and is kept all game. Killed cars take no turns.
"""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from carwars_desktop.gui.small_widgets import wrapped_label
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.clock_header import (
    ClockPanel,
    next_phase_button,
    panel_column,
)
from carwars_desktop.procedures import Resolution
from carwars_desktop.rules.autopower import CarSheet
from carwars_desktop.rules.autopower.play import car_sheet
from carwars_desktop.rules.autopower.play.clock import (
    STEP_PROCEDURES,
    STEP_TITLES,
    STEPS,
    current,
    next_phase,
    order,
    ordered,
    result,
)
from carwars_desktop.session import Game

ORDER_INPUTS = ("car_a", "car_b", "car_c", "car_d")
STEP_INPUTS = {"draw": "vehicle", "accelerate": "vehicle", "armor": "vehicle", "combat": "firer"}


class AutopowerClockPanel(ClockPanel):
    """See the module docstring."""

    def __init__(self, actions: TableActions, parent: QWidget | None = None) -> None:
        super().__init__(actions, parent)
        self.order_label, self.order_button = self._order_controls(
            "Turn order…", "Higher Speed first, ties by E, F, S, I, then a 2d6 "
            "roll-off; kept all game (autopower.first_player)", self.settle_order)
        self.play_button = QPushButton()
        self.play_button.setToolTip("Ctrl+P — play this phase with its procedure")
        self.play_button.clicked.connect(self.play_phase)
        self.next_button = next_phase_button(self.next_phase)
        self.result = wrapped_label()
        panel_column(self, self.header, self.order_label, self.order_button, self.play_button,
                     self.next_button, self.result)

    def _sheets(self) -> dict[str, CarSheet]:
        assert self.game is not None
        return {v.name: car_sheet(self.game.sheet(v.key)) for v in self.game.vehicles}

    def _key(self, name: str) -> str:
        assert self.game is not None
        for vehicle in self.game.vehicles:
            if vehicle.name == name:
                return vehicle.key
        raise ValueError(f"no car {name!r} in this game")

    def show_game(self, game: Game, read_only: bool) -> None:
        self.game = game
        self.read_only = read_only
        clock = game.clock
        name, step = current(clock)
        sheets = self._sheets()
        self.header.show_clock(clock, f"{name}'s turn: {step}", STEPS, STEPS.index(step))
        cars = order(clock)
        self.order_label.setText("Turn order: " + " → ".join(
            f"{n} ☠" if sheets[n].killed else n for n in cars))
        self.play_button.setText(f"Play: {STEP_TITLES[step]}…")
        following = next_phase(clock, self._out())
        next_name, next_step = current(following)
        self.next_button.setText(f"Next: {next_name} — {next_step} ▶")
        for button in (self.order_button, self.play_button, self.next_button):
            button.setEnabled(not read_only)
        self.order_button.setEnabled(not read_only and 2 <= len(cars) <= len(ORDER_INPUTS))
        verdict = result(list(sheets.values()))
        self.result.setText(f"<b>{verdict}</b>" if verdict else "")

    def _out(self) -> set[str]:
        return {name for name, sheet in self._sheets().items() if sheet.killed}

    # --- actions -------------------------------------------------------------------
    def play_phase(self) -> None:
        if self.game is None or self.read_only:
            return
        name, step = current(self.game.clock)
        self.hub.run(STEP_PROCEDURES[step], {STEP_INPUTS[step]: self._key(name)})

    def next_phase(self) -> None:
        if self.game is None or self.read_only:
            return
        clock = next_phase(self.game.clock, self._out())
        name, step = current(clock)
        self.hub.clock(clock, f"{name}: {step}")

    def settle_order(self) -> None:
        if self.game is None or self.read_only:
            return
        cars = order(self.game.clock)
        presets: dict[str, str | None] = dict.fromkeys(ORDER_INPUTS)
        presets.update({field: self._key(name)
                        for field, name in zip(ORDER_INPUTS, cars, strict=False)})
        self.hub.run("autopower.first_player", presets, handler=self._record_order)

    def _record_order(self, resolution: Resolution, bindings: object) -> None:
        assert self.game is not None
        names = [str(n) for n in resolution.values["order"]]
        clock = ordered(self.game.clock, names)
        self.hub.clock(clock, "turn order: " + " → ".join(names),
                           steps=[str(step) for step in resolution.steps])
