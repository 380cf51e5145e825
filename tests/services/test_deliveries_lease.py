"""The runner's claim as a lease, on a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): one row
at a time, a claim whose lease ran out (its process died) is taken again and counted, a renewed claim is not, only
the claim's holder confirms, start-up reports only dead claims, and hundreds of claimers take each row once. A resend
still says what its first attempt carried out (the registration closed, a clock's time-up). On PostgreSQL with the
system clock the due and lease checks read the database's clock."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db.models import GameTable, ReminderKind, ScheduledReminder, TableClock, Tournament
from bot.db.session import make_sessionmaker
from bot.services import Services
from bot.services.deliveries import LEASE, MAX_ATTEMPTS
from bot.settings import normalise_database_url
from tests.conftest import POSTGRES_URL, FakeClock
from tests.support.reports_fixtures import GUILD, ORGANIZER, REFEREE, build_tournament

T = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


async def due_rows(services: Services, count: int, *, at: datetime = T, guild_id: int = GUILD) -> list[int]:
    """``count`` announcements due at ``at`` + i seconds (the soonest first)."""
    async with services.sessionmaker() as session, session.begin():
        made = [
            ScheduledReminder(
                guild_id=guild_id,
                kind=ReminderKind.ANNOUNCEMENT.value,
                channel_id=555,
                message=f"n{i}",
                due_at=at + timedelta(seconds=i),
                created_at=at,
            )
            for i in range(count)
        ]
        session.add_all(made)
        await session.flush()
        return [r.id for r in made if r.id is not None]


async def row(services: Services, reminder_id: int) -> ScheduledReminder:
    async with services.sessionmaker() as session:
        found = await session.get(ScheduledReminder, reminder_id)
        assert found is not None
        return found


async def test_a_runner_claims_one_due_row_at_a_time_soonest_first(services: Services, clock: FakeClock):
    first, second, third = await due_rows(services, 3)
    (later,) = await due_rows(services, 1, at=T + timedelta(hours=1))
    clock.now = T + timedelta(minutes=5)
    assert await services.deliveries.claim_next("w1") == first
    taken = await row(services, first)
    assert (taken.status, taken.claimed_by, taken.claimed_at, taken.attempts) == ("claimed", "w1", clock.now, 1)
    assert [(await row(services, i)).status for i in (second, third, later)] == ["pending"] * 3  # one at a time
    assert await services.deliveries.claim_next("w1") == second
    assert await services.deliveries.claim_next("w2") == third
    assert await services.deliveries.claim_next("w2") is None  # the last one is not due yet
    assert (await row(services, later)).attempts == 0


async def test_a_claim_older_than_the_lease_is_taken_again_and_counts_a_second_attempt(
    services: Services, clock: FakeClock
):
    (reminder,) = await due_rows(services, 1)
    clock.now = T
    assert await services.deliveries.claim_next("w1") == reminder  # … and w1 dies without confirming
    clock.now = T + LEASE
    assert await services.deliveries.claim_next("w2") is None  # the lease has not run out yet
    assert not await services.deliveries.claim(reminder, "w2")
    clock.now = T + LEASE + timedelta(seconds=1)
    assert await services.deliveries.claim_next("w2") == reminder
    taken = await row(services, reminder)
    assert (taken.status, taken.claimed_by, taken.claimed_at, taken.attempts) == ("claimed", "w2", clock.now, 2)
    assert await services.deliveries.claim_next("w3") is None  # w2's claim is fresh
    assert await services.deliveries.finish(reminder, "w2")
    assert (await row(services, reminder)).status == "delivered"


async def test_a_renewed_claim_is_not_taken_while_its_runner_lives(services: Services, clock: FakeClock):
    (reminder,) = await due_rows(services, 1)
    clock.now = T
    assert await services.deliveries.claim(reminder, "w1")
    for _ in range(5):  # a long send: five lease-lengths, renewed every half lease
        clock.advance(seconds=LEASE.total_seconds() / 2)
        assert await services.deliveries.renew(reminder, "w1")
        clock.advance(seconds=LEASE.total_seconds() / 2)
        assert await services.deliveries.claim_next("w2") is None
        assert not await services.deliveries.claim(reminder, "w2")
    taken = await row(services, reminder)
    assert (taken.claimed_by, taken.attempts) == ("w1", 1)
    assert not await services.deliveries.renew(reminder, "w2")  # only the holder renews
    clock.advance(seconds=LEASE.total_seconds() / 2 + 1)  # w1 stops renewing: past its lease
    assert await services.deliveries.claim_next("w2") == reminder
    assert not await services.deliveries.renew(reminder, "w1")  # w1 learns it lost the claim


async def test_finish_by_a_worker_that_lost_its_claim_changes_nothing(services: Services, clock: FakeClock):
    (reminder,) = await due_rows(services, 1)
    clock.now = T
    assert await services.deliveries.claim_next("w1") == reminder
    clock.now = T + LEASE + timedelta(seconds=1)  # w1 stalled past its lease; w2 takes the row
    assert await services.deliveries.claim_next("w2") == reminder
    assert not await services.deliveries.finish(reminder, "w1", outcome="channel:http 500")
    assert await services.deliveries.prepare(reminder, "w1") is None  # nothing to send for w1 either
    taken = await row(services, reminder)
    assert (taken.status, taken.claimed_by, taken.outcome, taken.delivered_at) == ("claimed", "w2", None, None)
    delivery = await services.deliveries.prepare(reminder, "w2")
    assert delivery is not None and delivery.message == "n0"
    assert await services.deliveries.finish(reminder, "w2")
    done = await row(services, reminder)
    assert (done.status, done.claimed_by, done.outcome) == ("delivered", "w2", None)
    assert not await services.deliveries.finish(reminder, "w2")  # once


async def test_reconcile_reports_only_claims_whose_lease_ran_out(services: Services, clock: FakeClock):
    live, dead, hopeless, waiting = await due_rows(services, 4)
    clock.now = T + timedelta(minutes=10)
    assert await services.deliveries.claim(dead, "gone")
    assert await services.deliveries.claim(hopeless, "gone")
    async with services.sessionmaker() as session, session.begin():
        await session.execute(
            update(ScheduledReminder).where(ScheduledReminder.id == hopeless).values(attempts=MAX_ATTEMPTS)  # type: ignore[arg-type]
        )
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert await services.deliveries.claim(live, "alive")  # a runner that is sending right now
    found = await services.deliveries.reconcile(lease=LEASE)
    assert found.retried == (dead,)  # the live claim is not "claimed by a process that stopped"
    assert found.abandoned == (hopeless,)
    assert found.late == 1  # the pending row fell due more than two minutes ago
    assert (await row(services, waiting)).late
    assert await services.deliveries.claim_next("next") == dead  # retried: the dead claim first (due sooner)
    assert await services.deliveries.claim_next("next") == waiting  # the hopeless row is not claimed again
    assert await services.deliveries.claim_next("next") is None


async def test_three_hundred_concurrent_claimers_on_fifty_due_rows_claim_each_row_exactly_once(
    services: Services, clock: FakeClock
):
    ids = await due_rows(services, 50)
    clock.now = T + timedelta(minutes=1)
    won = await asyncio.gather(*(services.deliveries.claim_next(f"w{i}") for i in range(300)))
    winners = {reminder: f"w{i}" for i, reminder in enumerate(won) if reminder is not None}
    assert sorted(r for r in won if r is not None) == sorted(ids)  # every row, none twice
    async with services.sessionmaker() as session:
        rows = (await session.execute(select(ScheduledReminder))).scalars().all()
    assert {(r.id, r.status, r.claimed_by, r.attempts) for r in rows} == {(i, "claimed", winners[i], 1) for i in ids}
    assert await services.deliveries.claim_next("late") is None


async def test_a_resend_after_a_crash_still_announces_the_registration_close_its_first_attempt_made(
    services: Services, clock: FakeClock
):
    await build_tournament(services)  # maps the roles
    created = await services.tournaments.create(
        ORGANIZER, name="Open", preset="risiko-ufficiali-2018", registration_deadline=datetime(2026, 12, 1, 20, 0)
    )
    async with services.sessionmaker() as session:
        (close,) = (
            await session.execute(
                select(ScheduledReminder).where(ScheduledReminder.kind == ReminderKind.REGISTRATION_CLOSE.value)  # type: ignore[arg-type]
            )
        ).scalars()
    assert close.id is not None
    clock.now = created.registration_deadline
    assert await services.deliveries.claim_next("w1") == close.id
    first = await services.deliveries.prepare(close.id, "w1")
    assert first is not None and first.registration_closed  # … and w1 dies before posting
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert await services.deliveries.claim_next("w2") == close.id
    again = await services.deliveries.prepare(close.id, "w2")
    assert again is not None and again.registration_closed  # not "already closed": this row closed it
    async with services.sessionmaker() as session:
        t = (await session.execute(select(Tournament).where(Tournament.name == "Open"))).scalar_one()
    assert t.status == "registration_closed"


async def test_a_resend_after_a_crash_still_carries_the_clock_s_time_up_call(services: Services, clock: FakeClock):
    clock.now = T
    b = await build_tournament(services, preset="risiko-nostra-passione-2018")
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(GameTable).values(thread_id=990_000_000_000_001))
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    clock.now = T + timedelta(minutes=121)
    reminder = await services.deliveries.claim_next("w1")
    assert reminder is not None
    first = await services.deliveries.prepare(reminder, "w1")
    assert first is not None and first.call == "sdadata_time_up"  # … and w1 dies before posting
    async with services.sessionmaker() as session:
        time_up = (await session.execute(select(TableClock.time_up_at))).scalar_one()
    assert time_up == clock.now
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert await services.deliveries.claim_next("w2") == reminder
    again = await services.deliveries.prepare(reminder, "w2")
    assert again is not None and (again.call, again.details, again.table_number) == (
        first.call, first.details, first.table_number
    )  # fmt: skip
    async with services.sessionmaker() as session:
        assert (await session.execute(select(TableClock.time_up_at))).scalar_one() == time_up  # recorded once
    assert await services.deliveries.finish(reminder, "w2")


@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs PostgreSQL (TEST_POSTGRES_URL)")
async def test_on_postgresql_the_system_clock_reads_the_database_s_now(services: Services, database_url: str):
    """The database's clock is set an hour ahead of this process's (a ``now()`` that shadows pg_catalog's on the
    search path): a row due in half an hour by the process's clock is due for the database, and its claim's time is
    the database's. A test clock keeps reading the process's clock."""
    if not database_url.startswith("postgres"):
        pytest.skip("PostgreSQL only: SQLite runs on the process's clock")
    async with services.sessionmaker() as session, session.begin():
        await session.execute(text("DROP SCHEMA IF EXISTS skewed_clock CASCADE"))
        await session.execute(text("CREATE SCHEMA skewed_clock"))
        await session.execute(text("CREATE FUNCTION skewed_clock.now() RETURNS timestamptz LANGUAGE sql STABLE "
                                   "AS $$ SELECT pg_catalog.now() + interval '1 hour' $$"))  # fmt: skip
    engine = create_async_engine(
        normalise_database_url(database_url),
        connect_args={"server_settings": {"search_path": "skewed_clock, pg_catalog, public"}},
    )
    try:
        system = Services(make_sessionmaker(engine))  # the production default: the system clock
        real_now = datetime.now(UTC)
        (reminder,) = await due_rows(services, 1, at=real_now + timedelta(minutes=30))
        test_clock = Services(services.sessionmaker, FakeClock(real_now))
        assert await test_clock.deliveries.claim_next("process-clock") is None  # not due by this process's clock
        assert await system.deliveries.claim_next("database-clock") == reminder  # due by the database's
        taken = await row(services, reminder)
        assert taken.claimed_at is not None and taken.claimed_at > real_now + timedelta(minutes=59)
        assert await system.deliveries.renew(reminder, "database-clock")
        found = await system.deliveries.reconcile(lease=LEASE)
        assert found.retried == ()  # live by the database's clock
        assert await system.deliveries.finish(reminder, "database-clock")
        done = await row(services, reminder)
        assert done.delivered_at is not None and done.delivered_at > real_now + timedelta(minutes=59)
    finally:
        await engine.dispose()
        async with services.sessionmaker() as session, session.begin():
            await session.execute(text("DROP SCHEMA IF EXISTS skewed_clock CASCADE"))
