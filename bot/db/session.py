"""Async engine and session factory from a URL (aiosqlite by default, asyncpg for PostgreSQL)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from bot.settings import normalise_database_url

SQLITE_BUSY_MS = 30000  # writers queue (a cap's lock) rather than fail


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.close()


POOL_SIZE = 10  # connections kept open; PostgreSQL's default allows 100 across every process
POOL_TIMEOUT = 30.0  # seconds a use case waits for a free connection before it is answered "busy"


def make_engine(
    url: str, *, echo: bool = False, pool_size: int = POOL_SIZE, pool_timeout: float = POOL_TIMEOUT
) -> AsyncEngine:
    """The engine of the bot and the CLI. A rush of hundreds of commands queues for the pool's connections; a wait
    longer than ``pool_timeout`` raises and is answered "busy, try again" (:func:`is_busy`), never an error."""
    url = normalise_database_url(url)
    engine = create_async_engine(
        url,
        echo=echo,
        pool_pre_ping=not url.startswith("sqlite"),
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_timeout=pool_timeout,
    )
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def is_busy(error: BaseException) -> bool:
    """The database could not be had in time: every pooled connection stayed taken past the pool's timeout, or
    SQLite's writer lock past its busy timeout. Nothing was written; the person can simply try again."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, sa_exc.TimeoutError):
            return True
        if isinstance(current, sa_exc.OperationalError) and "database is locked" in str(current.orig).lower():
            return True
        current = getattr(current, "original", None) or current.__cause__
    return False


def _sqlite_migration_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """A migration connection: the driver's own BEGIN/COMMIT off (it would commit before every DDL statement, so
    a failed upgrade could not be rolled back; ``_sqlite_begin`` emits ours), foreign keys off for batch mode's
    table rebuilds (SQLite's documented procedure; the pragma cannot change inside a transaction), and a wait
    rather than an error while the bot holds the write lock."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=OFF")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock at the start, not half-way through a rebuild


def make_migration_engine(url: str) -> AsyncEngine:
    """The engine Alembic migrates with. PostgreSQL: the ordinary one (its DDL is transactional). SQLite: one whose
    transactions include DDL and whose connections do not enforce foreign keys while tables are rebuilt; the
    migration environment checks them (``PRAGMA foreign_key_check``) before it commits."""
    url = normalise_database_url(url)
    engine = create_async_engine(url, pool_pre_ping=not url.startswith("sqlite"))
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_migration_pragmas)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine
