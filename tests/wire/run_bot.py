"""Run the real bot against the fake Discord of a wire test, in its own process (so a test can SIGKILL it).

WIRE_PORT=… DATABASE_URL=… DEV_GUILD_ID=… python -m tests.wire.run_bot
"""

from __future__ import annotations

import asyncio
import os

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app import create_bot
from bot.settings import Settings


def main() -> None:
    port = int(os.environ["WIRE_PORT"])
    Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    settings = Settings(discord_token="wire-token", database_url=os.environ["DATABASE_URL"],
                        dev_guild_id=int(os.environ["DEV_GUILD_ID"]))  # fmt: skip
    bot = create_bot(settings, apply_migrations=False, start_scheduler=False, guild_ready_timeout=0.05)
    asyncio.run(bot.start("wire-token"))


if __name__ == "__main__":
    main()
