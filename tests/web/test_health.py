"""Issue 43 — ``/healthz`` and ``/readyz`` on the web server (bot, ``steward web``, ``steward demo --web``): the
process answers; readiness names each check (gateway, database, migrations, scheduler) and its state, 503 when one
fails; both carry the security headers; both answer while the live streams are at their cap."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.app import Steward
from bot.db.migrate import revisions
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.web.app import CSP, SERVER, VenueServer, make_app
from bot.web.health import HealthProbe, database_checks
from bot.web.limits import WebLimits
from tests.support.reports_fixtures import ORGANIZER, build_tournament


def strict(response: ClientResponse) -> None:
    h = response.headers
    assert h["Content-Security-Policy"] == CSP
    assert h["X-Content-Type-Options"] == "nosniff" and h["Referrer-Policy"] == "no-referrer"
    assert h["X-Frame-Options"] == "DENY" and h["Server"] == SERVER
    assert h["Cache-Control"] == "no-store"


def probe_of(services: Services, **checks) -> HealthProbe:
    return HealthProbe({**database_checks(services), **checks}, cache_seconds=0)


async def ask(services: Services, probe: HealthProbe, path: str = "/readyz") -> tuple[ClientResponse, dict | str]:
    async with TestClient(TestServer(make_app(services.venue, probe=probe))) as client:
        response = await client.get(path)
        body = await (response.json() if path == "/readyz" else response.text())
        return response, body


def sqlite_path(database_url: str) -> Path:
    if not database_url.startswith("sqlite"):
        pytest.skip("rewinds the SQLite file's revision")
    return Path(database_url.split("///", 1)[1])


async def test_healthz_answers_ok_with_the_security_headers(services: Services):
    response, body = await ask(services, probe_of(services), "/healthz")
    assert response.status == 200 and body == "ok"
    strict(response)


async def test_readyz_is_200_with_every_check_ok_on_a_migrated_database(services: Services):
    probe = probe_of(services)
    probe.last_backup = lambda: datetime(2025, 3, 1, 4, 30, tzinfo=UTC)
    response, body = await ask(services, probe)
    assert response.status == 200 and response.content_type == "application/json"
    strict(response)
    assert body == {
        "status": "ready",
        "checks": {"database": {"state": "ok"}, "migrations": {"state": "ok"}},
        "last_backup": "2025-03-01T04:30:00+00:00",
    }


async def test_readyz_is_503_naming_the_migrations_when_the_database_is_behind(services: Services, database_url: str):
    older = revisions()[-2]
    with sqlite3.connect(sqlite_path(database_url)) as db:
        db.execute("UPDATE alembic_version SET version_num = ?", (older,))
    response, body = await ask(services, probe_of(services))
    assert response.status == 503
    strict(response)
    assert body["status"] == "not ready" and body["checks"]["database"] == {"state": "ok"}
    assert body["checks"]["migrations"]["state"] == "failing"
    assert older in body["checks"]["migrations"]["detail"] and revisions()[-1] in body["checks"]["migrations"]["detail"]
    assert body["last_backup"] is None  # no scheduled backup: informational, never a failing check


async def test_readyz_is_503_naming_the_database_when_it_cannot_be_reached(services: Services, tmp_path: Path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'no such folder' / 'steward.db'}")
    try:
        away = Services(make_sessionmaker(engine))
        response, body = await ask(services, probe_of(away))
    finally:
        await engine.dispose()
    assert response.status == 503
    strict(response)
    assert body["checks"]["database"] == {"state": "failing", "detail": "OperationalError"}  # the type, no message
    assert body["checks"]["migrations"]["state"] == "failing"


async def test_a_check_that_hangs_fails_within_the_timeout(services: Services):
    async def hangs() -> None:
        await asyncio.sleep(30)

    probe = HealthProbe({"database": hangs}, timeout=0.2, cache_seconds=0)
    started = asyncio.get_running_loop().time()
    response, body = await ask(services, probe)
    assert response.status == 503 and asyncio.get_running_loop().time() - started < 5
    assert body["checks"]["database"] == {"state": "failing", "detail": "no answer within 0.2 s"}


async def test_readyz_results_are_reused_for_a_moment(services: Services):
    calls = []

    def counted() -> None:
        calls.append(1)

    probe = HealthProbe({"counted": counted}, cache_seconds=60)
    async with TestClient(TestServer(make_app(services.venue, probe=probe))) as client:
        answers = await asyncio.gather(*(client.get("/readyz") for _ in range(10)))
        assert {a.status for a in answers} == {200}
    assert len(calls) == 1


@pytest.fixture
async def steward(bot: Steward) -> AsyncIterator[Steward]:
    yield bot
    await bot.runner.stop()


async def test_the_bot_is_not_ready_until_the_gateway_and_the_scheduler_are(services: Services, steward: Steward):
    steward.health.cache_seconds = 0
    response, body = await ask(services, steward.health)
    assert response.status == 503
    strict(response)
    assert body["checks"] == {
        "gateway": {"state": "failing", "detail": "not connected"},  # never logged in: no gateway
        "database": {"state": "ok"},
        "migrations": {"state": "ok"},
        "scheduler": {"state": "failing", "detail": "not running"},
    }
    await steward.runner.start()
    steward._ready.set()  # what discord.py does once the gateway's READY arrived
    response, body = await ask(services, steward.health)
    assert response.status == 200, body
    assert set(body["checks"]) == {"gateway", "database", "migrations", "scheduler"}
    await steward.runner.stop()
    response, body = await ask(services, steward.health)
    assert response.status == 503 and body["checks"]["scheduler"]["state"] == "failing"


async def test_health_answers_while_the_streams_are_at_their_cap(services: Services):
    """The real server (its own accept loop): one stream fills the cap, a second is refused, health still answers."""
    await build_tournament(services)
    token = (await services.venue.link(ORGANIZER, tournament="Coppa Test")).token
    limits = WebLimits(max_streams=1, max_streams_per_address=1)
    server = VenueServer(services.venue, port=0, limits=limits, probe=probe_of(services), metrics=False)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            stream = await session.get(f"{server.base_url}/v/{token}/events")
            assert stream.status == 200
            await stream.content.readline()
            refused = await session.get(f"{server.base_url}/v/{token}/events")
            assert refused.status == 503 and server.streams.open == 1
            for path in ("/healthz", "/readyz"):
                async with session.get(server.base_url + path) as answer:
                    assert answer.status == 200, path
                    strict(answer)
            assert server.streams.open == 1 and server.streams.refused == 1  # health is not a stream
            stream.close()
    finally:
        await server.stop()


async def test_readyz_says_when_the_last_scheduled_backup_was_taken(services: Services, tmp_path: Path):
    """With BACKUP_DIR the bot's probe reads the newest of its own backups there (issue 43); other files are not
    backups."""
    from bot.rules.backups import backup_name
    from bot.settings import Settings

    folder = tmp_path / "backups"
    folder.mkdir()
    taken = datetime(2026, 12, 6, 3, 30, tzinfo=UTC)
    for when in (taken.replace(day=5), taken):
        (folder / backup_name(when, postgres=False)).write_bytes(b"x")
    (folder / "notes.txt").write_text("not a backup")
    bot = Steward(Settings(backup_dir=str(folder)), services, apply_migrations=False, sync_commands=False)
    bot.health.cache_seconds = 0
    try:
        _, body = await ask(services, bot.health)
        assert isinstance(body, dict) and body["last_backup"] == taken.isoformat()
    finally:
        await bot.close()
