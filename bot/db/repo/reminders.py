"""Queries of the schedule's runner: claiming, renewing and confirming ``scheduled_reminder`` rows.

Unlike the other repo modules these queries do not filter on ``guild_id``: a runner serves every server of its
database. ``now`` is either an instant of the process's clock or the database's ``now()`` (a SQL expression), so the
caller decides whose clock the due and lease comparisons read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col

from bot.db.models import AuditLog, ReminderStatus, ScheduledReminder

__all__ = [
    "Instant",
    "claim_reminder",
    "database_now",
    "expired_claims",
    "finish_claim",
    "mark_late",
    "pending_reminders",
    "registration_closed_by",
    "renew_claim",
]

Instant = datetime | ColumnElement[Any]  # a Python instant, or the database's now() (and arithmetic on it)


def database_now() -> Instant:
    """The database's ``now()``, as a SQL expression the queries compare with (runners on several machines agree)."""
    return func.now()


async def pending_reminders(
    *, session: AsyncSession, guild_id: int | None = None, limit: int
) -> list[tuple[int, datetime]]:
    """Pending rows as (id, due_at), of one server or (``guild_id`` None) of every one, soonest first."""
    query = select(col(ScheduledReminder.id), col(ScheduledReminder.due_at)).where(
        col(ScheduledReminder.status) == ReminderStatus.PENDING
    )
    if guild_id is not None:
        query = query.where(col(ScheduledReminder.guild_id) == guild_id)
    rows = await session.execute(query.order_by(col(ScheduledReminder.due_at)).limit(limit))
    return [(int(i), d) for i, d in rows.all() if i is not None]


def _claimable(now: Instant, stale_before: Instant, max_attempts: int) -> ColumnElement[bool]:
    """Due and waiting, or taken by a process whose lease ran out (it died, or lost the database) while it still may
    be tried again."""
    return or_(
        and_(col(ScheduledReminder.status) == ReminderStatus.PENDING, col(ScheduledReminder.due_at) <= now),
        and_(
            col(ScheduledReminder.status) == ReminderStatus.CLAIMED,
            or_(col(ScheduledReminder.claimed_at).is_(None), col(ScheduledReminder.claimed_at) < stale_before),
            col(ScheduledReminder.attempts) < max_attempts,
        ),
    )


async def claim_reminder(
    *,
    session: AsyncSession,
    worker: str,
    now: Instant,
    stale_before: Instant,
    max_attempts: int,
    reminder_id: int | None = None,
) -> tuple[int, int] | None:
    """Take the soonest claimable row (or row ``reminder_id`` if it is claimable) for ``worker`` in one statement:
    ``UPDATE … WHERE id = (SELECT … LIMIT 1 FOR UPDATE SKIP LOCKED) AND <claimable> RETURNING``. On PostgreSQL the
    sub-select skips the rows other runners are taking this instant, so runners never wait on each other and the
    outer condition is checked again on the locked row; SQLite has no row locks (the clause is not emitted) and runs
    the statement under its single write lock, so the condition alone decides. (id, attempts so far) or None."""
    claimable = _claimable(now, stale_before, max_attempts)
    pick = select(col(ScheduledReminder.id)).where(claimable)
    if reminder_id is not None:
        pick = pick.where(col(ScheduledReminder.id) == reminder_id)
    pick = pick.order_by(col(ScheduledReminder.due_at), col(ScheduledReminder.id)).limit(1)
    won = await session.execute(
        update(ScheduledReminder)
        .where(col(ScheduledReminder.id) == pick.with_for_update(skip_locked=True).scalar_subquery(), claimable)
        .values(
            status=ReminderStatus.CLAIMED,
            claimed_at=now,
            claimed_by=worker[:64],
            attempts=col(ScheduledReminder.attempts) + 1,
        )
        .returning(col(ScheduledReminder.id), col(ScheduledReminder.attempts))
    )
    row = won.first()
    if row is None or row[0] is None:
        return None
    return int(row[0]), int(row[1])


async def renew_claim(*, session: AsyncSession, reminder_id: int, worker: str, now: Instant) -> bool:
    """Push the lease of a row ``worker`` still holds; False when it no longer does (another runner took it)."""
    renewed = await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.id) == reminder_id,
            col(ScheduledReminder.status) == ReminderStatus.CLAIMED,
            col(ScheduledReminder.claimed_by) == worker[:64],
        )
        .values(claimed_at=now)
        .returning(col(ScheduledReminder.id))
    )
    return renewed.first() is not None


async def finish_claim(
    *, session: AsyncSession, reminder_id: int, worker: str, now: Instant, outcome: str | None
) -> bool:
    """Mark a row delivered, only by the worker that holds its claim; False when it does not (nothing changes)."""
    done = await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.id) == reminder_id,
            col(ScheduledReminder.status) == ReminderStatus.CLAIMED,
            col(ScheduledReminder.claimed_by) == worker[:64],
        )
        .values(status=ReminderStatus.DELIVERED, delivered_at=now, outcome=outcome[:200] if outcome else None)
        .returning(col(ScheduledReminder.id))
    )
    return done.first() is not None


async def mark_late(*, session: AsyncSession, due_before: Instant) -> int:
    """Pending rows due before ``due_before`` are marked late (they will say so when sent); how many."""
    marked = await session.execute(
        update(ScheduledReminder)
        .where(
            col(ScheduledReminder.status) == ReminderStatus.PENDING,
            col(ScheduledReminder.due_at) < due_before,
            col(ScheduledReminder.late).is_(False),
        )
        .values(late=True)
        .returning(col(ScheduledReminder.id))
    )
    return len(marked.all())


async def expired_claims(*, session: AsyncSession, stale_before: Instant) -> Sequence[tuple[int, int]]:
    """Claims whose lease ran out (their process stopped before confirming), as (id, attempts), oldest first. A
    claim still within its lease belongs to a live runner and is not listed."""
    rows = await session.execute(
        select(col(ScheduledReminder.id), col(ScheduledReminder.attempts))
        .where(
            col(ScheduledReminder.status) == ReminderStatus.CLAIMED,
            or_(col(ScheduledReminder.claimed_at).is_(None), col(ScheduledReminder.claimed_at) < stale_before),
        )
        .order_by(col(ScheduledReminder.due_at), col(ScheduledReminder.id))
    )
    return [(int(i), int(a)) for i, a in rows.all() if i is not None]


async def registration_closed_by(*, session: AsyncSession, guild_id: int, tournament_id: int, reminder_id: int) -> bool:
    """Whether registration was closed by reminder ``reminder_id`` (its audit entry names the row): a resend after a
    crash must still announce the closing its first attempt carried out."""
    rows = await session.execute(
        select(col(AuditLog.details)).where(
            col(AuditLog.guild_id) == guild_id,
            col(AuditLog.action) == "tournament.registration_closed",
            col(AuditLog.entity) == "tournament",
            col(AuditLog.entity_id) == tournament_id,
        )
    )
    return any((details or {}).get("reminder_id") == reminder_id for details in rows.scalars().all())
