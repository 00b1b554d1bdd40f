"""The fire batch's declared shots, kept until the batch is resolved or emptied (issue 28).

A new table, and ``dice_rolls.resolution_id``: the roll-log row a procedure's dice were
thrown for, so the dice history says whether the result was applied or discarded, and why.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "declared_shots",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("procedure_id", sa.String(length=64), nullable=False),
        sa.Column("inputs", sa.Text(), nullable=False),
        sa.Column("bindings", sa.Text(), nullable=False),
        sa.Column("dice", sa.Text(), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("phase", sa.String(length=200), nullable=False),
        sa.Column("declared_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_declared_shots_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_declared_shots")),
        sa.UniqueConstraint("session_id", "position",
                            name=op.f("uq_declared_shots_session_id")),
    )
    with op.batch_alter_table("declared_shots", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_declared_shots_session_id"), ["session_id"],
                              unique=False)
    with op.batch_alter_table("dice_rolls", schema=None) as batch_op:
        batch_op.add_column(sa.Column("resolution_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dice_rolls", schema=None) as batch_op:
        batch_op.drop_column("resolution_id")
    with op.batch_alter_table("declared_shots", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_declared_shots_session_id"))
    op.drop_table("declared_shots")
