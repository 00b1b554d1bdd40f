"""What the sheets and the clock ask of the Table, done through the game context.

Every action is committed by the session core before the screen changes; a
refusal (a mark that does not fit, an illegal speed, a procedure's "not
allowed") becomes one clear message and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from carwars_desktop.gui.game_context import GameContext
from carwars_desktop.gui.table.procedure_runner import Handler, ProcedureRunner
from carwars_desktop.rules import RecordSheet
from carwars_desktop.rules.play import Mark
from carwars_desktop.session import Changes, Clock, Game, GameError


class TableActions(QObject):
    """Marks, clock moves and procedures; :attr:`message` reports (text, is_error)."""

    message = Signal(str, bool)

    def __init__(self, context: GameContext, parent_widget: QWidget) -> None:
        super().__init__(parent_widget)
        self.context = context
        self.runner = ProcedureRunner(context, parent_widget)
        self.runner.failed.connect(lambda text: self.message.emit(f"⚠ {text}", True))
        self.runner.done.connect(lambda resolution: self.message.emit(resolution.outcome, False))

    @property
    def game(self) -> Game | None:
        return None if self.context.read_only else self.context.game

    def _guard(self, action: Callable[[], Changes]) -> Changes | None:
        try:
            changes = action()
        except (ValueError, GameError, RuntimeError) as error:
            self.message.emit(f"⚠ {error}", True)
            return None
        return changes

    def mark(self, key: str, factory: Callable[[], Mark]) -> Changes | None:
        """Make a hand mark (the engine decides its consequences) and commit it."""
        game = self.game
        if game is None:
            self.message.emit("⚠ this session is read-only", True)
            return None
        name = game.vehicle(key).name

        def commit() -> Changes:
            made = factory()
            return self.context.mark(key, made.sheet, f"{name}: {made.summary}", made.steps)

        changes = self._guard(commit)
        if changes is not None and changes.event is not None:
            self.message.emit(changes.event.event.summary, False)
        return changes

    def clock(self, clock: Clock, summary: str,
              sheets: Mapping[str, RecordSheet] | None = None,
              steps: Sequence[str] = ()) -> Changes | None:
        changes = self._guard(lambda: self.context.set_clock(clock, summary, sheets, steps))
        if changes is not None:
            self.message.emit(summary, False)
        return changes

    def run(self, procedure_id: str, presets: Mapping[str, Any], *, quick: bool = False,
            handler: Handler | None = None, note: str = "",
            ask: Collection[str] = (), batch: Callable[[Any, Any, str], None] | None = None,
            batch_default: bool = False) -> None:
        self.runner.run(procedure_id, presets, quick=quick, handler=handler, note=note,
                        ask=ask, batch=batch, batch_default=batch_default)

    def undo(self) -> Changes | None:
        changes = self._guard(self.context.undo)
        if changes is not None and changes.event is not None:
            self.message.emit(f"undone: {changes.event.event.summary}", False)
        return changes

    def redo(self) -> Changes | None:
        changes = self._guard(self.context.redo)
        if changes is not None and changes.event is not None:
            self.message.emit(f"redone: {changes.event.event.summary}", False)
        return changes

    def error(self, text: str) -> None:
        self.message.emit(f"⚠ {text}", True)
