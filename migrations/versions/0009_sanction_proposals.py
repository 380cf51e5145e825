"""sanction proposals: what /sanction give asked, waiting for Confirm, as a row (the buttons survive a restart and
confirm once)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 19:00:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0009'
down_revision: Union[str, None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('sanction_proposal',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('referee_id', sa.BigInteger(), nullable=False),
    sa.Column('tournament', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('user_id', sa.BigInteger(), nullable=True),
    sa.Column('infraction', sqlmodel.sql.sqltypes.AutoString(length=48), nullable=False),
    sa.Column('cards_in_hand', sa.Integer(), nullable=False),
    sa.Column('points', sa.Float(), nullable=True),
    sa.Column('round_number', sa.Integer(), nullable=True),
    sa.Column('table_number', sa.Integer(), nullable=True),
    sa.Column('details', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=48), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('case_number', sa.Integer(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sanction_proposal'))
    )
    with op.batch_alter_table('sanction_proposal', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sanction_proposal_guild_id'), ['guild_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('sanction_proposal', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sanction_proposal_guild_id'))
    op.drop_table('sanction_proposal')
