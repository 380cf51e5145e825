"""Starting the bot (``steward run`` and ``python -m bot``): settings → migrations → bot → run, with one-line start-up
errors."""

from __future__ import annotations

import logging
import sys

log = logging.getLogger("bot")


def run_bot() -> int:
    """Start the bot. The database is brought to the newest schema *before* Discord is contacted, so a database
    failure and a Discord failure are told apart (``bot.cli.start_up_failure`` words both)."""
    from bot.settings import get_settings

    settings = get_settings()
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write("error: DISCORD_TOKEN is not set (put it in the environment or in .env; see README)\n")
        return 2
    from bot.app import create_bot
    from bot.db.migrate import check_writable, upgrade_to_head

    upgraded = upgrade_to_head(settings.database_url)
    if upgraded.backup is not None:
        log.warning("backup of revision %s written to %s before the upgrade", upgraded.before, upgraded.backup)
    if upgraded.changed:
        log.warning("database upgraded from revision %s to %s", upgraded.before, upgraded.after)
    check_writable(settings.database_url)
    client = create_bot(settings, apply_migrations=False)
    log.info("starting; database %s", settings.safe_database_url())
    import aiohttp
    import discord

    try:
        client.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure as exc:
        raise DiscordStartFailure(f"Discord refused DISCORD_TOKEN ({exc})", 2) from exc
    except discord.PrivilegedIntentsRequired as exc:
        raise DiscordStartFailure(f"Discord refused the bot's intents ({exc})", 2) from exc
    except (aiohttp.ClientError, discord.GatewayNotFound, discord.ConnectionClosed, OSError) as exc:
        raise DiscordStartFailure(f"cannot reach Discord: {exc}", 1) from exc
    return 0


class DiscordStartFailure(Exception):
    """The bot could not log in to Discord or connect to it: one line for the user and the exit code (2 for a
    setting to fix, 1 for the network)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code
