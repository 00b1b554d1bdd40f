"""Drafts per copy (issue 31 §4): each copy of the app keeps its own unsaved edits.

``design_drafts`` holds the Workshop's unsaved edits of a design, one row per ``owner``: the
copy of the app (its installation id, in the user's data folder) and the user who made
them. Before, each design had one shared draft (``designs.working_data``): a copy got
another copy's draft "from last time", and one copy's save dropped the other's.

Each existing draft moves here with the owner ``legacy`` (who made it is not known): every
copy sees it as its unsaved edits until one copy edits it (it becomes that copy's own
draft), saves the design or discards the edits (it is gone). ``designs.working_data``
stays, always empty from here on (a downgrade puts the drafts back in it, a copy's own
before a legacy one).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEGACY = "legacy"

_designs = sa.table("designs", sa.column("id", sa.Integer()),
                    sa.column("working_data", sa.Text()),
                    sa.column("updated_at", sa.DateTime(timezone=True)))
_drafts = sa.table("design_drafts", sa.column("design_id", sa.Integer()),
                   sa.column("owner", sa.String(200)), sa.column("data", sa.Text()),
                   sa.column("updated_at", sa.DateTime(timezone=True)))


def upgrade() -> None:
    op.create_table(
        "design_drafts",
        sa.Column("design_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["design_id"], ["designs.id"],
                                name=op.f("fk_design_drafts_design_id_designs"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("design_id", "owner", name=op.f("pk_design_drafts")),
    )
    connection = op.get_bind()
    connection.execute(sa.insert(_drafts).from_select(
        ["design_id", "owner", "data", "updated_at"],
        sa.select(_designs.c.id, sa.literal(LEGACY, sa.String(200)), _designs.c.working_data,
                  _designs.c.updated_at).where(_designs.c.working_data.is_not(None))))
    connection.execute(sa.update(_designs).values(working_data=None))


def downgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(_drafts.c.design_id, _drafts.c.owner, _drafts.c.data)
                              .order_by(_drafts.c.design_id, _drafts.c.updated_at)).all()
    kept: dict[int, str] = {}
    for design_id, owner, data in rows:  # the newest, a copy's own before a legacy one
        if owner != LEGACY or design_id not in kept:
            kept[int(design_id)] = str(data)
    for design_id, data in kept.items():
        connection.execute(sa.update(_designs).where(_designs.c.id == design_id)
                           .values(working_data=data))
    op.drop_table("design_drafts")
