"""The roll log's state as a column (issue 29 §3).

``resolution_log.state`` is ``pending``, ``applied`` or ``discarded``. Before, it led the
JSON ``body`` (``{"state":"pending",…}``) and a pending result was found with ``LIKE``.
Each existing row keeps its state: the one its body names, else (a row written before
results were logged as pending) applied or discarded as its ``applied`` column says; the
``state`` key leaves the body (the reason a result was discarded, ``note``, stays there).
The downgrade puts it back first in the body.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_STATES = ("pending", "applied", "discarded")
_BATCH = 500

_log = sa.table("resolution_log", sa.column("id", sa.Integer()), sa.column("body", sa.Text()),
                sa.column("applied", sa.Boolean()), sa.column("state", sa.String(16)))


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _state_of(body: object, applied: object) -> tuple[str, str | None]:
    """(state, the body without its state key, or None when it is unchanged)."""
    fallback = "applied" if applied else "discarded"
    try:
        value = json.loads(str(body))
    except ValueError:
        return fallback, None
    if not isinstance(value, dict) or "state" not in value:
        return fallback, None
    state = value.pop("state")
    return (state if state in _STATES else fallback), _dumps(value)


def _rows(connection: sa.Connection, *columns: sa.ColumnElement[object]
          ) -> Sequence[sa.Row[tuple[object, ...]]]:
    return connection.execute(sa.select(*columns).order_by(_log.c.id)).all()


def upgrade() -> None:
    with op.batch_alter_table("resolution_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("state", sa.String(length=16), nullable=True))
    connection = op.get_bind()
    updates = []
    for row_id, body, applied in _rows(connection, _log.c.id, _log.c.body, _log.c.applied):
        state, new_body = _state_of(body, applied)
        values: dict[str, object] = {"row_id": row_id, "new_state": state,
                                     "new_body": body if new_body is None else new_body}
        updates.append(values)
    statement = (sa.update(_log).where(_log.c.id == sa.bindparam("row_id"))
                 .values(state=sa.bindparam("new_state"), body=sa.bindparam("new_body")))
    for start in range(0, len(updates), _BATCH):
        connection.execute(statement, updates[start:start + _BATCH])
    with op.batch_alter_table("resolution_log", schema=None) as batch_op:
        batch_op.alter_column("state", existing_type=sa.String(length=16), nullable=False)
        batch_op.create_index("ix_resolution_log_session_id_state", ["session_id", "state"],
                              unique=False)


def downgrade() -> None:
    connection = op.get_bind()
    updates = []
    for row_id, body, state in _rows(connection, _log.c.id, _log.c.body, _log.c.state):
        try:
            value = json.loads(str(body))
        except ValueError:
            continue
        if isinstance(value, dict):
            updates.append({"row_id": row_id, "new_body": _dumps({"state": state, **value})})
    statement = (sa.update(_log).where(_log.c.id == sa.bindparam("row_id"))
                 .values(body=sa.bindparam("new_body")))
    for start in range(0, len(updates), _BATCH):
        connection.execute(statement, updates[start:start + _BATCH])
    with op.batch_alter_table("resolution_log", schema=None) as batch_op:
        batch_op.drop_index("ix_resolution_log_session_id_state")
        batch_op.drop_column("state")
