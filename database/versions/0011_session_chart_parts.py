"""The charts' parts, kept with each event as it is appended (issue 35 §3).

New tables: ``session_chart_parts``, what each event adds to its session's charts (the
vehicles' gauges after it, the damage it dealt and to whom), and the running aggregates
of its active events, ``session_chart_cells`` (each vehicle's gauges per turn) and
``session_chart_sums`` (damage per vehicle and dealers, events per turn), so a long
session's charts are there the moment it is finished instead of being replayed from its
events. The upgrade computes them once for the events already kept, through the same engine
function the app uses as it appends an event; a session the engine cannot read gets none
(its charts are replayed, as before). The downgrade drops the table.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 1000

_sessions = sa.table("game_sessions", sa.column("id", sa.Integer()),
                     sa.column("ruleset_id", sa.String(64)))
_events = sa.table("session_events", sa.column("session_id", sa.Integer()),
                   sa.column("seq", sa.Integer()), sa.column("status", sa.String(16)),
                   sa.column("body", sa.Text()))
_cells = sa.table("session_chart_cells", sa.column("session_id", sa.Integer()),
                  sa.column("vehicle", sa.String(32)), sa.column("turn", sa.Integer()),
                  sa.column("seq", sa.Integer()), sa.column("gauges", sa.Text()))
_sums = sa.table("session_chart_sums", sa.column("session_id", sa.Integer()),
                 sa.column("vehicle", sa.String(32)), sa.column("dealers", sa.String(400)),
                 sa.column("turn", sa.Integer()), sa.column("amount", sa.Integer()))
_parts = sa.table("session_chart_parts", sa.column("session_id", sa.Integer()),
                  sa.column("seq", sa.Integer()), sa.column("vehicle", sa.String(32)),
                  sa.column("turn", sa.Integer()), sa.column("taken", sa.Integer()),
                  sa.column("dealers", sa.Text()), sa.column("gauges", sa.Text()))


def _create() -> None:
    op.create_table(
        "session_chart_parts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("vehicle", sa.String(length=32), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("taken", sa.Integer(), nullable=False),
        sa.Column("dealers", sa.Text(), nullable=False),
        sa.Column("gauges", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_session_chart_parts_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_chart_parts")),
    )
    with op.batch_alter_table("session_chart_parts", schema=None) as batch_op:
        batch_op.create_index("ix_session_chart_parts_session_id_seq", ["session_id", "seq"],
                              unique=False)
        batch_op.create_index("ix_session_chart_parts_cell",
                              ["session_id", "vehicle", "turn", "seq"], unique=False)
    op.create_table(
        "session_chart_cells",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("vehicle", sa.String(length=32), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("gauges", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_session_chart_cells_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "vehicle", "turn",
                                name=op.f("pk_session_chart_cells")),
    )
    op.create_table(
        "session_chart_sums",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("vehicle", sa.String(length=32), nullable=False),
        sa.Column("dealers", sa.String(length=400), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_session_chart_sums_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", "vehicle", "dealers", "turn",
                                name=op.f("pk_session_chart_sums")),
    )


def _events_of(connection: sa.Connection, session_id: int, active: set[int]
               ) -> Iterator[tuple[int, object]]:
    from carwars_desktop.session import Event

    rows = connection.execute(sa.select(_events.c.seq, _events.c.status, _events.c.body)
                              .where(_events.c.session_id == session_id)
                              .order_by(_events.c.seq)).all()
    for seq, status, body in rows:
        if status == "active":
            active.add(int(seq))
        yield int(seq), Event.from_json(json.loads(str(body)))


def upgrade() -> None:
    from carwars_desktop.rules.registry import find_ruleset
    from carwars_desktop.storage.chart_parts import aggregate_rows, all_part_rows

    _create()
    connection = op.get_bind()
    for session_id, ruleset_id in connection.execute(
            sa.select(_sessions.c.id, _sessions.c.ruleset_id).order_by(_sessions.c.id)).all():
        active: set[int] = set()
        try:
            ruleset = find_ruleset(str(ruleset_id))
            rows = all_part_rows(ruleset, ruleset.play(), int(session_id),
                                 _events_of(connection, int(session_id), active))  # type: ignore[arg-type]
        except (LookupError, TypeError, ValueError):
            rows = None  # unreadable here: its charts are replayed, as before
        if not rows:
            continue
        cells, sums = aggregate_rows(int(session_id), rows, active)
        for table, values in ((_parts, rows), (_cells, cells), (_sums, sums)):
            for start in range(0, len(values), _BATCH):
                connection.execute(sa.insert(table), values[start:start + _BATCH])


def downgrade() -> None:
    op.drop_table("session_chart_sums")
    op.drop_table("session_chart_cells")
    with op.batch_alter_table("session_chart_parts", schema=None) as batch_op:
        batch_op.drop_index("ix_session_chart_parts_cell")
        batch_op.drop_index("ix_session_chart_parts_session_id_seq")
    op.drop_table("session_chart_parts")
