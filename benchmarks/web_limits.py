"""Benchmark: the venue server's limits (issue 40, findings 1 and 4), as found and now.

    python -m benchmarks.web_limits [--nofile 1024] [--streams 1000] [--slow 1000] [--flood 1000]

1. Descriptors. The server runs in a child process whose RLIMIT_NOFILE soft limit is ``--nofile``, beside a
   "command" that every 20 ms opens a file, opens a fresh SQLite connection and reads it, and talks to a loopback
   stand-in for Discord. This process opens ``--streams`` live streams (ten client addresses) and ``--slow``
   half-sent requests. Three set-ups: no limits (the server as it was), the default limits, and no caps but the
   descriptor reserve. Reported: the command's probes (ok / failed, and why), its worst round beyond its own
   sleep (the loop's stall), the process's peak descriptors, streams served / refused, connections refused by
   reason, the half-sent requests closed by the header time-out.
0. ``--bot``: the bot's own descriptors, to size the reserve: the real bot (every cog, the worker processes) logged
   in to the wire tier's fake Discord, 300 players pressing Sign at once (``benchmarks/venue.py``'s storm), its
   descriptors sampled every 5 ms (the fake Discord's own sockets are in the same process: an upper bound).
2. Wrong tokens. ``--flood`` requests with random tokens in flight at once (a separate process) while this process
   reads the standings as /standings does; as found (every string taken for a token) and now. Reported: token
   lookups in the database, statements sent during the flood, the read's median alone and during the flood.

The harness is the tests' (tests/web/test_web_limits_descriptors.py, test_web_limits_wrong_tokens.py)."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import bot.db.repo
from bot.db.migrate import upgrade_to_head
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.web.limits import WebLimits, open_descriptors
from bot.web.tokens import TokenBook
from tests.support import web_limits_descriptors as fds
from tests.support import web_limits_wrong_tokens as wrong
from tests.support.reports_fixtures import GUILD, ORGANIZER, build_tournament


async def descriptors(url: str, token: str, args: argparse.Namespace, workdir: Path) -> None:
    fds.NOFILE, fds.STREAMS, fds.SLOW = args.nofile, args.streams, args.slow
    no_caps = dict(max_connections=0, max_connections_per_address=0, max_streams=0, max_streams_per_address=0)
    setups: dict[str, WebLimits | None] = {
        "as found (aiohttp's own site, no limits)": None,
        "default limits": WebLimits(),
        "reserve only (no caps)": replace(WebLimits(), **no_caps),
    }
    print(f"\n1. {args.streams} streams + {args.slow} half-sent requests, RLIMIT_NOFILE={args.nofile}")
    for name, limits in setups.items():
        log = workdir / f"server-{len(name)}.log"
        async with fds.serving(url, limits, log) as (server, port):
            await server.ask("reset")
            began = time.monotonic()
            attack, streams, slow = await fds.run_attack(port, token)
            setup_s = time.monotonic() - began
            try:
                await asyncio.sleep(1.0)
                report = await server.ask("report")
                closed = await attack.closed_by_server(within=(limits.header_timeout if limits else 0) + 5)
            finally:
                attack.close()
        probes, stats = report["probes"], report["server"]
        print(f"  {name}:")
        print(f"    command probes ok {probes['ok']}, failed {probes['failed']} {probes['errors'] or ''}; "
              f"worst round beyond its sleep {probes['stall_ms']} ms (the stand-in's answer included); "
              f"worst event-loop lag {probes['lag_ms']} ms; peak descriptors {probes['peak']}")  # fmt: skip
        print(f"    streams {streams}; half-sent {slow}; attack set up in {setup_s:.1f} s")
        print(f"    connections {stats['connections']}; streams {stats['streams']}")
        closing = f"{closed}/{len(attack.slow)}"
        print(f"    half-sent requests closed within the header time-out (+5 s): {closing}; log {log.stat().st_size} B")


async def tokens(services: Services, name: str, flood: int) -> None:
    print(f"\n2. {flood} wrong tokens in flight while the bot reads the standings")
    wrong.FLOOD = flood
    for as_found in (True, False):
        await token_run(services, name, flood, as_found=as_found)


async def token_run(services: Services, name: str, flood: int, *, as_found: bool) -> None:
    real_lookup, real_known = bot.db.repo.tournament_by_venue_token, TokenBook.known
    calls: Counter[str] = Counter()

    async def spy(**kwargs: Any) -> Any:
        calls["lookup"] += 1
        return await real_lookup(**kwargs)

    async def anything(self: TokenBook, token: str) -> bool:
        return True

    async def read() -> None:
        await services.standings.compute(GUILD, name)

    bot.db.repo.tournament_by_venue_token = spy  # type: ignore[assignment]
    if as_found:
        TokenBook.known = anything  # type: ignore[method-assign]
    try:
        async with wrong.served(services) as server:
            await asyncio.sleep(1.5)  # the tokens are read at start
            baseline = [await wrong.timed(read) for _ in range(30)]
            with wrong.counting(services) as during:
                began = time.monotonic()
                proc = await wrong.flood(server)
                arrived = lambda: calls["lookup"] + server.hub.tokens.misses >= flood // 10  # noqa: E731
                await wrong.until(arrived, 120, "the flood reaches the server")
                reads = []
                while proc.returncode is None and len(reads) < 30:
                    reads.append(await wrong.timed(read))
                answered = await wrong.statuses(proc)
                took = time.monotonic() - began
    finally:
        bot.db.repo.tournament_by_venue_token = real_lookup  # type: ignore[assignment]
        TokenBook.known = real_known  # type: ignore[method-assign]
    alone = f"{statistics.median(baseline) * 1000:.1f} ms"
    flooded = f"{statistics.median(reads) * 1000:.1f} ms" if reads else "(no read overlapped)"
    print(f"  {'as found' if as_found else 'now'}: answers {dict(answered)} in {took:.1f} s; token lookups "
          f"{calls['lookup']}; statements during the flood {during.total}; standings read median {alone} alone, "
          f"{flooded} during ({len(reads)} reads)")  # fmt: skip


def bot_descriptors(players: int) -> None:
    import threading

    import benchmarks.venue as venue

    peak, idle, stop = [0], [open_descriptors() or 0], threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], open_descriptors() or 0)
            time.sleep(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = asyncio.run(venue._storm(venue._fresh(), players, 0))
    finally:
        stop.set()
        sampler.join()
    print(
        f"0. the bot's own descriptors: {idle[0]} before it starts, peak {peak[0]} while {result['presses']} "
        f"Sign presses are answered (the fake Discord's sockets included)"
    )


async def main(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="web-limits-"))
    try:
        path = workdir / "steward.db"
        url = f"sqlite+aiosqlite:///{path}"
        await asyncio.to_thread(upgrade_to_head, url)
        engine = make_engine(url)
        services = Services(make_sessionmaker(engine))
        rounds = {1: [[f"P{t}{s}" for s in range(4)] for t in range(8)]}
        built = await build_tournament(services, rounds=rounds)
        token = (await services.venue.link(ORGANIZER, tournament=built.name)).token
        await descriptors(url, token, args, workdir)
        await tokens(services, built.name, args.flood)
        await engine.dispose()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    import resource

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nofile", type=int, default=1024)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--flood", type=int, default=1000)
    parser.add_argument("--bot", type=int, default=0, help="players of the bot's own storm (0: not run)")
    arguments = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 3 * (arguments.streams + arguments.slow + arguments.flood)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    if arguments.bot:
        bot_descriptors(arguments.bot)
    asyncio.run(main(arguments))
