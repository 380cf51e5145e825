"""Queries of the seasons: a season by name, its tournaments in order, the season a tournament belongs to, and the
sanctions given to a season's ranking."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import Registration, Sanction, Season, SeasonSanction, SeasonTournament, Tournament, tournament_key

__all__ = [
    "get_season_by_name",
    "list_seasons",
    "lock_season",
    "season_given_sanction_ids",
    "season_next_position",
    "season_of_tournament",
    "season_sanctions",
    "season_tournaments",
]


async def get_season_by_name(*, session: AsyncSession, guild_id: int, name: str) -> Season | None:
    """The server's season called ``name`` (case, accents and invisible characters as a tournament's name)."""
    found = await session.execute(
        select(Season).where(col(Season.guild_id) == guild_id, col(Season.name_key) == tournament_key(name))
    )
    return found.scalar_one_or_none()


async def list_seasons(
    *, session: AsyncSession, guild_id: int, name_prefix: str = "", limit: int = 25
) -> Sequence[Season]:
    """The server's seasons, newest first; ``name_prefix``: those whose name contains it."""
    stmt = select(Season).where(col(Season.guild_id) == guild_id)
    if name_prefix:
        stmt = stmt.where(func.lower(Season.name).contains(name_prefix.strip().lower(), autoescape=True))
    found = await session.execute(stmt.order_by(col(Season.created_at).desc(), col(Season.id).desc()).limit(limit))
    return found.scalars().all()


async def lock_season(*, session: AsyncSession, guild_id: int, season_id: int) -> None:
    """Serialise the attachments to one season (the next place is counted after it): an UPDATE of the season's row
    takes its row lock on PostgreSQL and the write lock on SQLite."""
    await session.execute(
        update(Season).where(col(Season.guild_id) == guild_id, col(Season.id) == season_id).values(preset=Season.preset)
    )


async def season_next_position(*, session: AsyncSession, guild_id: int, season_id: int) -> int:
    """The place the next tournament attached to the season takes (1 for the first)."""
    found = await session.execute(
        select(func.max(SeasonTournament.position)).where(
            col(SeasonTournament.guild_id) == guild_id, col(SeasonTournament.season_id) == season_id
        )
    )
    return int(found.scalar_one_or_none() or 0) + 1


async def season_tournaments(
    *, session: AsyncSession, guild_id: int, season_id: int
) -> Sequence[tuple[SeasonTournament, Tournament]]:
    """The season's tournaments in their order (place 1 first)."""
    found = await session.execute(
        select(SeasonTournament, Tournament)
        .join(Tournament, col(Tournament.id) == col(SeasonTournament.tournament_id))
        .where(col(SeasonTournament.guild_id) == guild_id, col(SeasonTournament.season_id) == season_id)
        .order_by(col(SeasonTournament.position))
    )
    return [(link, t) for link, t in found.all()]


async def season_of_tournament(
    *, session: AsyncSession, guild_id: int, tournament_id: int
) -> tuple[Season, SeasonTournament] | None:
    """The season the tournament belongs to, with its place there (None: no season)."""
    found = await session.execute(
        select(Season, SeasonTournament)
        .join(SeasonTournament, col(SeasonTournament.season_id) == col(Season.id))
        .where(col(SeasonTournament.guild_id) == guild_id, col(SeasonTournament.tournament_id) == tournament_id)
    )
    row = found.first()
    return (row[0], row[1]) if row is not None else None


async def season_sanctions(
    *, session: AsyncSession, guild_id: int, season_id: int
) -> Sequence[tuple[SeasonSanction, Sanction, Registration]]:
    """The sanctions given to the season's ranking, oldest first, each with the sanctioned registration."""
    found = await session.execute(
        select(SeasonSanction, Sanction, Registration)
        .join(Sanction, col(Sanction.id) == col(SeasonSanction.sanction_id))
        .join(Registration, col(Registration.id) == col(Sanction.registration_id))
        .where(col(SeasonSanction.guild_id) == guild_id, col(SeasonSanction.season_id) == season_id)
        .order_by(col(SeasonSanction.created_at), col(SeasonSanction.id))
    )
    return [(link, s, reg) for link, s, reg in found.all()]


async def season_given_sanction_ids(*, session: AsyncSession, guild_id: int, tournament_id: int) -> set[int]:
    """The tournament's sanctions whose points go to a season's ranking instead (its standings leave them out)."""
    found = await session.execute(
        select(col(SeasonSanction.sanction_id))
        .join(Sanction, col(Sanction.id) == col(SeasonSanction.sanction_id))
        .where(col(SeasonSanction.guild_id) == guild_id, col(Sanction.tournament_id) == tournament_id)
    )
    return {int(x) for x in found.scalars().all()}
