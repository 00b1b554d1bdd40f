"""The game in progress, as the GUI sees it: the Table service's changes as Qt signals.

Every change goes through :attr:`GameContext.service`, the
:class:`~carwars_desktop.services.TableService` (the game, the session, marks, the clock,
undo): the session core commits it to the database, the service publishes it on the
change bus, and :attr:`GameContext.changed` re-emits it for the screens that redraw.
Nothing else is forwarded: a screen asks the service.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from carwars_desktop.services import Changes as BusChanges
from carwars_desktop.services import TableService

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
    def database(self) -> Database | None:
        return self.service.database

    @database.setter
    def database(self, database: Database | None) -> None:
        self.service.database = database
        # Rolls shown outside any session by a run that stopped before Apply or Discard.
        self.service.settle_left_pending(None)
