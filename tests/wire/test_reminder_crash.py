"""Reminders survive SIGKILL, end to end: real runner processes (tests/wire/run_runner.py: the real bot logged in to
the fake Discord, sweeping with a 2-second lease) share one PostgreSQL database and are killed with SIGKILL at
seeded random moments while Discord answers slowly, then replaced, until every due row is delivered. Every reminder
reaches its channel exactly once and every DM its player exactly once — a row a dead runner held is taken again once
its lease has run out, and what Discord made before the kill is answered again, not made twice, thanks to the nonce.

The crash test runs on PostgreSQL only (TEST_POSTGRES_URL; SQLite is for one process); the check of the fake
Discord's nonce rule it leans on runs everywhere. ``pytest -s`` prints the run's numbers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import aiohttp
import pytest
from sqlalchemy import select, text, update
from sqlmodel import col

from bot.db.models import DmDelivery, GuildConfig, Registration, ScheduledReminder, SQLModel
from bot.db.session import make_engine, make_sessionmaker
from bot.scheduling import channel_nonce, dm_nonce
from bot.services import Services
from bot.services.deliveries import MAX_ATTEMPTS
from tests.conftest import POSTGRES_URL, FakeClock
from tests.support.fake_discord import TEST_TIER_WALL_MARGIN, FakeDiscord
from tests.support.reports_fixtures import ORGANIZER, build_tournament

needs_postgres = pytest.mark.skipif(POSTGRES_URL is None, reason="needs PostgreSQL (TEST_POSTGRES_URL)")

ROOT = str(Path(__file__).resolve().parents[2])
SEED = 20261126
TOURNAMENTS = 10  # each: one round, four seated players, five reminders (each a channel post and four DMs)
OFFSETS = (240, 180, 120, 60, 30)
ANNOUNCEMENTS = 100  # a channel post each
RUNNERS = 2  # runner processes alive at once
KILLS = 8
LEASE_SECONDS = 2.0
LATENCY = 0.04  # the most Discord takes each way for a message or a DM channel


def rome(instant: datetime) -> datetime:
    """An instant as the organizer types it: the Rome wall clock."""
    return instant.astimezone(ZoneInfo("Europe/Rome")).replace(tzinfo=None)


@pytest.fixture
async def postgres_url(migrated_postgres: str) -> AsyncIterator[str]:
    engine = make_engine(migrated_postgres)
    async with engine.begin() as conn:
        names = ", ".join(f'"{t.name}"' for t in SQLModel.metadata.sorted_tables)
        await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    await engine.dispose()
    yield migrated_postgres


async def _due_reminders(services: Services, clock: FakeClock, channel_id: int) -> dict[int, tuple[int, ...]]:
    """The rows, planned five hours ago and all due now (the round starts in 20 minutes, so none is dropped):
    {reminder id: the players its DMs go to}."""
    real_now = datetime.now(UTC)
    clock.now = real_now - timedelta(hours=5)
    players: dict[int, tuple[int, ...]] = {}
    for n in range(TOURNAMENTS):
        names = [f"Giocatore {n}-{i}" for i in range(4)]
        b = await build_tournament(services, name=f"Coppa {n}", rounds={1: [names]})
        if n == 0:
            async with services.sessionmaker() as session, session.begin():
                await session.execute(update(GuildConfig).values(announcement_channel_id=channel_id))
        async with services.sessionmaker() as session, session.begin():  # four distinct players per tournament
            for i, name in enumerate(names):
                await session.execute(
                    update(Registration)
                    .where(Registration.id == b.registrations[name])  # type: ignore[arg-type]
                    .values(user_id=9_000_000 + 10 * n + i)
                )
        await services.schedules.set_reminders(ORGANIZER, tournament=b.name, offsets=OFFSETS)
        done = await services.schedules.schedule_round(ORGANIZER, tournament=b.name,
                                                       start=rome(real_now + timedelta(minutes=20)))  # fmt: skip
        assert len(done.reminders) == len(OFFSETS)
        for line in done.reminders:
            players[line.reminder_id] = tuple(9_000_000 + 10 * n + i for i in range(4))
    for i in range(ANNOUNCEMENTS):
        at = rome(real_now - timedelta(hours=4) + timedelta(seconds=i))
        line = await services.schedules.schedule_announcement(ORGANIZER, tournament="Coppa 0", at=at,
                                                              text=f"Annuncio n. {i}")  # fmt: skip
        players[line.reminder_id] = ()
    return players


@dataclass
class RunnerProcess:
    """A runner process in a session of its own, so a kill takes any helper process it started with it (as the
    end of a container does) and leaves nothing behind."""

    process: asyncio.subprocess.Process
    ready_file: Path

    async def ready(self) -> None:
        deadline = time.monotonic() + 30
        while not self.ready_file.exists():
            assert self.process.returncode is None, "a runner process stopped before sweeping"
            assert time.monotonic() < deadline, "a runner process did not start within 30 s"
            await asyncio.sleep(0.05)

    async def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)  # no clean-up: its claim stays until the lease runs out
        await self.process.wait()


async def _spawn(fake: FakeDiscord, database_url: str, tmp_path: Path, n: int) -> RunnerProcess:
    ready_file = tmp_path / f"runner-{n}.ready"
    env = {**os.environ, "WIRE_PORT": str(fake.port), "DATABASE_URL": database_url, "RUNNER_READY": str(ready_file),
           "RUNNER_LEASE": str(LEASE_SECONDS), "RUNNER_SWEEP": "0.2"}  # fmt: skip
    with (tmp_path / "runners.log").open("ab") as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.wire.run_runner", env=env, cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
        )  # fmt: skip
    return RunnerProcess(process, ready_file)


async def _holds_a_worn_row(services: Services, pid: int) -> bool:
    """Whether the runner process ``pid`` is sending a row that all but one of its attempts have died on."""
    async with services.sessionmaker() as session:
        worn = await session.execute(
            select(ScheduledReminder.id).where(
                ScheduledReminder.status == "claimed",  # type: ignore[arg-type]
                col(ScheduledReminder.claimed_by).like(f"%:{pid}:%"),
                ScheduledReminder.attempts >= MAX_ATTEMPTS - 1,  # type: ignore[arg-type]
            )
        )
    return worn.first() is not None


async def _undelivered(services: Services) -> int:
    async with services.sessionmaker() as session:
        statuses = (await session.execute(select(ScheduledReminder.status))).scalars().all()
    return sum(s != "delivered" for s in statuses)


async def test_the_fake_discord_answers_a_repeated_nonce_with_the_message_made_per_channel_within_its_window():
    """What the crash test leans on: as Discord does with ``enforce_nonce``, a nonce sent again to the same channel
    within the window answers the message already made (and is counted); in another channel, or once the window
    has passed, it makes a new message; a DM channel asked for again is the same channel."""
    fake = FakeDiscord(wall_margin=TEST_TIER_WALL_MARGIN)
    await fake.start()
    base = f"http://127.0.0.1:{fake.port}/api/v10"
    try:
        async with aiohttp.ClientSession() as http:

            async def post(channel: int, nonce: str) -> str:
                body = {"content": "ciao", "nonce": nonce, "enforce_nonce": True}
                async with http.post(f"{base}/channels/{channel}/messages", json=body) as answer:
                    return str((await answer.json())["id"])

            async def dm_channel(user: int) -> str:
                async with http.post(f"{base}/users/@me/channels", json={"recipient_id": str(user)}) as answer:
                    return str((await answer.json())["id"])

            first = await post(111_111_111, "rem1")
            assert await post(111_111_111, "rem1") == first
            assert await post(222_222_222, "rem1") != first  # another channel: another message
            assert fake.deduplicated == [(111_111_111, "rem1")]
            fake.nonce_window = 0.0
            await asyncio.sleep(0.01)
            assert await post(111_111_111, "rem1") != first  # past the window: Discord no longer knows the nonce
            assert len(fake.channel_messages) == 3
            assert await dm_channel(42) == await dm_channel(42) != await dm_channel(43)
    finally:
        await fake.stop()


STALL = 120.0  # seconds without a single delivery: the runners are stuck, whatever the load


@pytest.mark.postgres
@needs_postgres
async def test_reminders_survive_runners_killed_with_sigkill_mid_send_none_lost_none_doubled(
    postgres_url: str, tmp_path: Path
):
    fake = FakeDiscord(wall_margin=TEST_TIER_WALL_MARGIN)
    fake.message_latency = LATENCY
    await fake.start()
    engine = make_engine(postgres_url)
    clock = FakeClock()
    services = Services(make_sessionmaker(engine), clock)
    rng = random.Random(SEED)
    live: list[RunnerProcess] = []
    started = time.monotonic()
    kills = 0
    try:
        players = await _due_reminders(services, clock, fake.guild.channel_id)
        assert len(players) == TOURNAMENTS * len(OFFSETS) + ANNOUNCEMENTS
        live = [await _spawn(fake, postgres_url, tmp_path, n) for n in range(RUNNERS)]
        await asyncio.gather(*(p.ready() for p in live))
        while kills < KILLS:
            await asyncio.sleep(rng.uniform(1.0, 2.5))  # a random moment of a sweep: mid-send, most likely
            assert all(r.process.returncode is None for r in live), "a runner process stopped by itself"
            sweeping = [r for r in live if r.ready_file.exists()]
            if not sweeping:
                continue  # every runner is still starting: nothing to kill mid-send
            victim = rng.choice(sweeping)
            if await _holds_a_worn_row(services, victim.process.pid):
                continue  # a row killed at almost every attempt would be given up (MAX_ATTEMPTS): not this time
            live.remove(victim)
            await victim.kill()
            kills += 1
            live.append(await _spawn(fake, postgres_url, tmp_path, RUNNERS + kills))  # starts while others send
        killed_with_work_left = await _undelivered(services)
        left, moved = await _undelivered(services), time.monotonic()
        while left:  # progress, not speed: a busy machine is slower, a lost reminder never arrives at all
            await asyncio.sleep(0.2)
            now_left = await _undelivered(services)
            if now_left < left:
                left, moved = now_left, time.monotonic()
            assert time.monotonic() - moved < STALL, f"{now_left} reminders still not delivered, none for {STALL} s"
        elapsed = time.monotonic() - started

        async with services.sessionmaker() as session:
            rows = (await session.execute(select(ScheduledReminder))).scalars().all()
            dm_rows = (await session.execute(select(DmDelivery))).scalars().all()
        made = Counter(str(m.get("nonce")) for m in fake.channel_messages)
        channel_of = {channel_nonce(r): fake.guild.channel_id for r in players}
        dm_to = {dm_nonce(r, u): u for r, users in players.items() for u in users}
        lost = [n for n in [*channel_of, *dm_to] if made[n] == 0]
        doubled = {n: c for n, c in made.items() if c > 1}
        strangers = [n for n in made if n not in channel_of and n not in dm_to]
        wrong_place = [
            m.get("nonce") for m in fake.channel_messages
            if (m.get("nonce") in channel_of and m["channel_id"] != fake.guild.channel_id)
            or (m.get("nonce") in dm_to and fake.dm_channels.get(m["channel_id"]) != dm_to[m["nonce"]])
        ]  # fmt: skip
        resent = sum(r.attempts > 1 for r in rows)
        print(  # the run's numbers (pytest -s shows them)
            f"\n{len(rows)} reminders, {len(channel_of)} channel posts and {len(dm_to)} DMs due; {kills} SIGKILLs "
            f"({killed_with_work_left} reminders still undelivered after the last); {resent} reminders resent after "
            f"a kill (attempts: {dict(sorted(Counter(r.attempts for r in rows).items()))}); {len(fake.deduplicated)} "
            f"sends deduplicated by nonce; lost {len(lost)}, doubled {len(doubled)}; {elapsed:.1f} s"
        )
        assert kills >= 5
        assert lost == [] and doubled == {} and strangers == [] and wrong_place == []
        assert len(fake.channel_messages) == len(channel_of) + len(dm_to)  # every message made exactly once
        assert {(r.status, r.outcome) for r in rows} == {("delivered", None)}
        assert sorted((d.reminder_id, d.user_id, d.ok) for d in dm_rows) == sorted(
            (r, u, True) for r, users in players.items() for u in users
        )
        assert resent >= 1  # the kills did land mid-send: some rows were taken again after their lease
        assert fake.violations == []
    finally:
        for runner in live:
            await runner.kill()
        await fake.stop()
        await engine.dispose()
        log = tmp_path / "runners.log"
        if log.exists() and os.environ.get("CRASH_TEST_LOG"):  # the runners' own account, when asked for
            print(log.read_text(encoding="utf-8")[-20000:])
