"""The players' view kept in step with the change bus, for a reader off the screen (the
phones' page): the last events are read once when a session opens, then followed from
each :class:`~carwars_desktop.services.Changes` (no query per event), and every
snapshot is :func:`~carwars_desktop.services.players_view.players_view` — the one place
the visibility rules are applied — as JSON.
"""

from __future__ import annotations

from typing import Any

from carwars_desktop.services.changes import Changes, RollNotice, RollState
from carwars_desktop.services.players_view import (
    PlayersView,
    follow_events,
    own_sheets,
    players_view,
    recent_events,
)
from carwars_desktop.services.table import TableService
from carwars_desktop.session import Changes as GameChanges
from carwars_desktop.session import StoredEvent


class PlayersFeed:
    """:meth:`heard` each change (on the thread that publishes), :meth:`snapshot` (the
    public view, every link) and :meth:`seats` (each vehicle's own sheet) to read."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self._roll: RollNotice | None = table.roll
        self._events: list[StoredEvent] = []
        self.replayed: PlayersView | None = None
        """A replayed moment the phones show instead of the live table, as the TV does
        (:meth:`show_replayed`)."""
        self.reset()

    def reset(self) -> None:
        """A session opened or closed: read its last events once."""
        game = self.table.game
        self._roll = self.table.roll
        self._events = recent_events(game.store) if game is not None and hasattr(
            game.store, "page") else []

    def heard(self, changes: Changes) -> bool:
        """Follow ``changes``; True when the players' view may have changed."""
        if changes.roll is not None:
            self._roll = changes.roll if changes.roll.state is not RollState.DISCARDED \
                else None
        if changes.session:
            self.reset()
            return True
        if changes.game is not None:
            self._event(changes.game)
            return True
        return changes.roll is not None

    def _event(self, changes: GameChanges) -> None:
        self._events = follow_events(self._events, changes)

    def show_replayed(self, view: PlayersView | None) -> None:
        """Show a replayed moment (the replay's players' view of event N, the one the
        players' display gets) instead of the live table, until given None."""
        self.replayed = view

    def snapshot(self) -> dict[str, Any]:
        """The players' view as JSON (the replayed moment while the replay is shown to the
        players), with the session it is about."""
        table = self.table
        view = self.replayed if self.replayed is not None else players_view(
            table.game, table.title, self._events, self._roll)
        return {**view.to_json(), "session": table.session_id}

    def seats(self) -> dict[str, dict[str, Any] | None]:
        """Vehicle key → its own full sheet as JSON (None while it is hidden): what only
        that vehicle's seat link is sent."""
        return {key: None if view is None else view.to_json()
                for key, view in own_sheets(self.table.game).items()}

    def keys(self) -> list[str]:
        """The vehicles of the session (each gets a seat link)."""
        game = self.table.game
        return [] if game is None else [v.key for v in game.vehicles]
