"""reminder attempts: how many times a row was claimed (a claim whose process died is taken again after its
lease; a second attempt is shown as a resend); and the status of reminders delivered before 0004, which 0004 left
'pending'

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 18:30:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0008'
down_revision: Union[str, None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('scheduled_reminder', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempts', sa.Integer(), nullable=False, server_default='0'))
    # 0004 added the status with 'pending' for every row, also for those sent before it (delivered_at set): they
    # were delivered, and are marked so (from 0004 on, a row's delivered_at is only set with a final status)
    op.execute("UPDATE scheduled_reminder SET status = 'delivered' WHERE status = 'pending' AND delivered_at IS NOT NULL")
    # a row claimed before this revision was claimed once
    op.execute("UPDATE scheduled_reminder SET attempts = 1 WHERE claimed_at IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table('scheduled_reminder', schema=None) as batch_op:
        batch_op.drop_column('attempts')
