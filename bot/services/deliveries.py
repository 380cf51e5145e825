"""Delivering the schedule's rows (BOT-SCH-1, BOT-SCH-2): the bot's runner side, for any number of processes on one
database.

* ``reconcile`` at start-up marks the rows that fell due while no process ran as *late*, and reports the claims
  whose lease ran out (their process stopped before confirming);
* ``claim_next`` / ``claim`` take ONE row with one conditional UPDATE … RETURNING: a row that is pending and due, or
  claimed with a lease that ran out (``claimed_at`` older than ``lease``: its process died) and fewer than
  ``MAX_ATTEMPTS`` claims. Each claim counts in ``attempts``. On PostgreSQL the row is picked ``FOR UPDATE SKIP
  LOCKED``, so runners never wait on each other; each row is taken by exactly one process at a time;
* ``renew`` pushes the lease while the runner sends (a slow but live send is never taken over);
* ``prepare`` says what to send — or drops a round reminder whose round has already started (logged, never sent);
  the registration close and a clock's time-up are carried out there, in the same transaction;
* ``record_dm`` keeps one row per reminder and player (a DM recorded is never sent again);
* ``finish`` marks the row delivered, only for the worker that holds the claim.

A process that dies between claim and finish leaves the row ``claimed``; once its lease has run out any live runner
takes it again. What was sent but not recorded is sent again with the same nonce, which Discord answers with the
message already made (the runner's side, :mod:`bot.scheduling`).

Due and lease comparisons read the database's ``now()`` on PostgreSQL when the services run on the system clock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

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
    utcnow,
)
from bot.db.repo import reminders
from bot.db.repo.reminders import Instant
from bot.rules.clock import Announcement
from bot.rules.risiko.endgame import EndState
from bot.rules.schedule import CHECK_IN_LIST_OFFSET
from bot.services._base import BaseService, retry_when_locked
from bot.services.clocks import clock_call
from bot.services.schedules import config_of

log = logging.getLogger(__name__)

LATE_GRACE = timedelta(minutes=2)  # a row due this shortly before a start-up is not called late
# A claim not renewed for this long belongs to a process that died: any runner takes the row again. The runner
# renews it several times per lease while it sends, so only a dead (or cut-off) process loses it.
LEASE = timedelta(seconds=60)
# A row whose sending keeps failing (a crash every time, an error that repeats) is given up after this many claims,
# rather than tried for ever; it stays visible as claimed in /schedule list.
MAX_ATTEMPTS = 5
DM_REFUSED = "forbidden"  # the outcome of a DM Discord refused (the user does not accept DMs from the server)


@dataclass(frozen=True, slots=True)
class Reconciled:
    """What a start-up found: rows newly marked late, and expired claims (retried, or given up on)."""

    late: int
    retried: tuple[int, ...] = ()
    abandoned: tuple[int, ...] = ()


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
    dm_locales: tuple[tuple[int, str], ...] = ()  # (user, language) of the players whose own language is known
    missing_check_ins: tuple[str, ...] = ()
    registration_closed: bool = False
    details: dict[str, Any] | None = None

    def locale_for(self, user_id: int) -> str:
        """The language of the DM to ``user_id``: theirs, as their interactions carried it, else the server's."""
        return dict(self.dm_locales).get(user_id, self.locale)


class DeliveryService(BaseService):
    async def pending(self, *, guild_id: int | None = None, limit: int = 10_000) -> list[tuple[int, datetime]]:
        """Pending rows (of one server, or all), soonest first: the runner plans a wake-up for each."""
        async with self._sessionmaker() as session:  # the runner's: every server by default, nobody acting
            return await reminders.pending_reminders(session=session, guild_id=guild_id, limit=limit)

    def _now(self, session: AsyncSession) -> Instant:
        """The instant due rows and leases are measured against. On PostgreSQL with the system clock (production)
        the database's ``now()``: runners on several machines then agree on what is due and whose lease ran out,
        whatever their own clocks say. A clock a test injects (or SQLite, one process) is the process's."""
        if self._clock is utcnow and session.get_bind().dialect.name == "postgresql":
            return reminders.database_now()
        return self._clock()

    async def reconcile(self, *, lease: timedelta = LEASE) -> Reconciled:
        """At start-up: pending rows that fell due while no process ran are marked late (they will be sent once,
        saying so). Also reports the claims whose lease ran out — their process stopped before confirming — which a
        runner takes again (or, after ``MAX_ATTEMPTS``, gives up on). A claim within its lease is a live runner's."""
        async with self._sessionmaker() as session, session.begin():  # runner-wide: every server's rows
            now = self._now(session)
            late = await reminders.mark_late(session=session, due_before=now - LATE_GRACE)
            expired = await reminders.expired_claims(session=session, stale_before=now - lease)
        return Reconciled(
            late=late,
            retried=tuple(i for i, attempts in expired if attempts < MAX_ATTEMPTS),
            abandoned=tuple(i for i, attempts in expired if attempts >= MAX_ATTEMPTS),
        )

    async def claim(self, reminder_id: int, worker: str, *, lease: timedelta = LEASE) -> bool:
        """Take row ``reminder_id`` for ``worker`` if it is claimable (due, or its claim's lease ran out); False when
        another process (or an earlier wake-up) holds it, or it is not due."""
        return await self._claim(worker, lease, reminder_id) is not None

    async def claim_next(self, worker: str, *, lease: timedelta = LEASE) -> int | None:
        """Take the soonest claimable row for ``worker``: one row at a time, so a process that dies holds at most
        one row, which any runner takes again once the lease has run out."""
        return await self._claim(worker, lease, None)

    async def _claim(self, worker: str, lease: timedelta, reminder_id: int | None) -> int | None:
        async def attempt() -> tuple[int, int] | None:
            # runner-wide (any server's row), one short transaction per claim
            async with self._sessionmaker() as session, session.begin():
                now = self._now(session)
                return await reminders.claim_reminder(session=session, worker=worker, now=now,
                                                      stale_before=now - lease, max_attempts=MAX_ATTEMPTS,
                                                      reminder_id=reminder_id)  # fmt: skip

        won = await retry_when_locked(attempt)
        if won is None:
            return None
        taken, attempts = won
        if attempts > 1:
            log.warning("reminder %s taken again by %s (attempt %d): its previous claim's lease ran out", taken,
                        worker, attempts)  # fmt: skip
        return taken

    async def renew(self, reminder_id: int, worker: str) -> bool:
        """Renew ``worker``'s lease on a row it is sending; False when it lost the claim (another runner took it)."""

        async def attempt() -> bool:
            async with self._sessionmaker() as session, session.begin():  # runner-wide: a lease, no server
                return await reminders.renew_claim(session=session, reminder_id=reminder_id, worker=worker,
                                                   now=self._now(session))  # fmt: skip

        return await retry_when_locked(attempt)

    async def prepare(self, reminder_id: int, worker: str) -> Delivery | None:
        """What to send for a row ``worker`` holds; None when it is dropped (its round already started) — logged,
        never sent — or the claim is no longer ``worker``'s. The registration close and a clock's time-up are
        carried out here, in the same transaction; a resend after a crash (``attempts`` > 1) still announces what
        its first attempt carried out."""
        now = self._clock()
        # runner-wide: the row's server is known only once it is read; nobody acts (the audit's actor is None)
        async with self._sessionmaker() as session, session.begin():
            # locked (PostgreSQL): a runner taking the row over after an expired lease waits for this transaction
            row = await session.get(ScheduledReminder, reminder_id, with_for_update=True)
            if row is None or row.status != ReminderStatus.CLAIMED.value or row.claimed_by != worker[:64]:
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
                targets = await self._dm_targets(session, t, reminder_id, players)
                languages = await repo.member_locales(session=session, guild_id=row.guild_id, user_ids=targets)
                base |= {
                    "round_number": rnd.number, "round_id": rnd.id, "round_start": rnd.scheduled_start,
                    "offset_minutes": row.offset_minutes, "dm_user_ids": targets,
                    "dm_locales": tuple(sorted((u, x) for u, x in languages.items() if x in ("it", "en"))),
                    "missing_check_ins": await self._missing(session, rnd, players)
                    if (row.offset_minutes or 0) <= CHECK_IN_LIST_OFFSET else (),
                }  # fmt: skip
            elif row.kind == ReminderKind.REGISTRATION_CLOSE.value:
                closed = False
                if t is not None and t.status == TournamentStatus.REGISTRATION_OPEN.value:
                    t.status, closed = TournamentStatus.REGISTRATION_CLOSED.value, True
                    await repo.add_audit(session=session, guild_id=row.guild_id, actor_id=None,
                                         action="tournament.registration_closed", entity="tournament",
                                         entity_id=t.id, details={"deadline": row.due_at.isoformat(),
                                                                  "reminder_id": reminder_id})  # fmt: skip
                elif t is not None and t.id is not None and row.attempts > 1:
                    # the first attempt closed registration, then died before posting: say it now
                    closed = await reminders.registration_closed_by(
                        session=session, guild_id=row.guild_id, tournament_id=t.id, reminder_id=reminder_id
                    )
                base["registration_closed"] = closed
            elif row.kind == ReminderKind.CLOCK.value:
                details = await self._clock_call(session, row, now)
                if details is None:
                    row.status, row.outcome, row.delivered_at = ReminderStatus.DROPPED.value, "clock_moved", now
                    return None
                base |= {"table_number": details.pop("table_number"), "round_number": details.pop("round_number"),
                         "call": row.call, "details": details}  # fmt: skip
            return Delivery(**base)

    async def _clock_call(self, session: AsyncSession, row: ScheduledReminder, now: datetime) -> dict[str, Any] | None:
        """The clock's call, also on a resend: the first attempt recorded the time-up on the clock (which makes
        ``clock_call`` see a call already made) and died before posting. Its time-up, recorded at or after this
        row fell due, is set aside for the check and put back, so the resend carries the same call."""
        if row.attempts > 1 and row.call != Announcement.RR_REPLAY.value:
            clock = (
                await repo.get_table_clock(session=session, guild_id=row.guild_id, table_id=row.table_id)
                if row.table_id is not None
                else None
            )
            if clock is not None and clock.time_up_at is not None and clock.time_up_at >= row.due_at - LATE_GRACE:
                first = clock.time_up_at
                clock.time_up_at = None
                details = await clock_call(session, row, now)
                clock.time_up_at = first
                if details is not None and clock.tracker and "current" not in details:
                    tracker = EndState.parse(clock.tracker)  # stepped to the time-up by the first attempt
                    if tracker.time_up and not tracker.ended:
                        details["current"] = tracker.players[tracker.current]
                return details
        return await clock_call(session, row, now)

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
        skip = await repo.dm_user_ids_to_skip(session=session, guild_id=t.guild_id, tournament_id=t.id,
                                              reminder_id=reminder_id, refused=DM_REFUSED)  # fmt: skip
        return tuple(sorted({r.user_id for r in players if r.user_id is not None and r.user_id not in skip}))

    async def _missing(self, session: AsyncSession, rnd: Round, players: list[Registration]) -> tuple[str, ...]:
        assert rnd.id is not None
        checked = {c.registration_id for c in await repo.list_checkins(session=session, guild_id=rnd.guild_id,
                                                                       round_id=rnd.id)}  # fmt: skip
        return tuple(r.display_name for r in players if r.id not in checked)

    async def record_dm(self, reminder_id: int, user_id: int, *, ok: bool, error: str | None = None) -> bool:
        """One row per reminder and player; False when it was already recorded (nothing is sent twice)."""
        async with self._sessionmaker() as session:  # runner-wide: its own short commit, the row names the server
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

    async def finish(self, reminder_id: int, worker: str, *, outcome: str | None = None) -> bool:
        """The row was sent (``outcome`` notes a partial failure, e.g. the channel refused the bot). Only the worker
        holding the claim confirms it: False (and nothing changes) for one whose lease ran out and was taken over."""
        async with self._sessionmaker() as session, session.begin():  # runner-wide: a confirmation, no server
            return await reminders.finish_claim(session=session, reminder_id=reminder_id, worker=worker,
                                                now=self._now(session), outcome=outcome)  # fmt: skip
