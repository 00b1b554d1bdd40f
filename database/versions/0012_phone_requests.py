"""The players' phones' requests, kept per session (issue 33): the GM's queue, the secret
speeds already in and the idempotency keys survive a restart.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "phone_requests",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=64), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("token", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("phase", sa.Integer(), nullable=False),
        sa.Column("values", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("odds", sa.Text(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_phone_requests_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phone_requests")),
        sa.UniqueConstraint("session_id", "seat", "key",
                            name=op.f("uq_phone_requests_session_id")),
    )
    with op.batch_alter_table("phone_requests", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_phone_requests_session_id"), ["session_id"],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table("phone_requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_phone_requests_session_id"))
    op.drop_table("phone_requests")
