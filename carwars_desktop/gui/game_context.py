"""The game in progress, as the GUI sees it: a thin Qt adapter over the Table service.

Every change goes through :class:`~carwars_desktop.services.TableService`: the
session core commits it to the database, the service publishes it on the change
bus, and :attr:`GameContext.changed` re-emits it for the screens that redraw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from carwars_desktop.rules import RecordSheet
from carwars_desktop.services import Changes as BusChanges
from carwars_desktop.services import TableService
from carwars_desktop.session import Changes, Clock, Game

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

    def __init__(self, parent: QObject | None = None,
                 service: TableService | None = None) -> None:
        super().__init__(parent)
        self.service = service if service is not None else TableService()
        unsubscribe = self.service.bus.subscribe(self._heard)
        self.service.on_stale = self.stale.emit
        self.destroyed.connect(lambda *_args: unsubscribe())

    def _heard(self, changes: BusChanges) -> None:
        if changes.session:
            self.game_changed.emit()
        if changes.game is not None:
            self.changed.emit(changes.game)

    @property
    def game(self) -> Game | None:
        return self.service.game

    @property
    def session_id(self) -> int | None:
        return self.service.session_id

    @property
    def read_only(self) -> bool:
        return self.service.read_only

    @property
    def database(self) -> Database | None:
        return self.service.database

    @database.setter
    def database(self, database: Database | None) -> None:
        self.service.database = database
        # Rolls shown outside any session by a run that stopped before Apply or Discard.
        self.service.settle_left_pending(None)

    def open(self, game: Game, session_id: int, read_only: bool = False) -> None:
        self.service.show(game, session_id, read_only)

    def close(self) -> None:
        self.service.close()

    def playing(self, ruleset_id: str) -> Game | None:
        """The open game if it is of ``ruleset_id`` and can be changed."""
        return self.service.playing(ruleset_id)

    def announce(self, changes: Changes) -> Changes:
        """Tell every screen about a change already committed by the game."""
        return self.service.announce(changes)

    def mark(self, key: str, sheet: RecordSheet, summary: str,
             steps: Sequence[str] = ()) -> Changes:
        """A hand mark on one sheet, committed, then announced."""
        return self.service.mark(key, sheet, summary, steps)

    def set_clock(self, clock: Clock, summary: str,
                  sheets: Mapping[str, RecordSheet] | None = None,
                  steps: Sequence[str] = ()) -> Changes:
        """The clock moves (with any sheets the move changes), committed, then announced."""
        return self.service.set_clock(clock, summary, sheets, steps)

    def undo(self) -> Changes:
        return self.service.undo()

    def redo(self) -> Changes:
        return self.service.redo()
