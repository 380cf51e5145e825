"""member locale: each member's Discord language as their own interactions carried it, so direct messages (reminders,
a declined final) are written in the reader's language; no row means the server's language, as before

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0010'
down_revision: Union[str, None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('member_locale',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=False),
    sa.Column('locale', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_member_locale')),
    sa.UniqueConstraint('guild_id', 'user_id', name='uq_member_locale_guild_id_user_id')
    )


def downgrade() -> None:
    op.drop_table('member_locale')
