"""The vehicle library (designs and their revisions) and the Table's sessions.

Sessions hold their vehicles in play (a copy of the design and the current
sheet, rewritten with every event so a session opens without replaying), the
event history (active or undone), and the Resolver's log of resolutions.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('designs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('ruleset_id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('tags', sa.Text(), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.Column('working_data', sa.Text(), nullable=True),
    sa.Column('legal', sa.Boolean(), nullable=False),
    sa.Column('problem_count', sa.Integer(), nullable=False),
    sa.Column('cost', sa.Integer(), nullable=True),
    sa.Column('class_value', sa.Integer(), nullable=True),
    sa.Column('catalog_name', sa.String(length=200), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_designs')),
    sa.UniqueConstraint('ruleset_id', 'kind', 'catalog_name', name=op.f('uq_designs_ruleset_id'))
    )
    with op.batch_alter_table('designs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_designs_name'), ['name'], unique=False)
        batch_op.create_index(batch_op.f('ix_designs_ruleset_id'), ['ruleset_id'], unique=False)

    op.create_table('game_sessions',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('ruleset_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('scenario', sa.String(length=200), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('clock', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_sessions'))
    )
    with op.batch_alter_table('game_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_sessions_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_sessions_updated_at'), ['updated_at'], unique=False)

    op.create_table('design_revisions',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('design_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('data', sa.Text(), nullable=False),
    sa.Column('saved_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['design_id'], ['designs.id'], name=op.f('fk_design_revisions_design_id_designs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_design_revisions')),
    sa.UniqueConstraint('design_id', 'number', name=op.f('uq_design_revisions_design_id'))
    )
    op.create_table('resolution_log',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=True),
    sa.Column('ruleset_id', sa.String(length=64), nullable=False),
    sa.Column('procedure_id', sa.String(length=64), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('outcome', sa.Text(), nullable=False),
    sa.Column('success', sa.Boolean(), nullable=True),
    sa.Column('p_success', sa.Text(), nullable=True),
    sa.Column('applied', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['game_sessions.id'], name=op.f('fk_resolution_log_session_id_game_sessions'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resolution_log'))
    )
    with op.batch_alter_table('resolution_log', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_resolution_log_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_resolution_log_session_id'), ['session_id'], unique=False)

    op.create_table('session_events',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['game_sessions.id'], name=op.f('fk_session_events_session_id_game_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_session_events')),
    sa.UniqueConstraint('session_id', 'seq', name=op.f('uq_session_events_session_id'))
    )
    with op.batch_alter_table('session_events', schema=None) as batch_op:
        batch_op.create_index('ix_session_events_session_status_seq', ['session_id', 'status', 'seq'], unique=False)

    op.create_table('session_vehicles',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('player', sa.String(length=200), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('design', sa.Text(), nullable=False),
    sa.Column('initial_sheet', sa.Text(), nullable=False),
    sa.Column('current_sheet', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['session_id'], ['game_sessions.id'], name=op.f('fk_session_vehicles_session_id_game_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_session_vehicles')),
    sa.UniqueConstraint('session_id', 'key', name=op.f('uq_session_vehicles_session_id'))
    )


def downgrade() -> None:
    op.drop_table('session_vehicles')
    with op.batch_alter_table('session_events', schema=None) as batch_op:
        batch_op.drop_index('ix_session_events_session_status_seq')

    op.drop_table('session_events')
    with op.batch_alter_table('resolution_log', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_resolution_log_session_id'))
        batch_op.drop_index(batch_op.f('ix_resolution_log_created_at'))

    op.drop_table('resolution_log')
    op.drop_table('design_revisions')
    with op.batch_alter_table('game_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_sessions_updated_at'))
        batch_op.drop_index(batch_op.f('ix_game_sessions_status'))

    op.drop_table('game_sessions')
    with op.batch_alter_table('designs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_designs_ruleset_id'))
        batch_op.drop_index(batch_op.f('ix_designs_name'))

    op.drop_table('designs')
