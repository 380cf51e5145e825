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
from bot.rules.schedule import (
    DstRefusal,
    ScheduleError,
    check_future,
    check_offsets,
    reminder_plan,
    wall_clock_to_utc,
    zone,
)
from bot.services._base import BaseService, UseCase, clean_text, id_of
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


def server_instant(config: GuildConfig | None, when: datetime) -> datetime:
    """A user's time as an aware instant: naive means the server's wall clock (``config``'s zone, DST refused)."""
    if when.tzinfo is not None:
        return when
    _, tz_name, _ = settings_of(config)
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


async def planned_round(uc: UseCase, now: datetime, *, number: int | None = None) -> Round:
    """The tournament's planned next qualifying round, created when there is none: the one place ``/round plan`` and
    ``/schedule round`` open a round (none after the finals began). ``number``: the round after the last one is
    opened even beside a planned one (a championship's evenings dated ahead, issue 47)."""
    t, tid = uc.tournament, uc.tournament_id
    rounds = list(await uc.rounds.list_rounds(tournament_id=tid))
    if any(r.kind != RoundKind.QUALIFYING for r in rounds):
        raise Conflict("error.round_after_finals", tournament=t.name)
    r = None if number is not None else next((x for x in rounds if x.status == RoundStatus.PLANNED), None)
    if r is None:
        following = max((x.number for x in rounds), default=0) + 1
        r = Round(guild_id=t.guild_id, tournament_id=tid, number=following, created_at=now)
        uc.add(r)
        try:
            async with uc.savepoint():
                await uc.flush()
        except IntegrityError:  # another organizer opened it at the same moment
            raise Conflict("error.round_already_drawn", number=following, status="planned") from None
    return r


async def plan_round_reminders(uc: UseCase, r: Round, now: datetime) -> list[ScheduledReminder]:
    """Cancel the round's pending reminders and plan new ones from its start and the tournament's offsets: the one
    place reminders follow a start (``/schedule round``, and the demo's planned rounds, come here). Made by the use
    case's actor."""
    t = uc.tournament
    await uc.schedules.cancel_round_reminders(round_id=id_of(r), outcome="round_moved")
    if r.scheduled_start is None:
        return []
    offsets = uc.rules.tournament.reminder_offsets_minutes
    _, _, channel = settings_of(uc.config)
    rows = [
        ScheduledReminder(
            guild_id=t.guild_id,
            tournament_id=t.id,
            round_id=r.id,
            kind=ReminderKind.ROUND,
            offset_minutes=p.offset_minutes,
            channel_id=channel,
            due_at=p.due_at,
            created_by=uc.user_id,
            created_at=now,
        )
        for p in reminder_plan(r.scheduled_start, offsets, now)
    ]
    uc.add_all(rows)
    await uc.flush()
    return rows


async def plan_registration_close(uc: UseCase, t: Tournament, now: datetime) -> ScheduledReminder | None:
    """``t``'s registration deadline as a row, made by the use case's actor: registration closes by itself when it
    falls due (BOT-REG-2). None (and the row planned before cancelled) without a deadline."""
    if t.registration_deadline is None:
        await uc.schedules.cancel_registration_close(tournament_id=id_of(t), outcome="deadline_moved")
        return None
    return await _move_registration_close(uc, t, t.registration_deadline, now)


async def _move_registration_close(uc: UseCase, t: Tournament, deadline: datetime, now: datetime) -> ScheduledReminder:
    """The row planned for ``t``'s registration close cancelled, and a new one at ``deadline``."""
    await uc.schedules.cancel_registration_close(tournament_id=id_of(t), outcome="deadline_moved")
    _, _, channel = settings_of(uc.config)
    return await uc.insert(
        ScheduledReminder(
            guild_id=t.guild_id,
            tournament_id=id_of(t),
            kind=ReminderKind.REGISTRATION_CLOSE,
            channel_id=channel,
            due_at=deadline,
            created_by=uc.user_id,
            created_at=now,
        )
    )


async def _lines(uc: UseCase, rows: Sequence[ScheduledReminder]) -> list[ReminderLine]:
    out: list[ReminderLine] = []
    names: dict[int, str] = {}
    for row in rows:
        name = None
        if row.tournament_id is not None:
            if row.tournament_id not in names:
                t = await uc.get(Tournament, row.tournament_id)
                names[row.tournament_id] = t.name if t else "?"
            name = names[row.tournament_id]
        rnd = await uc.get(Round, row.round_id) if row.round_id else None
        table = await uc.get(GameTable, row.table_id) if row.table_id else None
        if table is not None and rnd is None:
            rnd = await uc.get(Round, table.round_id)
        out.append(
            ReminderLine(
                reminder_id=id_of(row), kind=row.kind, status=row.status, tournament_name=name,
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
            config = await uc.guild.config_or_create(locale=actor.locale)
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
            t, now = uc.tournament, uc.clock()
            _, tz_name, _ = settings_of(uc.config)
            when = local_instant(start, tz_name, now)
            rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
            if number is not None:
                r = next((x for x in rounds if x.number == number), None)
                if r is None and number == max((x.number for x in rounds), default=0) + 1:
                    # the evenings of a championship dated ahead (issue 47): the next round opens, planned
                    r = await planned_round(uc, now, number=number)
                if r is None:
                    raise NotFound("error.round_not_found", number=number, tournament=t.name)
            else:
                r = next((x for x in reversed(rounds) if x.status != RoundStatus.CLOSED), None)
            if r is None:
                r = await planned_round(uc, now)
            if r.status == RoundStatus.CLOSED or (
                r.status == RoundStatus.PUBLISHED and r.scheduled_start is not None and r.scheduled_start <= now
            ):
                raise Conflict("error.schedule.round_started", number=r.number)
            previous = r.scheduled_start
            r.scheduled_start = when
            rows = await plan_round_reminders(uc, r, now)
            await uc.audit("schedule.round", "round", r.id, tournament=t.name, number=r.number,
                           start=when.isoformat(), previous=previous.isoformat() if previous else None)  # fmt: skip
            return RoundSchedule(
                tournament_name=t.name, round_id=id_of(r), round_number=r.number, start=when, previous_start=previous,
                reminders=tuple(await _lines(uc, rows)), discord_event_id=r.discord_event_id, timezone=tz_name,
            )  # fmt: skip

    async def clear_round(self, actor: Actor, *, tournament: str, number: int | None = None) -> RoundSchedule:
        """Withdraw a round's start before it begins: its reminders are cancelled (and the cog cancels its
        Discord event)."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t, now = uc.tournament, uc.clock()
            rounds = list(await uc.rounds.list_rounds(tournament_id=uc.tournament_id))
            open_rounds = [x for x in rounds if x.status != RoundStatus.CLOSED and x.scheduled_start is not None]
            r = next((x for x in reversed(open_rounds) if number is None or x.number == number), None)
            if r is None or r.scheduled_start is None:
                raise NotFound("error.schedule.round_not_scheduled", tournament=t.name)
            if r.status == RoundStatus.PUBLISHED and r.scheduled_start <= now:
                raise Conflict("error.schedule.round_started", number=r.number)
            previous, r.scheduled_start = r.scheduled_start, None
            await plan_round_reminders(uc, r, now)
            _, tz_name, _ = settings_of(uc.config)
            await uc.audit("schedule.clear_round", "round", r.id, tournament=t.name, number=r.number,
                           previous=previous.isoformat())  # fmt: skip
            return RoundSchedule(tournament_name=t.name, round_id=id_of(r), round_number=r.number, start=previous,
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
            t, now = uc.tournament, uc.clock()
            _, tz_name, channel = settings_of(uc.config)
            when = local_instant(at, tz_name, now)
            if channel_id is None and channel is None:
                raise Conflict("error.schedule.no_channel")
            row = await uc.insert(ScheduledReminder(
                guild_id=t.guild_id, tournament_id=uc.tournament_id, kind=ReminderKind.ANNOUNCEMENT, image=image,
                channel_id=channel_id or channel, message=body, due_at=when, created_by=actor.user_id, created_at=now,
            ))  # fmt: skip
            await uc.audit("schedule.announcement", "scheduled_reminder", row.id, tournament=t.name,
                           at=when.isoformat(), image=image)  # fmt: skip
            return (await _lines(uc, [row]))[0]

    async def set_deadline(self, actor: Actor, *, tournament: str, at: datetime) -> ReminderLine:
        """The registration deadline (BOT-REG-2): later registrations are refused, and registration closes then."""
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t, now = uc.tournament, uc.clock()
            if t.status != TournamentStatus.REGISTRATION_OPEN:
                raise Conflict("error.schedule.registration_not_open", tournament=t.name)
            _, tz_name, _ = settings_of(uc.config)
            deadline = t.registration_deadline = local_instant(at, tz_name, now)
            row = await _move_registration_close(uc, t, deadline, now)
            await uc.audit("schedule.deadline", "tournament", t.id, deadline=deadline.isoformat())
            return (await _lines(uc, [row]))[0]

    async def set_reminders(self, actor: Actor, *, tournament: str, offsets: tuple[int, ...]) -> tuple[int, ...]:
        """The tournament's reminder offsets (minutes before each round); pending reminders are planned anew."""
        try:
            chosen = check_offsets(offsets)
        except ScheduleError as exc:
            raise schedule_refusal(exc) from None
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            t, now = uc.tournament, uc.clock()
            overrides = {k: dict(v) if isinstance(v, dict) else v for k, v in (t.overrides or {}).items()}
            overrides.setdefault("tournament", {})["reminder_offsets_minutes"] = list(chosen)
            try:
                uc.change_overrides(overrides)  # the reminders below follow the new offsets
            except PresetFieldError as exc:  # pragma: no cover - check_offsets refused it already
                raise InvalidInput("error.schedule.offset_invalid", value=str(exc)[:40]) from None
            for r in await uc.rounds.list_rounds(tournament_id=uc.tournament_id):
                if r.status != RoundStatus.CLOSED and r.scheduled_start is not None and r.scheduled_start > now:
                    await plan_round_reminders(uc, r, now)
            await uc.audit("schedule.reminders", "tournament", t.id, offsets=list(chosen))
            return chosen

    async def cancel(self, actor: Actor, reminder_id: int) -> ReminderLine:
        """Cancel one pending row (an announcement, a reminder, the registration close)."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            row = await uc.get(ScheduledReminder, reminder_id) if 0 < reminder_id < 2**31 else None
            if row is None:
                raise NotFound("error.schedule.not_found", id=reminder_id)
            if not await uc.schedules.cancel_pending_reminder(reminder_id=reminder_id,
                                                              outcome=f"cancelled_by:{actor.user_id}"):  # fmt: skip
                raise Conflict("error.schedule.not_pending", id=reminder_id, status=row.status)
            await uc.refresh(row)
            await uc.audit("schedule.cancel", "scheduled_reminder", reminder_id, kind=row.kind)
            return (await _lines(uc, [row]))[0]

    async def overview(self, actor: Actor, *, tournament: str | None = None, recent: int = 5) -> ScheduleList:
        """Every pending (or claimed, unconfirmed) row with its time, and the latest deliveries (staff only)."""
        async with self.run(actor) as uc:
            if not (uc.has_role(StaffRole.ORGANIZER) or uc.has_role(StaffRole.REFEREE)):
                uc.require(StaffRole.ORGANIZER)
            tid: int | None = None
            if tournament is not None:  # looked up after the role check
                found = await uc.tournaments.by_name(tournament)
                if found is None:
                    raise NotFound("error.tournament_not_found", name=tournament.strip()[:100])
                tid = id_of(found)
            open_rows = await uc.schedules.open_reminders(tournament_id=tid)
            done_rows = await uc.schedules.recent_reminders(tournament_id=tid, limit=recent)
            return ScheduleList(
                timezone=settings_of(uc.config)[1],
                pending=tuple(await _lines(uc, open_rows)),
                recent=tuple(await _lines(uc, done_rows)),
            )

    async def set_round_event(self, guild_id: int, round_id: int, event_id: int | None) -> None:
        """Remember the Discord scheduled event made for a round (None: it was cancelled)."""
        async with self.run(guild_id) as uc:
            r = await uc.rounds.get_round_by_id(round_id=round_id)
            if r is not None:
                r.discord_event_id = event_id

    async def events_refused(self, guild_id: int) -> bool:
        """Record that the bot may not create Discord events here; True the first time (say so once)."""
        async with self.run(guild_id) as uc:
            config = await uc.guild.config_or_create(locale="it")
            return await uc.schedules.mark_events_refused(config_id=config.id, at=uc.clock())
