"""Alembic environment: targets SQLModel.metadata; async engines (aiosqlite / asyncpg); batch mode on SQLite.

An upgrade is one transaction on both backends: it completes, or the database is left exactly as it was.

* PostgreSQL has transactional DDL: every pending migration runs in the one transaction Alembic opens.
* SQLite can roll DDL back too, but Python's driver commits before each DDL statement unless it is told to stay out
  of the way; so the migration connection turns the driver's transaction handling off and emits ``BEGIN IMMEDIATE``
  itself (SQLAlchemy's documented recipe for transactional DDL on pysqlite/aiosqlite). Batch mode rebuilds a table
  by copying it and dropping the old one; with foreign keys enforced, dropping a parent that has children fails
  (``FOREIGN KEY constraint failed``). SQLite's own procedure for such rebuilds is followed: foreign keys off on
  the connection for the rebuild (the pragma cannot change inside a transaction, so it is set when the connection
  opens), ``PRAGMA foreign_key_check`` after the last migration, inside the same transaction, and any violation
  rolls everything back.
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import bot.db.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from bot.db.session import make_migration_engine

config = context.config
if config.config_file_name is not None and config.get_main_option("configure_logging", "true") == "true":
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


class ForeignKeyViolation(RuntimeError):
    """The migrated SQLite database fails ``PRAGMA foreign_key_check``: the upgrade is rolled back."""


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


def _foreign_key_check(connection: Connection) -> None:
    problems = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if problems:
        shown = ", ".join(f"{table} row {rowid} -> {parent}" for table, rowid, parent, _ in problems[:5])
        raise ForeignKeyViolation(f"{len(problems)} row(s) would point at nothing after the upgrade: {shown}")


def _run_sync(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            _foreign_key_check(connection)


def _run_sqlite(connection: Connection) -> None:
    """SQLite: our own transaction around every migration (Alembic sees it as external and leaves it to us)."""
    with connection.begin():
        _run_sync(connection)


async def run_migrations_online() -> None:
    engine = make_migration_engine(_database_url())
    try:
        async with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                await connection.run_sync(_run_sqlite)
            else:
                await connection.run_sync(_run_sync)
                await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())
