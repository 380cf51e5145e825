"""venue token: each tournament's unguessable key to its public, read-only venue page (the projector and the
players' phones); existing tournaments get a fresh random token

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 22:00:00.000000
"""
import secrets
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0012'
down_revision: Union[str, None] = '0011'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('venue_token', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
    tournament = sa.table('tournament', sa.column('id', sa.Integer()), sa.column('venue_token', sa.String()))
    conn = op.get_bind()
    for (tid,) in conn.execute(sa.select(tournament.c.id)).all():
        conn.execute(
            tournament.update().where(tournament.c.id == tid).values(venue_token=secrets.token_urlsafe(24))
        )
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_venue_token'), ['venue_token'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_venue_token'))
        batch_op.drop_column('venue_token')
