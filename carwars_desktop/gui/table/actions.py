"""What the sheets and the clock ask of the Table, done through the game context.

Every action is committed by the session core before the screen changes; a
refusal (a mark that does not fit, an illegal speed, a procedure's "not
allowed") becomes one clear message and changes nothing. A write the database
refuses (read-only, locked) changes nothing either: :attr:`TableActions.write_failed`
hands the reason and a retry to the Table's banner. A stale write (another copy of
the app wrote first) is the game context's ``stale``: the Table reloads.
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
from carwars_desktop.session import Changes, Clock, Game, GameError, StaleSessionError


class TableActions(QObject):
    """Marks, clock moves and procedures; :attr:`message` reports (text, is_error)."""

    message = Signal(str, bool)
    write_failed = Signal(str, object)
    """(what was not saved and why, a retry returning True once it went through)."""

    def __init__(self, context: GameContext, parent_widget: QWidget) -> None:
        super().__init__(parent_widget)
        self.context = context
        self.runner = ProcedureRunner(context, parent_widget)
        self.runner.failed.connect(lambda text: self.message.emit(f"⚠ {text}", True))
        self.runner.done.connect(lambda resolution: self.message.emit(resolution.outcome, False))
        self.runner.write_failed.connect(self.write_failed)

    @property
    def game(self) -> Game | None:
        return None if self.context.service.read_only else self.context.service.game

    def _guard(self, action: Callable[[], Changes],
               done: Callable[[Changes], object] | None = None) -> Changes | None:
        op = (self.runner.ops(action)
              # the context announced a stale write: the Table reloads and says so
              .refused(StaleSessionError, lambda _error: None)
              .refused((ValueError, GameError, RuntimeError),
                       lambda error: self.message.emit(f"⚠ {error}", True))
              .failed(lambda text: self.message.emit(f"⚠ {text}", True)))
        if done is not None:
            op.success(done)
        return op.value if op.run() else None

    def mark(self, key: str, factory: Callable[[], Mark]) -> Changes | None:
        """Make a hand mark (the engine decides its consequences) and commit it."""
        game = self.game
        if game is None:
            self.message.emit("⚠ this session is read-only", True)
            return None
        name = game.vehicle(key).name

        def commit() -> Changes:
            made = factory()
            return self.context.service.mark(key, made.sheet, f"{name}: {made.summary}", made.steps)

        return self._guard(commit, self._said)

    def _said(self, changes: Changes, prefix: str = "") -> None:
        if changes.event is not None:
            self.message.emit(f"{prefix}{changes.event.event.summary}", False)

    def clock(self, clock: Clock, summary: str,
              sheets: Mapping[str, RecordSheet] | None = None,
              steps: Sequence[str] = ()) -> Changes | None:
        return self._guard(lambda: self.context.service.set_clock(clock, summary, sheets, steps),
                           lambda _changes: self.message.emit(summary, False))

    def run(self, procedure_id: str, presets: Mapping[str, Any], *, quick: bool = False,
            handler: Handler | None = None, note: str = "",
            ask: Collection[str] = (), batch: Callable[[Any, Any, str], None] | None = None,
            batch_default: bool = False, order: Sequence[str] = ()) -> None:
        self.runner.run(procedure_id, presets, quick=quick, handler=handler, note=note,
                        ask=ask, batch=batch, batch_default=batch_default, order=order)

    def undo(self) -> Changes | None:
        return self._guard(self.context.service.undo,
                           lambda changes: self._said(changes, "undone: "))

    def redo(self) -> Changes | None:
        return self._guard(self.context.service.redo,
                           lambda changes: self._said(changes, "redone: "))

    def error(self, text: str) -> None:
        self.message.emit(f"⚠ {text}", True)
