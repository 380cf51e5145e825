"""A real StewardBot with every cog loaded, on a real migrated database, driven through tests.support.helpers."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.app import StewardBot, create_bot
from bot.services import Services
from bot.settings import Settings
from tests.support.helpers import Harness
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder


@pytest.fixture
async def bot(services: Services, database_url: str) -> AsyncIterator[StewardBot]:
    client = create_bot(
        Settings(database_url=database_url, default_locale="it"),
        services=services,
        apply_migrations=False,
        sync_commands=False,
    )
    await client._async_setup_hook()  # the loop a started client has: events (on_interaction) are dispatched on it
    await client.load_all()
    yield client
    await client.close()


ROLES = ("Organizzatori", "Arbitri", "Capo arbitro", "Giocatori")


@pytest.fixture
def harness(bot: StewardBot) -> Harness:
    return Harness(bot, roles=ROLES)


@pytest.fixture
def ch(bot: StewardBot) -> ComponentHarness:
    """A harness that also presses buttons and submits modals."""
    return ComponentHarness(bot, roles=ROLES)


@pytest.fixture
def http(bot: StewardBot, request: pytest.FixtureRequest) -> Iterator[HttpRecorder]:
    """Discord's REST calls answered and recorded, for the guild of the harness the test drives (``ch`` when it
    asks for it, else ``harness``)."""
    driver = request.getfixturevalue("ch" if "ch" in request.fixturenames else "harness")
    recorder = HttpRecorder(bot, guild_id=driver.guild.id)
    yield recorder
    recorder.close()


@pytest.fixture(autouse=True)
def no_unexpected_errors(request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every command, button and modal a cog test drives answers cleanly: an unexpected error (the one error path
    logs it with the reference the user is shown) fails the test, even when the test did not look at that reply.
    A test that provokes one on purpose is marked ``unexpected_errors_expected``."""
    caplog.set_level(logging.ERROR, logger="bot.cogs._errors")
    yield
    if request.node.get_closest_marker("unexpected_errors_expected"):
        return
    failures = [
        r.getMessage() for r in caplog.get_records("call") if r.name == "bot.cogs._errors" and "(ref " in r.getMessage()
    ]
    assert not failures, f"unexpected errors answered with a reference: {failures}"
