"""A real StewardBot with every cog loaded, on a real migrated database, driven through tests.helpers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import StewardBot, create_bot
from bot.services import Services
from bot.settings import Settings
from tests.helpers import Harness


@pytest.fixture
async def bot(services: Services, database_url: str) -> AsyncIterator[StewardBot]:
    client = create_bot(
        Settings(database_url=database_url, default_locale="it"),
        services=services,
        apply_migrations=False,
        sync_commands=False,
    )
    await client.load_all()
    yield client
    await client.close()


@pytest.fixture
def harness(bot: StewardBot) -> Harness:
    return Harness(bot, roles=("Organizzatori", "Arbitri", "Capo arbitro", "Giocatori"))
