"""Game sessions: their vehicles in play, current sheets and clock, and event history.

:class:`SessionEvents` is the session layer's :class:`~carwars_desktop.session.EventStore`
on the database: each event, undo and redo is one committed transaction that
also rewrites the changed vehicles' ``current_sheet`` and the session's clock,
so opening a session reads a few rows whatever the length of its history.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.session import Event, StoredEvent, VehicleInPlay
from carwars_desktop.storage.models import (
    GameSessionRow,
    ResolutionLogRow,
    SessionChartsRow,
    SessionEventRow,
    SessionVehicleRow,
)

RUNNING = "running"
FINISHED = "finished"
ACTIVE = "active"
UNDONE = "undone"


class SessionNotFoundError(LookupError):
    """No session has that id."""


class SessionDataError(ValueError):
    """A session, player or vehicle name the database cannot keep (the message says why)."""


TEXT_MAX = 200
"""The longest session, scenario, player or vehicle name (the columns' size)."""


def _check_text(what: str, value: str) -> None:
    # PostgreSQL refuses a longer value where SQLite would keep it: refuse it the same
    # way on both, before anything is written.
    if len(value) > TEXT_MAX:
        raise SessionDataError(f"the {what} has {len(value)} characters; at most {TEXT_MAX}")


@dataclass(frozen=True)
class SessionInfo:
    """A session as the session list shows it."""

    id: int
    ruleset_id: str
    name: str
    scenario: str
    status: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    vehicle_count: int
    event_count: int

    @property
    def running(self) -> bool:
        return self.status == RUNNING


@dataclass(frozen=True)
class LoadedSession:
    """Everything needed to resume a session: no event is read."""

    info: SessionInfo
    vehicles: tuple[VehicleInPlay, ...]
    sheets: Mapping[str, Mapping[str, Any]]
    initial_sheets: Mapping[str, Mapping[str, Any]]
    clock: Mapping[str, Any]
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewVehicle:
    vehicle: VehicleInPlay
    sheet: Mapping[str, Any]


PENDING, APPLIED, DISCARDED = "pending", "applied", "discarded"
"""The states of a result in the roll log (kept first in its body)."""
_PENDING_PREFIX = '{"state":"pending"'


@dataclass(frozen=True)
class LoggedResolution:
    """One result in the roll log: ``state`` is pending, applied or discarded."""

    id: int
    procedure_id: str
    outcome: str
    state: str
    note: str
    created_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class GameSessions:
    """Create, list, load and finish sessions; hand out each one's event store."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions

    def create(self, ruleset_id: str, name: str, scenario: str,
               vehicles: Sequence[NewVehicle], clock: Mapping[str, Any]) -> int:
        """Create a running session with its vehicles, in one transaction.

        Raises:
            SessionDataError: a name longer than :data:`TEXT_MAX`.
        """
        _check_text("session name", name)
        _check_text("scenario", scenario)
        for new in vehicles:
            _check_text(f"player name {new.vehicle.player[:20]!r}…", new.vehicle.player)
            _check_text(f"vehicle name {new.vehicle.name[:20]!r}…", new.vehicle.name)
        now = _now()
        with self._sessions.begin() as session:
            row = GameSessionRow(ruleset_id=ruleset_id, name=name, scenario=scenario,
                                 status=RUNNING, clock=_dumps(clock), created_at=now,
                                 updated_at=now, finished_at=None)
            session.add(row)
            session.flush()
            for position, new in enumerate(vehicles):
                sheet = _dumps(new.sheet)
                session.add(SessionVehicleRow(
                    session_id=row.id, key=new.vehicle.key, position=position,
                    player=new.vehicle.player, name=new.vehicle.name,
                    design=_dumps(new.vehicle.design), initial_sheet=sheet,
                    current_sheet=sheet))
            return row.id

    def _info(self, session: Session, row: GameSessionRow) -> SessionInfo:
        vehicles = session.scalar(select(func.count()).select_from(SessionVehicleRow)
                                  .where(SessionVehicleRow.session_id == row.id)) or 0
        events = session.scalar(select(func.count()).select_from(SessionEventRow)
                                .where(SessionEventRow.session_id == row.id,
                                       SessionEventRow.status == ACTIVE)) or 0
        return SessionInfo(row.id, row.ruleset_id, row.name, row.scenario, row.status,
                           row.created_at, row.updated_at, row.finished_at, vehicles, events)

    def all(self) -> list[SessionInfo]:
        """Every session, most recently played first."""
        with self._sessions() as session:
            rows = session.scalars(select(GameSessionRow)
                                   .order_by(GameSessionRow.updated_at.desc(),
                                             GameSessionRow.id.desc())).all()
            return [self._info(session, row) for row in rows]

    def last_running(self) -> SessionInfo | None:
        with self._sessions() as session:
            row = session.scalars(select(GameSessionRow).where(GameSessionRow.status == RUNNING)
                                  .order_by(GameSessionRow.updated_at.desc(),
                                            GameSessionRow.id.desc()).limit(1)).first()
            return None if row is None else self._info(session, row)

    def load(self, session_id: int) -> LoadedSession:
        with self._sessions() as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            vehicle_rows = session.scalars(select(SessionVehicleRow)
                                           .where(SessionVehicleRow.session_id == session_id)
                                           .order_by(SessionVehicleRow.position)).all()
            vehicles = tuple(VehicleInPlay(v.key, v.name, v.player, json.loads(v.design))
                             for v in vehicle_rows)
            return LoadedSession(
                info=self._info(session, row),
                vehicles=vehicles,
                sheets={v.key: json.loads(v.current_sheet) for v in vehicle_rows},
                initial_sheets={v.key: json.loads(v.initial_sheet) for v in vehicle_rows},
                clock=json.loads(row.clock),
                settings=_settings(row.settings),
            )

    def finish(self, session_id: int) -> None:
        with self._sessions.begin() as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            row.status = FINISHED
            row.finished_at = row.updated_at = _now()

    def delete(self, session_id: int) -> None:
        with self._sessions.begin() as session:
            session.execute(delete(GameSessionRow).where(GameSessionRow.id == session_id))

    def events(self, session_id: int) -> SessionEvents:
        return SessionEvents(self._sessions, session_id)

    def log_resolution(self, session_id: int | None, ruleset_id: str, procedure_id: str,
                       body: Mapping[str, Any], outcome: str, success: bool | None,
                       p_success: str | None, applied: bool, pending: bool = False) -> int:
        """Keep a Resolver result (applied or discarded) in the roll log.

        With ``pending`` it is kept as shown, neither applied nor discarded yet: settle it
        with :meth:`settle_resolution`; one left pending when the app stopped reads as
        discarded (:meth:`settle_pending`)."""
        state = PENDING if pending else (APPLIED if applied else DISCARDED)
        with self._sessions.begin() as session:
            row = ResolutionLogRow(session_id=session_id, ruleset_id=ruleset_id,
                                   procedure_id=procedure_id,
                                   body=_dumps({"state": state, **body}), outcome=outcome,
                                   success=success, p_success=p_success,
                                   applied=applied and not pending, created_at=_now())
            session.add(row)
            session.flush()
            return row.id

    def settle_resolution(self, log_id: int, applied: bool, note: str = "") -> None:
        """A pending result was applied or discarded (its row says so from now on)."""
        with self._sessions.begin() as session:
            row = session.get(ResolutionLogRow, log_id)
            if row is None:
                return
            body = dict(json.loads(row.body))
            body["state"] = APPLIED if applied else DISCARDED
            if note:
                body["note"] = note
            row.body = _dumps(body)
            row.applied = applied

    def settle_pending(self, session_id: int | None) -> int:
        """Results still pending in the log (shown, then the app stopped before Apply or
        Discard) become discarded; how many."""
        with self._sessions.begin() as session:
            rows = session.scalars(select(ResolutionLogRow).where(
                ResolutionLogRow.session_id.is_(None) if session_id is None
                else ResolutionLogRow.session_id == session_id,
                ResolutionLogRow.body.like(_PENDING_PREFIX + "%"))).all()
            for row in rows:
                body = dict(json.loads(row.body))
                body["state"] = DISCARDED
                body["note"] = "shown, never applied: the app stopped first"
                row.body = _dumps(body)
                row.applied = False
            return len(rows)

    def roll_log(self, session_id: int | None) -> list[LoggedResolution]:
        """Every logged result of a session (or of none), oldest first, with its state."""
        with self._sessions() as session:
            rows = session.scalars(select(ResolutionLogRow).where(
                ResolutionLogRow.session_id.is_(None) if session_id is None
                else ResolutionLogRow.session_id == session_id)
                .order_by(ResolutionLogRow.id)).all()
            logged = []
            for row in rows:
                body = dict(json.loads(row.body))
                state = str(body.get("state", APPLIED if row.applied else DISCARDED))
                logged.append(LoggedResolution(row.id, row.procedure_id, row.outcome, state,
                                               str(body.get("note", "")), row.created_at))
            return logged

    def resolutions(self, session_id: int) -> list[tuple[str, bool | None, str | None, bool]]:
        """(procedure, success, exact P(success), applied) of each logged resolution, in order
        (results still pending are left out: they are neither yet)."""
        with self._sessions() as session:
            rows = session.execute(select(ResolutionLogRow.procedure_id, ResolutionLogRow.success,
                                          ResolutionLogRow.p_success, ResolutionLogRow.applied)
                                   .where(ResolutionLogRow.session_id == session_id,
                                          ResolutionLogRow.body.not_like(_PENDING_PREFIX + "%"))
                                   .order_by(ResolutionLogRow.id)).all()
            return [(r[0], r[1], r[2], r[3]) for r in rows]

    def charts(self, session_id: int) -> dict[str, Any] | None:
        """The finished session's stored chart aggregates, or None if not computed yet."""
        with self._sessions() as session:
            body = session.scalar(select(SessionChartsRow.body)
                                  .where(SessionChartsRow.session_id == session_id))
        return None if body is None else dict(json.loads(body))

    def store_charts(self, session_id: int, charts: Mapping[str, Any]) -> None:
        """Keep a finished session's chart aggregates (computed once from its events).

        Refused for a running session: its events still change.
        """
        with self._sessions.begin() as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            if row.status != FINISHED:
                raise SessionDataError(f"session {session_id} is still running: its charts "
                                       "are kept once it is finished")
            existing = session.get(SessionChartsRow, session_id)
            if existing is None:
                session.add(SessionChartsRow(session_id=session_id, body=_dumps(charts),
                                             computed_at=_now()))
            else:
                existing.body = _dumps(charts)
                existing.computed_at = _now()


def _settings(text: str | None) -> dict[str, Any]:
    value = json.loads(text or "{}")
    if not isinstance(value, dict):
        raise SessionDataError(f"the session's settings are not a JSON object: {text!r}")
    return value


def _stored(row: SessionEventRow) -> StoredEvent:
    return StoredEvent(row.seq, Event.from_json(json.loads(row.body)), row.created_at,
                       undone=row.status == UNDONE)


class SessionEvents:
    """The :class:`~carwars_desktop.session.EventStore` of one session, in the database."""

    def __init__(self, sessions: sessionmaker[Session], session_id: int) -> None:
        self._sessions = sessions
        self.session_id = session_id

    def _save_state(self, session: Session, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None) -> None:
        for key, sheet in sheets.items():
            session.execute(update(SessionVehicleRow)
                            .where(SessionVehicleRow.session_id == self.session_id,
                                   SessionVehicleRow.key == key)
                            .values(current_sheet=_dumps(sheet)))
        values: dict[str, Any] = {"clock": _dumps(clock), "updated_at": _now()}
        if settings is not None:
            values["settings"] = _dumps(dict(settings))
        session.execute(update(GameSessionRow).where(GameSessionRow.id == self.session_id)
                        .values(**values))

    def append(self, event: Event, sheets: Mapping[str, Mapping[str, Any]],
               clock: Mapping[str, Any],
               settings: Mapping[str, Any] | None = None) -> StoredEvent:
        now = _now()
        with self._sessions.begin() as session:
            session.execute(delete(SessionEventRow)
                            .where(SessionEventRow.session_id == self.session_id,
                                   SessionEventRow.status == UNDONE))
            last = session.scalar(select(func.max(SessionEventRow.seq))
                                  .where(SessionEventRow.session_id == self.session_id)) or 0
            row = SessionEventRow(session_id=self.session_id, seq=last + 1, status=ACTIVE,
                                  kind=event.kind.value, summary=event.summary,
                                  body=_dumps(event.to_json()), created_at=now)
            session.add(row)
            self._save_state(session, sheets, clock, settings)
        return StoredEvent(row.seq, event, now)

    def _set_status(self, seq: int, status: str, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None) -> None:
        with self._sessions.begin() as session:
            session.execute(update(SessionEventRow)
                            .where(SessionEventRow.session_id == self.session_id,
                                   SessionEventRow.seq == seq)
                            .values(status=status))
            self._save_state(session, sheets, clock, settings)

    def mark_undone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> None:
        self._set_status(seq, UNDONE, sheets, clock, settings)

    def mark_redone(self, seq: int, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> None:
        self._set_status(seq, ACTIVE, sheets, clock, settings)

    def _one(self, status: str, newest: bool) -> StoredEvent | None:
        order = SessionEventRow.seq.desc() if newest else SessionEventRow.seq.asc()
        with self._sessions() as session:
            row = session.scalars(select(SessionEventRow)
                                  .where(SessionEventRow.session_id == self.session_id,
                                         SessionEventRow.status == status)
                                  .order_by(order).limit(1)).first()
            return None if row is None else _stored(row)

    def last_active(self) -> StoredEvent | None:
        return self._one(ACTIVE, newest=True)

    def first_undone(self) -> StoredEvent | None:
        return self._one(UNDONE, newest=False)

    def count(self, include_undone: bool = False) -> int:
        query = select(func.count()).select_from(SessionEventRow).where(
            SessionEventRow.session_id == self.session_id)
        if not include_undone:
            query = query.where(SessionEventRow.status == ACTIVE)
        with self._sessions() as session:
            return session.scalar(query) or 0

    def page(self, offset: int, limit: int) -> list[StoredEvent]:
        """Events in order (undone ones included, flagged), for the log panel and charts."""
        with self._sessions() as session:
            rows = session.scalars(select(SessionEventRow)
                                   .where(SessionEventRow.session_id == self.session_id)
                                   .order_by(SessionEventRow.seq).offset(offset)
                                   .limit(limit)).all()
            return [_stored(row) for row in rows]
