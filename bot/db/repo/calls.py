"""Referee calls: one open call per table, claimed once."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import GameTable, RefereeCall

__all__ = ["claim_call", "lock_table", "open_call_at_table"]


async def lock_table(*, session: AsyncSession, guild_id: int, table_id: int) -> None:
    """Serialise the use cases of one table (its referee call): an UPDATE of the table's row takes its row lock on
    PostgreSQL and the write lock on SQLite, so the check that follows sees every earlier call."""
    await session.execute(
        update(GameTable)
        .where(col(GameTable.id) == table_id, col(GameTable.guild_id) == guild_id)
        .values(number=GameTable.number)
    )


async def open_call_at_table(*, session: AsyncSession, guild_id: int, table_id: int) -> RefereeCall | None:
    """The table's call no referee has taken yet, if any."""
    result = await session.execute(
        select(RefereeCall)
        .where(
            col(RefereeCall.guild_id) == guild_id,
            col(RefereeCall.table_id) == table_id,
            col(RefereeCall.claimed_by).is_(None),
        )
        .order_by(col(RefereeCall.id))
        .limit(1)
    )
    return result.scalars().first()


async def claim_call(*, session: AsyncSession, guild_id: int, call_id: int, referee_id: int, at: datetime) -> bool:
    """The first referee takes the call: one conditional UPDATE; False when somebody already had."""
    result = await session.execute(
        update(RefereeCall)
        .where(
            col(RefereeCall.id) == call_id,
            col(RefereeCall.guild_id) == guild_id,
            col(RefereeCall.claimed_by).is_(None),
        )
        .values(claimed_by=referee_id, claimed_at=at)
        .returning(col(RefereeCall.id))
    )
    return result.first() is not None
