"""``steward web`` as docs/cli.md fixes it: once listening it prints ``venue <name> <URL>`` per tournament,
serves the page at that URL (a wrong token is a 404) and exits 0 on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.services import Services
from tests.support.reports_fixtures import build_tournament

ROOT = Path(__file__).resolve().parents[2]
STEWARD = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"  # the `steward` script


async def test_steward_web_prints_one_line_per_tournament_serves_it_and_stops_on_sigterm(
    services: Services, database_url: str
):
    if not database_url.startswith("sqlite"):
        pytest.skip("the command is run on the test's SQLite file")
    await build_tournament(services, name="Coppa Test")
    await build_tournament(services, name="Torneo <b>Due</b>")
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1"}
    env.pop("WEB_BASE_URL", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", STEWARD, "web", "--port", "0", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        lines = [(await asyncio.wait_for(proc.stdout.readline(), 30)).decode().rstrip("\n") for _ in range(2)]
        assert lines[0].startswith("venue Coppa Test http://127.0.0.1:"), lines
        assert lines[1].startswith("venue Torneo <b>Due</b> http://127.0.0.1:"), lines
        url = lines[0].rsplit(" ", 1)[1]
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as response:
                assert response.status == 200 and "<title>Coppa Test</title>" in await response.text()
            async with http.get(url[:-3] + "xyz") as response:
                assert response.status == 404
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
