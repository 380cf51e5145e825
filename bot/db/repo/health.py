"""Queries of the readiness check (``GET /readyz``): a trivial round trip, and the schema's migration revision.

Neither is filtered on ``guild_id``: they read no server's rows."""

from __future__ import annotations

from alembic.migration import MigrationContext
from sqlalchemy import literal, select
from sqlalchemy.ext.asyncio import AsyncSession

__all__ = ["ping", "schema_revision"]


async def ping(*, session: AsyncSession) -> None:
    """``SELECT 1``: the database answers (raises the driver's error when it does not)."""
    await session.execute(select(literal(1)))


async def schema_revision(*, session: AsyncSession) -> str | None:
    """The Alembic revision the database is at (None: never migrated, no ``alembic_version`` table)."""
    return await session.run_sync(lambda sync: MigrationContext.configure(sync.connection()).get_current_revision())
