"""Queries of the seasons: a season by name, its tournaments in order, the season a tournament belongs to, the
sanctions given to a season's ranking, its ranked one-off games and the players its tournaments registered."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import (
    Registration,
    Sanction,
    Season,
    SeasonGame,
    SeasonGamePlayer,
    SeasonSanction,
    SeasonTournament,
    Tournament,
    tournament_key,
)

__all__ = [
    "get_season_by_name",
    "list_seasons",
    "lock_season",
    "season_game_by_number",
    "season_games",
    "season_given_sanction_ids",
    "season_next_game_number",
    "season_next_position",
    "season_of_tournament",
    "season_registrations",
    "season_sanctions",
    "season_tournaments",
    "tournaments_before_in_season",
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


async def season_next_game_number(*, session: AsyncSession, guild_id: int, season_id: int) -> int:
    """The number the next one-off game recorded into the season takes (1 for the first; a voided one keeps its)."""
    found = await session.execute(
        select(func.max(SeasonGame.number)).where(
            col(SeasonGame.guild_id) == guild_id, col(SeasonGame.season_id) == season_id
        )
    )
    return int(found.scalar_one_or_none() or 0) + 1


async def season_games(
    *, session: AsyncSession, guild_id: int, season_id: int, voided: bool = False
) -> Sequence[tuple[SeasonGame, tuple[SeasonGamePlayer, ...]]]:
    """The season's one-off games in the order they were recorded, each with its players best place first;
    ``voided``: the voided ones too."""
    stmt = select(SeasonGame).where(col(SeasonGame.guild_id) == guild_id, col(SeasonGame.season_id) == season_id)
    if not voided:
        stmt = stmt.where(col(SeasonGame.voided_at).is_(None))
    games = (await session.execute(stmt.order_by(col(SeasonGame.number)))).scalars().all()
    ids = [g.id for g in games if g.id is not None]
    players: dict[int, list[SeasonGamePlayer]] = {i: [] for i in ids}
    if ids:
        found = await session.execute(
            select(SeasonGamePlayer)
            .where(col(SeasonGamePlayer.guild_id) == guild_id, col(SeasonGamePlayer.game_id).in_(ids))
            .order_by(col(SeasonGamePlayer.place), col(SeasonGamePlayer.id))
        )
        for row in found.scalars().all():
            players[row.game_id].append(row)
    return [(g, tuple(players[g.id])) for g in games if g.id is not None]


async def season_game_by_number(
    *, session: AsyncSession, guild_id: int, season_id: int, number: int
) -> SeasonGame | None:
    """The season's one-off game of that number (voided or not)."""
    found = await session.execute(
        select(SeasonGame).where(
            col(SeasonGame.guild_id) == guild_id,
            col(SeasonGame.season_id) == season_id,
            col(SeasonGame.number) == number,
        )
    )
    return found.scalar_one_or_none()


async def season_registrations(*, session: AsyncSession, guild_id: int, season_id: int) -> Sequence[Registration]:
    """Every registration of the season's tournaments, the latest tournament's last (a one-off game names its
    players as these did)."""
    found = await session.execute(
        select(Registration)
        .join(SeasonTournament, col(SeasonTournament.tournament_id) == col(Registration.tournament_id))
        .where(col(SeasonTournament.guild_id) == guild_id, col(SeasonTournament.season_id) == season_id)
        .order_by(col(SeasonTournament.position), col(Registration.id))
    )
    return found.scalars().all()


async def tournaments_before_in_season(*, session: AsyncSession, guild_id: int, tournament_id: int) -> list[Tournament]:
    """The tournaments placed before ``tournament_id`` in its season, in the season's order (empty: first in its
    season, or in none)."""
    found = await season_of_tournament(session=session, guild_id=guild_id, tournament_id=tournament_id)
    if found is None:
        return []
    season, link = found
    if season.id is None:
        return []
    links = await season_tournaments(session=session, guild_id=guild_id, season_id=season.id)
    return [other for place, other in links if place.position < link.position]
