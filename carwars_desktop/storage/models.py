"""The ORM tables. These classes never leave the storage layer.

Migrations under ``database/versions`` create these tables; the metadata here
is Alembic's ``target_metadata`` so ``alembic revision --autogenerate`` sees
any drift between the two.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Named constraints let batch migrations on SQLite find and alter them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


WideInteger = BigInteger().with_variant(Integer(), "sqlite")
"""A 64-bit integer on every backend (SQLite's INTEGER already is; revision 0004 widens
PostgreSQL's). Values are checked against :data:`WIDE_MIN`/:data:`WIDE_MAX` before storage."""
WIDE_MIN, WIDE_MAX = -(2**63), 2**63 - 1


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime, stored as a naive UTC timestamp where the database has no zone.

    SQLite keeps no time zone, PostgreSQL's ``timestamptz`` does; both read back
    as aware UTC datetimes.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"refusing a naive datetime {value!r}: give it a time zone")
        utc = value.astimezone(UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class IntTupleJSON(TypeDecorator[tuple[int, ...]]):
    """A tuple of ints stored as JSON text, e.g. ``[3, 5]``."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: tuple[int, ...] | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return json.dumps([int(v) for v in value])

    def process_result_value(self, value: Any, dialect: Dialect) -> tuple[int, ...] | None:
        if value is None:
            return None
        return tuple(int(v) for v in json.loads(value))


class DiceRollRow(Base):
    """One dice roll in the history (revision 0001)."""

    __tablename__ = "dice_rolls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ruleset_id: Mapped[str] = mapped_column(String(64))
    expression: Mapped[str] = mapped_column(Text)
    target: Mapped[int | None] = mapped_column(WideInteger)
    natural_two_misses: Mapped[bool] = mapped_column(Boolean)
    dice_values: Mapped[tuple[int, ...]] = mapped_column(IntTupleJSON)
    sides: Mapped[tuple[int, ...]] = mapped_column(IntTupleJSON)
    natural: Mapped[int] = mapped_column(WideInteger)
    total: Mapped[int] = mapped_column(WideInteger)
    success: Mapped[bool | None] = mapped_column(Boolean)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    entered: Mapped[bool] = mapped_column(Boolean)
    resolution_id: Mapped[int | None] = mapped_column(Integer)
    """The roll-log row of the result these dice were thrown for (revision 0007): the
    history says whether it was applied or discarded, and why."""


class DesignRow(Base):
    """A design in the library (revision 0002). ``data`` is the design's saved JSON form.

    ``kind`` is ``vehicle`` (what ``Ruleset.design_from_json`` reads) or ``deck`` (an
    AUTOpower deck); ``tags`` a JSON list; ``working_data`` the one shared unsaved draft
    before revision 0010 (now empty: drafts are per copy, :class:`DesignDraftRow`);
    ``catalog_name`` is set on the read-only designs the rules ship; ``deleted_at`` on
    designs deleted but still restorable.
    """

    __tablename__ = "designs"
    __table_args__ = (UniqueConstraint("ruleset_id", "kind", "catalog_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ruleset_id: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(32), default="vehicle")
    name: Mapped[str] = mapped_column(String(200), index=True)
    tags: Mapped[str] = mapped_column(Text, default="[]")
    data: Mapped[str] = mapped_column(Text)
    working_data: Mapped[str | None] = mapped_column(Text)
    legal: Mapped[bool] = mapped_column(Boolean)
    problem_count: Mapped[int] = mapped_column(Integer, default=0)
    cost: Mapped[int | None] = mapped_column(WideInteger)
    class_value: Mapped[int | None] = mapped_column(WideInteger)
    catalog_name: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class DesignDraftRow(Base):
    """A copy's unsaved Workshop edits of a design (revision 0010): one row per ``owner``,
    the copy of the app and its user (:func:`~carwars_desktop.storage.installation.
    draft_owner`), or ``legacy`` for a draft made before drafts were per copy (every copy
    sees it until one edits, saves or discards it). ``designs.working_data`` is unused
    since."""

    __tablename__ = "design_drafts"

    design_id: Mapped[int] = mapped_column(ForeignKey("designs.id", ondelete="CASCADE"),
                                           primary_key=True)
    owner: Mapped[str] = mapped_column(String(200), primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DesignRevisionRow(Base):
    """An earlier saved state of a design (revision 0002); number 1 is the first save."""

    __tablename__ = "design_revisions"
    __table_args__ = (UniqueConstraint("design_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    design_id: Mapped[int] = mapped_column(ForeignKey("designs.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    data: Mapped[str] = mapped_column(Text)
    saved_at: Mapped[datetime] = mapped_column(UTCDateTime)


class GameSessionRow(Base):
    """A game session at the Table (revision 0003). ``clock`` is the clock's JSON, kept current."""

    __tablename__ = "game_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ruleset_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    scenario: Mapped[str] = mapped_column(String(200), default="")
    status: Mapped[str] = mapped_column(String(16), index=True)
    clock: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Revision 0004: one writer at a time. ``version`` counts every write (event, undo,
    # redo, finish): a write names the version it read and fails if another came first.
    # The lease says which copy of the app plays the session (``lease_token``), who and
    # where, since when, and when it last said it was still there.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lease_token: Mapped[str | None] = mapped_column(String(64))
    lease_holder: Mapped[str | None] = mapped_column(String(200))
    lease_host: Mapped[str | None] = mapped_column(String(200))
    lease_since: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_renewed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    settings: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    """The session's settings as a JSON object (revision 0005), kept current like ``clock``."""


class SessionVehicleRow(Base):
    """A vehicle in play (revision 0003): a copy of its design, and its sheets.

    ``current_sheet`` is rewritten in the same transaction as every event, undo
    and redo, so a session of any length opens without replaying its events.
    """

    __tablename__ = "session_vehicles"
    __table_args__ = (UniqueConstraint("session_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_sessions.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(32))
    position: Mapped[int] = mapped_column(Integer)
    player: Mapped[str] = mapped_column(String(200), default="")
    name: Mapped[str] = mapped_column(String(200))
    design: Mapped[str] = mapped_column(Text)
    initial_sheet: Mapped[str] = mapped_column(Text)
    current_sheet: Mapped[str] = mapped_column(Text)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True)
    """The player (revision 0009); ``player`` stays the name the session was played under."""


class PlayerRow(Base):
    """A player of the club, named once (revision 0009). ``name_key`` is the name trimmed
    and case-folded: one player per key."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    name_key: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SessionLedgerRow(Base):
    """A finished session's summary for the ledger, derived from its events (revision 0009).

    A cache, never a second truth: ``version`` is the session's write counter when it was
    computed, and a summary whose session has moved on is computed again.
    """

    __tablename__ = "session_ledger"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)
    computed_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SessionEventRow(Base):
    """One event of a session's history (revision 0003); ``body`` is the event's JSON."""

    __tablename__ = "session_events"
    __table_args__ = (
        UniqueConstraint("session_id", "seq"),
        Index("ix_session_events_session_status_seq", "session_id", "status", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("game_sessions.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(32))
    summary: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ResolutionLogRow(Base):
    """Every Resolver resolution, applied or discarded (revision 0003); ``state`` is
    pending, applied or discarded (revision 0008: before, it led the JSON ``body``)."""

    __tablename__ = "resolution_log"
    __table_args__ = (Index("ix_resolution_log_session_id_state", "session_id", "state"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="SET NULL"), index=True)
    ruleset_id: Mapped[str] = mapped_column(String(64))
    procedure_id: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(Text)
    success: Mapped[bool | None] = mapped_column(Boolean)
    # An exact fraction: 44d6 odds already need more than 64 characters.
    p_success: Mapped[str | None] = mapped_column(Text)
    applied: Mapped[bool] = mapped_column(Boolean)
    state: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class SessionChartsRow(Base):
    """A finished session's charts, aggregated once from its events (revision 0003).

    ``body`` is the JSON of the aggregates (gauges per turn, damage taken and dealt, luck:
    ``carwars_desktop.session.history``), so a 100,000-event session's charts open without
    replaying its events. A finished session's events never change; its row goes with it.
    """

    __tablename__ = "session_charts"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), primary_key=True)
    body: Mapped[str] = mapped_column(Text)
    computed_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SessionChartPartRow(Base):
    """What one event adds to its session's charts, kept as the event is appended, in the
    same transaction (revision 0011: computed once then for the events already kept).

    One row per event (``vehicle`` empty: it counts, in ``turn``) and one per sheet it
    updated: the vehicle's gauges after it (``gauges``, a JSON list in the order of the
    ruleset's gauge labels), the damage points it took (``taken``) and the other vehicles
    the event binds (``dealers``, a JSON list). Undo and redo change only the event's
    status: the charts are the parts of the *active* events, so a running session's are
    there, without replaying its events, the moment it is finished.
    """

    __tablename__ = "session_chart_parts"
    __table_args__ = (
        Index("ix_session_chart_parts_session_id_seq", "session_id", "seq"),
        Index("ix_session_chart_parts_cell", "session_id", "vehicle", "turn", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    vehicle: Mapped[str] = mapped_column(String(32))
    turn: Mapped[int] = mapped_column(Integer)
    taken: Mapped[int] = mapped_column(Integer, default=0)
    dealers: Mapped[str] = mapped_column(Text, default="[]")
    gauges: Mapped[str] = mapped_column(Text, default="[]")


class SessionChartCellRow(Base):
    """A vehicle's gauges at the end of a turn: those after its last *active* event of the
    turn (``seq``), kept up to date as events are appended, undone and redone, in the same
    transaction (revision 0011)."""

    __tablename__ = "session_chart_cells"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), primary_key=True)
    vehicle: Mapped[str] = mapped_column(String(32), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    gauges: Mapped[str] = mapped_column(Text)


class SessionChartSumRow(Base):
    """A running sum of the active events' parts, kept like the cells (revision 0011):
    with a ``vehicle``, the damage points it took from ``dealers`` (a JSON list; ``turn``
    0); with none, how many active events count in ``turn``."""

    __tablename__ = "session_chart_sums"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), primary_key=True)
    vehicle: Mapped[str] = mapped_column(String(32), primary_key=True)
    dealers: Mapped[str] = mapped_column(String(400), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    amount: Mapped[int] = mapped_column(Integer)


class HouseRuleProfileRow(Base):
    """A saved house-rules profile of one ruleset (revision 0006).

    ``rules`` is a JSON object, decision id → value (the decisions it names; the
    digest's defaults for the rest). The built-in "The digest's defaults" is never
    stored. Names are unique per ruleset.
    """

    __tablename__ = "house_rule_profiles"
    __table_args__ = (UniqueConstraint("ruleset_id", "name",
                                       name="uq_house_rule_profiles_ruleset_id_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ruleset_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    rules: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DeclaredShotRow(Base):
    """A shot declared in a session's fire batch, not yet resolved (revision 0007).

    Committed before the batch shows it, its dice with every keystroke, so a restarted app
    shows the batch as it was; the event that resolves the batch deletes its rows in its
    own transaction, and emptying the batch deletes them. ``inputs`` and ``bindings`` are
    JSON objects (the form's values other than vehicles; sheet input → vehicle key);
    ``turn`` and ``phase`` say when it was declared.
    """

    __tablename__ = "declared_shots"
    __table_args__ = (UniqueConstraint("session_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    procedure_id: Mapped[str] = mapped_column(String(64))
    inputs: Mapped[str] = mapped_column(Text)
    bindings: Mapped[str] = mapped_column(Text)
    dice: Mapped[str] = mapped_column(Text, default="")
    label: Mapped[str] = mapped_column(Text, default="")
    turn: Mapped[int | None] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(200), default="")
    declared_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PhoneRequestRow(Base):
    """A request a player's phone sent for a session, and what became of it (revision
    0012, issue 33): kept so that nothing the GM was given is lost in a restart — the
    queue waiting, the secret speeds already in, and each idempotency key (a retry after
    the restart is known). Committed before the phone is told it was received.

    ``values`` is a JSON object (the request's values); ``state`` is ``waiting``, ``in``,
    ``accepted`` or ``refused``. The row of kind ``revealed`` (seat and key ``""``) keeps
    the turn and event of the last reveal of the secret speeds in ``values``.
    """

    __tablename__ = "phone_requests"
    __table_args__ = (UniqueConstraint("session_id", "seat", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(64))
    token: Mapped[str] = mapped_column(String(200), default="")
    kind: Mapped[str] = mapped_column(String(20))
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[int] = mapped_column(Integer)
    values: Mapped[str] = mapped_column(Text, default="{}")
    summary: Mapped[str] = mapped_column(Text, default="")
    odds: Mapped[str] = mapped_column(Text, default="")
    state: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PhoneShareRow(Base):
    """A session's phone sharing while it is on (revision 0014): where it listened and the
    links' tokens, so that after a restart it listens again with the same links (the
    phones reconnect by themselves). ``seat_tokens`` is a JSON object (vehicle key →
    token); ``page_secret`` signs the seat pages' page tokens (hex). Stop sharing and the
    session's end delete the row, New link rewrites it: a revoked link is never kept."""

    __tablename__ = "phone_shares"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("game_sessions.id", ondelete="CASCADE"), primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    port: Mapped[int] = mapped_column(Integer)
    token: Mapped[str] = mapped_column(String(200))
    seat_tokens: Mapped[str] = mapped_column(Text, default="{}")
    page_secret: Mapped[str] = mapped_column(String(200))
    display_open: Mapped[bool] = mapped_column(Boolean, default=False)
    shared_at: Mapped[datetime] = mapped_column(UTCDateTime)
