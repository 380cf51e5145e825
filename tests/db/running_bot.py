"""A real ``steward run`` that never contacts Discord, for the restore tests (issue 40, finding 6).

``DATABASE_URL=… STOP_FILE=… python -m tests.db.running_bot`` runs ``bot.cli.main(["run"])`` — the bot's own
start-up: the database lock, the start-up upgrade, the write check, the bot built — with ``discord.Client.run``
replaced by the bot at work: one ``audit_log`` row every 50 ms (action ``bot``), ``ready`` printed after the first,
until ``STOP_FILE`` exists. Then ``run`` returns and the process ends as the bot does when it stops.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import discord
from sqlalchemy import text

from bot.cli import main
from bot.db.session import make_engine


async def _work(database_url: str, stop: Path) -> None:
    engine = make_engine(database_url)
    try:
        first = True
        while not os.path.exists(stop):  # noqa: ASYNC240 (a test's stop flag, checked every 50 ms)
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO audit_log (guild_id, action, entity, details, created_at) "
                                        "VALUES (1, 'bot', 'test', '{}', CURRENT_TIMESTAMP)"))  # fmt: skip
            if first:
                print("ready", flush=True)
                first = False
            await asyncio.sleep(0.05)
    finally:
        await engine.dispose()


def _run(self: discord.Client, token: str, **kwargs: Any) -> None:
    asyncio.run(_work(os.environ["DATABASE_URL"], Path(os.environ["STOP_FILE"])))


if __name__ == "__main__":
    discord.Client.run = _run  # type: ignore[method-assign]
    os.environ.setdefault("DISCORD_TOKEN", "not-a-token")
    sys.exit(main(["run"]))
