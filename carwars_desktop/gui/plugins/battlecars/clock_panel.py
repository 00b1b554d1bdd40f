"""The Battlecars clock: rounds that open with the secret speeds, then each car's turn.

Speeds are checked by ``battlecars.speed`` against the acceleration and
deceleration limits; each car's turn shows its fire allowance (2 targets, 3 with
a Gunnery Computer); the round ends with ``battlecars.end_round`` (smoke
dispersal rolled, stuns end). The play order comes from ``battlecars.entry_order``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from carwars_desktop.gui.elided_combo import ElidedComboBox
from carwars_desktop.gui.small_widgets import error_label, wrapped_label
from carwars_desktop.gui.table.actions import TableActions
from carwars_desktop.gui.table.clock_header import (
    ClockPanel,
    next_phase_button,
    panel_column,
)
from carwars_desktop.procedures import Resolution
from carwars_desktop.rules import RecordSheet
from carwars_desktop.rules.battlecars import CarSheet
from carwars_desktop.rules.battlecars.play import car_sheet, dispersed, smoke_markers
from carwars_desktop.rules.battlecars.play.clock import (
    car_of,
    fire_allowance,
    is_speeds,
    limits_text,
    next_phase,
    order,
    ordered,
    result,
    set_speeds,
    turn_started,
)
from carwars_desktop.rules.battlecars.rounds import end_round
from carwars_desktop.rules.battlecars.terms import Direction, Surface
from carwars_desktop.rules.play import TurnError
from carwars_desktop.session import Clock, Game

END_ROUND_CARS = ("car1", "car2", "car3", "car4")


class SpeedRow(QWidget):
    """One car's secret speed: speed, direction, surface, the engine's limits, any refusal."""

    def __init__(self, name: str, sheet: CarSheet, house: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.label = QLabel(f"<b>{name}</b> (now {sheet.speed} {sheet.direction.value}, "
                            f"max {sheet.max_speed()})")
        self.label.setWordWrap(True)  # a long card name must not widen the Clock dock
        self.speed = QSpinBox()
        self.speed.setRange(0, 30)
        self.speed.setValue(sheet.speed)
        self.speed.setAccessibleName(f"New speed of {name}")
        self.direction = ElidedComboBox()
        self.direction.addItems([d.value for d in Direction])
        self.direction.setCurrentText(sheet.direction.value)
        self.surface = ElidedComboBox()
        self.surface.addItems([s.value for s in Surface])
        self.limits = QLabel(limits_text(sheet, house))
        self.limits.setWordWrap(True)
        self.error = error_label()
        self.error.setVisible(False)
        controls = QHBoxLayout()
        for widget in (self.speed, self.direction, self.surface):
            controls.addWidget(widget)
        controls.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.setSpacing(2)
        layout.addWidget(self.label)
        layout.addLayout(controls)
        layout.addWidget(self.limits)
        layout.addWidget(self.error)

    def choice(self) -> tuple[int, str, str]:
        return self.speed.value(), self.direction.currentText(), self.surface.currentText()


class BattlecarsClockPanel(ClockPanel):
    """See the module docstring."""

    def __init__(self, actions: TableActions, parent: QWidget | None = None) -> None:
        super().__init__(actions, parent)
        self.order_label, self.order_button = self._order_controls(
            "Order of play…", "Roll the order of play (battlecars.entry_order)",
            self.settle_order)

        self.speeds_box = QGroupBox("Secret speeds")
        self.speeds_layout = QVBoxLayout(self.speeds_box)
        self.speed_rows: dict[str, SpeedRow] = {}
        self.reveal_button = QPushButton()
        self.reveal_button.setToolTip("Ctrl+. — every speed checked by battlecars.speed")
        self.reveal_button.clicked.connect(self.reveal_speeds)

        self.turn_box = QGroupBox()
        self.turn_text = wrapped_label()
        turn_layout = QVBoxLayout(self.turn_box)
        turn_layout.addWidget(self.turn_text)
        buttons = QGridLayout()
        self.turn_buttons: list[QPushButton] = []
        for index, (text, procedure, field) in enumerate((
                ("Fire…", "battlecars.fire", "firer"), ("Drop…", "battlecars.drop", "vehicle"),
                ("Corner…", "battlecars.corner", "vehicle"),
                ("Skid…", "battlecars.skid", "vehicle"), ("Ram…", "battlecars.ram", "rammer"),
                ("Crash…", "battlecars.crash", "vehicle"))):
            button = QPushButton(text)
            button.setToolTip(f"{procedure} for the car whose turn it is")
            button.clicked.connect(partial(self.run_for_current, procedure, field))
            buttons.addWidget(button, index // 2, index % 2)
            self.turn_buttons.append(button)
        turn_layout.addLayout(buttons)
        self.next_button = next_phase_button(self.next_phase)
        self.result = wrapped_label()

        panel_column(self, self.header, self.order_label, self.order_button, self.speeds_box,
                     self.turn_box, self.next_button, self.result)
        self._speeds_round: int | None = None

    # --- reading ---------------------------------------------------------------------
    def _cars(self) -> dict[str, CarSheet]:
        assert self.game is not None
        return {v.key: car_sheet(self.game.sheet(v.key)) for v in self.game.vehicles}

    def _key(self, name: str) -> str:
        for key, vehicle in self._names().items():
            if vehicle == name:
                return key
        raise ValueError(f"no car {name!r} in this game")

    def _out(self) -> set[str]:
        names = self._names()
        return {names[key] for key, sheet in self._cars().items()
                if sheet.is_wreck() or not sheet.occupied}

    # --- drawing ---------------------------------------------------------------------
    def show_game(self, game: Game, read_only: bool) -> None:
        self.game = game
        self.read_only = read_only
        clock = game.clock
        labels = ["speeds", *order(clock)]
        phase = "secret speeds" if is_speeds(clock) else clock.phase_name
        # Only the first letter goes up: a car's name is shown as written ("Street Hawk").
        self.header.show_clock(clock, phase[:1].upper() + phase[1:], labels)
        cars = order(clock)
        out = self._out()
        self.order_label.setText("Play order: " + " → ".join(
            f"{name} ✖" if name in out else name for name in cars))
        self.order_button.setEnabled(not read_only and 2 <= len(cars) <= 4)
        speeds = is_speeds(clock)
        self.speeds_box.setVisible(speeds)
        self.turn_box.setVisible(not speeds)
        if speeds:
            self.next_button.setVisible(False)
            if self._speeds_round != clock.turn or not self.speed_rows:
                self._show_speed_rows()
            self._speeds_round = clock.turn
        else:
            self._speeds_round = None
            self.next_button.setVisible(True)
            self._show_turn(clock)
        self.speeds_box.setEnabled(not read_only)
        for button in (*self.turn_buttons, self.next_button):
            button.setEnabled(not read_only)
        verdict = result(list(self._cars().values()))
        self.result.setText(f"<b>{verdict}</b>" if verdict else "")

    def _show_speed_rows(self) -> None:
        for row in self.speed_rows.values():
            row.hide()
            row.deleteLater()
        self.speed_rows = {}
        names = self._names()
        for index, (key, sheet) in enumerate(self._cars().items()):
            row = SpeedRow(names[key], sheet, self.game.house if self.game is not None else {})
            self.speeds_layout.insertWidget(index, row)
            self.speed_rows[key] = row
        assert self.game is not None
        self.reveal_button.setText(f"Reveal the speeds: round {self.game.clock.turn} begins")
        self.speeds_layout.addWidget(self.reveal_button)

    def _show_turn(self, clock: Clock) -> None:
        name = car_of(clock.phase_name) or ""
        key = self._key(name)
        sheet = self._cars()[key]
        self.turn_box.setTitle(f"{name}'s turn")
        blocked = sheet.cannot_act()
        lines = [f"speed <b>{sheet.speed}</b> {sheet.direction.value}: move exactly that many "
                 "points, the first straight ahead (§2.2)", fire_allowance(sheet)]
        if blocked is not None:
            lines.insert(0, f"⚠ {blocked}")
        if sheet.driver_dead and sheet.speed > 0:
            lines.insert(0, "⚠ dead driver at speed: skid test with SD = speed (Skid…)")
        self.turn_text.setText("<br>".join(lines))
        following = next_phase(clock, self._out())
        self.next_button.setText("End of round: smoke, stun… ▶" if following is None
                                 else f"Next: {car_of(following.phase_name)}'s turn ▶")

    # --- actions ---------------------------------------------------------------------
    def play_phase(self) -> bool:
        """Ctrl+P: reveal the secret speeds, or the acting car's fire (§2.9)."""
        if self.game is None or self.read_only:
            return True
        if is_speeds(self.game.clock):
            self.reveal_speeds()
        else:
            self.run_for_current("battlecars.fire", "firer")
        return True

    def run_for_current(self, procedure: str, field: str) -> None:
        if self.game is None or self.read_only:
            return
        name = car_of(self.game.clock.phase_name)
        if name is not None:
            self.hub.run(procedure, {field: self._key(name)})

    def reveal_speeds(self) -> None:
        """Every secret speed checked by the engine; the first car's turn begins (one event)."""
        if self.game is None or self.read_only or not is_speeds(self.game.clock):
            return
        for row in self.speed_rows.values():
            row.error.setVisible(False)
        names = self._names()
        try:
            step = set_speeds(self._cars(), {k: r.choice() for k, r in self.speed_rows.items()},
                              names, self.game.house if self.game is not None else {})
        except TurnError as error:
            for key, reason in error.reasons.items():
                self.speed_rows[key].error.setText(f"⚠ {reason}")
                self.speed_rows[key].error.setVisible(True)
            self.hub.error("some speeds are not allowed: nothing was changed")
            return
        clock = self.game.clock
        first = next_phase(clock, self._out())
        sheets: dict[str, RecordSheet] = dict(step.sheets)
        steps = list(step.steps)
        if first is None:
            self.hub.error("no car can take a turn this round")
            return
        key = self._key(car_of(first.phase_name) or "")
        sheets[key] = turn_started(car_sheet(sheets.get(key, self.game.sheet(key))))
        self.hub.clock(first, f"Round {clock.turn}: speeds revealed", sheets, steps)

    def next_phase(self) -> None:
        if self.game is None or self.read_only:
            return
        clock = self.game.clock
        if is_speeds(clock):
            self.reveal_speeds()
            return
        following = next_phase(clock, self._out())
        if following is None:
            self.end_round()
            return
        name = car_of(following.phase_name) or ""
        key = self._key(name)
        self.hub.clock(following, f"{name}'s turn",
                       {key: turn_started(self._cars()[key])},
                       [f"{name}: the turn's targets and drops counted afresh (§2.9)"])

    def end_round(self) -> None:
        """``battlecars.end_round``: smoke dispersal rolled, stuns end; then the next round."""
        if self.game is None:
            return
        presets: dict[str, object] = dict.fromkeys(END_ROUND_CARS)
        presets.update(dict(zip(END_ROUND_CARS, self._cars(), strict=False)))
        markers = len(smoke_markers(self.game.clock))
        presets["smoke_markers"] = markers
        self.hub.run("battlecars.end_round", presets, handler=self._round_ended,
                     note=f"{markers} Smoke marker{'s' if markers != 1 else ''} on the board "
                          "(kept by the session): roll 1d8 for each, in the order listed "
                          "under Durations, and type the dice.")

    def _round_ended(self, resolution: Resolution, bindings: Mapping[str, str]) -> None:
        assert self.game is not None
        sheets: dict[str, RecordSheet] = {}
        for effect in resolution.effects:
            sheets[bindings[effect.input_name]] = effect.sheet
        for key, sheet in self._cars().items():
            if key not in sheets:
                sheets[key] = end_round(sheet)
        clock = self.game.clock
        following = Clock(clock.turn + 1, 0, clock.phases, clock.word,
                          dispersed(clock, resolution))
        outcome = resolution.outcome.removeprefix("Round over: ")
        self.hub.clock(following, f"Round {clock.turn} over: {outcome}", sheets,
                       [str(step) for step in resolution.steps])

    def offer_opening(self, scenario: str) -> None:
        """Play starts: the rules' opening roll (the order of play, §2.1 step 7; the arena
        entry order, BC-D40), filled in."""
        if self.game is None or self.read_only:
            return
        roll = self.game.ruleset.play().opening_roll(scenario, order(self.game.clock))
        if roll is not None:
            self.hub.run(roll.procedure_id, roll.presets, handler=self._record_order,
                         note=roll.note)

    def settle_order(self) -> None:
        if self.game is None or self.read_only:
            return
        players = ", ".join(order(self.game.clock))
        self.hub.run("battlecars.entry_order", {"players": players},
                     handler=self._record_order)

    def _record_order(self, resolution: Resolution, bindings: Mapping[str, str]) -> None:
        assert self.game is not None
        names = [str(n) for n in resolution.values["order"]]
        self.hub.clock(ordered(self.game.clock, names), "play order: " + " → ".join(names),
                       steps=[str(step) for step in resolution.steps])
