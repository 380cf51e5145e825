"""``python -m bot`` == ``steward run``: settings → bot (engine, migrations at start-up) → run."""

from __future__ import annotations

import logging
import sys

from bot.settings import get_settings

log = logging.getLogger("bot")


def run_bot() -> int:
    settings = get_settings()
    logging.basicConfig(
        level=getattr(logging, settings.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        sys.stderr.write("error: DISCORD_TOKEN is not set (put it in the environment or in .env; see README)\n")
        return 2
    from bot.app import create_bot

    client = create_bot(settings)
    log.info("starting; database %s", settings.safe_database_url())
    client.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(run_bot())
