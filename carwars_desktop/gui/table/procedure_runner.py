"""Running an engine procedure from the Table: at once when it needs no dice, else a dialog.

Either way the result is applied through the :class:`GameContext` (one event,
committed before the screen shows it) and kept in the roll log with its exact
odds, for the luck chart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from carwars_desktop.dice import DiceError, EnteredDice
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.gui.write_banner import write_failure
from carwars_desktop.procedures import InputError, Odds, Procedure, Resolution, SheetInput
from carwars_desktop.rules import find_procedure
from carwars_desktop.session import Game, StaleSessionError

Handler = Callable[[Resolution, Mapping[str, str]], None]
"""Applies a result some other way (a clock move); the default applies its effects."""


class ProcedureRunner(QObject):
    """See the module docstring. :attr:`failed` carries any refusal, in words."""

    failed = Signal(str)
    done = Signal(object)
    write_failed = Signal(str, object)
    """(what was not saved and why, a retry returning True once it went through)."""

    def __init__(self, context: GameContext, parent_widget: QWidget) -> None:
        super().__init__(parent_widget)
        self.context = context
        self._parent = parent_widget
        self.dialog: ProcedureDialog | None = None

    def _game(self) -> Game | None:
        game = self.context.game
        if game is None or self.context.read_only:
            self.failed.emit("open a running session first")
            return None
        return game

    @staticmethod
    def _raw(procedure: Procedure, game: Game,
             presets: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        raw: dict[str, Any] = {}
        bindings: dict[str, str] = {}
        for name, value in presets.items():
            spec = procedure.input(name)
            if isinstance(spec, SheetInput) and isinstance(value, str):
                raw[name] = game.sheet(value)
                bindings[name] = value
            else:
                raw[name] = value
        return raw, bindings

    def run(self, procedure_id: str, presets: Mapping[str, Any], *, quick: bool = False,
            handler: Handler | None = None, note: str = "") -> None:
        """Resolve ``procedure_id`` with ``presets`` (sheet inputs given as vehicle keys).

        ``quick``: when the procedure needs no dice, resolve and apply without asking.
        """
        game = self._game()
        if game is None:
            return
        procedure = find_procedure(procedure_id)
        if quick:
            raw, bindings = self._raw(procedure, game, presets)
            try:
                needs = procedure.dice_needed(raw)
                if not needs:
                    resolution = procedure.resolve(raw, EnteredDice([]))
                    self.finish(resolution, bindings, procedure.odds(raw), handler)
                    return
            except (InputError, DiceError, ValueError) as error:
                self.failed.emit(str(error))
                return
        dialog = ProcedureDialog(procedure, game, presets, note, self._parent)
        dialog.accepted_result.connect(
            lambda resolution, bindings: self.finish(resolution, bindings, dialog.odds, handler))
        dialog.rejected.connect(lambda: self._discarded(dialog))
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        dialog.open()

    def _discarded(self, dialog: ProcedureDialog) -> None:
        resolution, odds = dialog.resolution, dialog.odds
        if resolution is not None:
            try:
                self._log(resolution, odds, applied=False)
            except Exception as error:
                text = write_failure(error)
                if text is None:
                    raise
                self.write_failed.emit(text, lambda: self._retry_log(resolution, odds, False))

    def finish(self, resolution: Resolution, bindings: Mapping[str, str], odds: Odds | None,
               handler: Handler | None) -> bool:
        """Apply a result (or hand it to ``handler``), then log it. False: not applied
        (a refused write goes to :attr:`write_failed` with a retry)."""
        try:
            if handler is not None:
                handler(resolution, bindings)
            elif resolution.effects:
                self.context.apply_resolution(resolution, dict(bindings))
            else:
                self._log(resolution, odds, applied=False)
                self.failed.emit(resolution.outcome)
                return True
        except StaleSessionError:
            return False  # the context announced it: the Table reloads and says so
        except ValueError as error:
            self.failed.emit(str(error))
            return False
        except Exception as error:
            text = write_failure(error)
            if text is None:
                raise
            self.failed.emit(text)
            self.write_failed.emit(
                text, lambda: self.finish(resolution, bindings, odds, handler))
            return False
        try:
            self._log(resolution, odds, applied=True)
        except Exception as error:
            text = write_failure(error)
            if text is None:
                raise
            self.write_failed.emit(f"{text} (the result was applied; only its line in the "
                                   "roll log is missing)",
                                   lambda: self._retry_log(resolution, odds, True))
        self.done.emit(resolution)
        return True

    def _retry_log(self, resolution: Resolution, odds: Odds | None, applied: bool) -> bool:
        try:
            self._log(resolution, odds, applied)
        except Exception as error:
            if write_failure(error) is None:
                raise
            return False
        return True

    def _log(self, resolution: Resolution, odds: Odds | None, applied: bool) -> None:
        database = self.context.database
        game = self.context.game
        if database is None or game is None:
            return
        p = odds.p_success() if odds is not None else None
        database.game_sessions.log_resolution(
            self.context.session_id, game.ruleset.id, resolution.procedure_id,
            {"dice": [d.to_json() for d in resolution.dice],
             "steps": [s.to_json() for s in resolution.steps]},
            resolution.outcome, resolution.success, None if p is None else str(p), applied)
