"""ISSUE-40.1 — the venue page cannot starve the bot of file descriptors.

As found: the pages run in the bot's process; ~1,000 live-update connections with the public link, or slow
half-sent requests without any link, exhausted a 1,024-descriptor limit, and then every socket and file the bot
opened failed — Discord included. Here the server runs in a child process whose ``RLIMIT_NOFILE`` is lowered to 1,024
while the child keeps doing what a command does: it opens a file, opens a fresh connection to the SQLite database
and reads it, and talks over a new loopback socket to a stand-in for Discord (every 20 ms). The test process opens
1,000 live streams (ten client addresses) and 1,000 half-sent requests at once.

* Served as it was (aiohttp's own site: asyncio's accept loop, no cap, no reserve, no header time-out) the harness
  reproduces the finding: the child's probes fail with "too many open files".
* With the limits no probe fails; the streams beyond the cap are answered 503 (the page then polls), the connections
  beyond the cap get the fixed 503, the half-sent requests are closed by the header time-out, and a new viewer's
  poll is served afterwards. With the caps off and only the descriptor reserve, the probes still never fail.

Outcomes are counted, not timed: the time-outs only bound how long the test may wait."""

from __future__ import annotations

import asyncio
import resource
from dataclasses import replace
from pathlib import Path

import pytest

from bot.services import Services
from bot.web.limits import WebLimits
from tests.support.reports_fixtures import ORGANIZER, build_tournament
from tests.support.web_limits_descriptors import (
    HEADER_TIMEOUT,
    NOFILE,
    SLOW,
    STREAMS,
    poll_from,
    run_attack,
    serving,
)

# ------------------------------------------------------------------------------------------------ the child


# ------------------------------------------------------------------------------------------------ the test side


@pytest.fixture
def enough_descriptors() -> None:
    """The test side holds 2,000+ sockets: raise its own soft limit (the hard limit allowing)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 3 * (STREAMS + SLOW)
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip(f"the test needs {want} descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


async def token_for(services: Services, database_url: str) -> str:
    if not database_url.startswith("sqlite"):
        pytest.skip("the child process serves the test's SQLite file")
    await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    return (await services.venue.link(ORGANIZER, tournament="Coppa Test")).token


async def test_issue_40_1_as_found_a_thousand_streams_and_slow_requests_starve_an_unlimited_server(
    services: Services, database_url: str, tmp_path: Path, enough_descriptors: None
):
    """The harness reproduces the finding: the server without limits lets the attack take every descriptor, and
    the command beside it fails to open files, the database and sockets."""
    token = await token_for(services, database_url)
    async with serving(database_url, None, tmp_path / "server.log") as (server, port):
        await server.ask("reset")
        attack, streams, slow = await run_attack(port, token)
        try:
            await asyncio.sleep(1.0)  # the command keeps trying while the attack holds its sockets
            report = await server.ask("report")
        finally:
            attack.close()
    probes = report["probes"]
    assert probes["failed"] > 0, (probes, streams, slow)
    assert any("Too many open files" in e for e in probes["errors"]), probes["errors"]


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param("defaults", id="the-default-limits"),
        pytest.param("reserve-only", id="no-caps-only-the-descriptor-reserve"),
    ],
)
async def test_issue_40_1_the_command_keeps_its_descriptors_under_a_thousand_streams_and_slow_requests(
    services: Services, database_url: str, tmp_path: Path, enough_descriptors: None, setup: str
):
    token = await token_for(services, database_url)
    limits = replace(WebLimits(), header_timeout=HEADER_TIMEOUT)
    if setup == "reserve-only":  # every cap off: the reserve alone keeps the bot's descriptors
        limits = replace(limits, max_connections=0, max_connections_per_address=0, max_streams=0,
                         max_streams_per_address=0)  # fmt: skip
    log = tmp_path / "server.log"
    async with serving(database_url, limits, log) as (server, port):
        await server.ask("reset")
        attack, streams, slow = await run_attack(port, token)
        try:
            await asyncio.sleep(1.0)  # the command keeps working while the attack holds its sockets
            during = await server.ask("report")
            # the half-sent requests the server admitted are closed by the header time-out (the wait is a backstop)
            closed = await attack.closed_by_server(within=HEADER_TIMEOUT + 60)
            viewer = await poll_from(port, "127.0.0.99", token)  # a phone arriving now: served (it polls)
            after = await server.ask("report")
        finally:
            attack.close()
    probes, stats = during["probes"], during["server"]
    assert probes["failed"] == 0 and probes["ok"] >= 9, probes
    assert after["probes"]["failed"] == 0, after["probes"]
    assert closed == len(attack.slow), (closed, len(attack.slow), slow)
    # the reserve held: the web stopped at WEB_FD_RESERVE from the limit; what the process opened past that is the
    # command's own (a file, the database, a socket: a few at a time), never the web's
    peak = max(probes["peak"], stats["connections"]["descriptors_peak"])
    assert peak <= NOFILE - limits.fd_reserve + 32, (probes, stats)
    if setup == "defaults":
        assert viewer == 200, after["server"]  # past the streams' cap, a phone still gets the page's JSON
        # the streams' cap: exactly that many live, the others told 503 (the page polls instead)
        assert streams == {"200": limits.max_streams, "503": STREAMS - limits.max_streams}, streams
        assert stats["streams"]["peak"] == limits.max_streams
        assert stats["connections"]["peak"] <= limits.max_connections
        refused = sum(stats["connections"]["refused"].values())  # the fixed 503, before any request is read
        assert refused >= SLOW - (limits.max_connections - limits.max_streams), stats
        assert slow.get("503", 0) > 0, slow
    else:
        assert stats["connections"]["refused"].get("descriptors", 0) > 0, stats
        assert streams.get("200", 0) > 0
        assert viewer in (200, 503), viewer  # the reserve is full of streams: a fixed 503, the bot's descriptors kept
    assert log.stat().st_size < 64_000, log.read_text()[:2000]  # no error line per refused connection
