"""ISSUE-40.1's harness: the venue server in a child process under a lowered RLIMIT_NOFILE, a command's work
beside it, and the attack (live streams, half-sent requests). Used by tests/web/test_web_limits_descriptors.py
and benchmarks/web_limits.py (which sets NOFILE, STREAMS and SLOW)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from bot.services import Services
from bot.web.limits import WebLimits, open_descriptors

ROOT = Path(__file__).resolve().parents[2]
NOFILE = 1024  # the common default soft limit the finding was measured under
STREAMS = 1000
SLOW = 1000
STREAM_ADDRESSES = [f"127.0.0.{10 + i}" for i in range(10)]  # ten viewers' addresses (Linux routes all of 127/8)
HEADER_TIMEOUT = 3.0  # shorter than the default 10 s so the test waits less; the mechanism is the same
CHILD = "from tests.support.web_limits_descriptors import child; child()"


def child() -> None:
    """The server under a lowered descriptor limit, with a command's work running beside it.
    argv: DATABASE_URL NOFILE LIMITS_JSON (``null``: the server as found) DISCORD_PORT"""
    url, nofile, limits_json, discord_port = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, hard))
    raw = json.loads(limits_json)
    if raw is not None:
        raw["trusted_proxies"] = frozenset(raw["trusted_proxies"])
    asyncio.run(_serve(url, WebLimits(**raw) if raw is not None else None, discord_port))


class AsFound:
    """The server as the finding met it: aiohttp's own TCP site (asyncio accepts every connection, aiohttp's 75 s
    keep-alive is the only time-out), no cap, no reserve."""

    def __init__(self, venue: Any) -> None:
        from bot.web.app import make_app

        self.app = make_app(venue, limits=WebLimits.unlimited())
        self.port = 0

    async def start(self) -> None:
        from aiohttp import web

        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site.port

    def stats(self) -> dict[str, Any]:
        from bot.web.app import HUB, STREAMS

        return {"connections": {}, "streams": self.app[STREAMS].stats(), "hub": self.app[HUB].stats()}

    async def stop(self) -> None:
        await self._runner.cleanup()


async def _serve(url: str, limits: WebLimits | None, discord_port: int) -> None:
    from bot.db.session import make_engine, make_sessionmaker
    from bot.web.app import VenueServer

    engine = make_engine(url)
    services = Services(make_sessionmaker(engine))
    server: Any = AsFound(services.venue)
    if limits is not None:
        server = VenueServer(services.venue, host="127.0.0.1", port=0, limits=limits)
    await server.start()
    path = url.split(":///", 1)[1]
    probes: dict[str, Any] = {"ok": 0, "failed": 0, "errors": {}, "peak": 0, "stall_ms": 0.0, "lag_ms": 0.0}

    def fail(what: str, exc: OSError) -> None:
        probes["failed"] += 1
        key = f"{what}: {exc.strerror or exc}"
        probes["errors"][key] = probes["errors"].get(key, 0) + 1

    async def command() -> None:
        """What a slash command needs while the pages are under load: a file, the database, Discord."""
        while True:
            began = time.perf_counter()
            probes["peak"] = max(probes["peak"], open_descriptors() or 0)  # the whole process's, sampled
            try:
                with open(path, "rb") as f:  # noqa: ASYNC230 - a command opening a file, as the bot does
                    f.read(16)
                probes["ok"] += 1
            except OSError as exc:
                fail("file", exc)
            try:
                db = sqlite3.connect(path)
                try:
                    db.execute("SELECT count(*) FROM tournament").fetchone()
                finally:
                    db.close()
                probes["ok"] += 1
            except (OSError, sqlite3.Error) as exc:
                fail("database", exc if isinstance(exc, OSError) else OSError(str(exc)))
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", discord_port), 5)
                writer.write(b"ping\n")
                assert await asyncio.wait_for(reader.readline(), 5) == b"pong\n"
                writer.close()
                probes["ok"] += 1
            except (OSError, TimeoutError) as exc:
                fail("discord", exc if isinstance(exc, OSError) else OSError("time-out"))
            await asyncio.sleep(0.02)
            stall = (time.perf_counter() - began - 0.02) * 1000  # the command's round beyond its sleep (reported)
            probes["stall_ms"] = max(probes["stall_ms"], round(stall, 1))

    async def lag() -> None:
        """How late the event loop wakes a 10 ms sleep (what every coroutine of the bot waits on top)."""
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            probes["lag_ms"] = max(probes["lag_ms"], round((time.perf_counter() - began - 0.01) * 1000, 1))

    task = asyncio.get_running_loop().create_task(command())
    lagging = asyncio.get_running_loop().create_task(lag())
    print(json.dumps({"port": server.port, "descriptors": open_descriptors()}), flush=True)
    try:
        while True:
            line = (await asyncio.to_thread(sys.stdin.readline)).strip()
            if line == "reset":
                probes.update(ok=0, failed=0, errors={}, peak=0, stall_ms=0.0, lag_ms=0.0)
            if line in ("reset", "report"):
                report = {"probes": probes, "server": server.stats(), "descriptors": open_descriptors()}
                print(json.dumps(report), flush=True)
            if line in ("stop", ""):
                break
    finally:
        task.cancel()
        lagging.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(server.stop(), 10)
        await engine.dispose()


class Child:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()
        return dict(json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 60)))


@contextlib.asynccontextmanager
async def discord_stand_in():
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            if await reader.readline() == b"ping\n":
                writer.write(b"pong\n")
                await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


@contextlib.asynccontextmanager
async def serving(database_url: str, limits: WebLimits | None, log: Path):
    """The child serving ``database_url`` with ``limits`` (None: as found), its standard error into ``log``."""
    async with discord_stand_in() as discord_port:
        limits_json = "null"
        if limits is not None:
            limits_json = json.dumps({**{f: getattr(limits, f) for f in limits.__dataclass_fields__},
                                      "trusted_proxies": sorted(limits.trusted_proxies)})  # fmt: skip
        with log.open("wb") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-c", CHILD, database_url, str(NOFILE), limits_json, str(discord_port),
                cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=err,
            )  # fmt: skip
        try:
            assert proc.stdout is not None
            started = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
            yield Child(proc), int(started["port"])
        finally:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError, ConnectionError):
                    assert proc.stdin is not None
                    proc.stdin.write(b"stop\n")
                try:
                    await asyncio.wait_for(proc.wait(), 20)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()


class Attack:
    """The test side's sockets: live streams and half-sent requests, held open."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.writers: list[asyncio.StreamWriter] = []
        self.slow: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def _connect(self, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0)), 10
        )
        self.writers.append(writer)
        return reader, writer

    async def stream(self, source: str, token: str) -> str:
        """One live stream; its status (``200``, ``503``), ``closed`` or ``pending`` (never answered)."""
        try:
            reader, writer = await self._connect(source)
            writer.write(f"GET /v/{token}/events HTTP/1.1\r\nHost: venue\r\nAccept: text/event-stream\r\n\r\n".encode())
            line = await asyncio.wait_for(reader.readline(), 15)
        except TimeoutError:
            return "pending"
        except OSError:
            return "closed"
        return line.split()[1].decode() if line.startswith(b"HTTP/1.1 ") else "closed"

    async def half_sent(self, source: str) -> str:
        """A request whose headers never end: ``held`` while the server keeps it, else ``503`` or ``closed``."""
        try:
            reader, writer = await self._connect(source)
            writer.write(b"GET /v/anything HTTP/1.1\r\nHost: venue\r\nX-Slow: ")
            await writer.drain()
        except (OSError, TimeoutError):
            return "closed"
        self.slow.append((reader, writer))
        try:
            line = await asyncio.wait_for(reader.readline(), 0.5)
        except TimeoutError:
            return "held"
        except OSError:
            return "closed"
        return line.split()[1].decode() if line.startswith(b"HTTP/1.1 ") else "closed"

    async def closed_by_server(self, within: float) -> int:
        """How many half-sent requests the server has closed (EOF) by ``within`` seconds from now."""

        async def ended(reader: asyncio.StreamReader) -> bool:
            try:
                await asyncio.wait_for(reader.read(), within)
                return True
            except TimeoutError:
                return False
            except OSError:
                return True

        return sum(await asyncio.gather(*(ended(r) for r, _ in self.slow)))

    def close(self) -> None:
        for writer in self.writers:
            writer.transport.abort()


async def run_attack(port: int, token: str) -> tuple[Attack, dict[str, int], dict[str, int]]:
    attack = Attack(port)
    streams = await asyncio.gather(*(attack.stream(STREAM_ADDRESSES[i % 10], token) for i in range(STREAMS)))
    slow = await asyncio.gather(*(attack.half_sent("127.0.0.1" if i % 2 else "127.0.0.3") for i in range(SLOW)))
    count = lambda xs: {k: xs.count(k) for k in sorted(set(xs))}  # noqa: E731
    return attack, count(streams), count(slow)


async def poll_from(port: int, source: str, token: str) -> int:
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 10)
    try:
        writer.write(f"GET /v/{token}/data HTTP/1.1\r\nHost: venue\r\nConnection: close\r\n\r\n".encode())
        line = await asyncio.wait_for(reader.readline(), 15)
        return int(line.split()[1])
    finally:
        writer.transport.abort()
