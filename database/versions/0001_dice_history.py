"""Dice history: every roll made or entered in the Dice workspace.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dice_rolls",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        # UTC; stored without a zone on SQLite, as timestamptz on PostgreSQL.
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ruleset_id", sa.String(length=64), nullable=False),
        sa.Column("expression", sa.Text(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("natural_two_misses", sa.Boolean(), nullable=False),
        # JSON arrays of ints, one entry per die: the faces shown and each die's sides.
        sa.Column("dice_values", sa.Text(), nullable=False),
        sa.Column("sides", sa.Text(), nullable=False),
        sa.Column("natural", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("success", sa.Boolean(), nullable=True),
        # The RNG seed that replays the roll; NULL when the GM typed the dice.
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("entered", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dice_rolls")),
    )
    op.create_index(op.f("ix_dice_rolls_created_at"), "dice_rolls", ["created_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_dice_rolls_created_at"), table_name="dice_rolls")
    op.drop_table("dice_rolls")
