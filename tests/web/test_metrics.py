"""Issue 43 — ``GET /metrics``: a plain 404 unless ``METRICS_ENABLED``; when on, the Prometheus text that the
client library's own parser reads, with the commands (counted through the real command tree), the heavy work, the
reminders, the database pool and the gateway."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.app import Steward
from bot.services import Services
from bot.web.app import CSP, make_app
from bot.workers import Busy, OneAtATime, Workers
from tests.support.helpers import Harness

FAMILIES = {
    "steward_commands": "counter",
    "steward_command_seconds": "histogram",
    "steward_heavy_waiting": "gauge",
    "steward_heavy_running": "gauge",
    "steward_heavy_refused": "counter",
    "steward_reminders_due": "counter",
    "steward_reminders_sent": "counter",
    "steward_reminders_late": "counter",
    "steward_db_pool_checked_out": "gauge",
    "steward_db_pool_size": "gauge",
    "steward_gateway_latency_seconds": "gauge",
}


async def scrape(services: Services) -> dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]]:
    """The families /metrics serves, parsed by prometheus_client's text parser: name → (sample, labels) → value."""
    async with TestClient(TestServer(make_app(services.venue, metrics=True))) as client:
        response = await client.get("/metrics")
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        assert response.headers["Content-Security-Policy"] == CSP
        text = await response.text()
    found: dict[str, dict[tuple[str, tuple[tuple[str, str], ...]], float]] = {}
    for family in text_string_to_metric_families(text):
        assert FAMILIES.get(family.name) == family.type, family.name
        found[family.name] = {(s.name, tuple(sorted(s.labels.items()))): s.value for s in family.samples}
    return found


def value(found: dict, family: str, sample: str, **labels: str) -> float:
    return found[family].get((sample, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_are_a_plain_404_when_disabled(services: Services):
    async with TestClient(TestServer(make_app(services.venue))) as client:
        response = await client.get("/metrics")
        assert response.status == 404 and response.content_type == "text/plain"
        assert response.headers["Content-Security-Policy"] == CSP
        assert "steward_" not in await response.text()


async def test_commands_are_counted_through_the_tree(services: Services, bot: Steward, harness: Harness):
    before = await scrape(services)
    await harness.invoke("setup roles", admin=True, organizer=harness.role("Organizzatori"),
                         referee=harness.role("Arbitri"), head_referee=harness.role("Capo arbitro"))  # fmt: skip
    await harness.invoke("players", tournament="No such cup")  # refused: the error path
    for _ in range(5):  # the completion event is dispatched as a task
        await asyncio.sleep(0)
    after = await scrape(services)
    assert set(after) == set(FAMILIES)
    ok = ("steward_commands", "steward_commands_total")
    assert value(after, *ok, command="setup roles", outcome="ok") == value(before, *ok, command="setup roles",
                                                                           outcome="ok") + 1  # fmt: skip
    assert value(after, *ok, command="players", outcome="error") == value(before, *ok, command="players",
                                                                          outcome="error") + 1  # fmt: skip
    timed = ("steward_command_seconds", "steward_command_seconds_count")
    assert value(after, *timed, command="setup roles") == value(before, *timed, command="setup roles") + 1
    assert value(after, "steward_command_seconds", "steward_command_seconds_bucket", command="setup roles",
                 le="+Inf") >= 1  # fmt: skip
    labels = {dict(key[1]).get("command") for key in after["steward_commands"]}
    assert not any(str(harness.guild.id) in str(label) for label in labels)  # command names, nobody's id
    # the bot watches its own pool and gateway (not connected: no latency yet)
    assert ("steward_db_pool_size", ()) in after["steward_db_pool_size"]
    assert after["steward_gateway_latency_seconds"] == {}


def _wait(event: threading.Event) -> None:
    event.wait(10)


async def test_heavy_work_waiting_running_and_refusals(services: Services):
    workers = Workers(processes=1, threads=1, admission_seconds=0.2)
    release = threading.Event()
    try:
        before = await scrape(services)
        first = asyncio.create_task(workers.thread(_wait, release))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(workers.thread(_wait, release))
        await asyncio.sleep(0.05)
        during = await scrape(services)
        assert value(during, "steward_heavy_running", "steward_heavy_running", pool="thread") >= 1
        assert value(during, "steward_heavy_waiting", "steward_heavy_waiting", pool="thread") >= 1
        with pytest.raises(Busy):
            await second
        async with workers.for_user(1, 2):
            with pytest.raises(OneAtATime):
                async with workers.for_user(1, 2):
                    pass
        release.set()
        await first
        after = await scrape(services)
        refused = ("steward_heavy_refused", "steward_heavy_refused_total")
        assert value(after, *refused, pool="thread", reason="busy") == value(before, *refused, pool="thread",
                                                                            reason="busy") + 1  # fmt: skip
        assert value(after, *refused, pool="any", reason="one_at_a_time") == value(
            before, *refused, pool="any", reason="one_at_a_time") + 1  # fmt: skip
        assert value(after, "steward_heavy_running", "steward_heavy_running", pool="thread") == 0
        assert value(after, "steward_heavy_waiting", "steward_heavy_waiting", pool="thread") == 0
    finally:
        release.set()
        workers.shutdown()


async def test_reminders_pool_and_gateway(services: Services):
    before = await scrape(services)
    metrics.reminder_due()
    metrics.reminder_due()
    metrics.reminder_sent(late=False)
    metrics.reminder_sent(late=True)
    gateway = SimpleNamespace(latency=0.042)
    metrics.watch_gateway(gateway)
    engine = services.sessionmaker.kw["bind"]
    metrics.watch_engine(engine)
    async with engine.connect():
        during = await scrape(services)
    after = await scrape(services)
    for name, more in (("due", 2), ("sent", 2), ("late", 1)):
        family = f"steward_reminders_{name}"
        assert value(after, family, family + "_total") == value(before, family, family + "_total") + more
    assert during["steward_gateway_latency_seconds"] == {("steward_gateway_latency_seconds", ()): 0.042}
    assert during["steward_db_pool_checked_out"][("steward_db_pool_checked_out", ())] >= 1
    assert after["steward_db_pool_size"] == {("steward_db_pool_size", ()): 10}  # make_engine's default pool
    gateway.latency = float("nan")  # discord.py's before the first heartbeat: no sample rather than NaN
    assert (await scrape(services))["steward_gateway_latency_seconds"] == {}
