"""Run the schedule's runner alone against the fake Discord of a wire test, in its own process (so a test can SIGKILL
it mid-send): the real bot logs in over HTTP only (no gateway: sending needs none), reconciles like a start-up and
sweeps the database's due rows one claim at a time, with the given lease, until it is killed. Once it is logged in
and about to sweep it writes ``ready`` to the file RUNNER_READY names (a file, not its stdout: helper processes it
may start inherit its stdout and would keep a pipe open after a SIGKILL).

WIRE_PORT=… DATABASE_URL=… RUNNER_LEASE=2 RUNNER_SWEEP=0.2 RUNNER_READY=path python -m tests.wire.run_runner
"""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import timedelta
from pathlib import Path

from discord.http import Route

from bot.app import create_bot
from bot.scheduling import Runner
from bot.settings import Settings


async def run() -> None:
    settings = Settings(discord_token="wire-token", database_url=os.environ["DATABASE_URL"])
    bot = create_bot(settings, apply_migrations=False, sync_commands=False, start_scheduler=False)
    await bot.login("wire-token")
    # the services run on the system clock, as in production: on PostgreSQL due rows and leases read its now()
    bot.runner = Runner(bot, lease=timedelta(seconds=float(os.environ.get("RUNNER_LEASE", "2"))),
                        sweep_seconds=float(os.environ.get("RUNNER_SWEEP", "0.2")))  # fmt: skip
    await bot.runner.start(wake=False)  # the start-up reconcile; the loop below is the sweep
    await asyncio.to_thread(Path(os.environ["RUNNER_READY"]).write_text, "ready", encoding="utf-8")
    while True:
        await bot.runner.run_due()
        await asyncio.sleep(bot.runner.sweep_seconds)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s")
    Route.BASE = f"http://127.0.0.1:{int(os.environ['WIRE_PORT'])}/api/v10"
    asyncio.run(run())


if __name__ == "__main__":
    main()
