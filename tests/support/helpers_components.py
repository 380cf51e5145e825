"""Button clicks (interaction type 3) and modal submits (type 5) on top of ``tests.helpers.Harness``.

Facts from DISCORD-TESTING.md this follows: discord.py stores a message's view under the callback's
``response_message_id`` (or the follow-up message id), and routes a click only when the click payload carries
that message back, with its components (``DynamicItem`` s are rebuilt from the message's components). Modals are
stored under their ``custom_id`` when sent; the submit payload carries the inputs' values.

The recording adapter is extended (not replaced): every message discord.py posts gets its id recorded on the
``Sent`` (``sent.message_id``), so a test can click a button of that message later.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.webhook.async_ import async_context

from tests.support.helpers import APP_ID, Harness, RecordingAdapter, Sent, _message_payload, snowflake


class ComponentRecordingAdapter(RecordingAdapter):
    """The Harness's recorder, plus the id of every message discord.py created or edited."""

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        answer = await super().request(route, session, **kwargs)
        sent = self.sent[-1]
        if isinstance(answer, dict):
            message = answer.get("resource", {}).get("message") if "interaction" in answer else answer
            if "interaction" in answer:
                message_id = answer["interaction"].get("response_message_id")
                if message is not None and message_id:
                    message["id"] = message_id
            if isinstance(message, dict) and message.get("id"):
                sent.message_id = int(message["id"])  # type: ignore[attr-defined]
        return answer


class ComponentHarness(Harness):
    """A Harness that can also click buttons of recorded messages and submit recorded modals."""

    def __init__(self, bot: discord.Client, **kwargs: Any) -> None:
        super().__init__(bot, **kwargs)
        self.adapter = ComponentRecordingAdapter(self.guild.channel_id)

    # ------------------------------------------------------------------------------------------- payloads
    def _member(self, user_id: int, roles: tuple[str, ...], admin: bool) -> dict[str, Any]:
        perms = discord.Permissions(administrator=True) if admin else discord.Permissions.general()
        user = {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0", "avatar": None}
        return {
            "user": user,
            "roles": [str(self.guild.roles[r]) for r in roles],
            "permissions": str(perms.value),
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
        }

    def _base(self, kind: int, data: dict[str, Any], user_id: int, roles: tuple[str, ...], admin: bool, locale: str):
        return {
            "id": str(snowflake()),
            "application_id": str(APP_ID),
            "type": kind,
            "token": f"token-{snowflake()}",
            "version": 1,
            "data": data,
            "locale": locale,
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": str(discord.Permissions.all().value),
            "channel": {"id": str(self.guild.channel_id), "type": 0, "name": "tornei"},
            "channel_id": str(self.guild.channel_id),
            "guild_id": str(self.guild.id),
            "guild_locale": "it",
            "member": self._member(user_id, roles, admin),
        }

    async def _dispatch(self, payload: dict[str, Any]) -> list[Sent]:
        state = self.bot._connection
        store = state._view_store
        tasks: set[asyncio.Task[Any]] = store._ViewStore__tasks  # type: ignore[attr-defined]
        before_tasks = set(tasks)
        before = len(self.adapter.sent)
        token = async_context.set(self.adapter)
        try:
            state.parse_interaction_create(payload)  # type: ignore[arg-type]
            for _ in range(20):  # callbacks run as tasks; wait until every new one is done
                new = [t for t in list(tasks) if t not in before_tasks]
                if not new:
                    break
                await asyncio.gather(*new, return_exceptions=True)
                before_tasks |= set(new)
            await asyncio.sleep(0)
        finally:
            async_context.reset(token)
        return self.adapter.sent[before:]

    # ------------------------------------------------------------------------------------------- actions
    @staticmethod
    def components_of(message: Sent) -> list[dict[str, Any]]:
        return list(message.data.get("components") or [])

    @classmethod
    def custom_ids(cls, message: Sent) -> list[str]:
        return [
            c["custom_id"] for row in cls.components_of(message) for c in row.get("components", []) if "custom_id" in c
        ]

    async def click(
        self,
        message: Sent,
        custom_id: str,
        *,
        user_id: int = 5555,
        roles: tuple[str, ...] = (),
        admin: bool = False,
        locale: str = "en-US",
        values: list[str] | None = None,
    ) -> list[Sent]:
        """Click the button ``custom_id`` of a message discord.py sent earlier (as recorded); with ``values``, choose
        them in the select menu ``custom_id``."""
        message_id = getattr(message, "message_id", None)
        assert message_id is not None, "that request created no message"
        assert custom_id in self.custom_ids(message), f"{custom_id!r} not among {self.custom_ids(message)}"
        body = {**message.data, "components": self.components_of(message)}
        msg = _message_payload(self.guild.channel_id, body)
        msg["id"] = str(message_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        payload = self._base(3, data, user_id, roles, admin, locale) | {"message": msg}
        return await self._dispatch(payload)

    async def submit(
        self,
        modal: Sent,
        values: dict[str, str],
        *,
        user_id: int = 5555,
        roles: tuple[str, ...] = (),
        admin: bool = False,
        locale: str = "en-US",
    ) -> list[Sent]:
        """Submit a modal discord.py sent (callback type 9); ``values`` by input label (or custom id)."""
        assert modal.kind == "callback" and modal.body.get("type") == 9, "not a modal response"
        spec = modal.body["data"]
        rows = []
        for row in spec["components"]:
            if row["type"] == 1:
                inner = row["components"][0]
                wrap = lambda value, inner=inner: {  # noqa: E731
                    "type": 1,
                    "components": [{"type": 4, "custom_id": inner["custom_id"], "value": value}],
                }
                label = inner.get("label")
            else:  # type 18: a label wrapping one component
                inner = row["component"]
                wrap = lambda value, inner=inner: {  # noqa: E731
                    "type": 18,
                    "component": {"type": 4, "custom_id": inner["custom_id"], "value": value},
                }
                label = row.get("label")
            key = label if label in values else inner["custom_id"]
            rows.append(wrap(values.get(key, inner.get("value") or "")))
        data = {"custom_id": spec["custom_id"], "components": rows}
        return await self._dispatch(self._base(5, data, user_id, roles, admin, locale))

    def modal_labels(self, modal: Sent) -> list[str]:
        out = []
        for row in modal.body["data"]["components"]:
            out.append(row["components"][0].get("label") if row["type"] == 1 else row.get("label"))
        return out
