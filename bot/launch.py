"""Starting the bot (``steward run`` and ``python -m bot``): settings → migrations → bot → run, with one-line start-up
errors."""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.db.backup import DatabaseLock
    from bot.settings import Settings

log = logging.getLogger("bot")


def run_bot() -> int:
    """Start the bot. The database is brought to the newest schema *before* Discord is contacted, so a database
    failure and a Discord failure are told apart (``bot.cli.start_up_failure`` words both)."""
    from bot.settings import get_settings

    settings = get_settings()
    from bot.logs import configure_logging

    try:  # one line per event, text or JSON, on standard error and LOG_FILE (rotated); the token never written
        configure_logging(settings)
    except OSError as exc:
        sys.stderr.write(f"error: LOG_FILE {settings.log_file} cannot be written ({exc.strerror or exc})\n")
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write("error: DISCORD_TOKEN is not set (put it in the environment or in .env; see README)\n")
        return 2
    from bot.db.backup import DatabaseLock

    # Held for the bot's whole life, from before its start-up upgrade: `steward db restore` is refused while it is
    # held, and the bot does not start while a restore holds it (shared: several bots on one PostgreSQL are fine).
    with DatabaseLock(settings.database_url, command="run") as lock:
        return _run_holding(settings, lock)


def _run_holding(settings: Settings, lock: DatabaseLock) -> int:
    from bot.app import create_bot
    from bot.db.backup import LockLost
    from bot.db.migrate import check_writable, upgrade_to_head

    assert settings.discord_token is not None
    upgraded = upgrade_to_head(settings.database_url)
    if upgraded.backup is not None:
        log.warning("backup of revision %s written to %s before the upgrade", upgraded.before, upgraded.backup)
    if upgraded.changed:
        log.warning("database upgraded from revision %s to %s", upgraded.before, upgraded.after)
    check_writable(settings.database_url)
    client = create_bot(settings, apply_migrations=False)
    lock.on_lost = functools.partial(_stop, client)  # a restore took the database meanwhile: stop, write nothing
    log.info("starting; database %s", settings.safe_database_url())
    import aiohttp
    import discord

    try:
        if lock.lost is None:
            client.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure as exc:
        raise DiscordStartFailure(f"Discord refused DISCORD_TOKEN ({exc})", 2) from exc
    except discord.PrivilegedIntentsRequired as exc:
        raise DiscordStartFailure(f"Discord refused the bot's intents ({exc})", 2) from exc
    except (aiohttp.ClientError, discord.GatewayNotFound, discord.ConnectionClosed, OSError) as exc:
        raise DiscordStartFailure(f"cannot reach Discord: {exc}", 1) from exc
    if lock.lost is not None:
        raise LockLost(lock.lost)
    return 0


def _stop(client: Any, reason: str) -> None:
    """Called from the lock's thread when the database lock is lost: close the bot on its own loop."""
    loop = client.loop
    if isinstance(loop, asyncio.AbstractEventLoop) and not loop.is_closed():
        asyncio.run_coroutine_threadsafe(client.close(), loop)


class DiscordStartFailure(Exception):
    """The bot could not log in to Discord or connect to it: one line for the user and the exit code (2 for a
    setting to fix, 1 for the network)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code
