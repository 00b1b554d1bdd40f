"""Game sessions: their vehicles in play, current sheets and clock, and event history.

:class:`SessionEvents` is the session layer's :class:`~carwars_desktop.session.EventStore`
on the database: each event, undo and redo is one committed transaction that
also rewrites the changed vehicles' ``current_sheet`` and the session's clock,
so opening a session reads a few rows whatever the length of its history.

Several copies of the app may share one database (a club's PostgreSQL, a laptop
beside it). Each session has one writer at a time: the copy that holds its
*lease* (:meth:`GameSessions.acquire`), renewed while it is open; another copy
sees who holds it and may follow it read-only or take it over. Every write is a
compare-and-append on the session's ``version``: it names the version it read, so
a stale writer never overwrites a newer sheet; it gets
:class:`~carwars_desktop.session.StaleSessionError` and reloads.

A lease this installation took (its token starts with the installation's id, see
:mod:`~carwars_desktop.storage.installation`) whose copy no longer plays the session is
this installation's own to resume, at once, without waiting for it to lapse: the copy's
process has ended (a crash), or the copy closed but could not write the release (a club
laptop that shut down while the server was away). The next start re-takes it, renews it,
and replays the offline queue through the normal compare-and-append, so an entry another
GM made meanwhile is reported as a conflict, never written over. A lease held by another
copy that still runs, on this installation or any other, is never resumed: it is followed
read-only or taken over explicitly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, delete, func, insert, or_, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from carwars_desktop.rules import AnyRuleset
from carwars_desktop.rules.play import PlayRules
from carwars_desktop.rules.registry import find_ruleset
from carwars_desktop.session import (
    Event,
    RollLine,
    RollRecord,
    StaleSessionError,
    StoredEvent,
    ThrownDice,
    VehicleInPlay,
)
from carwars_desktop.session.history import Luck, SessionHistory
from carwars_desktop.storage.chart_parts import (
    complete,
    event_part_rows,
    event_rows,
    kept_history,
    kept_luck,
    pop,
    push,
)
from carwars_desktop.storage.dice_history import NewDiceRoll, dice_row
from carwars_desktop.storage.errors import WriteFailedError
from carwars_desktop.storage.leases import (  # the lease rules, here by their names too
    LEASE_TIMEOUT,
    TEXT_MAX,
    Lease,
    LeaseInfo,
    holder_gone,
    lease_info,
    live_tokens,
    new_token,
    this_holder,
)
from carwars_desktop.storage.models import (
    DeclaredShotRow,
    GameSessionRow,
    PhoneRequestRow,
    PhoneShareRow,
    ResolutionLogRow,
    SessionChartPartRow,
    SessionChartsRow,
    SessionEventRow,
    SessionVehicleRow,
)
from carwars_desktop.storage.players import player_id_for
from carwars_desktop.storage.session_records import (
    VEHICLE_COLUMNS,
    LoadedSession,
    SessionDataError,
    SessionInfo,
    loaded_session,
    stored_event,
)
from carwars_desktop.storage.shared_queries import LAST_RUNNING_ID, SESSION_VEHICLES
from carwars_desktop.storage.states import (  # the words, here as before
    ABANDONED,
    ACTIVE,
    FINISHED,
    RUNNING,
    UNDONE,
)
from carwars_desktop.storage.writes import writing


class SessionNotFoundError(LookupError):
    """No session has that id."""


ACQUIRE_ATTEMPTS = 5
"""How often taking a session is tried when its holder lets go of it meanwhile."""


class SessionHeldError(Exception):
    """Another copy of the app plays this session; ``lease`` says who, where, since when."""

    def __init__(self, lease: LeaseInfo) -> None:
        super().__init__(f"this session is {lease.describe()}")
        self.lease = lease


_live_tokens = live_tokens  # (one set: storage/leases.py)


def _holder_gone(row: GameSessionRow) -> bool:
    """The row's lease is this installation's own and its copy is gone (storage/leases.py)."""
    return holder_gone(row.lease_token, row.lease_host)


def _lease_info(row: GameSessionRow, now: datetime) -> LeaseInfo | None:
    """The row's lease, or None when there is none or it was abandoned."""
    return lease_info(row.lease_token, row.lease_holder, row.lease_host, row.lease_since,
                      row.lease_renewed_at, now)


def _check_text(what: str, value: str) -> None:
    # PostgreSQL refuses a longer value where SQLite would keep it: refuse it the same
    # way on both, before anything is written.
    if len(value) > TEXT_MAX:
        raise SessionDataError(f"the {what} has {len(value)} characters; at most {TEXT_MAX}")


@dataclass(frozen=True)
class NewVehicle:
    vehicle: VehicleInPlay
    sheet: Mapping[str, Any]


PENDING, APPLIED, DISCARDED = "pending", "applied", "discarded"
"""The states of a result in the roll log (its ``state`` column, revision 0008)."""
APP_STOPPED = "app stopped before it was applied"
"""Why a result left pending by a run that ended (a kill) reads as discarded."""


@dataclass(frozen=True)
class StoredShot:
    """A shot declared in the session's fire batch, as the database keeps it."""

    id: int
    procedure_id: str
    inputs: Mapping[str, Any]
    bindings: Mapping[str, str]
    dice: str
    label: str
    turn: int | None
    phase: str


@dataclass(frozen=True)
class StoredPhoneRequest:
    """A phone's request as the database keeps it (revision 0012): see
    :class:`~carwars_desktop.storage.models.PhoneRequestRow`."""

    number: int
    seat: str
    key: str
    token: str
    kind: str
    turn: int
    phase: int
    values: Mapping[str, Any]
    summary: str
    odds: str
    state: str
    reason: str


@dataclass(frozen=True)
class StoredPhoneShare:
    """A session's phone sharing as the database keeps it while it is on (revision
    0014): see :class:`~carwars_desktop.storage.models.PhoneShareRow`."""

    address: str
    port: int
    token: str
    seat_tokens: Mapping[str, str]
    page_secret: str
    display_open: bool = False


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
               vehicles: Sequence[NewVehicle], clock: Mapping[str, Any],
               settings: Mapping[str, Any] | None = None) -> int:
        """Create a running session with its vehicles (and its first settings: the house
        rules and what the players see), in one transaction; each vehicle is linked to
        its player (:mod:`.players`: a new name is a new player).

        Raises:
            SessionDataError: a name longer than :data:`TEXT_MAX`.
        """
        _check_text("session name", name)
        _check_text("scenario", scenario)
        for new in vehicles:
            _check_text(f"player name {new.vehicle.player[:20]!r}…", new.vehicle.player)
            _check_text(f"vehicle name {new.vehicle.name[:20]!r}…", new.vehicle.name)
        now = _now()
        with writing(self._sessions, "The new session") as session:
            row = GameSessionRow(ruleset_id=ruleset_id, name=name, scenario=scenario,
                                 status=RUNNING, clock=_dumps(clock), created_at=now,
                                 updated_at=now, finished_at=None,
                                 settings=_dumps(dict(settings or {})))
            session.add(row)
            session.flush()
            for position, new in enumerate(vehicles):
                sheet = _dumps(new.sheet)
                session.add(SessionVehicleRow(
                    session_id=row.id, key=new.vehicle.key, position=position,
                    player=new.vehicle.player, player_id=player_id_for(session,
                                                                       new.vehicle.player),
                    name=new.vehicle.name,
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
                           row.created_at, row.updated_at, row.finished_at, vehicles, events,
                           row.version, _lease_info(row, _now()))

    def all(self) -> list[SessionInfo]:
        """Every session, most recently played first."""
        with self._sessions() as session:
            rows = session.scalars(select(GameSessionRow)
                                   .order_by(GameSessionRow.updated_at.desc(),
                                             GameSessionRow.id.desc())).all()
            return [self._info(session, row) for row in rows]

    def infos(self, session_ids: Iterable[int]) -> list[SessionInfo]:
        """The sessions of ``session_ids`` as the list shows them (those still there: the
        others were deleted), most recently played first."""
        wanted = list(session_ids)
        if not wanted:
            return []
        with self._sessions() as session:
            rows = session.scalars(select(GameSessionRow)
                                   .where(GameSessionRow.id.in_(wanted))
                                   .order_by(GameSessionRow.updated_at.desc(),
                                             GameSessionRow.id.desc())).all()
            return [self._info(session, row) for row in rows]

    def last_running(self) -> SessionInfo | None:
        with self._sessions() as session:
            found = session.execute(text(LAST_RUNNING_ID), {"status": RUNNING}).scalar()
            row = None if found is None else session.get(GameSessionRow, found)
            return None if row is None else self._info(session, row)

    def info(self, session_id: int) -> SessionInfo:
        """The session as the list shows it (its stored state is not read)."""
        with self._sessions() as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            return self._info(session, row)

    def load(self, session_id: int, readable: bool = False) -> LoadedSession:
        """Everything needed to resume it; ``readable``: see :func:`loaded_session`."""
        with self._sessions() as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            columns = [getattr(SessionVehicleRow, name) for name in VEHICLE_COLUMNS]
            vehicles = session.execute(text(SESSION_VEHICLES).columns(*columns),
                                       {"session_id": session_id}).all()
            return loaded_session(self._info(session, row), vehicles, row.clock, row.settings,
                                  readable)

    def finish(self, session_id: int, lease: Lease | None = None) -> None:
        """End a session (and its lease). With ``lease``, only while this copy holds it.

        Raises:
            StaleSessionError: another copy took the session over.
            WriteFailedError: the database refused the write.
        """
        with writing(self._sessions, "Finishing the session") as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            if lease is not None and row.lease_token != lease.token:
                raise _taken_over(row)
            row.status = FINISHED
            # A finished session is shared no more: its links are never listened for again.
            session.execute(delete(PhoneShareRow).where(PhoneShareRow.session_id == session_id)
                            .execution_options(synchronize_session=False))
            row.finished_at = row.updated_at = _now()
            row.version += 1
            row.lease_token = row.lease_holder = row.lease_host = None
            row.lease_since = row.lease_renewed_at = None
        if lease is not None:
            _live_tokens.discard(lease.token)

    def delete(self, session_id: int) -> None:
        with writing(self._sessions, "Deleting the session") as session:
            session.execute(delete(GameSessionRow).where(GameSessionRow.id == session_id))

    def events(self, session_id: int, lease: Lease | None = None,
               version: int | None = None, read_only: str = "") -> SessionEvents:
        """The session's event store; it writes as ``lease``'s holder, from ``version``
        (the one its sheets were loaded at; read now when not given). ``read_only``: why
        it writes nothing (each write is refused with it)."""
        if version is None:
            version = self.version(session_id)
        return SessionEvents(self._sessions, session_id, lease, version, read_only)

    def version(self, session_id: int) -> int:
        """How many writes the session has had (a follower reloads when it moves)."""
        with self._sessions() as session:
            value = session.scalar(select(GameSessionRow.version)
                                   .where(GameSessionRow.id == session_id))
            if value is None:
                raise SessionNotFoundError(f"no session {session_id}")
            return value

    # --- one writer at a time ------------------------------------------------------------
    def lease(self, session_id: int) -> LeaseInfo | None:
        """Who holds the session now (None: nobody, or an abandoned lease)."""
        with self._sessions() as session:
            row = session.get(GameSessionRow, session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {session_id}")
            return _lease_info(row, _now())

    def acquire(self, session_id: int, take_over: bool = False,
                holder: tuple[str, str] | None = None) -> Lease:
        """Become the one writer of a running session.

        Free sessions and abandoned leases are taken; one another copy holds only with
        ``take_over`` (that copy's next write fails and it drops to read-only).

        Raises:
            SessionHeldError: another copy holds it (and ``take_over`` is False).
            SessionNotFoundError: no such session.
            WriteFailedError: the database refused the write.
        """
        user, host = holder or this_holder()
        token = new_token()
        now = _now()  # (each attempt reads the clock again)
        for _attempt in range(ACQUIRE_ATTEMPTS):
            now = _now()
            free_to_take = take_over
            if not take_over:
                with self._sessions() as session:
                    row = session.get(GameSessionRow, session_id)
                    # A holder whose process is gone: nobody to take it from.
                    free_to_take = row is not None and row.lease_token is not None and \
                        _holder_gone(row)
            condition: ColumnElement[bool] = GameSessionRow.id == session_id
            if not free_to_take:
                condition = and_(condition, or_(
                    GameSessionRow.lease_token.is_(None),
                    GameSessionRow.lease_renewed_at.is_(None),
                    GameSessionRow.lease_renewed_at < now - LEASE_TIMEOUT))
            with writing(self._sessions, "Taking the session") as session:
                result = session.execute(
                    update(GameSessionRow).where(condition, GameSessionRow.status == RUNNING)
                    .values(lease_token=token, lease_holder=user, lease_host=host,
                            lease_since=now, lease_renewed_at=now)
                    .execution_options(synchronize_session=False))
                if result.rowcount == 1:  # type: ignore[attr-defined]
                    _live_tokens.add(token)
                    return Lease(session_id, token, user, host)
                row = session.get(GameSessionRow, session_id)
                if row is None:
                    raise SessionNotFoundError(f"no session {session_id}")
                if row.status != RUNNING:
                    raise SessionNotFoundError(f"session {session_id} is not running")
                info = _lease_info(row, now)
                if info is not None:
                    raise SessionHeldError(info)
            # Held when the update looked, free by the time the row was read (its holder
            # let go in between: PostgreSQL reads each statement afresh): look again.
        raise SessionHeldError(LeaseInfo("", "", now, now))  # "open on another computer"

    def renew(self, lease: Lease) -> bool:
        """Say this copy still plays the session; False if another took it over."""
        with writing(self._sessions, "Keeping the session") as session:
            result = session.execute(
                update(GameSessionRow).where(GameSessionRow.id == lease.session_id,
                                             GameSessionRow.lease_token == lease.token)
                .values(lease_renewed_at=_now())
                .execution_options(synchronize_session=False))
            still = bool(result.rowcount == 1)  # type: ignore[attr-defined]
        if not still:
            _live_tokens.discard(lease.token)
        return still

    def release(self, lease: Lease) -> None:
        """Let the session go (closing it, quitting): another copy may take it freely.
        Let go here even when the write fails (a club server away): the lease is then this
        installation's own to resume at its next start, and lapses for the others.
        """
        _live_tokens.discard(lease.token)
        with writing(self._sessions, "Letting the session go") as session:
            session.execute(
                update(GameSessionRow).where(GameSessionRow.id == lease.session_id,
                                             GameSessionRow.lease_token == lease.token)
                .values(lease_token=None, lease_holder=None, lease_host=None,
                        lease_since=None, lease_renewed_at=None)
                .execution_options(synchronize_session=False))

    def log_resolution(self, session_id: int | None, ruleset_id: str, procedure_id: str,
                       body: Mapping[str, Any], outcome: str, success: bool | None,
                       p_success: str | None, applied: bool, pending: bool = False,
                       note: str = "", dice: Sequence[ThrownDice] = ()) -> int:
        """Keep a Resolver result (applied or discarded) in the roll log, with ``dice`` in
        the dice history, in one transaction.

        With ``pending`` it is kept as shown, neither applied nor discarded yet: settle it
        with :meth:`settle_roll` (or with the event that applies it,
        :meth:`SessionEvents.append`); one left pending when the app stopped reads as
        discarded (:meth:`settle_pending`). ``note``: why it was discarded."""
        state = PENDING if pending else (APPLIED if applied else DISCARDED)
        line = RollLine(ruleset_id, procedure_id, body, outcome, success, p_success)
        with writing(self._sessions, "The roll log") as session:
            return _new_line(session, session_id, line, state, note, dice)

    def settle_roll(self, session_id: int | None, roll: RollRecord, applied: bool,
                    note: str = "") -> int:
        """A result shown was applied (with no event of this database: the club queue
        offline, a clock move) or discarded (``note``: why): its line settled (written,
        when its pending one never was), each of its parts on a line of its own, in one
        transaction; its line's id."""
        with writing(self._sessions, "The roll log") as session:
            return write_roll(session, session_id, roll, applied, note)

    def settle_pending(self, session_id: int | None) -> int:
        """Results still pending in the log (shown, then the app stopped before Apply or
        Discard) become discarded; how many."""
        with writing(self._sessions, "The roll log") as session:
            rows = session.scalars(select(ResolutionLogRow).where(
                ResolutionLogRow.session_id.is_(None) if session_id is None
                else ResolutionLogRow.session_id == session_id,
                ResolutionLogRow.state == PENDING)).all()
            for row in rows:
                _settle_row(row, False, APP_STOPPED)
            return len(rows)

    def roll_log(self, session_id: int | None) -> list[LoggedResolution]:
        """Every logged result of a session (or of none), oldest first, with its state."""
        with self._sessions() as session:
            rows = session.scalars(select(ResolutionLogRow).where(
                ResolutionLogRow.session_id.is_(None) if session_id is None
                else ResolutionLogRow.session_id == session_id)
                .order_by(ResolutionLogRow.id)).all()
            return [LoggedResolution(row.id, row.procedure_id, row.outcome, row.state,
                                     roll_note(row.body), row.created_at) for row in rows]

    def resolutions(self, session_id: int) -> list[tuple[str, bool | None, str | None, bool]]:
        """(procedure, success, exact P(success), applied) of each logged resolution, in order
        (results still pending are left out: they are neither yet)."""
        with self._sessions() as session:
            rows = session.execute(select(ResolutionLogRow.procedure_id, ResolutionLogRow.success,
                                          ResolutionLogRow.p_success, ResolutionLogRow.applied)
                                   .where(ResolutionLogRow.session_id == session_id,
                                          ResolutionLogRow.state != PENDING)
                                   .order_by(ResolutionLogRow.id)).all()
            return [(r[0], r[1], r[2], r[3]) for r in rows]

    def applied_rolls(self, session_id: int) -> list[tuple[str, bool | None, str | None]]:
        """(procedure, success, exact P(success)) of each result the roll log kept as
        applied for the session, oldest first, leaving out the parts of combined results
        (their own lines, ``part_of``): what an event recorded before events kept their
        rolls (:attr:`Event.rolls`) applied, in the same order."""
        with self._sessions() as session:
            rows = session.execute(select(ResolutionLogRow.procedure_id, ResolutionLogRow.success,
                                          ResolutionLogRow.p_success, ResolutionLogRow.body)
                                   .where(ResolutionLogRow.session_id == session_id,
                                          ResolutionLogRow.state == APPLIED)
                                   .order_by(ResolutionLogRow.id)).all()
        kept = []
        for procedure_id, success, p_success, body in rows:
            try:
                part = json.loads(body).get("part_of") is not None
            except (ValueError, AttributeError):
                part = False
            if not part:
                kept.append((str(procedure_id), success, p_success))
        return kept

    def charts(self, session_id: int) -> dict[str, Any] | None:
        """The finished session's stored chart aggregates, or None if not computed yet."""
        with self._sessions() as session:
            body = session.scalar(select(SessionChartsRow.body)
                                  .where(SessionChartsRow.session_id == session_id))
        return None if body is None else dict(json.loads(body))

    def charts_kept(self, session_id: int) -> bool:
        """Every event of the session has its part of the charts kept (revision 0011):
        :meth:`kept_history` folds them without replaying the events."""

        with self._sessions() as session:
            return complete(session, session_id)

    def kept_history(self, session_id: int, ruleset: AnyRuleset, rules: PlayRules,
                     vehicles: Sequence[VehicleInPlay],
                     initial_sheets: Mapping[str, Mapping[str, Any]]
                     ) -> SessionHistory | None:
        """The session's charts folded from the parts kept with its active events (the
        same as a replay of them); None when some event has none."""

        with self._sessions() as session:
            return kept_history(session, session_id, ruleset, rules, vehicles,
                                initial_sheets)

    def kept_luck(self, session_id: int) -> Luck | None:
        """The luck of the rolls kept with the session's active events (an undone one's
        left out); None when some event keeps none (the events are then read)."""
        with self._sessions() as session:
            return kept_luck(session, session_id)

    def store_charts(self, session_id: int, charts: Mapping[str, Any]) -> None:
        """Keep a finished session's chart aggregates (computed once from its events).

        Refused for a running session: its events still change. A database that refuses
        the write (locked by another program, read-only) raises ``WriteFailedError``.
        """
        with writing(self._sessions, "The session's charts") as session:
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


def roll_note(body: str) -> str:
    """Why a logged result was discarded (its body's ``note``), or nothing."""
    try:
        value = json.loads(body)
    except ValueError:
        return ""
    return str(value.get("note", "")) if isinstance(value, dict) else ""


def _settle_row(row: ResolutionLogRow, applied: bool, note: str) -> None:
    row.state = APPLIED if applied else DISCARDED
    row.applied = applied
    body = dict(json.loads(row.body))
    if note:
        body["note"] = note
    elif applied:  # (read as discarded meanwhile: a queued apply sent after a restart)
        body.pop("note", None)
    row.body = _dumps(body)


def _settle(session: Session, log_id: int, applied: bool, note: str) -> bool:
    """Settle the line ``log_id``; False when there is none (deleted meanwhile)."""
    row = session.get(ResolutionLogRow, log_id)
    if row is None:
        return False
    _settle_row(row, applied, note)
    return True


def _new_line(session: Session, session_id: int | None, line: RollLine, state: str,
              note: str, dice: Sequence[ThrownDice] = (),
              extra: Mapping[str, Any] | None = None) -> int:
    body = {**line.body, **(extra or {})}
    if note and state != PENDING:
        body["note"] = note
    row = ResolutionLogRow(session_id=session_id, ruleset_id=line.ruleset_id,
                           procedure_id=line.procedure_id, body=_dumps(body),
                           outcome=line.outcome, success=line.success,
                           p_success=line.p_success, applied=state == APPLIED, state=state,
                           created_at=_now())
    session.add(row)
    session.flush()
    for thrown in dice:
        session.add(dice_row(NewDiceRoll(
            ruleset_id=thrown.ruleset_id, expression=thrown.expression,
            dice_values=thrown.values, sides=thrown.sides, natural=sum(thrown.values),
            total=sum(thrown.values), entered=thrown.entered, success=thrown.success,
            seed=thrown.seed, resolution_id=row.id)))
    return row.id


def write_roll(session: Session, session_id: int | None, roll: RollRecord, applied: bool,
               note: str = "") -> int:
    """Settle ``roll`` in the roll log inside ``session``'s transaction: its pending line
    (or a new one, with its dice, when that was never written), and a line for each of
    its parts; the line's id."""
    note = "" if applied else note
    log_id = roll.log_id
    if log_id is None or not _settle(session, log_id, applied, note):
        log_id = _new_line(session, session_id, roll.line, APPLIED if applied else DISCARDED,
                           note, roll.dice)
    for part in roll.parts:
        _new_line(session, session_id, part, APPLIED if applied else DISCARDED, note,
                  extra={"part_of": log_id})
    return log_id


def _stored(row: SessionEventRow) -> StoredEvent:
    return stored_event(row.seq, row.body, row.created_at, row.status)


def _taken_over(row: GameSessionRow) -> StaleSessionError:
    info = _lease_info(row, _now())
    who = info.describe() if info is not None else "closed by another copy of the app"
    return StaleSessionError(f"Another copy of Carwars Desktop took this session over: it is "
                             f"now {who}. Your change was not saved; the session is read-only "
                             "here.", taken_over=True,
                             holder=info.describe() if info is not None else "")


class SessionEvents:
    """The :class:`~carwars_desktop.session.EventStore` of one session, in the database.

    Every write is a compare-and-append: it moves the session's ``version`` from the one
    this store last saw, as the holder of ``lease`` (or with no one holding the session),
    or it writes nothing and raises :class:`~carwars_desktop.session.StaleSessionError`.
    """

    def __init__(self, sessions: sessionmaker[Session], session_id: int,
                 lease: Lease | None = None, version: int = 0, read_only: str = "") -> None:
        self._sessions = sessions
        self.session_id = session_id
        self.lease = lease
        self.version = version
        self.read_only = read_only
        self._rules: tuple[AnyRuleset, PlayRules] | None = None
        self._remembered: dict[str, tuple[Mapping[str, Any], int]] = {}
        """Each vehicle's last sheet and its damage points (:func:`event_charts`)."""

    def _chart_parts(self, session: Session, seq: int, event: Event) -> None:
        """Keep the event's part of the charts and fold it into the session's aggregates
        (:mod:`.chart_parts`); nothing when the engine cannot read it (the charts are then
        replayed, as before)."""

        if self._rules is None:
            ruleset_id = session.scalar(select(GameSessionRow.ruleset_id)
                                        .where(GameSessionRow.id == self.session_id))
            try:
                ruleset = find_ruleset(str(ruleset_id))
            except LookupError:
                return
            self._rules = ruleset, ruleset.play()
        ruleset, rules = self._rules
        parts = event_part_rows(ruleset, rules, self.session_id, seq, event,
                                self._remembered) or []
        if parts:
            session.connection().execute(insert(SessionChartPartRow), parts)
            push(session, self.session_id, parts)

    def _claim(self, session: Session) -> None:
        """Move the version on, or raise: the first write of every transaction."""
        if self.read_only:
            raise WriteFailedError(f"Nothing was saved: {self.read_only}.", self.read_only)
        now = _now()
        values: dict[str, Any] = {"version": GameSessionRow.version + 1, "updated_at": now}
        conditions = [GameSessionRow.id == self.session_id,
                      GameSessionRow.version == self.version]
        if self.lease is not None:
            conditions.append(GameSessionRow.lease_token == self.lease.token)
            values["lease_renewed_at"] = now
        else:
            conditions.append(or_(GameSessionRow.lease_token.is_(None),
                                  GameSessionRow.lease_renewed_at < now - LEASE_TIMEOUT))
        result = session.execute(update(GameSessionRow).where(*conditions).values(**values)
                                 .execution_options(synchronize_session=False))
        if result.rowcount == 1:  # type: ignore[attr-defined]
            return
        row = session.get(GameSessionRow, self.session_id)
        if row is None:
            raise SessionNotFoundError(f"no session {self.session_id}")
        if self.lease is not None and row.lease_token != self.lease.token:
            raise _taken_over(row)
        if self.lease is None and _lease_info(row, now) is not None:
            raise _taken_over(row)
        raise StaleSessionError("Another copy of Carwars Desktop changed this session first: "
                                "your change was not saved. The session was reloaded.")

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
                        .values(**values)
                        .execution_options(synchronize_session=False))

    def append(self, event: Event, sheets: Mapping[str, Mapping[str, Any]],
               clock: Mapping[str, Any],
               settings: Mapping[str, Any] | None = None,
               roll: RollRecord | None = None,
               made_at: datetime | None = None) -> StoredEvent:
        """Add ``event`` after the last one; ``made_at`` is when it was made at the table
        (an event replayed from the offline queue keeps its own time, not the replay's);
        ``roll``: the result it applies, settled in the roll log in the same transaction
        (:func:`write_roll`; the returned event's ``roll_log_id`` is its line)."""
        now = made_at or _now()
        with writing(self._sessions, f"“{event.summary[:60]}”") as session:
            self._claim(session)
            # The undone events stay in the history, no longer to be redone.
            session.execute(update(SessionEventRow)
                            .where(SessionEventRow.session_id == self.session_id,
                                   SessionEventRow.status == UNDONE)
                            .values(status=ABANDONED)
                            .execution_options(synchronize_session=False))
            last = session.scalar(select(func.max(SessionEventRow.seq))
                                  .where(SessionEventRow.session_id == self.session_id)) or 0
            if event.ends_batch:  # the batch resolved: its declaration goes with it
                session.execute(delete(DeclaredShotRow)
                                .where(DeclaredShotRow.session_id == self.session_id)
                                .execution_options(synchronize_session=False))
            row = SessionEventRow(session_id=self.session_id, seq=last + 1, status=ACTIVE,
                                  kind=event.kind.value, summary=event.summary,
                                  body=_dumps(event.to_json()), created_at=now)
            session.add(row)
            self._chart_parts(session, last + 1, event)
            self._save_state(session, sheets, clock, settings)
            log_id = None if roll is None else write_roll(session, self.session_id, roll,
                                                          applied=True)
        self.version += 1
        return StoredEvent(row.seq, event, now, roll_kept=log_id is not None,
                           roll_log_id=log_id)

    def catch_up(self) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        """Before an entry goes on top of what another client wrote (the offline queue's
        "apply again on top"): the sheets and clock as the server has them now, and this
        store's version moved to the server's, so its next write follows theirs.

        A session nobody holds now (its lease lapsed or let go) is taken back under this
        store's lease; one another copy holds stays theirs (the write is then refused in
        words, :class:`~carwars_desktop.session.StaleSessionError`)."""
        with writing(self._sessions, "Reading the session again") as session:
            if self.lease is not None:
                now = _now()
                session.execute(
                    update(GameSessionRow)
                    .where(GameSessionRow.id == self.session_id,
                           GameSessionRow.status == RUNNING,
                           or_(GameSessionRow.lease_token.is_(None),
                               GameSessionRow.lease_token == self.lease.token,
                               GameSessionRow.lease_renewed_at.is_(None),
                               GameSessionRow.lease_renewed_at < now - LEASE_TIMEOUT))
                    .values(lease_token=self.lease.token, lease_holder=self.lease.holder,
                            lease_host=self.lease.host, lease_renewed_at=now,
                            lease_since=case((GameSessionRow.lease_token == self.lease.token,
                                              GameSessionRow.lease_since), else_=now))
                    .execution_options(synchronize_session=False))
            row = session.get(GameSessionRow, self.session_id)
            if row is None:
                raise SessionNotFoundError(f"no session {self.session_id}")
            sheets = {str(key): dict(json.loads(sheet)) for key, sheet in session.execute(
                select(SessionVehicleRow.key, SessionVehicleRow.current_sheet)
                .where(SessionVehicleRow.session_id == self.session_id))}
            clock = dict(json.loads(row.clock))
            self.version = row.version
        return sheets, clock

    def _set_status(self, seq: int, status: str, sheets: Mapping[str, Mapping[str, Any]],
                    clock: Mapping[str, Any], settings: Mapping[str, Any] | None) -> None:
        what = "The undo" if status == UNDONE else "The redo"
        with writing(self._sessions, what) as session:
            self._claim(session)
            session.execute(update(SessionEventRow)
                            .where(SessionEventRow.session_id == self.session_id,
                                   SessionEventRow.seq == seq)
                            .values(status=status))

            if status == UNDONE:  # the charts' aggregates follow (revision 0011)
                pop(session, self.session_id, seq)
            else:
                push(session, self.session_id, event_rows(session, self.session_id, seq))
            self._save_state(session, sheets, clock, settings)
        self.version += 1

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

    # --- the fire batch's declared shots (issue 28) -----------------------------------------
    def _hold(self, session: Session) -> None:
        """A declaration is written only by the copy that plays the session (it moves no
        version: it is no event, and undo never sees it)."""
        if self.read_only:
            raise WriteFailedError(f"Nothing was saved: {self.read_only}.", self.read_only)
        row = session.get(GameSessionRow, self.session_id)
        if row is None:
            raise SessionNotFoundError(f"no session {self.session_id}")
        if self.lease is not None and row.lease_token != self.lease.token:
            raise _taken_over(row)
        if self.lease is None and _lease_info(row, _now()) is not None:
            raise _taken_over(row)

    def declared_shots(self) -> list[StoredShot]:
        """The fire batch's shots declared and not yet resolved, in the order declared."""
        with self._sessions() as session:
            rows = session.scalars(select(DeclaredShotRow)
                                   .where(DeclaredShotRow.session_id == self.session_id)
                                   .order_by(DeclaredShotRow.position)).all()
            return [StoredShot(row.id, row.procedure_id, dict(json.loads(row.inputs)),
                               {str(k): str(v) for k, v in json.loads(row.bindings).items()},
                               row.dice, row.label, row.turn, row.phase) for row in rows]

    def declare_shot(self, procedure_id: str, inputs: Mapping[str, Any],
                     bindings: Mapping[str, str], dice: str, label: str,
                     turn: int | None, phase: str) -> int:
        """Keep a shot declared into the batch (committed before it is shown); its id."""
        try:
            inputs_json = _dumps(dict(inputs))
        except (TypeError, ValueError) as error:
            raise SessionDataError(f"the shot's inputs cannot be kept: {error}") from None
        _check_text("shot's dice", dice)
        with writing(self._sessions, "The declared shot") as session:
            self._hold(session)
            last = session.scalar(select(func.max(DeclaredShotRow.position))
                                  .where(DeclaredShotRow.session_id == self.session_id))
            row = DeclaredShotRow(session_id=self.session_id,
                                  position=0 if last is None else last + 1,
                                  procedure_id=procedure_id, inputs=inputs_json,
                                  bindings=_dumps(dict(bindings)), dice=dice, label=label,
                                  turn=turn, phase=phase[:200], declared_at=_now())
            session.add(row)
            session.flush()
            return row.id

    def set_shot_dice(self, shot_id: int, dice: str) -> None:
        """The dice typed for a declared shot, kept as typed."""
        _check_text("shot's dice", dice)
        with writing(self._sessions, "The shot's dice") as session:
            self._hold(session)
            session.execute(update(DeclaredShotRow)
                            .where(DeclaredShotRow.id == shot_id,
                                   DeclaredShotRow.session_id == self.session_id)
                            .values(dice=dice).execution_options(synchronize_session=False))

    # --- the phones' requests (issue 33) -----------------------------------------------------
    def phone_requests(self) -> list[StoredPhoneRequest]:
        """The phones' requests of this session, in the order received."""
        with self._sessions() as session:
            rows = session.scalars(select(PhoneRequestRow)
                                   .where(PhoneRequestRow.session_id == self.session_id)
                                   .order_by(PhoneRequestRow.number, PhoneRequestRow.id)).all()
            return [StoredPhoneRequest(row.number, row.seat, row.key, row.token, row.kind,
                                       row.turn, row.phase, dict(json.loads(row.values)),
                                       row.summary, row.odds, row.state, row.reason)
                    for row in rows]

    def keep_phone_requests(self, requests: Sequence[StoredPhoneRequest]) -> None:
        """Keep ``requests`` (new ones added, known ones — the same seat and key — as they
        are now), all in one committed transaction; no event, no version moved."""
        if not requests:
            return
        for request in requests:
            for name, value in (("seat", request.seat), ("key", request.key)):
                if len(value) > 64:
                    raise SessionDataError(f"a phone request's {name} is too long")
        try:
            texts = [_dumps(dict(r.values)) for r in requests]
        except (TypeError, ValueError) as error:
            raise SessionDataError(f"the request's values cannot be kept: {error}") from None
        with writing(self._sessions, "The phone's request") as session:
            self._hold(session)
            known = {(row.seat, row.key): row for row in session.scalars(
                select(PhoneRequestRow).where(
                    PhoneRequestRow.session_id == self.session_id,
                    PhoneRequestRow.key.in_({r.key for r in requests})))}
            for request, values in zip(requests, texts, strict=True):
                row = known.get((request.seat, request.key))
                if row is None:
                    row = PhoneRequestRow(session_id=self.session_id, seat=request.seat,
                                          key=request.key, received_at=_now())
                    session.add(row)
                    known[(request.seat, request.key)] = row
                row.number, row.token, row.kind = request.number, request.token[:200], \
                    request.kind[:20]
                row.turn, row.phase, row.values = request.turn, request.phase, values
                row.summary, row.odds = request.summary, request.odds
                row.state, row.reason = request.state[:16], request.reason

    def forget_phone_requests(self) -> None:
        """This session's phones' requests are gone (their keys with them)."""
        self._forget(PhoneRequestRow, "Forgetting the phones' requests")

    # --- the phones' sharing (kept while it is on) ----------------------------------------
    def phone_share(self) -> StoredPhoneShare | None:
        """The sharing this session had on when it was last played (None: not shared)."""
        with self._sessions() as session:
            row = session.get(PhoneShareRow, self.session_id)
            if row is None:
                return None
            seats = json.loads(row.seat_tokens)
            return StoredPhoneShare(row.address, row.port, row.token,
                                    {str(k): str(v) for k, v in seats.items()},
                                    row.page_secret, bool(row.display_open))

    def keep_phone_share(self, share: StoredPhoneShare | None) -> None:
        """Keep ``share`` as this session's sharing (replacing the one kept), or forget it
        (None: sharing stopped); one committed transaction, no event, no version moved."""
        doing = "Keeping the phones' links" if share is not None else "Forgetting the phones' links"
        with writing(self._sessions, doing) as session:
            self._hold(session)
            row = session.get(PhoneShareRow, self.session_id)
            if share is None:
                if row is not None:
                    session.delete(row)
                return
            if row is None:
                row = PhoneShareRow(session_id=self.session_id)
                session.add(row)
            row.address, row.port, row.token = share.address, share.port, share.token
            row.seat_tokens = _dumps(dict(share.seat_tokens))
            row.page_secret, row.display_open = share.page_secret, share.display_open
            row.shared_at = _now()

    def forget_declared(self) -> None:
        """The batch was emptied: its declared shots are gone."""
        self._forget(DeclaredShotRow, "Emptying the batch")

    def _forget(self, rows: type[PhoneRequestRow] | type[DeclaredShotRow], doing: str) -> None:
        """Delete this session's ``rows``, as one write (``doing``: what it is, in words)."""
        with writing(self._sessions, doing) as session:
            self._hold(session)
            session.execute(delete(rows).where(rows.session_id == self.session_id)
                            .execution_options(synchronize_session=False))
