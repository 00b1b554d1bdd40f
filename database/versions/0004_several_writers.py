"""Several writers, one truth: a session's write counter and its writer's lease;
PostgreSQL's 32-bit integers for costs and dice totals become 64-bit like SQLite's.

Only columns are added (``ALTER TABLE … ADD COLUMN``): no table is rebuilt, so the
rows that reference ``game_sessions`` are never touched.

Revision ID: 0004
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LEASE_COLUMNS = (
    ("lease_token", sa.String(length=64)),
    ("lease_holder", sa.String(length=200)),
    ("lease_host", sa.String(length=200)),
    ("lease_since", sa.DateTime(timezone=True)),
    ("lease_renewed_at", sa.DateTime(timezone=True)),
)
# SQLite's INTEGER is already 64-bit; PostgreSQL's is 32-bit.
_WIDENED = (
    ("designs", "cost", True),
    ("designs", "class_value", True),
    ("dice_rolls", "natural", False),
    ("dice_rolls", "total", False),
    ("dice_rolls", "target", True),
)


def upgrade() -> None:
    op.add_column("game_sessions",
                  sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    for name, type_ in _LEASE_COLUMNS:
        op.add_column("game_sessions", sa.Column(name, type_, nullable=True))
    if op.get_bind().dialect.name != "sqlite":
        for table, column, nullable in _WIDENED:
            op.alter_column(table, column, type_=sa.BigInteger(),
                            existing_type=sa.Integer(), existing_nullable=nullable)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        for table, column, nullable in _WIDENED:
            op.alter_column(table, column, type_=sa.Integer(),
                            existing_type=sa.BigInteger(), existing_nullable=nullable)
    # SQLite 3.35+ drops a column in place (a rebuild would cascade-delete the vehicles).
    for name, _type in reversed(_LEASE_COLUMNS):
        op.drop_column("game_sessions", name)
    op.drop_column("game_sessions", "version")
