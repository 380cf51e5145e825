"""The schedule's runner with real StewardBots on a real database (BOT-SCH-1, BOT-SCH-2): reminders survive a
restart — the due ones are sent once, the late ones say so, none for a round already under way — two bot processes
on one database deliver 200 due rows with none doubled, DMs are tried once, and APScheduler only wakes the bot."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from bot import scheduling as runner_module
from bot.app import StewardBot, create_bot
from bot.db.models import CheckIn, DmDelivery, GameTable, GuildConfig, ScheduledReminder
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.helpers_http import HttpRecorder
from tests.services.test_reports_fixtures import GUILD, ORGANIZER, REFEREE, build_tournament

CHANNEL = 880_000_000_000_001
T = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)  # 19:00 in Rome


def rome(instant: datetime) -> datetime:
    """The Rome wall clock of an instant (December: UTC+1), as an organizer types it."""
    return (instant + timedelta(hours=1)).replace(tzinfo=None)


async def _bot(database_url: str, clock: FakeClock) -> tuple[StewardBot, Services]:
    services = Services(make_sessionmaker(make_engine(database_url)), clock)
    bot = create_bot(Settings(database_url=database_url), services=services, apply_migrations=False,
                     sync_commands=False, start_scheduler=False)  # fmt: skip
    await bot.load_all()
    return bot, services


async def _channel(services: Services) -> None:
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(GuildConfig).values(announcement_channel_id=CHANNEL))


def channel_posts(http: HttpRecorder) -> list[str]:
    return [
        c.content
        for c in http.of("POST", "/channels/{channel_id}/messages")
        if c.path == f"/channels/{CHANNEL}/messages"
    ]


async def test_bot_sch_1_after_a_restart_each_due_reminder_is_sent_once_late_ones_say_so_started_rounds_none(
    services: Services, clock: FakeClock, database_url: str
):
    clock.now = T
    a = await build_tournament(services, name="Coppa A", rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    b = await build_tournament(services, name="Coppa B", rounds={1: [["Elio", "Fabio", "Gino", "Ugo"]]})
    await _channel(services)
    await services.schedules.schedule_round(ORGANIZER, tournament=a.name, start=rome(T + timedelta(hours=3)))
    await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=rome(T + timedelta(hours=25)))
    await services.schedules.schedule_announcement(ORGANIZER, tournament=a.name, at=rome(T + timedelta(minutes=150)),
                                                   text="Pizza alle 21!")  # fmt: skip

    first, first_services = await _bot(database_url, clock)
    http1 = HttpRecorder(first, guild_id=GUILD)
    await first.runner.start(wake=False)
    assert await first.runner.run_due() == []
    clock.now = T + timedelta(hours=1)  # Coppa B's 24-hour reminder falls due while the bot runs
    (sent,) = await first.runner.run_due()
    (post,) = channel_posts(http1)
    assert "Coppa B" in post and "turno 1" in post and "<t:" in post and "ritardo" not in post
    assert sorted(u for u, _ in http1.dms()) == [b.users[n] for n in ("Elio", "Fabio", "Gino", "Ugo")]
    http1.close()
    await first.close()  # the bot stops …

    clock.now = T + timedelta(hours=3, minutes=5)  # … and comes back after Coppa A's round started
    second, second_services = await _bot(database_url, clock)
    http2 = HttpRecorder(second, guild_id=GUILD)
    await second.runner.start(wake=False)
    delivered = await second.runner.run_due()
    assert await second.runner.run_due() == []  # nothing twice
    posts = channel_posts(http2)
    assert len(posts) == 1 and "Pizza alle 21!" in posts[0]
    assert "inviato in ritardo" in posts[0] and "<t:" in posts[0]  # sent late, saying when it was due
    async with services.sessionmaker() as session:
        rows = {r.id: r for r in (await session.execute(select(ScheduledReminder))).scalars().all()}
    states = Counter((r.kind, r.status, r.late) for r in rows.values())
    assert states == Counter({
        ("round_reminder", "dropped", True): 2,  # Coppa A's 1 h and 10 min reminders: its round had started
        ("announcement", "delivered", True): 1,
        ("round_reminder", "delivered", False): 1,  # sent before the restart
        ("round_reminder", "pending", False): 2,  # Coppa B's 1 h and 10 min
    })  # fmt: skip
    assert sent not in delivered and all(rows[i].status in ("delivered", "dropped") for i in delivered)
    http2.close()
    await second.close()
    await first_services.sessionmaker.kw["bind"].dispose()
    await second_services.sessionmaker.kw["bind"].dispose()


async def test_bot_sch_1_the_ten_minute_reminder_lists_who_has_not_checked_in_and_refused_dms_are_not_retried(
    services: Services, clock: FakeClock, bot: StewardBot
):
    clock.now = T
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    await _channel(services)
    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=rome(T + timedelta(hours=2)))
    http = HttpRecorder(bot, guild_id=GUILD)
    http.refuse_dms = {b.users["Bruno"]}
    await bot.runner.start(wake=False)
    clock.now = done.start - timedelta(hours=1)
    await bot.runner.run_due()
    async with services.sessionmaker() as session, session.begin():
        session.add(CheckIn(guild_id=GUILD, round_id=done.round_id, registration_id=b.registrations["Anna"],
                            checked_in_at=clock.now))  # fmt: skip
    clock.now = done.start - timedelta(minutes=10)
    await bot.runner.run_due()
    first, last = channel_posts(http)
    assert "Non ancora presenti" not in first
    assert "Non ancora presenti (3): Bruno, Carla, Dario" in last
    async with services.sessionmaker() as session:
        dms = (await session.execute(select(DmDelivery).order_by(DmDelivery.id))).scalars().all()  # type: ignore[arg-type]
    refused = [d for d in dms if d.user_id == b.users["Bruno"]]
    assert [(d.ok, d.error) for d in refused] == [(False, "forbidden")]  # tried once, never again
    assert sum(d.ok for d in dms) == 6  # three players, two reminders
    assert [u for u, _ in http.dms()].count(b.users["Bruno"]) == 1 and len(http.dms()) == 7
    http.close()


async def test_bot_sch_1_two_bots_on_one_database_deliver_two_hundred_due_rows_none_doubled(
    services: Services, clock: FakeClock, database_url: str
):
    """The claim is the database's: on PostgreSQL (CI) the sweeps lock FOR UPDATE SKIP LOCKED; on SQLite the
    conditional UPDATE … RETURNING alone decides."""
    clock.now = T
    b = await build_tournament(services)
    await _channel(services)
    for i in range(200):
        at = rome(T + timedelta(minutes=5 + i % 11))
        await services.schedules.schedule_announcement(ORGANIZER, tournament=b.name, at=at, text=f"n. {i}")
    one, one_services = await _bot(database_url, clock)
    two, two_services = await _bot(database_url, clock)
    http_one, http_two = HttpRecorder(one, guild_id=GUILD), HttpRecorder(two, guild_id=GUILD)
    await asyncio.gather(one.runner.start(wake=False), two.runner.start(wake=False))
    clock.now = T + timedelta(minutes=30)
    taken_one, taken_two = await asyncio.gather(one.runner.run_due(), two.runner.run_due())
    assert not set(taken_one) & set(taken_two)
    assert len(taken_one) + len(taken_two) == 200
    texts = channel_posts(http_one) + channel_posts(http_two)
    assert len(texts) == 200 and len({t.split("\n")[1] for t in texts}) == 200
    async with services.sessionmaker() as session:
        statuses = Counter((await session.execute(select(ScheduledReminder.status))).scalars().all())
    assert statuses == Counter({"delivered": 200})
    for bot, srv in ((one, one_services), (two, two_services)):
        await bot.close()
        await srv.sessionmaker.kw["bind"].dispose()
    http_one.close()
    http_two.close()


async def test_bot_sch_1_apscheduler_only_wakes_the_bot_one_job_per_row_by_id_and_a_sweep(
    services: Services, clock: FakeClock, bot: StewardBot
):
    clock.now = T
    b = await build_tournament(services)
    await _channel(services)
    at = rome(T + timedelta(hours=1))
    line = await services.schedules.schedule_announcement(ORGANIZER, tournament=b.name, at=at, text="ciao @everyone")
    http = HttpRecorder(bot, guild_id=GUILD)
    await bot.runner.start(wake=True, paused=True)
    scheduler = bot.runner.scheduler
    assert scheduler is not None
    jobs = {job.id: job for job in scheduler.get_jobs()}
    assert set(jobs) == {f"reminder:{line.reminder_id}", "sweep"}
    job = jobs[f"reminder:{line.reminder_id}"]
    assert job.func_ref == "bot.scheduling:fire" and job.args == (bot.runner.worker, line.reminder_id)
    assert job.trigger.run_date == line.due_at and job.misfire_grace_time is None and job.coalesce
    assert jobs["sweep"].func_ref == "bot.scheduling:sweep"
    await runner_module.fire(bot.runner.worker, line.reminder_id)  # woken early: not due, nothing sent
    assert channel_posts(http) == []
    clock.now = line.due_at
    await runner_module.fire(bot.runner.worker, line.reminder_id)

    await runner_module.fire(bot.runner.worker, line.reminder_id)  # a second wake-up sends nothing
    (post,) = channel_posts(http)
    assert "@\u200beveryone" in post  # user text never pings, and the message allows no mention at all
    assert http.of("POST", "/channels/{channel_id}/messages")[0].allowed_mentions == {"parse": []}
    await bot.runner.stop()
    assert bot.runner.worker not in runner_module.RUNNERS
    http.close()


@pytest.mark.parametrize(("preset", "limit", "words"), [
    ("risiko-nostra-passione-2018", 120, "120 minuti giocati più 12 di recupero"),
    ("risiko-ufficiali-2018", 120, "poi la sdadata"),
    ("risiko-firk-1", 105, "questo giro è il terzultimo"),
])  # fmt: skip
async def test_bot_sch_2_the_clock_call_reaches_the_table_thread_at_the_moved_minute(
    services: Services, clock: FakeClock, bot: StewardBot, preset: str, limit: int, words: str
):
    """RK-SD-1, FIRK-TIME-1, TOUR-TIME-1: the call fires at the preset's minute plus the 12 minutes of the pause."""
    clock.now = T
    b = await build_tournament(services, preset=preset, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    thread = 990_000_000_000_001
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(GameTable).values(thread_id=thread))
    http = HttpRecorder(bot, guild_id=GUILD)
    await bot.runner.start(wake=False)
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    clock.advance(minutes=50)
    await services.clocks.pause(REFEREE, tournament=b.name, table=1)
    clock.advance(minutes=12)
    await services.clocks.resume(REFEREE, tournament=b.name, table=1)
    clock.now = T + timedelta(minutes=limit + 11, seconds=59)
    assert await bot.runner.run_due() == []  # the limit + 12 minutes of recovery: not yet
    clock.now = T + timedelta(minutes=limit + 12)
    assert len(await bot.runner.run_due()) == 1
    (post,) = http.of("POST", "/channels/{channel_id}/messages")
    assert post.path == f"/channels/{thread}/messages" and "Tavolo 1" in post.content and words in post.content
    (view,) = await services.clocks.status(REFEREE, tournament=b.name, table=1)
    assert view.called_at == clock.now and view.tracker is not None and view.tracker["time_up"]
    http.close()
