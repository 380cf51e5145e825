"""national publishing: a player's identity for the national ranking (first name, surname, national id, birth date,
region), optional and asked only when a tournament publishes to the national ranking; the tournament's publishing
settings (the ModuloTorneo workbook's organiser, type and venue); an imported player's id in the document they came
from (the whole-tournament export keeps it, so an imported tournament's draws still replay)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 12:40:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0013'
down_revision: Union[str, None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('registration', schema=None) as batch_op:
        batch_op.add_column(sa.Column('first_name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(sa.Column('surname', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch_op.add_column(sa.Column('national_id', sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column('birth_date', sa.Date(), nullable=True))
        batch_op.add_column(sa.Column('region', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))
        batch_op.add_column(sa.Column('source_id', sa.BigInteger(), nullable=True))
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('publishing', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('publishing')
    with op.batch_alter_table('registration', schema=None) as batch_op:
        batch_op.drop_column('source_id')
        batch_op.drop_column('region')
        batch_op.drop_column('birth_date')
        batch_op.drop_column('national_id')
        batch_op.drop_column('surname')
        batch_op.drop_column('first_name')
