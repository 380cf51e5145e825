"""season point schemes (issue 47): a season's own points ("giocatore dell'anno": points by event type and final
place, points per game), a tournament's event type in its season, and ranked one-off games recorded into a season
with their players. No existing row changes: every season keeps its preset's points (no scheme), every tournament
has no event type, and no season has one-off games

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-09 10:00:00.000000
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel


revision: str = '0014'
down_revision: Union[str, None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scheme', sa.JSON(), nullable=True))
    with op.batch_alter_table('season_tournament', schema=None) as batch_op:
        batch_op.add_column(sa.Column('event_type', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True))

    op.create_table('season_game',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('given_at', sa.Integer(), nullable=True),
    sa.Column('recorded_by', sa.BigInteger(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('voided_by', sa.BigInteger(), nullable=True),
    sa.Column('voided_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['given_at'], ['tournament.id'], name=op.f('fk_season_game_given_at_tournament')),
    sa.ForeignKeyConstraint(['season_id'], ['season.id'], name=op.f('fk_season_game_season_id_season')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_season_game')),
    sa.UniqueConstraint('season_id', 'number', name='uq_season_game_season_id_number')
    )
    with op.batch_alter_table('season_game', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_game_guild_id'), ['guild_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_season_game_season_id'), ['season_id'], unique=False)

    op.create_table('season_game_player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('guild_id', sa.BigInteger(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.BigInteger(), nullable=True),
    sa.Column('display_name', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('name_key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('place', sa.Integer(), nullable=False),
    sa.Column('table_points', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['season_game.id'], name=op.f('fk_season_game_player_game_id_season_game')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_season_game_player'))
    )
    with op.batch_alter_table('season_game_player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_game_player_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_season_game_player_guild_id'), ['guild_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('season_game_player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_game_player_guild_id'))
        batch_op.drop_index(batch_op.f('ix_season_game_player_game_id'))
    op.drop_table('season_game_player')
    with op.batch_alter_table('season_game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_game_season_id'))
        batch_op.drop_index(batch_op.f('ix_season_game_guild_id'))
    op.drop_table('season_game')
    with op.batch_alter_table('season_tournament', schema=None) as batch_op:
        batch_op.drop_column('event_type')
    with op.batch_alter_table('season', schema=None) as batch_op:
        batch_op.drop_column('scheme')
