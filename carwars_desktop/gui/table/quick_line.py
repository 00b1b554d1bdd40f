"""The Table's quick-entry line (``table.quick``): a shot or damage in a few words, then
the dice. The grammar is :mod:`carwars_desktop.services.quick_entry`'s.

Enter reads the line and shows the procedure's exact odds and the dice it asks for
(a ``:`` and the dice on the same line resolve at once); Enter on the dice resolves
(Enter never rolls), Enter again or Ctrl+Enter applies, through the Table service.
Escape closes the line (a result not applied is discarded and logged).

Where fire is simultaneous (Mini Car Wars §2.2, the ruleset's fire key action with
``batch``), a shot line goes into the phase's fire batch as the fire dialog's does:
Enter (or Ctrl+Enter) once the dice are typed declares it with them (committed before
the line says so); Ctrl+Shift+Enter resolves and applies that shot alone, now.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from carwars_desktop.dice import DiceError
from carwars_desktop.gui.change_signal import ChangeSignal
from carwars_desktop.gui.resolving import dice_hint
from carwars_desktop.gui.rulesets import KeyAction, ruleset_ui
from carwars_desktop.gui.table.procedure_runner import ProcedureRunner
from carwars_desktop.gui.table.sheet_frame import numbers_font
from carwars_desktop.gui.table.workspace import TableWorkspace
from carwars_desktop.procedures import InputError, Odds, Procedure, SheetInput, TextInput
from carwars_desktop.rules import find_procedure
from carwars_desktop.services import (
    Changes,
    Discarded,
    PendingResolution,
    ResolveError,
    procedure_sides,
    typed_dice,
)
from carwars_desktop.services.quick_entry import (
    QuickEntryError,
    missing_target,
    parse,
    presets,
)


class _Edit(QLineEdit):
    def __init__(self, line: QuickLine) -> None:
        super().__init__()
        self.line = line

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            modifiers = event.modifiers()
            ctrl = bool(modifiers & Qt.KeyboardModifier.ControlModifier)
            self.line.enter(apply=ctrl,
                            alone=ctrl and bool(modifiers & Qt.KeyboardModifier.ShiftModifier))
            return
        if key == Qt.Key.Key_Escape:
            self.line.close_line()
            return
        super().keyPressEvent(event)


class QuickLine(QWidget):
    """See the module docstring."""

    def __init__(self, table: TableWorkspace) -> None:
        super().__init__(table)
        self.table = table
        self.edit = _Edit(self)
        self.edit.setAccessibleName("Quick entry")
        self.edit.setFont(numbers_font(self.edit.font()))
        self.prompt = QLabel("Quick:")
        self.pointer = QLabel()
        self.pointer.setFont(numbers_font(self.pointer.font()))
        self.info = QLabel()
        self.info.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.prompt)
        row.addWidget(self.edit, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 4, 8, 4)
        column.addLayout(row)
        column.addWidget(self.pointer)
        column.addWidget(self.info)
        self.procedure: Procedure | None = None
        self.raw: dict[str, Any] = {}
        self.bindings: dict[str, str] = {}
        self.odds: Odds | None = None
        self.given: dict[str, Any] = {}
        """The line's inputs as typed (a declared shot keeps these, as the dialog's form)."""
        self.alone = False
        """Ctrl+Shift+Enter read the line: this shot is applied alone, not batched."""
        self._showing = False
        """The line shows a result (Enter applies it)."""
        self._reset()
        # A roll made elsewhere (the Resolver, a Table dialog) discards the result shown
        # here: the one slot of the Table service. The line says so.
        ChangeSignal(table.context.service.bus, self).changed.connect(self._heard)

    # --- stages ----------------------------------------------------------------------------
    def _reset(self) -> None:
        self._showing = False
        self.discard(Discarded.WINDOW_CLOSED)
        self.procedure = None
        self.alone = False
        self.raw, self.bindings, self.odds = {}, {}, None
        self.prompt.setText("Quick:")
        self.edit.clear()
        self.edit.setPlaceholderText("2 mg 1 f 5 (2 fires its MG at 1's front at 5\") · "
                                     "7 f (7 damage to the selected vehicle's front)")
        self.pointer.setText("")
        self.pointer.hide()
        self.info.setText("")

    def open(self) -> None:
        self._reset()
        self.show()
        self.edit.setFocus()

    def close_line(self) -> None:
        self._reset()
        self.hide()
        self.table.focus_default()

    @property
    def pending(self) -> PendingResolution | None:
        """The line's result on screen (the Table service's slot), not yet applied."""
        return self.table.context.service.shown_by(self)

    def discard(self, reason: str = Discarded.NEW_ROLL) -> bool:
        """The line's result on screen is discarded, saying why (a refused write goes to
        the Table's banner with Retry)."""
        return self.table.hub.runner.discard(self, reason)

    def _heard(self, changes: Changes) -> None:
        """The line's result was discarded by a roll elsewhere: it no longer shows it."""
        if not self._showing or not changes.discarded_for(self):
            return
        self._showing = False
        self.edit.setPlaceholderText("the dice thrown, e.g. 543 — Enter (never rolls)")
        self.info.setText("⚠ Discarded: a new roll elsewhere (it stays in the log). Type the "
                          "dice again, or Esc.")

    def enter(self, apply: bool = False, alone: bool = False) -> None:
        """Enter: read the line, or the dice, or apply the result shown. ``alone``
        (Ctrl+Shift+Enter): a shot that would go into the batch is applied alone now."""
        if self.procedure is None:
            self.read(self.edit.text(), apply or alone, alone)
        elif self.pending is not None and not self.edit.text().strip():
            self.apply()
        elif self._batch_action() is not None and not (alone or self.alone):
            self.declare(self.edit.text())
        else:
            self.resolve(self.edit.text(), apply or alone)

    def _batch_action(self) -> KeyAction | None:
        """The fire key action whose shots go into the phase's batch by default, when the
        line's procedure is its (Mini Car Wars), else None."""
        game = self.table.context.service.game
        batch = self.table.keys.batch
        if game is None or self.procedure is None or batch is None or \
                batch.rules.fire != self.procedure.id:
            return None
        action = next((a for a in ruleset_ui(game.ruleset.id).key_actions
                       if a.procedure_id == self.procedure.id), None)
        return action if action is not None and action.batch else None

    def declare(self, typed: str) -> None:
        """The shot with the dice typed goes into the phase's batch (the batch resolves it
        with the others, §2.2)."""
        action = self._batch_action()
        if action is None:
            return
        dice = typed.strip()
        if dice and not re.fullmatch(r"[0-9\s,]+", dice):
            self.info.setText("⚠ type only the dice, e.g. 543")
            return
        refused = self.table.keys.declare(action, self.given, self.bindings, dice)
        if refused:
            self.info.setText(f"⚠ {refused}")
            return
        self.close_line()

    def read(self, text: str, apply: bool = False, alone: bool = False) -> None:
        game = self.table.context.service.game
        ui = ruleset_ui(game.ruleset.id) if game is not None else None
        if game is None or ui is None or self.table.context.service.read_only:
            self.info.setText("⚠ open a running session first")
            return
        if ui.quick is None:
            self.info.setText(f"⚠ {game.ruleset.title} has no quick entry")
            return
        keys = [v.key for v in game.vehicles]
        selected = self.table.keys.selected
        try:
            command = parse(text, ui.quick, len(keys),
                            keys.index(selected) + 1 if selected in keys else None,
                            house=game.house)
            procedure = find_procedure(command.procedure_id)
            given = presets(command, keys, ui.quick,
                            lambda name, vehicles: self._choices(procedure, name, vehicles),
                            text)
            # The moment of play's defaults (Battlecars return fire, §2.9); the line wins.
            given = {**game.table_defaults(command.procedure_id,
                                           {n: keys[i - 1] for n, i in command.vehicles.items()}),
                     **given}
        except QuickEntryError as error:
            self.pointer.setText(f"{text}\n{error.pointer()}")
            self.pointer.show()
            self.info.setText(f"⚠ {error}")
            return
        try:
            # The words as the inputs read them ("3" points between is a whole number).
            given = {name: procedure.input(name).parse(value)
                     if isinstance(value, str) and not isinstance(procedure.input(name),
                                                                  SheetInput) else value
                     for name, value in given.items()}
        except (InputError, ValueError) as error:
            self.pointer.setText("")
            self.info.setText(f"⚠ {error}")
            return
        typed_inputs = {name: value for name, value in given.items()
                        if not isinstance(procedure.input(name), SheetInput)}
        raw, bindings = ProcedureRunner._raw(procedure, game, given)
        missing = missing_target(command, ui.quick, procedure.unused(raw, game.house), text)
        if missing is not None:  # (a smokescreen needs none: it aims at no one)
            self.pointer.setText(f"{text}\n{missing.pointer()}")
            self.pointer.show()
            self.info.setText(f"⚠ {missing}")
            return
        refused = game.table_problems(procedure.id, bindings,
                                      {k: v for k, v in given.items() if k not in bindings})
        if refused:  # what the moment of play refuses (Battlecars §2.9 return fire)
            self.pointer.setText("")
            self.info.setText(f"⚠ {'; '.join(refused)}")
            return
        try:
            raw = procedure.bind(raw, game.house)  # under the session's house rules
            self.odds = procedure.odds(raw)
            hint = dice_hint(procedure, raw)
        except (InputError, DiceError, ValueError) as error:
            self.pointer.setText("")
            self.info.setText(f"⚠ {error}")
            return
        self.procedure, self.raw, self.bindings = procedure, raw, bindings
        self.given = typed_inputs
        self.alone = alone
        batched = self._batch_action() is not None and not alone
        self.pointer.setText("")
        self.prompt.setText("Dice:")
        self.edit.clear()
        self.edit.setPlaceholderText("the dice thrown, e.g. 543 — Enter (never rolls)")
        self.pointer.hide()
        self.info.setText(f"<code>{escape(text)}</code> → <b>{procedure.title}</b>: "
                          f"{self.odds.summary}<br>{hint}"
                          + ("<br>Fire is simultaneous: Enter adds the shot to the phase's "
                             "batch (B shows it), Ctrl+Shift+Enter applies it alone now"
                             if batched else ""))
        if command.dice and batched:
            self.declare(command.dice)
        elif batched and not procedure.dice_needed(raw):
            self.declare("")  # no dice to type (a smokescreen): declared at once
        elif command.dice:
            self.resolve(command.dice, apply)
        elif all(need.when for need in procedure.dice_needed(raw)):
            # Only dice "if…" (damage by hand: the interior roll if it gets past the
            # armor): the engine says at once whether it needs one.
            self.resolve("", apply, quiet=True)

    def _choices(self, procedure: Procedure, name: str,
                 vehicles: Mapping[str, str]) -> Sequence[tuple[str, str]]:
        game = self.table.context.service.game
        spec = procedure.input(name)
        if game is None or not isinstance(spec, TextInput) or spec.choices_from is None:
            return []
        return spec.choices_from({input_name: game.sheet(key)
                                  for input_name, key in vehicles.items()
                                  if key in {v.key for v in game.vehicles}})

    def resolve(self, typed: str, apply: bool = False, quiet: bool = False) -> None:
        procedure = self.procedure
        if procedure is None:
            return

        def resolve() -> PendingResolution:
            # (a result shown before is discarded by the service: a new roll replaces it)
            game = self.table.context.service.game
            house = game.house if game is not None else None
            dice = typed_dice(typed, False, procedure_sides(procedure, self.raw, house))
            return self.table.context.service.resolve(
                procedure, self.raw, dice, bindings=self.bindings, odds=self.odds,
                initiator=self)

        def refused(error: BaseException) -> None:
            if quiet:  # a die is needed after all: asked for, in the engine's words
                self.info.setText(f"{self.info.text()}<br><b>{error}</b>: type it")
            else:
                self.info.setText(f"⚠ {error}")

        def shown(pending: PendingResolution) -> None:
            self.edit.clear()
            self.edit.setPlaceholderText("Enter applies · Esc discards")
            self.info.setText(f"<b>{pending.resolution.outcome}</b> — Enter applies, "
                              "Esc discards")
            self._showing = True
            if apply:
                self.apply()

        self.table.hub.runner.ops(resolve).refused(ResolveError, refused).success(shown).run()

    def apply(self) -> None:
        pending = self.pending
        if pending is None:
            return
        self.table.hub.runner.finish(pending, None)
        self.close_line()
