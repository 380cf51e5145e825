"""Alembic environment: targets SQLModel.metadata; async engines (aiosqlite / asyncpg); batch mode on SQLite."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import bot.db.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from bot.db.session import make_engine

config = context.config
if config.config_file_name is not None and config.get_main_option("configure_logging", "true") == "true":
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _database_url() -> str:
    url = config.attributes.get("database_url") or config.get_main_option("sqlalchemy.url")
    if not url:
        from bot.settings import get_settings

        url = get_settings().database_url
    return str(url)


def _render_item(type_: str, obj: object, autogen_context: object) -> str | bool:
    from bot.db.models import UTCDateTime

    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(connection: Connection | None = None, url: str | None = None) -> None:
    is_sqlite = (connection.dialect.name if connection is not None else str(url)).startswith("sqlite")
    context.configure(
        connection=connection,
        url=url,
        target_metadata=target_metadata,
        render_as_batch=is_sqlite,
        compare_type=True,
        render_item=_render_item,
        literal_binds=connection is None,
    )


def run_migrations_offline() -> None:
    _configure(url=_database_url())
    with context.begin_transaction():
        context.run_migrations()


def _run_sync(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def run_migrations_online() -> None:
    engine = make_engine(_database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_sync)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())
