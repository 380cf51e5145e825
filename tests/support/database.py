"""The PostgreSQL test database is one server shared by the whole run: a test that writes to it without the
``services`` fixture (which empties it) empties it itself. A SQLite file is each test's own and is left alone."""

from __future__ import annotations

from sqlalchemy import text
from sqlmodel import SQLModel

from bot.db.session import make_engine


async def empty_postgres(database_url: str) -> None:
    """Every table emptied and its ids restarted, on PostgreSQL only."""
    engine = make_engine(database_url)
    try:
        if engine.dialect.name == "postgresql":
            async with engine.begin() as conn:
                names = ", ".join(f'"{t.name}"' for t in SQLModel.metadata.sorted_tables)
                await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    finally:
        await engine.dispose()
