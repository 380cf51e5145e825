"""The wire tier: the real ``create_bot(settings)`` logged in to ``tests.support.fake_discord`` on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.app import create_bot
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.settings import Settings
from tests.support.database import empty_postgres
from tests.support.fake_discord import TEST_TIER_WALL_MARGIN, FakeDiscord
from tests.support.wire import Wire


@pytest.fixture
async def wire_database(database_url: str) -> str:
    """The test's database, emptied first on PostgreSQL (one server shared by the whole run)."""
    await empty_postgres(database_url)
    return database_url


@pytest.fixture
async def wire(wire_database: str) -> AsyncIterator[Wire]:
    database_url = wire_database
    fake = FakeDiscord(wall_margin=TEST_TIER_WALL_MARGIN)
    await fake.start()
    engine = make_engine(database_url)
    services = Services(make_sessionmaker(engine))
    bot = create_bot(
        Settings(discord_token="wire-token", database_url=database_url, dev_guild_id=fake.guild.id),
        services=services,
        apply_migrations=False,
        start_scheduler=False,
        guild_ready_timeout=0.05,
    )
    task = asyncio.create_task(bot.start("wire-token"))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        yield Wire(fake, bot, services)
    finally:
        await bot.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        await fake.stop()
        await engine.dispose()
