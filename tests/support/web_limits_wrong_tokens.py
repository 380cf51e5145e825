"""ISSUE-40.4's harness: a flood of wrong venue tokens from a separate process, the database's statements
counted. Used by tests/web/test_web_limits_wrong_tokens.py and benchmarks/web_limits.py (which sets FLOOD)."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bot.services import Services
from bot.web.app import VenueServer
from bot.web.limits import WebLimits

ROOT = Path(__file__).resolve().parents[2]
FLOOD = 1000
OPEN = WebLimits(max_connections=0, max_connections_per_address=0)  # the flood must reach the tokens, not a cap
FLOOD_CLIENT = """
import asyncio, json, secrets, sys
import aiohttp

async def main(base, n):
    connector, timeout = aiohttp.TCPConnector(limit=0), aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        async def one():
            try:
                async with http.get(f"{base}/v/{secrets.token_urlsafe(24)}/data") as r:
                    await r.read()
                    return str(r.status)
            except aiohttp.ClientError as exc:
                return type(exc).__name__
        print(json.dumps(await asyncio.gather(*(one() for _ in range(n)))), flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


LOOKUP = re.compile(r"WHERE\s+tournament\.venue_token\s*=", re.IGNORECASE)


class Statements:
    """Every statement the engine sends, counted (and the token lookups by their WHERE clause)."""

    def __init__(self) -> None:
        self.total = 0
        self.lookups = 0

    def __call__(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        self.total += 1
        if LOOKUP.search(statement):
            self.lookups += 1


@contextmanager
def counting(services: Services) -> Iterator[Statements]:
    engine = services.sessionmaker.kw["bind"].sync_engine
    counter = Statements()
    event.listen(engine, "before_cursor_execute", counter)
    try:
        yield counter
    finally:
        event.remove(engine, "before_cursor_execute", counter)


@asynccontextmanager
async def served(services: Services) -> AsyncIterator[VenueServer]:
    server = VenueServer(services.venue, host="127.0.0.1", port=0, limits=OPEN)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def flood(server: VenueServer) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", FLOOD_CLIENT, server.base_url, str(FLOOD), cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )


async def statuses(proc: asyncio.subprocess.Process) -> Counter[str]:
    out, _ = await asyncio.wait_for(proc.communicate(), 180)
    return Counter(json.loads(out))


async def timed(read: Callable[[], Any]) -> float:
    began = time.perf_counter()
    await read()
    return time.perf_counter() - began


async def until(check: Callable[[], bool], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within} s (a backstop): {what}")
        await asyncio.sleep(0.01)
