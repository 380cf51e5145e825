"""Run Alembic migrations programmatically (``steward db upgrade`` and bot start-up)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations
from bot.settings import normalise_database_url

MIGRATIONS_DIR = Path(migrations.__file__).resolve().parent


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    # Passed as an attribute, not an ini option: URLs may contain '%' which configparser would interpolate.
    cfg.attributes["database_url"] = normalise_database_url(database_url)
    return cfg


def upgrade_to_head(database_url: str) -> None:
    """Apply every migration. Blocking: call it through ``asyncio.to_thread`` from async code."""
    command.upgrade(alembic_config(database_url), "head")
