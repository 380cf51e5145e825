"""Record what the bot sends through ``bot.http`` (channel messages, threads) and answer with plausible payloads.

Interaction replies go through discord.py's webhook adapter (``tests.helpers.Harness`` records those); messages a
cog posts in a channel and the threads it creates go through ``HTTPClient.request(route, ...)`` instead. This
recorder replaces that one method on a bot's ``HTTPClient``: every request is kept as an ``HttpCall`` (method,
path, JSON body or multipart payload and file names) and gets the JSON Discord would answer, so the real
discord.py objects (``Message``, ``Thread``) are built from it. ``fail(...)`` makes matching requests raise
``discord.Forbidden`` (or another ``HTTPException``) to test missing permissions.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord

from tests.support.helpers import APP_ID, snowflake

_thread_numbers = itertools.count(1)


@dataclass
class HttpCall:
    method: str
    path: str  # the formatted path after /api/v10, e.g. /channels/123/messages
    route: str  # the route template, e.g. /channels/{channel_id}/messages
    body: dict[str, Any]
    files: list[str] = field(default_factory=list)

    @property
    def content(self) -> str:
        return str(self.body.get("content") or "")

    @property
    def allowed_mentions(self) -> dict[str, Any]:
        return dict(self.body.get("allowed_mentions") or {})


class _Response:
    """Just what ``discord.HTTPException`` reads from an aiohttp response."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


@dataclass
class _Failure:
    method: str
    route: str
    status: int
    times: int | None  # None: always


class SimulatedCrash(BaseException):
    """The bot process dying mid-request (a BaseException: no handler of the bot catches it)."""


class HttpRecorder:
    def __init__(self, bot: discord.Client, *, guild_id: int) -> None:
        self.bot = bot
        self.guild_id = guild_id
        self.calls: list[HttpCall] = []
        self._failures: list[_Failure] = []
        self.dm_channels: dict[int, int] = {}  # DM channel id → the user it reaches
        self.refuse_dms: set[int] = set()  # users whose DMs Discord refuses (50007 Cannot send messages to this user)
        self.crash_at: tuple[str, str, int] | None = None  # (method, route, nth call): raise SimulatedCrash
        self._original = bot.http.request
        bot.http.request = self.request  # type: ignore[method-assign]

    def close(self) -> None:
        self.bot.http.request = self._original  # type: ignore[method-assign]

    def fail(self, method: str, route: str, *, status: int = 403, times: int | None = None) -> None:
        """Make requests to ``route`` (template, e.g. "/channels/{channel_id}/threads") fail with ``status``."""
        self._failures.append(_Failure(method, route, status, times))

    def dms(self) -> list[tuple[int, str]]:
        """(user id, content) of every direct message sent."""
        return [
            (self.dm_channels[int(c.path.split("/")[2])], c.content)
            for c in self.of("POST", "/channels/{channel_id}/messages")
            if int(c.path.split("/")[2]) in self.dm_channels
        ]

    def of(self, method: str, route: str) -> list[HttpCall]:
        return [c for c in self.calls if c.method == method and c.route == route]

    async def request(self, route: discord.http.Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body: dict[str, Any] = dict(kwargs.get("json") or {})
        names: list[str] = []
        for part in form or []:
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        for f in files or []:
            names.append(f.filename)
        path = route.url.removeprefix(discord.http.Route.BASE)
        crash = self.crash_at
        if crash and (route.method, route.path) == crash[:2] and len(self.of(crash[0], crash[1])) + 1 == crash[2]:
            self.crash_at = None
            raise SimulatedCrash(f"{route.method} {route.path}")
        self.calls.append(HttpCall(route.method, path, route.path, body, names))
        for failure in self._failures:
            if failure.method == route.method and failure.route == route.path and failure.times != 0:
                if failure.times is not None:
                    failure.times -= 1
                message = {"code": 50013, "message": "Missing Permissions"} if failure.status == 403 else "failed"
                if failure.status == 403:
                    raise discord.Forbidden(_Response(403, "Forbidden"), message)  # type: ignore[arg-type]
                if failure.status == 404:
                    raise discord.NotFound(_Response(404, "Not Found"), message)  # type: ignore[arg-type]
                raise discord.HTTPException(_Response(failure.status, "Error"), message)  # type: ignore[arg-type]
        if route.path == "/channels/{channel_id}/messages" and self.dm_channels.get(int(route.channel_id or 0)) in (
            self.refuse_dms
        ):
            raise discord.Forbidden(_Response(403, "Forbidden"), {"code": 50007, "message": "Cannot send messages"})  # type: ignore[arg-type]
        return self._answer(route, body, names)

    def _answer(self, route: discord.http.Route, body: dict[str, Any], files: list[str]) -> Any:
        channel_id = int(route.channel_id) if route.channel_id is not None else 0
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            return {
                "id": str(snowflake()),
                "channel_id": str(channel_id),
                "guild_id": str(self.guild_id),
                "type": 0,
                "content": body.get("content") or "",
                "author": {"id": str(APP_ID), "username": "steward", "discriminator": "0", "avatar": None, "bot": True},
                "attachments": [
                    {
                        "id": str(snowflake()),
                        "filename": name,
                        "size": 1,
                        "url": "https://x/a",
                        "proxy_url": "https://x/a",
                    }
                    for name in files
                ],
                "embeds": body.get("embeds") or [],
                "mentions": [],
                "mention_roles": [],
                "mention_everyone": False,
                "pinned": False,
                "tts": False,
                "timestamp": "2026-11-22T18:00:00+00:00",
                "edited_timestamp": None,
                "flags": 0,
                "components": [],
            }
        if route.method == "POST" and route.path == "/channels/{channel_id}/threads":
            return {
                "id": str(snowflake()),
                "guild_id": str(self.guild_id),
                "parent_id": str(channel_id),
                "owner_id": str(APP_ID),
                "name": body.get("name", f"thread {next(_thread_numbers)}"),
                "type": body.get("type", 11),
                "last_message_id": None,
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": body.get("auto_archive_duration", 1440),
                    "archive_timestamp": "2026-11-22T18:00:00+00:00",
                    "locked": False,
                },
            }
        if route.method == "POST" and route.path == "/users/@me/channels":  # a DM channel with the recipient
            recipient = int(body.get("recipient_id", 0))
            self.dm_channels[channel_of := snowflake()] = recipient
            user = {"id": str(recipient), "username": "player", "discriminator": "0", "avatar": None}
            return {"id": str(channel_of), "type": 1, "last_message_id": None, "recipients": [user]}
        if route.path in ("/guilds/{guild_id}/scheduled-events",
                          "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"):  # fmt: skip
            return {"id": str(snowflake()), "guild_id": str(self.guild_id), **body}
        if route.method == "GET" and route.path == "/channels/{channel_id}":
            return {"id": str(channel_id), "type": 0, "guild_id": str(self.guild_id), "name": "annunci", "position": 1}
        return {}
