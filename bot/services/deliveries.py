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
from bot.services._base import BaseService, UseCase, id_of, retry_when_locked
from bot.services.clocks import clock_call
from bot.services.schedules import settings_of

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

    def _now(self) -> Instant:
        """The instant due rows and leases are measured against. On PostgreSQL with the system clock (production)
        the database's ``now()``: runners on several machines then agree on what is due and whose lease ran out,
        whatever their own clocks say. A clock a test injects (or SQLite, one process) is the process's."""
        bind = self._sessionmaker.kw.get("bind")  # the engine every session of this service is made on
        if self._clock is utcnow and bind is not None and bind.dialect.name == "postgresql":
            return reminders.database_now()
        return self._clock()

    async def reconcile(self, *, lease: timedelta = LEASE) -> Reconciled:
        """At start-up: pending rows that fell due while no process ran are marked late (they will be sent once,
        saying so). Also reports the claims whose lease ran out — their process stopped before confirming — which a
        runner takes again (or, after ``MAX_ATTEMPTS``, gives up on). A claim within its lease is a live runner's."""
        async with self._sessionmaker() as session, session.begin():  # runner-wide: every server's rows
            now = self._now()
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
                now = self._now()
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
                                                   now=self._now())  # fmt: skip

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
            if row is None or row.status != ReminderStatus.CLAIMED or row.claimed_by != worker[:64]:
                return None
            # the row's use case: its server (nobody acts: the audit's actor is None), about its tournament if any
            uc = UseCase(session, row.guild_id, None, None, self._clock, None)
            uc.config = await uc.guild.config()
            t = await uc.get(Tournament, row.tournament_id) if row.tournament_id else None
            uc = uc.about(t) if t is not None else uc
            locale, _, _ = settings_of(uc.config)
            rnd = await uc.get(Round, row.round_id) if row.round_id else None
            base: dict[str, Any] = {
                "reminder_id": reminder_id, "guild_id": row.guild_id, "kind": row.kind, "locale": locale,
                "due_at": row.due_at, "late": row.late, "channel_id": row.channel_id,
                "tournament_name": t.name if t else None, "message": row.message, "image": row.image,
            }  # fmt: skip
            if row.kind == ReminderKind.ROUND:
                if (
                    rnd is None
                    or rnd.scheduled_start is None
                    or rnd.scheduled_start <= now
                    or rnd.status in (RoundStatus.CLOSED,)
                ):
                    row.status, row.outcome, row.delivered_at = ReminderStatus.DROPPED, "round_started", now
                    log.info("reminder %s dropped: its round had already started at %s", reminder_id,
                             rnd.scheduled_start if rnd else None)  # fmt: skip
                    await uc.audit("schedule.dropped", "scheduled_reminder", reminder_id, due_at=row.due_at.isoformat())
                    return None
                players = await self._round_players(uc, rnd)
                targets = await self._dm_targets(uc, reminder_id, players)
                languages = await uc.members.member_locales(user_ids=targets)
                base |= {
                    "round_number": rnd.number, "round_id": id_of(rnd), "round_start": rnd.scheduled_start,
                    "offset_minutes": row.offset_minutes, "dm_user_ids": targets,
                    "dm_locales": tuple(sorted((u, x) for u, x in languages.items() if x in ("it", "en"))),
                    "missing_check_ins": await self._missing(uc, rnd, players)
                    if (row.offset_minutes or 0) <= CHECK_IN_LIST_OFFSET else (),
                }  # fmt: skip
            elif row.kind == ReminderKind.REGISTRATION_CLOSE:
                closed = False
                if t is not None and t.status == TournamentStatus.REGISTRATION_OPEN:
                    t.status, closed = TournamentStatus.REGISTRATION_CLOSED, True
                    await uc.audit("tournament.registration_closed", "tournament", t.id,
                                   deadline=row.due_at.isoformat(), reminder_id=reminder_id)  # fmt: skip
                elif t is not None and row.attempts > 1:
                    # the first attempt closed registration, then died before posting: say it now
                    closed = await uc.reminders.registration_closed_by(tournament_id=id_of(t), reminder_id=reminder_id)
                base["registration_closed"] = closed
            elif row.kind == ReminderKind.CLOCK:
                details = await self._clock_call(uc, row, now)
                if details is None:
                    row.status, row.outcome, row.delivered_at = ReminderStatus.DROPPED, "clock_moved", now
                    return None
                base |= {"table_number": details.pop("table_number"), "round_number": details.pop("round_number"),
                         "call": row.call, "details": details}  # fmt: skip
            return Delivery(**base)

    async def _clock_call(self, uc: UseCase, row: ScheduledReminder, now: datetime) -> dict[str, Any] | None:
        """The clock's call, also on a resend: the first attempt recorded the time-up on the clock (which makes
        ``clock_call`` see a call already made) and died before posting. Its time-up, recorded at or after this
        row fell due, is set aside for the check and put back, so the resend carries the same call."""
        if row.attempts > 1 and row.call != Announcement.RR_REPLAY.value:
            clock = await uc.clocks.get_table_clock(table_id=row.table_id) if row.table_id is not None else None
            if clock is not None and clock.time_up_at is not None and clock.time_up_at >= row.due_at - LATE_GRACE:
                first = clock.time_up_at
                clock.time_up_at = None
                details = await clock_call(uc, row, now)
                clock.time_up_at = first
                if details is not None and clock.tracker and "current" not in details:
                    tracker = EndState.parse(clock.tracker)  # stepped to the time-up by the first attempt
                    if tracker.time_up and not tracker.ended:
                        details["current"] = tracker.players[tracker.current]
                return details
        return await clock_call(uc, row, now)

    @staticmethod
    async def _round_players(uc: UseCase, rnd: Round) -> list[Registration]:
        """Who the reminder is for: the players seated in the round once it is drawn, else the active entrants of
        the use case's tournament."""
        tables = await uc.rounds.list_tables(round_id=id_of(rnd))
        if tables:
            seats = await uc.rounds.list_seats_for_tables(table_ids=[id_of(x) for x in tables])
            regs = await uc.rounds.registrations_by_ids(ids=[s.registration_id for s in seats])
            return sorted(regs.values(), key=lambda r: r.display_name)
        rows = await uc.registrations.listed(tournament_id=uc.tournament_id)
        active = (RegistrationStatus.REGISTERED, RegistrationStatus.VALIDATED)
        return sorted((r for r in rows if r.status in active), key=lambda r: r.display_name)

    @staticmethod
    async def _dm_targets(uc: UseCase, reminder_id: int, players: list[Registration]) -> tuple[int, ...]:
        """Players with a Discord account, less those already sent this reminder and those whose DMs Discord
        refused earlier in this tournament (they do not accept DMs: never retried in a loop)."""
        skip = await uc.schedules.dm_user_ids_to_skip(tournament_id=uc.tournament_id, reminder_id=reminder_id,
                                                      refused=DM_REFUSED)  # fmt: skip
        return tuple(sorted({r.user_id for r in players if r.user_id is not None and r.user_id not in skip}))

    @staticmethod
    async def _missing(uc: UseCase, rnd: Round, players: list[Registration]) -> tuple[str, ...]:
        checked = {c.registration_id for c in await uc.rounds.list_checkins(round_id=id_of(rnd))}
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
                                                now=self._now(), outcome=outcome)  # fmt: skip
