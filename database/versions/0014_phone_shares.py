"""A session's phone sharing, kept while it is on (the players' phones reconnect after a
restart): the address and port it listened on, the links' tokens (the common link's and
each seat's), the secret that signs the seat pages' page tokens and whether the players'
display was open. One row per session; Stop sharing, New link and the session's end
rewrite or delete it, so a revoked link is never kept.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "phone_shares",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("port", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=200), nullable=False),
        sa.Column("seat_tokens", sa.Text(), nullable=False),
        sa.Column("page_secret", sa.String(length=200), nullable=False),
        sa.Column("display_open", sa.Boolean(), nullable=False),
        sa.Column("shared_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_sessions.id"],
                                name=op.f("fk_phone_shares_session_id_game_sessions"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_phone_shares")),
    )


def downgrade() -> None:
    op.drop_table("phone_shares")
