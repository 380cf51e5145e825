"""publication intents: when a table's thread was asked for, and whether its players were told in it (a publish
resumed after a crash does exactly what is missing)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 19:30:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0007'
down_revision: Union[str, None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.add_column(sa.Column('thread_requested_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('thread_pinged', sa.Boolean(), nullable=False, server_default=sa.false()))
    # tables published before: a table with a thread had its players told when the thread was made
    op.execute("UPDATE game_table SET thread_pinged = (thread_id IS NOT NULL)")


def downgrade() -> None:
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_column('thread_pinged')
        batch_op.drop_column('thread_requested_at')
