"""House-rule profiles: named sets of decisions per ruleset (issue 14).

A new table only (no other table changes), so it applies after any other branch's
revision. "The digest's defaults" is built in and never stored.

Revision ID: 0006
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "house_rule_profiles",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("ruleset_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_house_rule_profiles")),
        sa.UniqueConstraint("ruleset_id", "name",
                            name="uq_house_rule_profiles_ruleset_id_name"),
    )


def downgrade() -> None:
    op.drop_table("house_rule_profiles")
