"""Every row of ``designs`` and ``game_sessions`` written notifies the channel
``carwars_changes`` on PostgreSQL (issue 31): the other copies of the app on the club
server follow what changed, whoever wrote it (``carwars-desktop design import`` too).
The payload is ``table:id:listed`` when a row came or went from a list (a design added,
deleted, restored or purged; a session created, finished or deleted), ``table:id:row``
otherwise. SQLite needs nothing: a watcher reads ``PRAGMA data_version``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FUNCTION = "carwars_notify_change"
_TRIGGERS = {"designs": "deleted_at", "game_sessions": "status"}
"""Each table, and the column whose change moves a row in or out of a list."""


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(f"""
CREATE OR REPLACE FUNCTION {_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    row_id bigint;
    what text := 'listed';
BEGIN
    IF TG_OP = 'DELETE' THEN
        row_id := OLD.id;
    ELSE
        row_id := NEW.id;
    END IF;
    IF TG_OP = 'UPDATE' AND to_jsonb(OLD) -> TG_ARGV[0] IS NOT DISTINCT FROM
            to_jsonb(NEW) -> TG_ARGV[0] THEN
        what := 'row';
    END IF;
    PERFORM pg_notify('carwars_changes', TG_TABLE_NAME || ':' || row_id || ':' || what);
    RETURN NULL;
END
$$""")
    for table, column in _TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {table}_notify AFTER INSERT OR UPDATE OR DELETE ON {table} "
                   f"FOR EACH ROW EXECUTE FUNCTION {_FUNCTION}('{column}')")


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table in _TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {table}_notify ON {table}")
    op.execute(f"DROP FUNCTION IF EXISTS {_FUNCTION}()")
