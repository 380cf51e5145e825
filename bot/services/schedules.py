"""Schedules and reminders (BOT-SCH-1, BOT-REG-2's deadline): every one is a ``ScheduledReminder`` row.

Organizer use cases: a round's start (its reminders follow it), an announcement at a time, the registration deadline
(registration closes by itself), the tournament's reminder offsets, the server's time zone, the list and cancel.
Times typed by a user arrive naive (the server's wall clock) and are read in the server's zone by
:func:`bot.rules.schedule.wall_clock_to_utc`, which refuses the hour skipped or repeated by daylight saving time.

Delivering the rows is :mod:`bot.services.deliveries`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import (
    GameTable,
    GuildConfig,
    ReminderKind,
    Round,
    RoundKind,
    RoundStatus,
    ScheduledReminder,
    Tournament,
    TournamentStatus,
)
from bot.errors import Conflict, InvalidInput, NotFound
from bot.rules.presets import PresetFieldError
from bot.rules.ruleset import load_ruleset
from bot.rules.schedule import (
    DstRefusal,
    ScheduleError,
    check_future,
    check_offsets,
    reminder_plan,
    wall_clock_to_utc,
    zone,
)
from bot.services._base import BaseService, clean_text, tournament_or_404
from bot.services.access import Actor, StaffRole

log = logging.getLogger(__name__)

ANNOUNCEMENT_MAX = 1800  # the message, leaving room for the header in Discord's 2000
IMAGES = ("tables", "standings")


def schedule_refusal(exc: ScheduleError, tz_name: str | None = None) -> InvalidInput:
    """A time or an offset the rules refuse, as one localised line. A DST refusal names the zone and offers the
    nearest wall-clock times that exist (the gap) or says the hour happens twice (the fold). A time is echoed on the
    server's clock (``tz_name``), as it was typed, never in UTC (issue 44)."""
    if isinstance(exc, DstRefusal):
        tz = zone(exc.zone_name)
        return InvalidInput(
            f"error.schedule.{exc.code}",
            value=f"{exc.value:%Y-%m-%d %H:%M}",
            zone=exc.zone_name,
            before=f"{exc.before.astimezone(tz):%H:%M}",
            after=f"{exc.after.astimezone(tz):%H:%M}",
        )
    if isinstance(exc.value, datetime) and tz_name is not None:
        value = f"{exc.value.astimezone(zone(tz_name)):%Y-%m-%d %H:%M}"
    elif isinstance(exc.value, datetime):
        value = f"{exc.value:%Y-%m-%d %H:%M} UTC"
    else:
        value = str(exc.value)[:40]
    return InvalidInput(f"error.schedule.{exc.code}", value=value)


@dataclass(frozen=True, slots=True)
class ReminderLine:
    reminder_id: int
    kind: str
    status: str
    tournament_name: str | None
    round_number: int | None
    table_number: int | None
    due_at: datetime
    offset_minutes: int | None
    call: str | None
    image: str | None
    message: str | None
    late: bool
    claimed_at: datetime | None
    claimed_by: str | None
    delivered_at: datetime | None
    outcome: str | None
    attempts: int = 0  # claims so far: more than one when a runner died and another sent it again


@dataclass(frozen=True, slots=True)
class ScheduleList:
    timezone: str
    pending: tuple[ReminderLine, ...]  # pending and claimed-but-unconfirmed rows, soonest first
    recent: tuple[ReminderLine, ...]  # the latest deliveries and drops, newest first


@dataclass(frozen=True, slots=True)
class RoundSchedule:
    tournament_name: str
    round_id: int
    round_number: int
    start: datetime
    previous_start: datetime | None
    reminders: tuple[ReminderLine, ...]
    discord_event_id: int | None
    timezone: str


def settings_of(config: GuildConfig | None) -> tuple[str, str, int | None]:
    """A server's locale, time zone and announcement channel (the defaults before /setup)."""
    if config is None:
        return "it", "Europe/Rome", None
    return config.locale, config.timezone, config.announcement_channel_id


async def config_of(session: AsyncSession, guild_id: int) -> tuple[str, str, int | None]:
    return settings_of(await repo.get_guild_config(session=session, guild_id=guild_id))


async def server_instant(session: AsyncSession, guild_id: int, when: datetime) -> datetime:
    """A user's time as an aware instant: naive means the server's wall clock (its zone, DST refused)."""
    if when.tzinfo is not None:
        return when
    _, tz_name, _ = await config_of(session, guild_id)
    try:
        return wall_clock_to_utc(when, tz_name)
    except ScheduleError as exc:
        raise schedule_refusal(exc) from None


def local_instant(when: datetime, tz_name: str, now: datetime) -> datetime:
    """A user's time (naive: the server's wall clock) as a future aware instant, or a localised refusal."""
    try:
        return check_future(wall_clock_to_utc(when, tz_name), now)
    except ScheduleError as exc:
        raise schedule_refusal(exc, tz_name) from None


async def planned_round(session: AsyncSession, t: Tournament, now: datetime, *, number: int | None = None) -> Round:
    """The tournament's planned next qualifying round, created when there is none: the one place ``/round plan`` and
    ``/schedule round`` open a round (none after the finals began). ``number``: the round after the last one is
    opened even beside a planned one (a championship's evenings dated ahead, issue 47)."""
    assert t.id is not None
    rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=t.id))
    if any(r.kind != RoundKind.QUALIFYING.value for r in rounds):
        raise Conflict("error.round_after_finals", tournament=t.name)
    r = None if number is not None else next((x for x in rounds if x.status == RoundStatus.PLANNED.value), None)
    if r is None:
        following = max((x.number for x in rounds), default=0) + 1
        r = Round(guild_id=t.guild_id, tournament_id=t.id, number=following, created_at=now)
        session.add(r)
        try:
            async with session.begin_nested():
                await session.flush()
        except IntegrityError:  # another organizer opened it at the same moment
            raise Conflict("error.round_already_drawn", number=following, status="planned") from None
    return r


async def plan_round_reminders(
    session: AsyncSession, t: Tournament, r: Round, now: datetime, created_by: int | None
) -> list[ScheduledReminder]:
    """Cancel the round's pending reminders and plan new ones from its start and the tournament's offsets: the one
    place reminders follow a start (``/schedule round``, and the demo's planned rounds, come here)."""
    assert r.id is not None
    await repo.cancel_round_reminders(session=session, guild_id=r.guild_id, round_id=r.id, outcome="round_moved")
    if r.scheduled_start is None:
        return []
    offsets = load_ruleset(t.preset, t.overrides or None).tournament.reminder_offsets_minutes
    _, _, channel = await config_of(session, t.guild_id)
    rows = [
        ScheduledReminder(
            guild_id=t.guild_id,
            tournament_id=t.id,
            round_id=r.id,
            kind=ReminderKind.ROUND.value,
            offset_minutes=p.offset_minutes,
            channel_id=channel,
            due_at=p.due_at,
            created_by=created_by,
            created_at=now,
        )
        for p in reminder_plan(r.scheduled_start, offsets, now)
    ]
    session.add_all(rows)
    await session.flush()
    return rows


async def plan_registration_close(
    session: AsyncSession, t: Tournament, now: datetime, created_by: int | None
) -> ScheduledReminder | None:
    """The registration deadline as a row: registration closes by itself when it falls due (BOT-REG-2)."""
    assert t.id is not None
    await repo.cancel_registration_close(session=session, guild_id=t.guild_id, tournament_id=t.id,
                                         outcome="deadline_moved")  # fmt: skip
    if t.registration_deadline is None:
        return None
    _, _, channel = await config_of(session, t.guild_id)
    row = ScheduledReminder(
        guild_id=t.guild_id,
        tournament_id=t.id,
        kind=ReminderKind.REGISTRATION_CLOSE.value,
        channel_id=channel,
        due_at=t.registration_deadline,
        created_by=created_by,
        created_at=now,
    )
    session.add(row)
    await session.flush()
    return row


async def _lines(session: AsyncSession, rows: Sequence[ScheduledReminder]) -> list[ReminderLine]:
    out: list[ReminderLine] = []
    names: dict[int, str] = {}
    for row in rows:
        assert row.id is not None
        name = None
        if row.tournament_id is not None:
            if row.tournament_id not in names:
                t = await session.get(Tournament, row.tournament_id)
                names[row.tournament_id] = t.name if t else "?"
            name = names[row.tournament_id]
        rnd = await session.get(Round, row.round_id) if row.round_id else None
        table = await session.get(GameTable, row.table_id) if row.table_id else None
        if table is not None and rnd is None:
            rnd = await session.get(Round, table.round_id)
        out.append(
            ReminderLine(
                reminder_id=row.id, kind=row.kind, status=row.status, tournament_name=name,
                round_number=rnd.number if rnd else None, table_number=table.number if table else None,
                due_at=row.due_at, offset_minutes=row.offset_minutes, call=row.call, image=row.image,
                message=row.message, late=row.late, claimed_at=row.claimed_at, claimed_by=row.claimed_by,
                delivered_at=row.delivered_at, outcome=row.outcome, attempts=row.attempts,
            )
        )  # fmt: skip
    return out


class ScheduleService(BaseService):
    # ------------------------------------------------------------------------------------ organizer use cases

    async def timezone(self, guild_id: int) -> str:
        async with self.run(guild_id) as uc:
            return settings_of(uc.config)[1]

    async def set_timezone(self, actor: Actor, name: str) -> str:
        """The zone schedules are typed in (IANA name, e.g. Europe/Rome); pending rows keep their instants."""
        try:
            tz = zone(name.strip())
        except ScheduleError as exc:
            raise schedule_refusal(exc) from None
        async with self.run(actor, role=StaffRole.ADMIN) as uc:  # a server setting, like the roles (/setup)
            config = await repo.get_or_create_guild_config(
                session=uc.session, guild_id=actor.guild_id, locale=actor.locale
            )
            config.timezone = tz.key
            config.updated_at = uc.clock()
            await uc.audit("schedule.timezone", "guild", config.id, timezone=tz.key)
            return tz.key

    async def schedule_round(
        self, actor: Actor, *, tournament: str, start: datetime, number: int | None = None
    ) -> RoundSchedule:
        """Set a round's start (the latest round not yet closed, or round ``number``; a new planned round when every
        round is closed) and plan its reminders. A round already under way cannot move."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            session, t, now = uc.session, uc.tournament, uc.clock()
            _, tz_name, _ = settings_of(uc.config)
            when = local_instant(start, tz_name, now)
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=uc.tournament_id))
            if number is not None:
                r = next((x for x in rounds if x.number == number), None)
                if r is None and number == max((x.number for x in rounds), default=0) + 1:
                    # the evenings of a championship dated ahead (issue 47): the next round opens, planned
                    r = await planned_round(session, t, now, number=number)
                if r is None:
                    raise NotFound("error.round_not_found", number=number, tournament=t.name)
            else:
                r = next((x for x in reversed(rounds) if x.status != RoundStatus.CLOSED.value), None)
            if r is None:
                r = await planned_round(session, t, now)
            if r.status == RoundStatus.CLOSED.value or (
                r.status == RoundStatus.PUBLISHED.value and r.scheduled_start is not None and r.scheduled_start <= now
            ):
                raise Conflict("error.schedule.round_started", number=r.number)
            previous = r.scheduled_start
            r.scheduled_start = when
            rows = await plan_round_reminders(session, t, r, now, actor.user_id)
            await uc.audit("schedule.round", "round", r.id, tournament=t.name, number=r.number,
                           start=when.isoformat(), previous=previous.isoformat() if previous else None)  # fmt: skip
            assert r.id is not None
            return RoundSchedule(
                tournament_name=t.name, round_id=r.id, round_number=r.number, start=when, previous_start=previous,
                reminders=tuple(await _lines(session, rows)), discord_event_id=r.discord_event_id, timezone=tz_name,
            )  # fmt: skip

    async def clear_round(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundSchedule:
        """Withdraw a round's start before it begins: its reminders are cancelled (and the cog cancels its
        Discord event)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            session, t, now = uc.session, uc.tournament, uc.clock()
            rounds = list(await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=uc.tournament_id))
            open_rounds = [x for x in rounds if x.status != RoundStatus.CLOSED.value and x.scheduled_start is not None]
            r = next((x for x in reversed(open_rounds) if number is None or x.number == number), None)
            if r is None or r.id is None or r.scheduled_start is None:
                raise NotFound("error.schedule.round_not_scheduled", tournament=t.name)
            if r.status == RoundStatus.PUBLISHED.value and r.scheduled_start <= now:
                raise Conflict("error.schedule.round_started", number=r.number)
            previous, r.scheduled_start = r.scheduled_start, None
            await plan_round_reminders(session, t, r, now, actor.user_id)
            _, tz_name, _ = settings_of(uc.config)
            await uc.audit("schedule.clear_round", "round", r.id, tournament=t.name, number=r.number,
                           previous=previous.isoformat())  # fmt: skip
            return RoundSchedule(tournament_name=t.name, round_id=r.id, round_number=r.number, start=previous,
                                 previous_start=previous, reminders=(), discord_event_id=r.discord_event_id,
                                 timezone=tz_name)  # fmt: skip

    async def schedule_announcement(
        self,
        actor: Actor,
        *,
        tournament: str,
        at: datetime,
        text: str,
        image: str | None = None,
        channel_id: int | None = None,
    ) -> ReminderLine:
        """Post ``text`` (and the tournament's tables, standings or bracket image) at ``at``."""
        body = clean_text(text, field="text", max_len=ANNOUNCEMENT_MAX)
        if image is not None and image not in IMAGES:
            raise InvalidInput("error.schedule.image_unknown", value=str(image)[:20], allowed=", ".join(IMAGES))
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            session, t, now = uc.session, uc.tournament, uc.clock()
            _, tz_name, channel = settings_of(uc.config)
            when = local_instant(at, tz_name, now)
            if channel_id is None and channel is None:
                raise Conflict("error.schedule.no_channel")
            row = ScheduledReminder(
                guild_id=t.guild_id, tournament_id=t.id, kind=ReminderKind.ANNOUNCEMENT.value, image=image,
                channel_id=channel_id or channel, message=body, due_at=when, created_by=actor.user_id, created_at=now,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            await uc.audit("schedule.announcement", "scheduled_reminder", row.id, tournament=t.name,
                           at=when.isoformat(), image=image)  # fmt: skip
            return (await _lines(session, [row]))[0]

    async def set_deadline(self, actor: Actor, *, tournament: str, at: datetime) -> ReminderLine:
        """The registration deadline (BOT-REG-2): later registrations are refused, and registration closes then."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            session, t, now = uc.session, uc.tournament, uc.clock()
            if t.status != TournamentStatus.REGISTRATION_OPEN.value:
                raise Conflict("error.schedule.registration_not_open", tournament=t.name)
            _, tz_name, _ = settings_of(uc.config)
            t.registration_deadline = local_instant(at, tz_name, now)
            row = await plan_registration_close(session, t, now, actor.user_id)
            assert row is not None
            await uc.audit("schedule.deadline", "tournament", t.id, deadline=t.registration_deadline.isoformat())
            return (await _lines(session, [row]))[0]

    async def set_reminders(self, actor: Actor, *, tournament: str, offsets: tuple[int, ...]) -> tuple[int, ...]:
        """The tournament's reminder offsets (minutes before each round); pending reminders are planned anew."""
        try:
            chosen = check_offsets(offsets)
        except ScheduleError as exc:
            raise schedule_refusal(exc) from None
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            session, t, now = uc.session, uc.tournament, uc.clock()
            overrides = {k: dict(v) if isinstance(v, dict) else v for k, v in (t.overrides or {}).items()}
            overrides.setdefault("tournament", {})["reminder_offsets_minutes"] = list(chosen)
            try:
                load_ruleset(t.preset, overrides)
            except PresetFieldError as exc:  # pragma: no cover - check_offsets refused it already
                raise InvalidInput("error.schedule.offset_invalid", value=str(exc)[:40]) from None
            t.overrides = overrides
            for r in await repo.list_rounds(session=session, guild_id=t.guild_id, tournament_id=uc.tournament_id):
                if r.status != RoundStatus.CLOSED.value and r.scheduled_start is not None and r.scheduled_start > now:
                    await plan_round_reminders(session, t, r, now, actor.user_id)
            await uc.audit("schedule.reminders", "tournament", t.id, offsets=list(chosen))
            return chosen

    async def cancel(self, actor: Actor, reminder_id: int) -> ReminderLine:
        """Cancel one pending row (an announcement, a reminder, the registration close)."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            session = uc.session
            row = await session.get(ScheduledReminder, reminder_id) if 0 < reminder_id < 2**31 else None
            if row is None or row.guild_id != actor.guild_id:
                raise NotFound("error.schedule.not_found", id=reminder_id)
            if not await repo.cancel_pending_reminder(session=session, guild_id=actor.guild_id,
                                                      reminder_id=reminder_id,
                                                      outcome=f"cancelled_by:{actor.user_id}"):  # fmt: skip
                raise Conflict("error.schedule.not_pending", id=reminder_id, status=row.status)
            await session.refresh(row)
            await uc.audit("schedule.cancel", "scheduled_reminder", reminder_id, kind=row.kind)
            return (await _lines(session, [row]))[0]

    async def overview(self, actor: Actor, *, tournament: str | None = None, recent: int = 5) -> ScheduleList:
        """Every pending (or claimed, unconfirmed) row with its time, and the latest deliveries (staff only)."""
        async with self.run(actor) as uc:
            session = uc.session
            if not (uc.has_role(StaffRole.ORGANIZER) or uc.has_role(StaffRole.REFEREE)):
                uc.require(StaffRole.ORGANIZER)
            tid: int | None = None
            if tournament is not None:  # looked up after the role check
                tid = (await tournament_or_404(session, actor.guild_id, tournament)).id
            open_rows = await repo.open_reminders(session=session, guild_id=actor.guild_id, tournament_id=tid)
            done_rows = await repo.recent_reminders(session=session, guild_id=actor.guild_id, tournament_id=tid,
                                                    limit=recent)  # fmt: skip
            return ScheduleList(
                timezone=settings_of(uc.config)[1],
                pending=tuple(await _lines(session, open_rows)),
                recent=tuple(await _lines(session, done_rows)),
            )

    async def set_round_event(self, guild_id: int, round_id: int, event_id: int | None) -> None:
        """Remember the Discord scheduled event made for a round (None: it was cancelled)."""
        async with self.run(guild_id) as uc:
            r = await repo.get_round_by_id(session=uc.session, guild_id=guild_id, round_id=round_id)
            if r is not None:
                r.discord_event_id = event_id

    async def events_refused(self, guild_id: int) -> bool:
        """Record that the bot may not create Discord events here; True the first time (say so once)."""
        async with self.run(guild_id) as uc:
            config = await repo.get_or_create_guild_config(session=uc.session, guild_id=guild_id, locale="it")
            return await repo.mark_events_refused(session=uc.session, guild_id=guild_id, config_id=config.id,
                                                  at=uc.clock())  # fmt: skip
