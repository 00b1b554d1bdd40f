"""What the club's ledger reads from the database (revision 0009).

The finished sessions (their ruleset, dates, write counter and house-rules profile), the
player each vehicle in play is linked to, and the cache of each finished session's
summary (``session_ledger``). The summaries are derived from the events by
:mod:`carwars_desktop.services.ledger`; the cache only spares computing them again: a
summary is kept with the session's ``version`` when it was computed, and one whose
session has moved on since (another write) is stale.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.session.house_rules import HouseRules
from carwars_desktop.storage.models import (
    GameSessionRow,
    PlayerRow,
    SessionLedgerRow,
    SessionVehicleRow,
)
from carwars_desktop.storage.session_records import SessionDataError, settings_from_text
from carwars_desktop.storage.states import FINISHED
from carwars_desktop.storage.writes import writing

_CHUNK = 500
"""Sessions per ``IN (…)`` query (PostgreSQL and SQLite both take far more)."""


@dataclass(frozen=True)
class LedgerSession:
    """A finished session as the ledger filters it."""

    id: int
    ruleset_id: str
    version: int
    created_at: datetime
    finished_at: datetime | None
    profile: str
    """Its house-rules profile's name (the digest's defaults when none was kept)."""


@dataclass(frozen=True)
class Stamp:
    """What moves when a session finishes anywhere (another copy included): the number of
    finished sessions and the sum of their write counters."""

    finished: int
    versions: int


def _profile(settings: str | None) -> str:
    try:
        return HouseRules.of(settings_from_text(settings)).profile
    except SessionDataError:
        return HouseRules().profile


def _chunks(ids: Iterable[int]) -> Iterable[list[int]]:
    listed = list(ids)
    for start in range(0, len(listed), _CHUNK):
        yield listed[start:start + _CHUNK]


class LedgerStore:
    """The ledger's reads, and its cache of per-session summaries."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def finished(self) -> list[LedgerSession]:
        """Every finished session, oldest first."""
        with self._sessions() as session:
            rows = session.execute(
                select(GameSessionRow.id, GameSessionRow.ruleset_id, GameSessionRow.version,
                       GameSessionRow.created_at, GameSessionRow.finished_at,
                       GameSessionRow.settings)
                .where(GameSessionRow.status == FINISHED)
                .order_by(GameSessionRow.created_at, GameSessionRow.id)).all()
        return [LedgerSession(int(r[0]), str(r[1]), int(r[2]), r[3], r[4], _profile(r[5]))
                for r in rows]

    def stamp(self) -> Stamp:
        """Cheap to read: a copy of the app polls it to hear of sessions others finished."""
        with self._sessions() as session:
            count, total = session.execute(
                select(func.count(), func.coalesce(func.sum(GameSessionRow.version), 0))
                .where(GameSessionRow.status == FINISHED)).one()
        return Stamp(int(count or 0), int(total or 0))

    def player_links(self, session_id: int) -> dict[str, int | None]:
        """Vehicle key → the player it is linked to (None: no player named)."""
        with self._sessions() as session:
            rows = session.execute(select(SessionVehicleRow.key, SessionVehicleRow.player_id)
                                   .where(SessionVehicleRow.session_id == session_id)).all()
        return {str(key): None if pid is None else int(pid) for key, pid in rows}

    def player_names(self) -> dict[int, str]:
        with self._sessions() as session:
            rows = session.execute(select(PlayerRow.id, PlayerRow.name)).all()
        return {int(pid): str(name) for pid, name in rows}

    def cached(self, session_ids: Iterable[int]) -> dict[int, tuple[int, dict[str, Any]]]:
        """Session id → (the version it was computed at, the summary) of those kept."""
        found: dict[int, tuple[int, dict[str, Any]]] = {}
        with self._sessions() as session:
            for chunk in _chunks(session_ids):
                rows = session.execute(select(SessionLedgerRow.session_id,
                                              SessionLedgerRow.version, SessionLedgerRow.body)
                                       .where(SessionLedgerRow.session_id.in_(chunk))).all()
                for session_id, version, body in rows:
                    try:
                        value = json.loads(body)
                    except ValueError:
                        continue  # unreadable: computed again
                    if isinstance(value, dict):
                        found[int(session_id)] = (int(version), value)
        return found

    def store(self, summaries: Mapping[int, tuple[int, Mapping[str, Any]]]) -> None:
        """Keep summaries (session id → (version, summary)), in one transaction; one whose
        session has moved on meanwhile is not kept (it would be stale at once).

        Raises:
            WriteFailedError: the database refused the write (read-only, locked, or another
                copy kept the same summary at the same moment): nothing is lost, the
                summaries are computed again next time.
        """
        if not summaries:
            return
        now = datetime.now(UTC)
        with writing(self._sessions, "The ledger's summaries") as session:
            versions = {}
            for chunk in _chunks(summaries):
                for found_id, found_version in session.execute(
                        select(GameSessionRow.id, GameSessionRow.version)
                        .where(GameSessionRow.id.in_(chunk))).all():
                    versions[int(found_id)] = int(found_version)
            for session_id, (version, body) in summaries.items():
                if versions.get(session_id) != version:
                    continue
                text = json.dumps(body, separators=(",", ":"), ensure_ascii=False,
                                  sort_keys=True)
                row = session.get(SessionLedgerRow, session_id)
                if row is None:
                    session.add(SessionLedgerRow(session_id=session_id, version=version,
                                                 body=text, computed_at=now))
                else:
                    row.version, row.body, row.computed_at = version, text, now
