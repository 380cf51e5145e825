"""Queries of the clocks feature: a table's ``table_clock`` row, its conditional pause/resume, and the clock's calls
(``scheduled_reminder`` rows of kind ``clock_call``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import ReminderKind, ReminderStatus, ScheduledReminder, TableClock

__all__ = ["cancel_clock_calls", "get_table_clock", "list_table_clocks", "set_clock_pause_if_unchanged"]


async def get_table_clock(
    *, session: AsyncSession, guild_id: int, table_id: int, lock: bool = False
) -> TableClock | None:
    """A table's clock, if started; ``lock``: its row locked for the transaction (PostgreSQL)."""
    query = select(TableClock).where(col(TableClock.guild_id) == guild_id, col(TableClock.table_id) == table_id)
    if lock:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def list_table_clocks(*, session: AsyncSession, guild_id: int, table_ids: Sequence[int]) -> Sequence[TableClock]:
    """The clocks of these tables (those started)."""
    rows = await session.execute(
        select(TableClock).where(col(TableClock.guild_id) == guild_id, col(TableClock.table_id).in_(table_ids))
    )
    return rows.scalars().all()


async def set_clock_pause_if_unchanged(
    *,
    session: AsyncSession,
    guild_id: int,
    clock: TableClock,
    paused_at: datetime | None,
    paused_seconds: int,
    pauses: int,
) -> bool:
    """Pause or resume ``clock`` with one conditional UPDATE on the values read: False when another referee changed
    it first (nothing changes), so two presses at once never count one interruption twice."""
    done = await session.execute(
        update(TableClock)
        .where(
            col(TableClock.id) == clock.id,
            col(TableClock.guild_id) == guild_id,
            col(TableClock.paused_seconds) == clock.paused_seconds,
            col(TableClock.pauses) == clock.pauses,
            col(TableClock.paused_at).is_(None)
            if clock.paused_at is None
            else col(TableClock.paused_at) == clock.paused_at,
        )
        .values(paused_at=paused_at, paused_seconds=paused_seconds, pauses=pauses)
        .returning(col(TableClock.id))
    )
    return done.first() is not None


async def cancel_clock_calls(*, session: AsyncSession, guild_id: int, table_id: int, outcome: str) -> None:
    """Cancel a table clock's pending calls (paused, resumed, time-up recorded, game ended)."""
    await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.guild_id) == guild_id,
            col(ScheduledReminder.table_id) == table_id,
            col(ScheduledReminder.kind) == ReminderKind.CLOCK,
            col(ScheduledReminder.status) == ReminderStatus.PENDING,
        )
        .values(status=ReminderStatus.CANCELLED, outcome=outcome)
    )
