"""report drafts (issue 42): what a table's report page holds while its phones enter the final situation, so a
restart of the bot loses nothing entered. A new table only: no existing row changes

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 18:30:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0015'
down_revision: Union[str, None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('report_draft',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('draft', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_report_draft')),
    sa.UniqueConstraint('table_id', name=op.f('uq_report_draft_table_id'))
    )
    with op.batch_alter_table('report_draft', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_report_draft_guild_id'), ['guild_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('report_draft', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_report_draft_guild_id'))
    op.drop_table('report_draft')
