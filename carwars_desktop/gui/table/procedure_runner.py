"""Running an engine procedure from the Table: at once when it needs no dice, else a dialog.

Either way the Table service resolves it and its pending result is applied (one
event, committed before the screen shows it) or discarded, and kept in the roll
log with its exact odds, for the luck chart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from carwars_desktop.dice import DiceError, EnteredDice
from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.table.procedure_dialog import ProcedureDialog
from carwars_desktop.procedures import InputError, Procedure, SheetInput
from carwars_desktop.rules import find_procedure
from carwars_desktop.services import Handler, PendingResolution
from carwars_desktop.session import Game

__all__ = ["Handler", "ProcedureRunner"]


class ProcedureRunner(QObject):
    """See the module docstring. :attr:`failed` carries any refusal, in words."""

    failed = Signal(str)
    done = Signal(object)

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
        service = self.context.service
        if quick:
            raw, bindings = self._raw(procedure, game, presets)
            try:
                needs = procedure.dice_needed(raw, game.house)
                if not needs:
                    pending = service.resolve(procedure, raw, EnteredDice([]),
                                              bindings=bindings,
                                              odds=procedure.odds(raw, game.house),
                                              house=game.house, initiator=self)
                    self.finish(pending, handler)
                    return
            except (InputError, DiceError, ValueError) as error:  # ResolveError included
                self.failed.emit(str(error))
                return
        dialog = ProcedureDialog(procedure, game, presets, note, self._parent, table=service)
        dialog.accepted_result.connect(lambda pending: self.finish(pending, handler))
        dialog.rejected.connect(lambda: self._discarded(dialog))
        dialog.finished.connect(dialog.deleteLater)
        self.dialog = dialog
        dialog.open()

    @staticmethod
    def _discarded(dialog: ProcedureDialog) -> None:
        if dialog.pending is not None:
            dialog.pending.discard()

    def finish(self, pending: PendingResolution, handler: Handler | None) -> None:
        """Apply a result (or hand it to ``handler``), which logs it; a result without
        effects is discarded (and logged) with its outcome as the reason."""
        if handler is None and not pending.resolution.effects:
            pending.discard()
            self.failed.emit(pending.resolution.outcome)
            return
        try:
            pending.apply(handler)
        except ValueError as error:
            self.failed.emit(str(error))
            return
        self.done.emit(pending.resolution)
