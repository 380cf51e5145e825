"""Queries of the referee's desk (re-exported by bot.db.repo): case numbers, sanctions and their records.

Names carry the area (``sanction_*``) so the star re-export never shadows another area's query.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import GuildConfig, Sanction

__all__ = [
    "sanction_allocate_case_number",
    "sanction_by_case",
    "sanction_count_offences",
    "sanction_list",
]


async def sanction_allocate_case_number(*, session: AsyncSession, guild_id: int) -> int | None:
    """The server's next case number, taken atomically: one UPDATE … RETURNING on the server's row (a row lock on
    PostgreSQL, the write lock on SQLite), so concurrent sanctions never share a number. ``None``: no server row.
    Run it first in its transaction: the lock is then held for the rest of the use case."""
    result = await session.execute(
        update(GuildConfig)
        .where(col(GuildConfig.guild_id) == guild_id)
        .values(next_case_number=GuildConfig.next_case_number + 1)
        .returning(col(GuildConfig.next_case_number))
    )
    value = result.scalar_one_or_none()
    return None if value is None else int(value) - 1


async def sanction_by_case(*, session: AsyncSession, guild_id: int, case_number: int) -> Sanction | None:
    result = await session.execute(
        select(Sanction).where(col(Sanction.guild_id) == guild_id, col(Sanction.case_number) == case_number)
    )
    return result.scalar_one_or_none()


async def sanction_count_offences(
    *, session: AsyncSession, guild_id: int, tournament_id: int, registration_id: int, infraction: str
) -> int:
    """Earlier sanctions in force for the same infraction by the same player in this tournament (the ladder)."""
    rows = await sanction_list(
        session=session, guild_id=guild_id, tournament_id=tournament_id, registration_id=registration_id
    )
    return sum(1 for s in rows if s.infraction == infraction and s.active)


async def sanction_list(
    *,
    session: AsyncSession,
    guild_id: int,
    tournament_id: int,
    registration_id: int | None = None,
    round_id: int | None = None,
    table_id: int | None = None,
) -> Sequence[Sanction]:
    query = select(Sanction).where(col(Sanction.guild_id) == guild_id, col(Sanction.tournament_id) == tournament_id)
    if registration_id is not None:
        query = query.where(col(Sanction.registration_id) == registration_id)
    if round_id is not None:
        query = query.where(col(Sanction.round_id) == round_id)
    if table_id is not None:
        query = query.where(col(Sanction.table_id) == table_id)
    result = await session.execute(query.order_by(col(Sanction.case_number)))
    return result.scalars().all()
