"""Schedules as rows on a real database (BOT-SCH-1, BOT-REG-2): a round's reminders follow its start, DST is refused
with a clear message, the deadline closes registration by itself, and a row is claimed by exactly one caller however
many try at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.db.models import ReminderKind, ReminderStatus, Round, ScheduledReminder, Tournament
from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.services import Services
from bot.services.access import Actor
from tests.conftest import FakeClock
from tests.support.reports_fixtures import GUILD, ORGANIZER, REFEREE, build_tournament

START = datetime(2026, 12, 5, 21, 0)  # Rome wall clock: 20:00 UTC
START_UTC = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


async def rows(services: Services, **where: object) -> list[ScheduledReminder]:
    async with services.sessionmaker() as session:
        query = select(ScheduledReminder).order_by(ScheduledReminder.id)  # type: ignore[arg-type]
        for key, value in where.items():
            query = query.where(getattr(ScheduledReminder, key) == value)
        return list((await session.execute(query)).scalars().all())


async def claimed(worker: str, services: Services) -> AsyncIterator[int]:
    """Every row ``worker`` can claim now, one claim at a time (as the runner takes them)."""
    while (taken := await services.deliveries.claim_next(worker)) is not None:
        yield taken


async def test_bot_sch_1_a_round_s_reminders_follow_its_start_and_move_with_it(services: Services):
    b = await build_tournament(services)
    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    assert done.start == START_UTC and done.timezone == "Europe/Rome" and done.previous_start is None
    assert [(r.offset_minutes, r.due_at) for r in done.reminders] == [
        (1440, START_UTC - timedelta(days=1)), (60, START_UTC - timedelta(hours=1)),
        (10, START_UTC - timedelta(minutes=10)),
    ]  # fmt: skip
    moved = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START + timedelta(hours=1))
    assert moved.previous_start == START_UTC
    pending = await rows(services, status=ReminderStatus.PENDING.value, kind=ReminderKind.ROUND.value)
    assert sorted(r.due_at for r in pending) == sorted(r.due_at for r in moved.reminders)
    cancelled = await rows(services, status=ReminderStatus.CANCELLED.value)
    assert len(cancelled) == 3 and {r.outcome for r in cancelled} == {"round_moved"}


async def test_bot_sch_1_the_night_the_clocks_change_is_refused_with_the_times_that_exist(services: Services):
    b = await build_tournament(services)
    with pytest.raises(InvalidInput) as caught:
        await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=datetime(2027, 3, 28, 2, 30))
    assert caught.value.key == "error.schedule.time_nonexistent"
    assert caught.value.params == {"value": "2027-03-28 02:30", "zone": "Europe/Rome", "before": "01:30",
                                   "after": "03:30"}  # fmt: skip
    with pytest.raises(InvalidInput) as caught:
        await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=datetime(2027, 10, 31, 2, 30))
    assert caught.value.key == "error.schedule.time_ambiguous"
    assert await rows(services) == []  # nothing changed


async def test_bot_sch_1_the_server_zone_reads_the_time_and_an_unknown_zone_is_refused(services: Services):
    b = await build_tournament(services)
    admin = Actor(guild_id=GUILD, user_id=40, is_admin=True)
    assert await services.schedules.set_timezone(admin, "Europe/London") == "Europe/London"
    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    assert done.start == datetime(2026, 12, 5, 21, 0, tzinfo=UTC)
    with pytest.raises(InvalidInput) as caught:
        await services.schedules.set_timezone(admin, "Roma/Centro")
    assert caught.value.key == "error.schedule.timezone_unknown"
    for staff in (REFEREE, ORGANIZER):  # a server setting: administrators only, like /setup roles
        with pytest.raises(PermissionDenied):
            await services.schedules.set_timezone(staff, "Europe/Rome")


async def test_bot_sch_1_a_round_under_way_cannot_move_and_a_past_time_is_refused(services: Services, clock: FakeClock):
    b = await build_tournament(services)
    await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    clock.now = START_UTC + timedelta(minutes=5)
    with pytest.raises(Conflict) as caught:
        await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START + timedelta(days=1))
    assert caught.value.key == "error.schedule.round_started"
    with pytest.raises(InvalidInput) as caught:
        await services.schedules.schedule_announcement(ORGANIZER, tournament=b.name, at=START, text="ciao")
    assert caught.value.key == "error.schedule.time_in_past"


async def test_bot_sch_1_reminder_offsets_are_the_tournament_s_and_replan_pending_reminders(services: Services):
    b = await build_tournament(services)
    await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    assert await services.schedules.set_reminders(ORGANIZER, tournament=b.name, offsets=(30, 120)) == (120, 30)
    pending = await rows(services, status=ReminderStatus.PENDING.value)
    assert sorted(r.offset_minutes for r in pending) == [30, 120]
    async with services.sessionmaker() as session:
        t = (await session.execute(select(Tournament))).scalar_one()
        assert t.overrides["tournament"]["reminder_offsets_minutes"] == [120, 30]
    with pytest.raises(InvalidInput):
        await services.schedules.set_reminders(ORGANIZER, tournament=b.name, offsets=(0,))


async def test_bot_reg_2_the_deadline_closes_registration_by_itself(services: Services, clock: FakeClock):
    await build_tournament(services)  # maps the roles
    created = await services.tournaments.create(
        ORGANIZER, name="Open", preset="risiko-ufficiali-2018", registration_deadline=datetime(2026, 12, 1, 20, 0)
    )
    assert created.registration_deadline == datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
    (close,) = await rows(services, kind=ReminderKind.REGISTRATION_CLOSE.value)
    assert close.due_at == created.registration_deadline
    assert not await services.deliveries.claim(close.id or 0, "w1")  # not due yet
    clock.now = created.registration_deadline
    assert await services.deliveries.claim(close.id or 0, "w1")
    delivery = await services.deliveries.prepare(close.id or 0, "w1")
    assert delivery is not None and delivery.registration_closed
    async with services.sessionmaker() as session:
        t = (await session.execute(select(Tournament).where(Tournament.name == "Open"))).scalar_one()
        assert t.status == "registration_closed"


async def test_bot_sch_1_of_three_hundred_concurrent_claims_of_one_row_exactly_one_wins(
    services: Services, clock: FakeClock
):
    b = await build_tournament(services)
    line = await services.schedules.schedule_announcement(
        ORGANIZER, tournament=b.name, at=START, text="Si comincia", channel_id=555
    )
    clock.now = START_UTC
    outcomes = await asyncio.gather(*(services.deliveries.claim(line.reminder_id, f"w{i}") for i in range(300)))
    assert outcomes.count(True) == 1
    (row,) = await rows(services)
    assert row.status == "claimed" and row.claimed_by == f"w{outcomes.index(True)}"


async def test_bot_sch_1_concurrent_sweeps_take_disjoint_rows_and_together_every_due_one(
    services: Services, clock: FakeClock
):
    b = await build_tournament(services)
    for i in range(120):
        await services.schedules.schedule_announcement(
            ORGANIZER, tournament=b.name, at=START + timedelta(minutes=i % 7), text=f"n{i}", channel_id=555
        )
    clock.now = START_UTC + timedelta(hours=1)

    async def sweep(worker: str) -> list[int]:
        mine: list[int] = []
        while (taken := await services.deliveries.claim_next(worker)) is not None:
            mine.append(taken)
        return mine

    takes = await asyncio.gather(*(sweep(f"w{i}") for i in range(20)))
    taken = [rid for mine in takes for rid in mine]
    assert len(taken) == len(set(taken)) == 120  # disjoint, and together every due row


async def test_bot_sch_1_a_round_reminder_due_after_its_round_started_is_dropped_not_sent(
    services: Services, clock: FakeClock
):
    b = await build_tournament(services)
    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    clock.now = START_UTC + timedelta(minutes=1)  # the bot slept through every reminder and the start
    ids = [i async for i in claimed("w1", services)]
    assert len(ids) == 3
    assert [await services.deliveries.prepare(i, "w1") for i in ids] == [None, None, None]
    assert {r.status for r in await rows(services, round_id=done.round_id)} == {"dropped"}


async def test_bot_sch_1_a_dm_is_recorded_once_per_reminder_and_player(services: Services, clock: FakeClock):
    b = await build_tournament(services)
    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    first = done.reminders[0].reminder_id
    assert await services.deliveries.record_dm(first, 1000, ok=False, error="forbidden")
    assert not await services.deliveries.record_dm(first, 1000, ok=True)  # the unique pair: never twice
    clock.now = done.reminders[0].due_at
    assert await services.deliveries.claim(first, "w1")
    delivery = await services.deliveries.prepare(first, "w1")
    assert delivery is not None and 1000 not in delivery.dm_user_ids
    assert set(delivery.dm_user_ids) == {1001, 1002, 1003}
    second = done.reminders[1].reminder_id
    clock.now = done.reminders[1].due_at
    await services.deliveries.claim(second, "w1")
    later = await services.deliveries.prepare(second, "w1")
    assert later is not None and 1000 not in later.dm_user_ids  # DMs refused once: not tried again this tournament


async def test_bot_sch_1_cancel_and_the_overview(services: Services, clock: FakeClock):
    b = await build_tournament(services)
    line = await services.schedules.schedule_announcement(
        ORGANIZER, tournament=b.name, at=START, text="Si comincia", channel_id=555
    )
    await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=START)
    found = await services.schedules.overview(REFEREE, tournament=b.name)
    assert len(found.pending) == 4 and found.recent == ()
    assert [x.kind for x in found.pending].count("round_reminder") == 3
    await services.schedules.cancel(ORGANIZER, line.reminder_id)
    with pytest.raises(Conflict):
        await services.schedules.cancel(ORGANIZER, line.reminder_id)
    with pytest.raises(Exception) as caught:
        await services.schedules.cancel(ORGANIZER, 10**12)
    assert getattr(caught.value, "key", "") == "error.schedule.not_found"
    assert len((await services.schedules.overview(ORGANIZER)).pending) == 3
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
        assert rnd.guild_id == GUILD
