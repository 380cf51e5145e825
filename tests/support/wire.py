"""The wire tier's harness: the real bot logged in to ``tests.support.fake_discord``; ``Wire.command`` sends a
slash command and waits for the answer. The fixtures that build it are in tests/wire/conftest.py."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.app import StewardBot
from bot.services import Services
from tests.support.fake_discord import TEST_TIER_WALL_MARGIN, Exchange, FakeDiscord, RoleRef

ORG = ("Organizzatori",)
REF = ("Arbitri",)


@dataclass
class Wire:
    """The bot as Discord sees it: ``command`` sends a slash command and waits until the user has an answer."""

    fake: FakeDiscord
    bot: StewardBot
    services: Services

    def assert_clean(self) -> None:
        """No Discord rule broken, and every interaction got its first response within 3 s (of the process's CPU;
        the wall clock within the busy machine's margin)."""
        assert self.fake.violations == []
        unanswered = [e.id for e in self.fake.exchanges.values() if e.callback is None]
        assert unanswered == [], f"{len(unanswered)} interactions never answered"
        late = [(e.first_response, e.first_response_cpu) for e in self.fake.exchanges.values()
                if not e.in_time(TEST_TIER_WALL_MARGIN)]  # fmt: skip
        assert late == [], late

    def role(self, name: str) -> RoleRef:
        return RoleRef(self.fake.guild.roles[name], name)

    async def send(self, path: str, *, user_id: int = 5555, roles: tuple[str, ...] = (), admin: bool = False,
                   locale: str = "it", **options: Any) -> Exchange:  # fmt: skip
        payload = self.fake.command_payload(path, user_id=user_id, roles=roles, admin=admin, locale=locale,
                                            options=options)  # fmt: skip
        return await self.fake.interact(payload)

    async def command(self, path: str, *, within: float = 60.0, **kwargs: Any) -> Exchange:
        exchange = await self.send(path, **kwargs)
        return await settled(exchange, within)

    async def autocomplete(self, path: str, focused: str, *, roles: tuple[str, ...] = (), **options: Any) -> Exchange:
        """What the bot offers while ``focused`` is typed (type 4 → a type 8 callback with the choices)."""
        payload = self.fake.command_payload(path, user_id=5555, roles=roles, options=options)
        payload["type"] = 4
        node = payload["data"]
        while node.get("options") and node["options"][0].get("type") in (1, 2):
            node = node["options"][0]
        for option in node.get("options", []):
            option["focused"] = option["name"] == focused
        return await settled(await self.fake.interact(payload), 30)

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
        return await settled(await self.fake.interact(payload), within)

    async def click(self, message: dict[str, Any], custom_id: str, *, user_id: int, within: float = 60.0) -> Exchange:
        return await settled(await self.fake.interact(self.fake.component_payload(message, custom_id, user_id=user_id)),
                             within)  # fmt: skip


async def settled(exchange: Exchange, within: float) -> Exchange:
    """Wait for the first answer, then until the bot has stopped adding to it (a second follow-up with an image,
    channel messages after the reply): nothing new for 0.1 s."""
    await asyncio.wait_for(exchange.done.wait(), within)
    seen = -1
    while seen != len(exchange.followups) + len(exchange.files):
        seen = len(exchange.followups) + len(exchange.files)
        await asyncio.sleep(0.1)
    return exchange
