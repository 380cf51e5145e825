"""Queries of the rules desk and the adjudicators (re-exported by bot.db.repo): which tournament's preset a question
is about, and whether a round of the server is being played."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import Round, RoundStatus, Tournament, TournamentStatus

__all__ = ["latest_open_tournament", "latest_tournament_of_game", "round_in_play"]


async def latest_open_tournament(*, session: AsyncSession, guild_id: int) -> Tournament | None:
    """The server's most recently created tournament neither finished nor cancelled (whose preset a question is
    about when none is named)."""
    result = await session.execute(
        select(Tournament)
        .where(
            col(Tournament.guild_id) == guild_id,
            col(Tournament.status).not_in([TournamentStatus.FINISHED, TournamentStatus.CANCELLED]),
        )
        .order_by(col(Tournament.created_at).desc(), col(Tournament.id).desc())
        .limit(1)
    )
    return result.scalar_one_or_none()


async def latest_tournament_of_game(*, session: AsyncSession, guild_id: int, game: str) -> Tournament | None:
    """The server's most recently created tournament of ``game``, whatever its status (whose preset an adjudicator
    applies by default)."""
    result = await session.execute(
        select(Tournament)
        .where(col(Tournament.guild_id) == guild_id, col(Tournament.game) == game)
        .order_by(col(Tournament.created_at).desc(), col(Tournament.id).desc())
        .limit(1)
    )
    return result.scalar_one_or_none()


async def round_in_play(*, session: AsyncSession, guild_id: int) -> bool:
    """Whether a round of the server is being played (published, not yet closed)."""
    result = await session.execute(
        select(col(Round.id))
        .where(col(Round.guild_id) == guild_id, col(Round.status) == RoundStatus.PUBLISHED)
        .limit(1)
    )
    return result.first() is not None
