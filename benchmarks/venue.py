"""Benchmark: the venue pages' cost to the bot — 200 phones watching live while 300 players press Sign.

    python -m benchmarks.venue [--viewers 200] [--players 300]

The real bot (``create_bot``, every cog, a fresh SQLite file, WEB_PORT set: the venue pages served from the bot's own
event loop) logs in to the fake Discord of the wire tier (``tests.support.fake_discord``). A 300-player round is drawn
and published, every table's result entered; then every player presses Sign on their table at once (300 component
interactions). The storm runs twice, each on a fresh database: without viewers, and with ``--viewers`` open pages
(server-sent events, in a separate process, as phones would be) following the tournament's page throughout.

Reported: the Sign presses' first response (Discord's 3-second rule) p50 / p99 with and without viewers and their
ratio; the snapshots the pages' hub built and the change-counter polls it made during the storm (the database work,
which does not grow with viewers); the viewers' snapshots received and how long after the last press the last
viewer had the final state.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import create_bot
from bot.db.migrate import upgrade_to_head
from bot.db.models import Registration, RegistrationStatus
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import TableRef
from bot.settings import Settings
from bot.web.app import page_url
from tests.support.fake_discord import Exchange, FakeDiscord
from tests.support.wire import Wire

ORG = ("Organizzatori",)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ----------------------------------------------------------------------------------------------- the viewers


async def _watch(url: str, viewers: int, seconds: float) -> dict[str, Any]:
    """``viewers`` open streams on ``url`` for ``seconds``: each snapshot's arrival time and how many signatures it
    shows."""
    arrivals: list[tuple[float, int]] = []
    connected = 0

    async def one(session: aiohttp.ClientSession) -> None:
        nonlocal connected
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as response:
            connected += 1
            name = ""
            async for raw in response.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: ") and name == "snapshot":
                    data = json.loads(line[6:])["data"]
                    signed = sum(t["report"]["signed"] for t in (data["round"] or {"tables": []})["tables"])
                    arrivals.append((time.time(), signed))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(one(session)) for _ in range(viewers)]
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"connected": connected, "arrivals": arrivals}


def viewers_main(url: str, viewers: int, seconds: float) -> int:
    print(json.dumps(asyncio.run(_watch(url, viewers, seconds))), flush=True)
    return 0


# ----------------------------------------------------------------------------------------------- the bot


async def _storm(url: str, players: int, viewers: int) -> dict[str, Any]:
    fake = FakeDiscord()
    await fake.start()
    engine = make_engine(url)
    services = Services(make_sessionmaker(engine))
    port = _free_port()
    settings = Settings(discord_token="bench", database_url=url, dev_guild_id=fake.guild.id, web_port=port)
    bot = create_bot(settings, services=services, apply_migrations=False, start_scheduler=False,
                     guild_ready_timeout=0.05)  # fmt: skip
    task = asyncio.create_task(bot.start("bench"))
    watcher: subprocess.Popen[str] | None = None
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 60)
        wire = Wire(fake, bot, services)
        guild = fake.guild.id
        await wire.command("setup roles", admin=True, organizer=wire.role("Organizzatori"),
                           referee=wire.role("Arbitri"), head_referee=wire.role("Capo arbitro"))  # fmt: skip
        await wire.command("tournament create", roles=ORG, name="Coppa", preset="risiko-ufficiali-2018")
        tournament = await services.tournaments.get(guild, "Coppa")
        async with services.sessionmaker() as session, session.begin():
            for i in range(players):
                session.add(Registration(guild_id=guild, tournament_id=tournament.id, user_id=9000 + i,
                                         display_name=f"Giocatore {i:03d}", club=("Roma", "Milano", None)[i % 3],
                                         status=RegistrationStatus.VALIDATED.value,
                                         registered_at=services.clock()))  # fmt: skip
        await wire.command("round draw", roles=ORG, tournament="Coppa", within=300)
        await wire.command("round publish", roles=ORG, tournament="Coppa", within=300)
        staff = Actor(guild_id=guild, user_id=1, is_admin=True)
        referee = Actor(guild_id=guild, user_id=2, role_ids=frozenset({fake.guild.roles["Arbitri"]}))
        view = await services.rounds.show(staff, tournament="Coppa")
        presses = []
        for table in view.tables:
            values = {s.registration_id: str(80 - 9 * k) for k, s in enumerate(table.seats)}
            report = await services.reports.enter_points(referee, TableRef("Coppa", table.number), values)
            row = {"type": 1, "components": [{"type": 2, "style": 3, "label": "Firma",
                                              "custom_id": f"report:sign:{report.table_id}"}]}  # fmt: skip
            message = fake._message(8_000_000 + table.number, fake.guild.channel_id, {"components": [row]}, [])
            presses += [(message, report.table_id, s.user_id) for s in table.seats]
        token = (await services.venue.link(staff, tournament="Coppa")).token
        assert bot.venue_server is not None
        hub = bot.venue_server.hub
        events = page_url(f"http://127.0.0.1:{port}", token) + "/events"
        if viewers:
            watcher = subprocess.Popen(  # noqa: ASYNC220 - started once, before the measured storm
                [sys.executable, "-m", "benchmarks.venue", "--watch", events, "--viewers", str(viewers),
                 "--seconds", "25"],
                stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
            for _ in range(100):  # every viewer connected and served its first snapshot
                await asyncio.sleep(0.1)
                page = hub._pages.get(token)
                if page is not None and page.watchers >= viewers:
                    break
            else:
                raise RuntimeError("the viewers did not connect")
            await asyncio.sleep(1.0)
        builds, polls = hub.builds, hub.polls
        t0 = time.perf_counter()
        sends = [fake.interact(fake.component_payload(m, f"report:sign:{t}", user_id=u)) for m, t, u in presses]
        exchanges: list[Exchange] = [await s for s in sends]
        await asyncio.wait_for(asyncio.gather(*(e.done.wait() for e in exchanges)), 300)
        wall = time.perf_counter() - t0
        stormed_at = time.time()
        await asyncio.sleep(3.0)  # the last change reaches the pages
        result: dict[str, Any] = {
            "presses": len(exchanges),
            "wall": wall,
            "first": [e.first_response for e in exchanges],
            "builds": hub.builds - builds,
            "polls": hub.polls - polls,
            "watchers": hub._pages[token].watchers if token in hub._pages else 0,
            "stormed_at": stormed_at,
            "late": sum(1 for e in exchanges if e.first_response >= 3.0),
        }
        if watcher is not None:
            out, _ = await asyncio.to_thread(watcher.communicate, timeout=60)
            seen = json.loads(out.strip().splitlines()[-1])
            result["connected"] = seen["connected"]
            arrivals = seen["arrivals"]
            result["snapshots_received"] = len(arrivals)
            final = max(s for _, s in arrivals)
            result["all_signed_seen"] = final == len(exchanges)
            last = [at for at, s in arrivals if s == final]
            result["last_viewer_after_storm"] = max(last) - stormed_at
        return result
    finally:
        if watcher is not None and watcher.poll() is None:
            watcher.kill()
        await bot.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await fake.stop()
        await engine.dispose()


def _fresh() -> str:
    folder = Path(tempfile.mkdtemp(prefix="steward-venue-"))
    url = f"sqlite+aiosqlite:///{folder / 'venue.db'}"
    upgrade_to_head(url)
    return url


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--watch", help=argparse.SUPPRESS)  # the viewers' process
    ap.add_argument("--seconds", type=float, default=25.0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.watch:
        return viewers_main(args.watch, args.viewers, args.seconds)
    alone = asyncio.run(_storm(_fresh(), args.players, 0))
    watched = asyncio.run(_storm(_fresh(), args.players, args.viewers))
    print(f"{args.players} Sign presses at once through the fake Discord, SQLite; the venue pages in the bot's process")
    print(f"{'run':<22}{'presses':>8}{'per s':>8}{'first p50':>11}{'p99':>8}{'builds':>8}{'polls':>7}{'late>3s':>9}")
    for label, r in (("no viewers", alone), (f"{args.viewers} viewers (SSE)", watched)):
        first = r["first"]
        print(f"{label:<22}{r['presses']:>8}{r['presses'] / r['wall']:>8.1f}{statistics.median(first):>11.3f}"
              f"{_pct(first, 0.99):>8.3f}{r['builds']:>8}{r['polls']:>7}{r['late']:>9}")  # fmt: skip
    p50 = statistics.median(watched["first"]) / statistics.median(alone["first"])
    p99 = _pct(watched["first"], 0.99) / _pct(alone["first"], 0.99)
    print(f"first response with viewers / without: p50 x{p50:.2f}, p99 x{p99:.2f}")
    received, connected = watched.get("snapshots_received", 0), watched.get("connected", 0)
    after = watched.get("last_viewer_after_storm", 0.0)
    print(f"viewers connected: {connected}, snapshots received: {received} ({received / max(1, connected):.1f} each),"
          f" every signature seen: {watched.get('all_signed_seen')}, last viewer up to date {after:.2f} s after the"
          " last press")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
