"""Delivering the schedule's rows (BOT-SCH-1, BOT-SCH-2): the bot's runner side, for any number of processes on one
database.

* ``reconcile(started_at)`` at start-up marks the rows that fell due while no process ran as *late*;
* ``claim`` / ``claim_due`` take rows with one conditional UPDATE … RETURNING (pending → claimed; on PostgreSQL the
  due rows are first selected ``FOR UPDATE SKIP LOCKED``), so each row is taken by exactly one process;
* ``prepare`` says what to send — or drops a round reminder whose round has already started (logged, never sent);
  the registration close and a clock's time-up are carried out there, in the same transaction;
* ``record_dm`` keeps one row per reminder and player (a failed DM is recorded once, never retried);
* ``finish`` marks the row delivered. A process that dies between claim and finish leaves the row ``claimed``:
  visible in ``/schedule list``, and never sent a second time.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db import repo
from bot.db.models import (
    DmDelivery,
    Registration,
    RegistrationStatus,
    ReminderKind,
    ReminderStatus,
    Round,
    RoundStatus,
    ScheduledReminder,
    Tournament,
    TournamentStatus,
)
from bot.rules.schedule import CHECK_IN_LIST_OFFSET
from bot.services._base import BaseService
from bot.services.clocks import clock_call
from bot.services.schedules import config_of

log = logging.getLogger(__name__)

LATE_GRACE = timedelta(minutes=2)  # a row due this shortly before a start-up is not called late
DM_REFUSED = "forbidden"  # the outcome of a DM Discord refused (the user does not accept DMs from the server)


@dataclass(frozen=True, slots=True)
class Delivery:
    """What the runner sends for one claimed row (ids and data; the cog writes the words)."""

    reminder_id: int
    guild_id: int
    kind: str
    locale: str
    due_at: datetime
    late: bool
    channel_id: int | None
    tournament_name: str | None = None
    round_number: int | None = None
    round_id: int | None = None
    round_start: datetime | None = None
    offset_minutes: int | None = None
    message: str | None = None
    image: str | None = None
    table_number: int | None = None
    call: str | None = None
    dm_user_ids: tuple[int, ...] = ()
    missing_check_ins: tuple[str, ...] = ()
    registration_closed: bool = False
    details: dict[str, Any] | None = None


class DeliveryService(BaseService):
    async def pending(self, *, guild_id: int | None = None, limit: int = 10_000) -> list[tuple[int, datetime]]:
        """Pending rows (of one server, or all), soonest first: the runner plans a wake-up for each."""
        async with self._sessionmaker() as session:
            query = select(col(ScheduledReminder.id), col(ScheduledReminder.due_at)).where(
                col(ScheduledReminder.status) == ReminderStatus.PENDING.value
            )
            if guild_id is not None:
                query = query.where(col(ScheduledReminder.guild_id) == guild_id)
            rows = await session.execute(query.order_by(col(ScheduledReminder.due_at)).limit(limit))
            return [(int(i), d) for i, d in rows.all() if i is not None]

    async def reconcile(self, started_at: datetime) -> tuple[int, list[int]]:
        """At start-up: pending rows that fell due while no process ran are marked late (they will be sent once,
        saying so). Returns how many, and the rows a crashed process left claimed without confirming (logged)."""
        async with self._sessionmaker() as session, session.begin():
            marked = await session.execute(
                update(ScheduledReminder)
                .where(
                    col(ScheduledReminder.status) == ReminderStatus.PENDING.value,
                    col(ScheduledReminder.due_at) < started_at - LATE_GRACE,
                    col(ScheduledReminder.late).is_(False),
                )
                .values(late=True)
                .returning(col(ScheduledReminder.id))
            )
            late = len(marked.all())
            stuck = await session.execute(
                select(col(ScheduledReminder.id)).where(col(ScheduledReminder.status) == ReminderStatus.CLAIMED.value)
            )
            return late, [int(i) for i in stuck.scalars().all() if i is not None]

    async def claim(self, reminder_id: int, worker: str) -> bool:
        """Take one due row for ``worker``; False when another process (or an earlier wake-up) took it."""
        now = self._clock()
        async with self._sessionmaker() as session, session.begin():
            won = await session.execute(
                update(ScheduledReminder)
                .where(
                    col(ScheduledReminder.id) == reminder_id,
                    col(ScheduledReminder.status) == ReminderStatus.PENDING.value,
                    col(ScheduledReminder.due_at) <= now,
                )
                .values(status=ReminderStatus.CLAIMED.value, claimed_at=now, claimed_by=worker[:64])
                .returning(col(ScheduledReminder.id))
            )
            return won.first() is not None

    async def claim_due(self, worker: str, *, limit: int = 50) -> list[int]:
        """Take up to ``limit`` due rows for ``worker`` (the runner's sweep). On PostgreSQL the candidates are
        locked ``FOR UPDATE SKIP LOCKED``, so two processes sweeping at once take disjoint rows without waiting;
        elsewhere a candidate another caller took first is simply not returned (and the next ones are tried)."""
        for _ in range(8):  # candidates all lost to concurrent sweeps: look again (bounded)
            now = self._clock()
            async with self._sessionmaker() as session, session.begin():
                candidates = (
                    await session.execute(
                        select(col(ScheduledReminder.id))
                        .where(col(ScheduledReminder.status) == ReminderStatus.PENDING.value,
                               col(ScheduledReminder.due_at) <= now)
                        .order_by(col(ScheduledReminder.due_at), col(ScheduledReminder.id))
                        .limit(limit)
                        .with_for_update(skip_locked=True)
                    )
                ).scalars().all()  # fmt: skip
                if not candidates:
                    return []
                won = await session.execute(
                    update(ScheduledReminder)
                    .where(col(ScheduledReminder.id).in_(list(candidates)),
                           col(ScheduledReminder.status) == ReminderStatus.PENDING.value)
                    .values(status=ReminderStatus.CLAIMED.value, claimed_at=now, claimed_by=worker[:64])
                    .returning(col(ScheduledReminder.id))
                )  # fmt: skip
                got = {int(i) for i in won.scalars().all() if i is not None}
                taken = [int(i) for i in candidates if i is not None and int(i) in got]  # soonest first
            if taken:
                return taken
        return []

    async def prepare(self, reminder_id: int) -> Delivery | None:
        """What to send for a claimed row; None when it is dropped (its round already started) — logged, never
        sent. The registration close is carried out here, in the same transaction."""
        now = self._clock()
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(ScheduledReminder, reminder_id)
            if row is None or row.status != ReminderStatus.CLAIMED.value:
                return None
            locale, _, _ = await config_of(session, row.guild_id)
            t = await session.get(Tournament, row.tournament_id) if row.tournament_id else None
            rnd = await session.get(Round, row.round_id) if row.round_id else None
            base: dict[str, Any] = {
                "reminder_id": reminder_id, "guild_id": row.guild_id, "kind": row.kind, "locale": locale,
                "due_at": row.due_at, "late": row.late, "channel_id": row.channel_id,
                "tournament_name": t.name if t else None, "message": row.message, "image": row.image,
            }  # fmt: skip
            if row.kind == ReminderKind.ROUND.value:
                if (
                    rnd is None
                    or rnd.scheduled_start is None
                    or rnd.scheduled_start <= now
                    or rnd.status in (RoundStatus.CLOSED.value,)
                ):
                    row.status, row.outcome, row.delivered_at = ReminderStatus.DROPPED.value, "round_started", now
                    log.info("reminder %s dropped: its round had already started at %s", reminder_id,
                             rnd.scheduled_start if rnd else None)  # fmt: skip
                    await repo.add_audit(session=session, guild_id=row.guild_id, actor_id=None,
                                         action="schedule.dropped", entity="scheduled_reminder",
                                         entity_id=reminder_id, details={"due_at": row.due_at.isoformat()})  # fmt: skip
                    return None
                assert t is not None and t.id is not None and rnd.id is not None
                players = await self._round_players(session, t, rnd)
                base |= {
                    "round_number": rnd.number, "round_id": rnd.id, "round_start": rnd.scheduled_start,
                    "offset_minutes": row.offset_minutes,
                    "dm_user_ids": await self._dm_targets(session, t, reminder_id, players),
                    "missing_check_ins": await self._missing(session, rnd, players)
                    if (row.offset_minutes or 0) <= CHECK_IN_LIST_OFFSET else (),
                }  # fmt: skip
            elif row.kind == ReminderKind.REGISTRATION_CLOSE.value:
                closed = False
                if t is not None and t.status == TournamentStatus.REGISTRATION_OPEN.value:
                    t.status, closed = TournamentStatus.REGISTRATION_CLOSED.value, True
                    await repo.add_audit(session=session, guild_id=row.guild_id, actor_id=None,
                                         action="tournament.registration_closed", entity="tournament",
                                         entity_id=t.id, details={"deadline": row.due_at.isoformat()})  # fmt: skip
                base["registration_closed"] = closed
            elif row.kind == ReminderKind.CLOCK.value:
                details = await clock_call(session, row, now)
                if details is None:
                    row.status, row.outcome, row.delivered_at = ReminderStatus.DROPPED.value, "clock_moved", now
                    return None
                base |= {"table_number": details.pop("table_number"), "round_number": details.pop("round_number"),
                         "call": row.call, "details": details}  # fmt: skip
            return Delivery(**base)

    async def _round_players(self, session: AsyncSession, t: Tournament, rnd: Round) -> list[Registration]:
        """Who the reminder is for: the players seated in the round once it is drawn, else the active entrants."""
        assert t.id is not None and rnd.id is not None
        tables = await repo.list_tables(session=session, guild_id=t.guild_id, round_id=rnd.id)
        if tables:
            seats = await repo.list_seats_for_tables(
                session=session, guild_id=t.guild_id, table_ids=[x.id for x in tables if x.id is not None]
            )
            regs = await repo.registrations_by_ids(
                session=session, guild_id=t.guild_id, ids=[s.registration_id for s in seats]
            )
            return sorted(regs.values(), key=lambda r: r.display_name)
        rows = await repo.list_registrations(session=session, guild_id=t.guild_id, tournament_id=t.id)
        active = (RegistrationStatus.REGISTERED.value, RegistrationStatus.VALIDATED.value)
        return sorted((r for r in rows if r.status in active), key=lambda r: r.display_name)

    async def _dm_targets(
        self, session: AsyncSession, t: Tournament, reminder_id: int, players: list[Registration]
    ) -> tuple[int, ...]:
        """Players with a Discord account, less those already sent this reminder and those whose DMs Discord
        refused earlier in this tournament (they do not accept DMs: never retried in a loop)."""
        done = await session.execute(
            select(col(DmDelivery.user_id)).where(
                (col(DmDelivery.reminder_id) == reminder_id)
                | ((col(DmDelivery.tournament_id) == t.id) & (col(DmDelivery.error) == DM_REFUSED))
            )
        )
        skip = set(done.scalars().all())
        return tuple(sorted({r.user_id for r in players if r.user_id is not None and r.user_id not in skip}))

    async def _missing(self, session: AsyncSession, rnd: Round, players: list[Registration]) -> tuple[str, ...]:
        assert rnd.id is not None
        checked = {c.registration_id for c in await repo.list_checkins(session=session, guild_id=rnd.guild_id,
                                                                       round_id=rnd.id)}  # fmt: skip
        return tuple(r.display_name for r in players if r.id not in checked)

    async def record_dm(self, reminder_id: int, user_id: int, *, ok: bool, error: str | None = None) -> bool:
        """One row per reminder and player; False when it was already recorded (nothing is sent twice)."""
        async with self._sessionmaker() as session:
            row = await session.get(ScheduledReminder, reminder_id)
            if row is None:
                return False
            note = error[:200] if error else None
            session.add(DmDelivery(guild_id=row.guild_id, tournament_id=row.tournament_id, reminder_id=reminder_id,
                                   user_id=user_id, ok=ok, error=note, at=self._clock()))  # fmt: skip
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
                return False
            return True

    async def finish(self, reminder_id: int, *, outcome: str | None = None) -> None:
        """The row was sent (``outcome`` notes a partial failure, e.g. the channel refused the bot)."""
        async with self._sessionmaker() as session, session.begin():
            await session.execute(
                update(ScheduledReminder)
                .where(col(ScheduledReminder.id) == reminder_id,
                       col(ScheduledReminder.status) == ReminderStatus.CLAIMED.value)
                .values(status=ReminderStatus.DELIVERED.value, delivered_at=self._clock(),
                        outcome=outcome[:200] if outcome else None)
            )  # fmt: skip
