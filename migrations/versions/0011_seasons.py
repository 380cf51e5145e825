"""seasons: an ordered list of tournaments of one preset with one ranking (NP's project points, FIRK's annual
standings); a tournament belongs to at most one season; a referee's sanction may go to the season's ranking. No
existing row changes: every tournament starts outside any season

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 10:00:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0011'
down_revision: Union[str, None] = '0010'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('season',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('name_key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('preset', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_by', sa.BigInteger(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_season')),
    sa.UniqueConstraint('guild_id', 'name_key', name='uq_season_guild_id_name_key')
    )
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_guild_id'), ['guild_id'], unique=False)

    op.create_table('season_tournament',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('attached_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['season_id'], ['season.id'], name=op.f('fk_season_tournament_season_id_season')),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], name=op.f('fk_season_tournament_tournament_id_tournament')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_season_tournament')),
    sa.UniqueConstraint('season_id', 'position', name='uq_season_tournament_season_id_position'),
    sa.UniqueConstraint('tournament_id', name='uq_season_tournament_tournament_id')
    )
    with op.batch_alter_table('season_tournament', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_tournament_guild_id'), ['guild_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_season_tournament_season_id'), ['season_id'], unique=False)

    op.create_table('season_sanction',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('sanction_id', sa.Integer(), nullable=False),
    sa.Column('given_at', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['given_at'], ['tournament.id'], name=op.f('fk_season_sanction_given_at_tournament')),
    sa.ForeignKeyConstraint(['sanction_id'], ['sanction.id'], name=op.f('fk_season_sanction_sanction_id_sanction')),
    sa.ForeignKeyConstraint(['season_id'], ['season.id'], name=op.f('fk_season_sanction_season_id_season')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_season_sanction')),
    sa.UniqueConstraint('sanction_id', name='uq_season_sanction_sanction_id')
    )
    with op.batch_alter_table('season_sanction', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_sanction_guild_id'), ['guild_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_season_sanction_season_id'), ['season_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('season_sanction', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_sanction_season_id'))
        batch_op.drop_index(batch_op.f('ix_season_sanction_guild_id'))
    op.drop_table('season_sanction')
    with op.batch_alter_table('season_tournament', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_tournament_season_id'))
        batch_op.drop_index(batch_op.f('ix_season_tournament_guild_id'))
    op.drop_table('season_tournament')
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_guild_id'))
    op.drop_table('season')
