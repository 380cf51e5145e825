"""The wire tier: the real ``create_bot(settings)`` logged in to ``tests.wire.fake_discord`` on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.app import StewardBot, create_bot
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.settings import Settings
from tests.wire.fake_discord import Exchange, FakeDiscord, RoleRef

ORG = ("Organizzatori",)
REF = ("Arbitri",)


@dataclass
class Wire:
    """The bot as Discord sees it: ``command`` sends a slash command and waits until the user has an answer."""

    fake: FakeDiscord
    bot: StewardBot
    services: Services

    def role(self, name: str) -> RoleRef:
        return RoleRef(self.fake.guild.roles[name], name)

    async def send(self, path: str, *, user_id: int = 5555, roles: tuple[str, ...] = (), admin: bool = False,
                   locale: str = "it", **options: Any) -> Exchange:  # fmt: skip
        payload = self.fake.command_payload(path, user_id=user_id, roles=roles, admin=admin, locale=locale,
                                            options=options)  # fmt: skip
        return await self.fake.interact(payload)

    async def command(self, path: str, *, within: float = 60.0, **kwargs: Any) -> Exchange:
        exchange = await self.send(path, **kwargs)
        await asyncio.wait_for(exchange.done.wait(), within)
        return exchange

    async def submit(self, opened: Exchange, values: list[str], *, user_id: int, within: float = 60.0) -> Exchange:
        """Fill the modal ``opened`` showed (its text inputs in order) and submit it as ``user_id``."""
        assert opened.callback is not None and opened.callback.get("type") == 9, opened.callback
        modal = opened.callback["data"]
        filled = iter(values)

        def fill(component: dict[str, Any]) -> dict[str, Any]:
            if component.get("type") == 4:
                return {"type": 4, "custom_id": component["custom_id"], "value": next(filled)}
            if "component" in component:  # a label (type 18) around one input
                return {**component, "component": fill(component["component"])}
            return {**component, "components": [fill(c) for c in component.get("components", [])]}

        data = {"custom_id": modal["custom_id"], "components": [fill(c) for c in modal["components"]]}
        payload = self.fake._payload(5, data, user_id=user_id, roles=(), admin=False, locale="it")
        exchange = await self.fake.interact(payload)
        await asyncio.wait_for(exchange.done.wait(), within)
        return exchange

    async def click(self, message: dict[str, Any], custom_id: str, *, user_id: int, within: float = 60.0) -> Exchange:
        exchange = await self.fake.interact(self.fake.component_payload(message, custom_id, user_id=user_id))
        await asyncio.wait_for(exchange.done.wait(), within)
        return exchange


@pytest.fixture
async def wire(database_url: str) -> AsyncIterator[Wire]:
    fake = FakeDiscord()
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
