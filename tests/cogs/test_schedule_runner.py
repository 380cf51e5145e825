"""The schedule's runner with real StewardBots on a real database (BOT-SCH-1, BOT-SCH-2): reminders survive a
restart — the due ones are sent once, the late ones say so, none for a round already under way — two bot processes
on one database deliver 200 due rows with none doubled, DMs are tried once, and APScheduler only wakes the bot."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from bot import scheduling as runner_module
from bot.app import StewardBot, create_bot
from bot.db.models import CheckIn, DmDelivery, GameTable, GuildConfig, ScheduledReminder
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.services.deliveries import MAX_ATTEMPTS
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.support.cog_rounds import prepare
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder, SimulatedCrash
from tests.support.reports_fixtures import GUILD, ORGANIZER, REFEREE, build_tournament

CHANNEL = 880_000_000_000_001
ORG_ROLES = ("Organizzatori",)
T = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)  # 19:00 in Rome


def rome(instant: datetime) -> datetime:
    """The Rome wall clock of an instant (December: UTC+1), as an organizer types it."""
    return (instant + timedelta(hours=1)).replace(tzinfo=None)


async def _bot(database_url: str, clock: Callable[[], datetime]) -> tuple[StewardBot, Services]:
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
    assert "Non ancora presenti (3): Bruno, Carla e Dario" in last
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


async def test_bot_sch_1_a_runner_dead_mid_send_is_replaced_after_its_lease_and_resends_with_the_same_nonces(
    services: Services, clock: FakeClock, bot: StewardBot, monkeypatch: pytest.MonkeyPatch
):
    """The first runner dies right after Discord made the third DM (before recording it). Once its lease has run out
    a second runner takes the row (attempt 2): the recorded DMs are not sent again, the unrecorded one is sent again
    with the same nonce — which Discord answers with the message it already made — and the channel post once."""
    clock.now = T
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    await _channel(services)
    done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name, start=rome(T + timedelta(hours=2)))
    http = HttpRecorder(bot, guild_id=GUILD)
    first = runner_module.Runner(bot, worker="first")
    second = runner_module.Runner(bot, worker="second")
    record_dm = services.deliveries.record_dm
    recorded: list[int] = []

    async def dies_at_the_third(reminder_id: int, user_id: int, **kwargs: Any) -> bool:
        if len(recorded) == 2:
            raise SimulatedCrash("killed after Discord made the third DM")
        recorded.append(user_id)
        return await record_dm(reminder_id, user_id, **kwargs)

    monkeypatch.setattr(services.deliveries, "record_dm", dies_at_the_third)
    clock.now = done.start - timedelta(hours=1)
    with pytest.raises(SimulatedCrash):
        await first.run_due()
    monkeypatch.setattr(services.deliveries, "record_dm", record_dm)
    assert len(http.dms()) == 3 and channel_posts(http) == []  # DMs first: the channel post comes last
    assert await second.run_due() == []  # the dead runner's lease is still running
    clock.advance(seconds=first.lease.total_seconds() + 1)
    (reminder,) = await second.run_due()
    posts = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.path == f"/channels/{CHANNEL}/messages"]
    assert [p.body["nonce"] for p in posts] == [runner_module.channel_nonce(reminder)]
    assert all(p.body["enforce_nonce"] for p in posts)
    to_players = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c not in posts]
    dms = [(http.dm_channels[int(c.path.split("/")[2])], c.body["nonce"]) for c in to_players]
    third = dms[2][0]
    assert Counter(u for u, _ in dms) == Counter({**{u: 1 for u in b.users.values()}, third: 2})
    assert all(nonce == runner_module.dm_nonce(reminder, u) for u, nonce in dms)  # the same nonce at each attempt
    assert len({nonce for _, nonce in dms}) == 4 and all(len(n) <= 25 for _, n in dms)
    async with services.sessionmaker() as session:
        row = await session.get(ScheduledReminder, reminder)
        oks = (await session.execute(select(DmDelivery.user_id).where(DmDelivery.ok))).scalars().all()  # type: ignore[arg-type]
    assert row is not None and (row.status, row.attempts, row.claimed_by) == ("delivered", 2, "second")
    assert sorted(oks) == sorted(b.users.values())
    assert second.sent == [reminder] and first.sent == []
    http.close()


async def test_bot_sch_1_a_slow_send_renews_its_lease_and_no_other_runner_takes_the_row(
    services: Services, database_url: str
):
    """A live runner whose channel post takes five lease-lengths keeps its claim (renewed three times per lease): a
    second runner sweeping all the while takes nothing, and the row is sent once, at the first attempt."""
    b = await build_tournament(services)
    await _channel(services)

    def ticking() -> datetime:  # real time, but not the system clock the services would swap for the database's
        return datetime.now(UTC)

    live, live_services = await _bot(database_url, ticking)
    async with live_services.sessionmaker() as session, session.begin():
        row = ScheduledReminder(guild_id=GUILD, tournament_id=b.tournament_id, kind="announcement",
                                channel_id=CHANNEL, message="lento", due_at=ticking())  # fmt: skip
        session.add(row)
    http = HttpRecorder(live, guild_id=GUILD)
    answer = http.request

    async def slow(route: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(2.5)
        return await answer(route, **kwargs)

    live.http.request = slow  # type: ignore[method-assign]
    lease = timedelta(seconds=0.5)
    sender = runner_module.Runner(live, worker="slow", lease=lease)
    sweeper = runner_module.Runner(live, worker="sweeper", lease=lease)
    sending = asyncio.create_task(sender.run_due())
    await asyncio.sleep(0.1)  # the sender has claimed the row and is posting it
    swept: list[int] = []
    while not sending.done():
        swept += await sweeper.run_due()
        await asyncio.sleep(0.02)
    assert await sending == [row.id] and swept == []
    assert len(channel_posts(http)) == 1
    async with live_services.sessionmaker() as session:
        done = await session.get(ScheduledReminder, row.id)
    assert done is not None and (done.status, done.attempts, done.claimed_by) == ("delivered", 1, "slow")
    http.close()
    await live.close()
    await live_services.sessionmaker.kw["bind"].dispose()


async def test_bot_sch_1_schedule_list_tells_a_live_claim_from_a_dead_one_and_shows_a_resend(
    ch: ComponentHarness, services: Services, clock: FakeClock, bot: StewardBot, http: HttpRecorder
):
    """/schedule list: a claim within its lease is "not confirmed yet"; past it, its runner "stopped" and the row
    will be sent again; a row sent at the second attempt says "resent after a restart (attempt 2)"."""
    clock.now = T
    await prepare(ch, services, 4)
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(GuildConfig).values(announcement_channel_id=CHANNEL))
    for text in ("primo", "secondo"):
        await ch.invoke("announce", roles=ORG_ROLES, locale="it", tournament="Coppa", at="2026-12-05 19:30", text=text)
    clock.now = T + timedelta(hours=1)
    dead = await services.deliveries.claim_next("crashed-host:41")
    assert dead is not None
    clock.advance(seconds=bot.runner.lease.total_seconds() + 1)
    live = await services.deliveries.claim_next("live-host:42")  # the expired claim comes first: taken over …
    assert live == dead
    assert await services.deliveries.finish(live, "live-host:42")  # … and sent: attempt 2
    claimed_live = await services.deliveries.claim_next("live-host:42")
    assert claimed_live is not None
    clock.advance(seconds=1)
    assert await services.deliveries.claim_next("other-host:43") is None  # only the live claim is left: kept
    *_, listing = await ch.invoke("schedule list", roles=ORG_ROLES, locale="it")
    assert f"`#{claimed_live}` Annuncio" in listing.text
    assert "da live-host:42, non ancora confermato" in listing.text
    assert "inviato · reinviato dopo un riavvio (tentativo 2)" in listing.text
    clock.advance(seconds=bot.runner.lease.total_seconds())  # live-host:42 stops renewing: its lease runs out
    *_, listing = await ch.invoke("schedule list", roles=ORG_ROLES, locale="it")
    assert "da live-host:42, che si è fermato prima di confermare: verrà reinviato" in listing.text
    assert "non ancora confermato" not in listing.text
    assert await bot.runner.run_due() == [claimed_live]
    *_, listing = await ch.invoke("schedule list", roles=ORG_ROLES, locale="en-US")
    assert "Waiting (0)" in listing.text
    assert listing.text.count("sent · resent after a restart (attempt 2)") == 2
    assert [c.body["nonce"] for c in http.of("POST", "/channels/{channel_id}/messages")] == [
        runner_module.channel_nonce(claimed_live)
    ]
    async with services.sessionmaker() as session, session.begin():  # a row whose every attempt died
        await session.execute(
            update(ScheduledReminder)
            .where(ScheduledReminder.id == claimed_live)  # type: ignore[arg-type]
            .values(status="claimed", attempts=MAX_ATTEMPTS, claimed_at=T, claimed_by="crash-loop:7")
        )
    *_, listing = await ch.invoke("schedule list", roles=ORG_ROLES, locale="en-US")
    assert f"given up after {MAX_ATTEMPTS} failed attempts (the last <t:" in listing.text
    assert listing.text.count("resent after a restart") == 1
