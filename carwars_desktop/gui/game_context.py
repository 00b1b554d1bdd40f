"""The game in progress, shared by the Table (which opens it) and the Resolver (which applies).

Every change goes through here: the session core commits it to the database,
then :attr:`GameContext.changed` tells every screen what to redraw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from carwars_desktop.procedures import Resolution
from carwars_desktop.rules import RecordSheet
from carwars_desktop.session import Changes, Clock, EventKind, Game, StaleSessionError

if TYPE_CHECKING:
    from carwars_desktop.storage import Database


class GameContext(QObject):
    """Holds the open game (or none) and announces every change to it."""

    game_changed = Signal()
    """A session was opened or closed."""
    changed = Signal(object)
    """A :class:`~carwars_desktop.session.Changes` after an event, undo or redo."""
    stale = Signal(object)
    """A :class:`~carwars_desktop.session.StaleSessionError`: another copy of the app wrote
    first or took the session over; nothing was written and the Table reloads."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game: Game | None = None
        self.session_id: int | None = None
        self.database: Database | None = None
        self.read_only = False

    def open(self, game: Game, session_id: int, read_only: bool = False) -> None:
        self.game = game
        self.session_id = session_id
        self.read_only = read_only
        self.game_changed.emit()

    def close(self) -> None:
        self.game = None
        self.session_id = None
        self.read_only = False
        self.game_changed.emit()

    def playing(self, ruleset_id: str) -> Game | None:
        """The open game if it is of ``ruleset_id`` and can be changed."""
        if self.game is None or self.read_only or self.game.ruleset.id != ruleset_id:
            return None
        return self.game

    def announce(self, changes: Changes) -> Changes:
        """Tell every screen about a change already committed by the game."""
        self.changed.emit(changes)
        return changes

    def _commit(self, operation: Callable[[], Changes]) -> Changes:
        """Run a game operation and announce it; a stale write is announced, then raised."""
        try:
            changes = operation()
        except StaleSessionError as error:
            self.stale.emit(error)
            raise
        return self.announce(changes)

    def _running(self) -> Game:
        if self.game is None or self.read_only:
            raise RuntimeError("no running session to change")
        return self.game

    def apply_resolution(self, resolution: Resolution, bindings: dict[str, str]) -> Changes:
        if self.game is None or self.read_only:
            raise RuntimeError("no running session to apply the result to")
        game = self.game
        return self._commit(lambda: game.apply_resolution(resolution, bindings))

    def mark(self, key: str, sheet: RecordSheet, summary: str,
             steps: Sequence[str] = ()) -> Changes:
        """A hand mark on one sheet, committed, then announced."""
        game = self._running()
        return self._commit(lambda: game.mark(key, sheet, summary, steps))

    def set_clock(self, clock: Clock, summary: str,
                  sheets: Mapping[str, RecordSheet] | None = None,
                  steps: Sequence[str] = ()) -> Changes:
        """The clock moves (with any sheets the move changes), committed, then announced."""
        game = self._running()
        return self._commit(lambda: game.set_clock(clock, summary, sheets, steps))

    def note(self, summary: str, steps: Sequence[str] = ()) -> Changes:
        """A line in the log that changes no sheet."""
        game = self._running()
        return self._commit(lambda: game.record(EventKind.NOTE, summary, {}, steps))

    def undo(self) -> Changes:
        if self.game is None or self.read_only:
            raise RuntimeError("no running session")
        return self._commit(self.game.undo)

    def redo(self) -> Changes:
        if self.game is None or self.read_only:
            raise RuntimeError("no running session")
        return self._commit(self.game.redo)
