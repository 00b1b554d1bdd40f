"""The club's players, each named once (revision 0009).

A player is a row of ``players``; a vehicle in play links to its player
(``session_vehicles.player_id``). Names are matched trimmed and case-folded, inner spaces
folded (:func:`player_key`): typing "ann " at a new session picks Ann.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.storage.models import PlayerRow
from carwars_desktop.storage.writes import writing


def player_key(name: str) -> str:
    """One player's identity: the name trimmed, inner spaces folded, case-folded."""
    return " ".join(name.split()).casefold()


def player_name(name: str) -> str:
    """The name as kept: trimmed, inner spaces folded (its case as typed)."""
    return " ".join(name.split())


@dataclass(frozen=True)
class Player:
    id: int
    name: str


def player_id_for(session: Session, name: str) -> int | None:
    """The id of the player named ``name`` (created now when new), inside ``session``'s
    transaction; None for an empty name."""
    kept = player_name(name)
    if not kept:
        return None
    key = player_key(kept)
    found = session.scalar(select(PlayerRow.id).where(PlayerRow.name_key == key))
    if found is not None:
        return int(found)
    row = PlayerRow(name=kept[:200], name_key=key[:200], created_at=datetime.now(UTC))
    session.add(row)
    session.flush()
    return row.id


class Players:
    """List the players; name a new one (or find the one a name already is)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def all(self) -> list[Player]:
        """Every player, by name (case-folded)."""
        with self._sessions() as session:
            rows = session.execute(select(PlayerRow.id, PlayerRow.name)).all()
        return sorted((Player(int(r[0]), str(r[1])) for r in rows),
                      key=lambda p: (player_key(p.name), p.id))

    def named(self, name: str) -> Player:
        """The player ``name`` is (trimmed, case-folded), created when new.

        Raises:
            ValueError: an empty name.
        """
        with writing(self._sessions, "The player") as session:
            player_id = player_id_for(session, name)
            if player_id is None:
                raise ValueError("a player needs a name")
            row = session.get(PlayerRow, player_id)
            assert row is not None
            return Player(row.id, row.name)
