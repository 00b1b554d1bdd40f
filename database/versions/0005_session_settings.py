"""Session settings: a JSON object on each session (what the players' display shows…).

Changed only by a session event (``settings``, with the settings before and after),
so undo and redo restore them; the column is rewritten in that event's transaction
like the clock. Existing sessions get ``{}`` (every setting at its default).

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("settings", sa.Text(), server_default="{}",
                                      nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("game_sessions", schema=None) as batch_op:
        batch_op.drop_column("settings")
