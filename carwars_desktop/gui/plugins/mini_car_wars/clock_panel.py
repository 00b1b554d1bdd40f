"""The Mini Car Wars clock: turn and phase 1–10, who moves now and how, the turn's speeds.

Each phase lists the vehicles that move in it, fastest first (the engine's
schedule); a move or maneuver is the engine's ``mini.maneuver`` — the second
maneuver of a turn asks for its control roll. After phase 10 the GM enters each
vehicle's new speed, checked by ``mini.speed`` against the legal changes.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
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
from carwars_desktop.gui.table.sheet_frame import number_label
from carwars_desktop.rules.mini_car_wars import MiniSheet
from carwars_desktop.rules.mini_car_wars.play import mini_sheet
from carwars_desktop.rules.mini_car_wars.play.clock import (
    PHASES,
    default_speed,
    finish_phase,
    has_moved,
    legal_speeds,
    maneuver_names,
    phase_movers,
    start_turn,
)
from carwars_desktop.rules.mini_car_wars.procedures import MANEUVER
from carwars_desktop.rules.play import TurnError
from carwars_desktop.session import Game


class MiniClockPanel(ClockPanel):
    """See the module docstring."""

    def __init__(self, actions: TableActions, parent: QWidget | None = None) -> None:
        super().__init__(actions, parent)
        self.movers_box = QGroupBox("Who moves")
        self.movers_box.setStyleSheet("QPushButton { padding: 3px 6px; }")
        self.movers_grid = QGridLayout(self.movers_box)
        self.movers_grid.setHorizontalSpacing(4)
        self.idle = wrapped_label()
        self.next_button = next_phase_button(
            self.next_phase, "Ctrl+. — vehicles that have not moved go straight on")

        self.speeds_box = QGroupBox("Speeds for the next turn")
        self.speeds_grid = QGridLayout(self.speeds_box)
        self.speed_edits: dict[str, QComboBox] = {}
        self.speed_errors: dict[str, QLabel] = {}
        self.start_button = QPushButton()
        self.start_button.clicked.connect(self.start_turn)
        self.speeds_error = error_label()
        # Below the Clock's scrolling part (the Table places it): with twelve vehicles the
        # rows scroll at 1366×768, the Start button stays in sight.
        self.footer = QWidget()
        footer = QVBoxLayout(self.footer)
        footer.setContentsMargins(0, 0, 0, 0)
        footer.addWidget(self.start_button)
        footer.addWidget(self.speeds_error)
        self.footer.setVisible(False)
        self.speeds_box.setVisible(False)
        self.speeds_open = False

        panel_column(self, self.header, self.movers_box, self.idle, self.next_button,
                     self.speeds_box)
        self._rows: list[QWidget] = []
        self._shown: tuple[object, ...] = ()

    # --- drawing -------------------------------------------------------------------
    def _sheets(self) -> dict[str, MiniSheet]:
        assert self.game is not None
        return {v.key: mini_sheet(self.game.sheet(v.key)) for v in self.game.vehicles}

    def _house(self) -> dict[str, Any]:
        """The session's house rules: the clock's automatic moves play under them."""
        return self.game.house if self.game is not None else {}

    def phase_number(self) -> int:
        assert self.game is not None
        return self.game.clock.phase + 1

    def show_game(self, game: Game, read_only: bool) -> None:
        self.game = game
        self.read_only = read_only
        clock = game.clock
        phase = self.phase_number()
        self.header.show_clock(clock, f"Phase {phase} of {PHASES}",
                               [str(n) for n in range(1, PHASES + 1)])
        sheets = self._sheets()
        movers = phase_movers(sheets, phase)
        shown = (clock.turn, clock.phase, read_only,
                 tuple((k, sheets[k].velocity, has_moved(sheets[k], phase), sheets[k].maneuvers,
                        self._maneuver_hint(sheets[k])) for k in movers))
        if shown != self._shown:
            self._shown = shown
            self._show_movers(sheets, movers, phase)
        names = self._names()
        idle = [f"{names[k]} ({s.velocity})" for k, s in sheets.items() if k not in movers]
        self.idle.setText("Not moving this phase: " + ", ".join(idle) if idle else "")
        last = phase == PHASES
        self.next_button.setText("End of turn: enter the new speeds ▶" if last
                                 else f"Next: phase {phase + 1} ▶")
        self.next_button.setEnabled(not read_only)
        self.speeds_box.setEnabled(not read_only)
        self.footer.setEnabled(not read_only)
        if not last or not self.speeds_open:
            self._close_speeds()

    def _show_movers(self, sheets: dict[str, MiniSheet], movers: tuple[str, ...],
                     phase: int) -> None:
        for widget in self._rows:
            widget.hide()
            widget.deleteLater()
        self._rows = []
        names = self._names()
        self.movers_box.setTitle(f"Who moves in phase {self.phase_number()}, in order")
        for number, key in enumerate(movers):
            sheet = sheets[key]
            moved = has_moved(sheet, phase)
            row = number * 2
            order = number_label(f"{number + 1}.", width=2)
            # One line per mover above its buttons, its maneuvers named once it has made
            # one (four movers fit a 768-pixel screen with the session log readable).
            hint = self._maneuver_hint(sheet)
            name = QLabel(f"<b>{names[key]}</b> · {sheet.velocity} · "
                          + ("✓ moved" if moved else "… to move")
                          + (f" · maneuvers this turn: {sheet.maneuvers}"
                             if sheet.maneuvers else "")
                          + (f" · {hint}" if hint else ""))
            name.setWordWrap(True)
            self.movers_grid.addWidget(order, row, 0)
            self.movers_grid.addWidget(name, row, 1, 1, 4)
            widgets: list[QWidget] = [order, name]
            for column, maneuver in enumerate(maneuver_names()):
                button = QPushButton(maneuver.capitalize())
                button.setAccessibleName(f"{names[key]}: {maneuver}")
                button.setToolTip(f"{names[key]} moves: {maneuver} (mini.maneuver)")
                button.setEnabled(not moved and not self.read_only)
                button.clicked.connect(partial(self.move_vehicle, key, maneuver))
                self.movers_grid.addWidget(button, row + 1, 1 + column)
                widgets.append(button)
            self._rows += widgets
        if not movers:
            empty = QLabel("Nobody moves in this phase.")
            self.movers_grid.addWidget(empty, 0, 0, 1, 4)
            self._rows.append(empty)

    @staticmethod
    def _maneuver_hint(sheet: MiniSheet) -> str:
        """What the engine says the next maneuver needs (its dice), in words."""
        try:
            needs = MANEUVER.dice_needed({"vehicle": sheet, "maneuver": "drift"})
        except ValueError:
            return ""
        return "⚠ next maneuver: control roll" if needs else ""

    # --- actions -----------------------------------------------------------------
    def move_vehicle(self, key: str, maneuver: str) -> None:
        """The vehicle's move this phase (a control roll asked for when the engine needs it)."""
        names = self._names()
        self.hub.run("mini.maneuver", {"vehicle": key, "maneuver": maneuver}, quick=True,
                         note=f"{names[key]}: {maneuver} — the engine asks for a control roll")

    def play_phase(self) -> bool:
        """Ctrl+P: the next vehicle to move this phase (its maneuver, §2.2.1); False once
        every mover has moved (the Table then turns to the phase's fire)."""
        if self.game is None or self.read_only:
            return True
        phase = self.phase_number()
        sheets = self._sheets()
        waiting = [k for k in phase_movers(sheets, phase) if not has_moved(sheets[k], phase)]
        if not waiting:
            return False
        names = self._names()
        self.hub.run("mini.maneuver", {"vehicle": waiting[0]},
                     note=f"Phase {phase}: {names[waiting[0]]} moves (Ctrl+P again: the next)")
        return True

    def _phase_to_finish(self) -> int | None:
        """The phase Ctrl+. and Ctrl+J finish; None when none is (nothing shown, read-only,
        or the turn's last phase, whose end asks for the new speeds instead)."""
        if self.game is None or self.read_only:
            return None
        phase = self.phase_number()
        if phase == PHASES:
            self.show_speeds()
            return None
        return phase

    def next_phase(self) -> None:
        phase = self._phase_to_finish()
        if phase is None or self.game is None:
            return
        step = finish_phase(self._sheets(), phase, self._names(), self._house())
        clock = self.game.clock
        self.hub.clock(clock.advanced(), f"Turn {clock.turn}: phase {phase} → {phase + 1}",
                           step.sheets, step.steps)

    def next_eventful_phase(self) -> None:
        """Ctrl+J: on to the next phase in which a vehicle moves (MCW §2.2.1: nothing else
        happens in a phase nobody moves in), or to the end of the turn, as one event; the
        phases passed are finished as Ctrl+. finishes them (MCW-D1)."""
        phase = self._phase_to_finish()
        if phase is None or self.game is None:
            return
        names, house = self._names(), self._house()
        sheets = self._sheets()
        clock = self.game.clock
        changed: dict[str, MiniSheet] = {}
        steps: list[str] = []
        now = phase
        while True:
            step = finish_phase(sheets, now, names, house)
            for key, sheet in step.sheets.items():
                sheets[key] = changed[key] = mini_sheet(sheet)
            steps += step.steps
            clock = clock.advanced()
            now += 1
            if now == PHASES or phase_movers(sheets, now):
                break
        skipped = f" (nobody moves in {_phases(phase + 1, now - 1)})" if now > phase + 1 else ""
        self.hub.clock(clock, f"Turn {clock.turn}: phase {phase} → {now}{skipped}", changed,
                       steps)

    def show_speeds(self) -> None:
        """The new speeds form, each offering the legal changes the engine allows."""
        assert self.game is not None
        while self.speeds_grid.count():
            item = self.speeds_grid.takeAt(0)
            old = None if item is None else item.widget()
            if old is not None:
                old.deleteLater()
        self.speed_edits, self.speed_errors = {}, {}
        names = self._names()
        for row, (key, sheet) in enumerate(self._sheets().items()):
            edit = ElidedComboBox()
            edit.setEditable(True)
            edit.addItems(legal_speeds(sheet))
            edit.setCurrentText(default_speed(sheet))
            edit.setAccessibleName(f"New speed of {names[key]}")
            edit.setToolTip("legal: " + ", ".join(legal_speeds(sheet)) + " (R = reverse)")
            edit.setMaximumWidth(110)
            error = error_label()
            error.setVisible(False)
            label = QLabel(f"<b>{names[key]}</b> (now {sheet.velocity})")
            label.setBuddy(edit)
            self.speeds_grid.addWidget(label, row * 2, 0)
            self.speeds_grid.addWidget(edit, row * 2, 1)
            self.speeds_grid.addWidget(error, row * 2 + 1, 0, 1, 2)
            self.speed_edits[key] = edit
            self.speed_errors[key] = error
        self.start_button.setText(f"Start turn {self.game.clock.turn + 1}")
        self.speeds_error.setText("")
        self.speeds_open = True
        self.speeds_box.setVisible(True)
        self.footer.setVisible(True)
        self.movers_box.setVisible(False)
        self.idle.setVisible(False)
        if self.speed_edits:
            next(iter(self.speed_edits.values())).setFocus()

    def start_turn(self) -> None:
        """Finish phase 10, then start the next turn at the speeds entered (one event)."""
        if self.game is None or self.read_only:
            return
        names = self._names()
        sheets = self._sheets()
        finished = finish_phase(sheets, PHASES, names, self._house())
        sheets.update({key: mini_sheet(sheet) for key, sheet in finished.sheets.items()})
        speeds = {key: edit.currentText() for key, edit in self.speed_edits.items()}
        for label in self.speed_errors.values():
            label.setText("")
            label.setVisible(False)
        try:
            started = start_turn(sheets, speeds, names, self._house())
        except TurnError as error:
            for key, reason in error.reasons.items():
                if key in self.speed_errors:
                    self.speed_errors[key].setText(f"⚠ {reason}")
                    self.speed_errors[key].setVisible(True)
            self.speeds_error.setText("⚠ some speeds are not allowed: nothing was changed")
            return
        clock = self.game.clock.advanced()
        changed = {**finished.sheets, **started.sheets}
        if self.hub.clock(clock, f"Turn {clock.turn} begins: new speeds", changed,
                              finished.steps + started.steps) is not None:
            self._close_speeds()

    def _close_speeds(self) -> None:
        self.speeds_open = False
        self.speeds_box.setVisible(False)
        self.footer.setVisible(False)
        self.movers_box.setVisible(True)
        self.idle.setVisible(True)


def _phases(first: int, last: int) -> str:
    return f"phase {first}" if first == last else f"phases {first}–{last}"
