"""The readiness checks that need the database (``GET /readyz``): is it reachable, is its schema at the migration
scripts' head. Each is one short read-only transaction; the web's probe bounds how long it may take."""

from __future__ import annotations

import asyncio

from bot.db.migrate import revisions
from bot.services._base import BaseService

NOWHERE = 0  # no server: the checks read no server's rows


class HealthService(BaseService):
    _head: str | None = None

    async def database(self) -> None:
        """A trivial query; raises the driver's error when the database does not answer."""
        async with self.run(NOWHERE) as uc:
            await uc.health.ping()

    async def head(self) -> str | None:
        """The newest revision of the migration scripts (read from disk once, off the event loop)."""
        if self._head is None:
            found = await asyncio.to_thread(revisions)
            self._head = found[-1] if found else None
        return self._head

    async def migrations(self) -> str | None:
        """None when the database's revision is the scripts' head, else what differs (revision ids only)."""
        head = await self.head()
        async with self.run(NOWHERE) as uc:
            current = await uc.health.schema_revision()
        if current == head:
            return None
        return f"database at {current or 'no revision'}, code at {head}"
