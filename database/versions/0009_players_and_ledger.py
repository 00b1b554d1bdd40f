"""Players named once, and the ledger's per-session summaries (issue 36 §3).

``players`` holds each player of the club once (``name`` as first written; ``name_key``
the name trimmed and case-folded, unique: "Ann", " ann " are one player).
``session_vehicles.player_id`` links a vehicle in play to its player; the free-text
``player`` column stays, as the name the session was played under. Each existing
session's player names become player rows: the same name (trimmed, case-folded) is the
same player, written as its first appearance has it (the lowest vehicle id); an empty
name links to nobody.

``session_ledger`` caches one finished session's summary for the ledger (derived from
its events, never a second truth): ``version`` is the session's write counter when it
was computed; a summary whose version differs is stale and computed again.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 500

_vehicles = sa.table("session_vehicles", sa.column("id", sa.Integer()),
                     sa.column("player", sa.String(200)),
                     sa.column("player_id", sa.Integer()))
_players = sa.table("players", sa.column("id", sa.Integer()), sa.column("name", sa.String(200)),
                    sa.column("name_key", sa.String(200)),
                    sa.column("created_at", sa.DateTime(timezone=True)))


def player_key(name: str) -> str:
    """One player's identity: the name trimmed, inner spaces folded, case-folded (as
    ``storage/players.py`` has it; a migration keeps its own copy)."""
    return " ".join(name.split()).casefold()


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_key", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("name_key", name=op.f("uq_players_name_key")),
    )
    op.create_table(
        "session_ledger",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_session_ledger_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_session_ledger")),
    )
    with op.batch_alter_table("session_vehicles", schema=None) as batch_op:
        batch_op.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f("fk_session_vehicles_player_id_players"),
                                    "players", ["player_id"], ["id"], ondelete="SET NULL")
        batch_op.create_index(batch_op.f("ix_session_vehicles_player_id"), ["player_id"],
                              unique=False)
    connection = op.get_bind()
    rows = connection.execute(sa.select(_vehicles.c.id, _vehicles.c.player)
                              .order_by(_vehicles.c.id)).all()
    ids: dict[str, int] = {}
    links = []
    now = datetime.now(UTC)
    if connection.dialect.name == "sqlite":
        now = now.replace(tzinfo=None)
    for vehicle_id, player in rows:
        name = " ".join(str(player or "").split())
        if not name:
            continue
        key = player_key(name)
        if key not in ids:
            result = connection.execute(sa.insert(_players).values(
                name=name[:200], name_key=key[:200], created_at=now)
                .returning(_players.c.id))
            ids[key] = int(result.scalar_one())
        links.append({"row_id": vehicle_id, "new_player": ids[key]})
    statement = (sa.update(_vehicles).where(_vehicles.c.id == sa.bindparam("row_id"))
                 .values(player_id=sa.bindparam("new_player")))
    for start in range(0, len(links), _BATCH):
        connection.execute(statement, links[start:start + _BATCH])


def downgrade() -> None:
    with op.batch_alter_table("session_vehicles", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_session_vehicles_player_id"))
        batch_op.drop_constraint(batch_op.f("fk_session_vehicles_player_id_players"),
                                 type_="foreignkey")
        batch_op.drop_column("player_id")
    op.drop_table("session_ledger")
    op.drop_table("players")
