"""Queries of the schedules feature: a server's ``scheduled_reminder`` rows as organizers plan, list and cancel them,
the DMs a reminder already sent, and the server's note that Discord events are refused."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import DmDelivery, GuildConfig, ReminderKind, ReminderStatus, ScheduledReminder

__all__ = [
    "cancel_pending_reminder",
    "cancel_registration_close",
    "cancel_round_reminders",
    "dm_user_ids_to_skip",
    "mark_events_refused",
    "open_reminders",
    "recent_reminders",
]

_OPEN = (ReminderStatus.PENDING, ReminderStatus.CLAIMED)
_DONE = (ReminderStatus.DELIVERED, ReminderStatus.DROPPED)


async def cancel_round_reminders(*, session: AsyncSession, guild_id: int, round_id: int, outcome: str) -> None:
    """Cancel a round's pending reminders (its start moved or was withdrawn)."""
    await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.guild_id) == guild_id,
            col(ScheduledReminder.round_id) == round_id,
            col(ScheduledReminder.kind) == ReminderKind.ROUND,
            col(ScheduledReminder.status) == ReminderStatus.PENDING,
        )
        .values(status=ReminderStatus.CANCELLED, outcome=outcome)
    )


async def cancel_registration_close(*, session: AsyncSession, guild_id: int, tournament_id: int, outcome: str) -> None:
    """Cancel a tournament's pending registration close (its deadline moved)."""
    await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.guild_id) == guild_id,
            col(ScheduledReminder.tournament_id) == tournament_id,
            col(ScheduledReminder.kind) == ReminderKind.REGISTRATION_CLOSE,
            col(ScheduledReminder.status) == ReminderStatus.PENDING,
        )
        .values(status=ReminderStatus.CANCELLED, outcome=outcome)
    )


async def cancel_pending_reminder(*, session: AsyncSession, guild_id: int, reminder_id: int, outcome: str) -> bool:
    """Cancel one row if it is still pending: one conditional UPDATE; False when it no longer was."""
    done = await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.id) == reminder_id,
            col(ScheduledReminder.guild_id) == guild_id,
            col(ScheduledReminder.status) == ReminderStatus.PENDING,
        )
        .values(status=ReminderStatus.CANCELLED, outcome=outcome)
        .returning(col(ScheduledReminder.id))
    )
    return done.first() is not None


async def open_reminders(
    *, session: AsyncSession, guild_id: int, tournament_id: int | None = None
) -> Sequence[ScheduledReminder]:
    """The server's pending and claimed-but-unconfirmed rows (of one tournament, or all), soonest first."""
    query = select(ScheduledReminder).where(
        col(ScheduledReminder.guild_id) == guild_id, col(ScheduledReminder.status).in_(_OPEN)
    )
    if tournament_id is not None:
        query = query.where(col(ScheduledReminder.tournament_id) == tournament_id)
    rows = await session.execute(query.order_by(col(ScheduledReminder.due_at), col(ScheduledReminder.id)))
    return rows.scalars().all()


async def recent_reminders(
    *, session: AsyncSession, guild_id: int, tournament_id: int | None = None, limit: int
) -> Sequence[ScheduledReminder]:
    """The server's latest delivered and dropped rows (of one tournament, or all), newest first."""
    query = select(ScheduledReminder).where(
        col(ScheduledReminder.guild_id) == guild_id, col(ScheduledReminder.status).in_(_DONE)
    )
    if tournament_id is not None:
        query = query.where(col(ScheduledReminder.tournament_id) == tournament_id)
    rows = await session.execute(
        query.order_by(col(ScheduledReminder.delivered_at).desc(), col(ScheduledReminder.id).desc()).limit(limit)
    )
    return rows.scalars().all()


async def dm_user_ids_to_skip(
    *, session: AsyncSession, guild_id: int, tournament_id: int | None, reminder_id: int, refused: str
) -> set[int]:
    """Users already sent reminder ``reminder_id``, and those whose DMs Discord refused (error ``refused``) earlier
    in the tournament."""
    done = await session.execute(
        select(col(DmDelivery.user_id)).where(
            col(DmDelivery.guild_id) == guild_id,
            (col(DmDelivery.reminder_id) == reminder_id)
            | ((col(DmDelivery.tournament_id) == tournament_id) & (col(DmDelivery.error) == refused)),
        )
    )
    return set(done.scalars().all())


async def mark_events_refused(*, session: AsyncSession, guild_id: int, config_id: int | None, at: datetime) -> bool:
    """Note on the server's configuration that Discord events are refused; True only the first time."""
    done = await session.execute(
        update(GuildConfig)
        .where(
            col(GuildConfig.id) == config_id,
            col(GuildConfig.guild_id) == guild_id,
            col(GuildConfig.events_refused_at).is_(None),
        )
        .values(events_refused_at=at)
        .returning(col(GuildConfig.id))
    )
    return done.first() is not None
