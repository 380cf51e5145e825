"""A small fake Discord on 127.0.0.1 for the wire tier (../shared/spec/DISCORD-TESTING.md).

The real, unmodified discord.py client logs in to it (``GET /users/@me``, ``/oauth2/applications/@me``), connects
to its gateway (HELLO → heartbeat/ACK → IDENTIFY → READY → GUILD_CREATE), syncs its commands, receives
INTERACTION_CREATE for commands, autocomplete and components, and answers through the real HTTP routes: callbacks
(JSON and multipart), follow-ups, edits of the original response, channel messages, threads, DMs and scheduled
events. ``rate_limit`` makes a route answer 429 with ``Retry-After`` (and ``Via``, as Discord's edge does). As
Discord does, ids carry their time, a message sent again to the same channel with the same ``nonce``
(``enforce_nonce``) within ``nonce_window`` seconds answers the message already made (counted in ``deduplicated``),
a DM channel asked for again is the same channel, and GUILD_CREATE lists the threads (a bot that restarts sees the
ones it made). ``message_latency`` delays each channel message and DM channel by a seeded network jitter on the way
in and again on the way back, so a process killed mid-send may die after Discord made the message.

Every Discord rule the bot breaks is recorded in ``violations`` and the tests assert there are none: the first
response later than 3 s after the interaction, content over 2000 characters, embeds over their limits, more than
10 files or a file over the interaction's ``attachment_size_limit``, components over their limits, mentions that
``allowed_mentions`` lets through (``@everyone``, roles), command names, descriptions and option counts over their
limits (the 8,000-character total per command, which counts every translation, is held by tests/cogs/test_meta.py),
a route the fake does not know.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

APP_ID = 424242424242424242
BOT_USER = {"id": str(APP_ID), "username": "steward", "discriminator": "0", "avatar": None, "bot": True,
            "global_name": "Steward", "flags": 0}  # fmt: skip
TOKEN_SECONDS = 15 * 60  # an interaction token is valid for 15 minutes
FIRST_RESPONSE_SECONDS = 3.0
# The test tier runs on busy laptops (issue 44: the README's command failed at a load of 4x the cores): there the
# 3 s rule is judged on the CPU time the process spent (the bot's own work, which load does not stretch), and the
# wall clock only within a generous margin; the benchmarks (benchmarks/wire.py, venue.py) keep the real 3 s.
TEST_TIER_WALL_MARGIN = 10.0
ATTACHMENT_LIMIT = 10 * 1024 * 1024
NAME_RE = re.compile(r"^[-_'\w]{1,32}$")

_last_id = 0


def snowflake() -> int:
    """A new id that, like Discord's, carries the time it was made (and grows)."""
    global _last_id
    _last_id = max(_last_id + 1, discord.utils.time_snowflake(datetime.now(UTC)))
    return _last_id


@dataclass
class Exchange:
    """One interaction as Discord saw it: when it was sent, the first response and what followed it."""

    id: int
    token: str
    sent_at: float
    callback: dict[str, Any] | None = None
    callback_at: float | None = None
    sent_cpu: float = field(default_factory=time.process_time)
    callback_cpu: float | None = None
    followups: list[dict[str, Any]] = field(default_factory=list)
    answered_at: float | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    files: list[tuple[str, int]] = field(default_factory=list)
    message_id: int | None = None  # a component's interaction: the message that carries the component

    @property
    def first_response(self) -> float:
        assert self.callback_at is not None, "no first response"
        return self.callback_at - self.sent_at

    @property
    def first_response_cpu(self) -> float:
        """The process's CPU seconds between the interaction and its first response (load does not stretch it)."""
        assert self.callback_cpu is not None, "no first response"
        return self.callback_cpu - self.sent_cpu

    def in_time(self, margin: float = 1.0) -> bool:
        """Answered within Discord's 3 s: by the CPU spent, and by the wall clock within ``margin`` times 3 s."""
        limit = FIRST_RESPONSE_SECONDS
        return self.first_response_cpu < limit and self.first_response < limit * margin

    @property
    def answer(self) -> float:
        assert self.answered_at is not None, "no answer"
        return self.answered_at - self.sent_at

    @property
    def deferred(self) -> bool:
        return bool(self.callback) and self.callback.get("type") in (5, 6)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """Everything the user reads: the callback's message (type 4/7) and every follow-up or edit."""
        first = [self.callback.get("data") or {}] if self.callback and self.callback.get("type") in (4, 7) else []
        return [*first, *self.followups]

    @property
    def text(self) -> str:
        parts: list[str] = []
        for m in self.messages:
            parts.append(m.get("content") or "")
            for e in m.get("embeds") or []:
                parts += [e.get("title") or "", e.get("description") or ""]
                parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
        return "\n".join(p for p in parts if p)

    @property
    def ephemeral(self) -> bool:
        flags = [(m.get("flags") or 0) for m in self.messages] or [0]
        defer_flags = ((self.callback or {}).get("data") or {}).get("flags") or 0
        return bool(defer_flags & 64) or all(f & 64 for f in flags)


@dataclass
class Guild:
    id: int
    channel_id: int
    roles: dict[str, int]
    locale: str = "it"


class FakeDiscord:
    def __init__(
        self, *, roles: tuple[str, ...] = ("Organizzatori", "Arbitri", "Capo arbitro"), wall_margin: float = 1.0
    ) -> None:
        self.wall_margin = wall_margin  # 1: Discord's 3 s by the wall clock too (benchmarks); tests: a busy laptop's
        self.guild = Guild(snowflake(), snowflake(), {name: snowflake() for name in roles})
        self.violations: list[str] = []
        self.requests: list[tuple[str, str]] = []  # (method, route template)
        self.commands: list[dict[str, Any]] = []
        self.channel_messages: list[dict[str, Any]] = []  # POSTed to channels (announcements, thread messages, DMs)
        self.shown: dict[int, dict[str, Any]] = {}  # message id -> what it shows after the edits of its components
        self.edit_jitter = 0.0  # seconds: the most a component message's edit is delayed before it lands
        self._jitter = random.Random(15)
        self.threads: list[dict[str, Any]] = []  # also listed in GUILD_CREATE, as Discord lists the active ones
        self.dm_channels: dict[int, int] = {}  # dm channel id -> user id
        self._dm_of: dict[int, int] = {}  # user id -> their DM channel: Discord keeps one per user
        # (channel, nonce) -> (message, when made): enforce_nonce answers it again within the window. Discord checks
        # a nonce "in the past few minutes" without saying how many: two, to be on the safe side.
        self._by_nonce: dict[tuple[int, str], tuple[Any, float]] = {}
        self.nonce_window = 120.0
        self.deduplicated: list[tuple[int, str]] = []  # (channel, nonce) of every POST answered with an old message
        self.message_latency = 0.0  # seconds: the most a message or DM channel is delayed each way
        self.exchanges: dict[str, Exchange] = {}  # by token
        self.rate_limits: dict[str, list[float]] = {}  # route template -> retry_after values still to serve
        self.served_429: list[str] = []
        self.identified = asyncio.Event()
        self.on_request: Callable[[str, str], None] | None = None  # (method, path): a test's hook, e.g. a SIGKILL
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._saved: tuple[str, yarl.URL] | None = None

    # ------------------------------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    async def stop(self) -> None:
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def rate_limit(self, template: str, *retry_after: float) -> None:
        """The next ``len(retry_after)`` requests to ``template`` (e.g. ``POST /channels/{}/threads``) get a 429."""
        self.rate_limits.setdefault(template, []).extend(retry_after)

    # ------------------------------------------------------------------------------------------- gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                self._seq = 0
                await self._dispatch("READY", self._ready())
                await self._dispatch("GUILD_CREATE", self._guild_payload())
                self.identified.set()
        return ws

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._ws is not None
        self._seq += 1
        await self._ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    def _ready(self) -> dict[str, Any]:
        return {
            "v": 10, "user": BOT_USER, "guilds": [{"id": str(self.guild.id), "unavailable": True}],
            "session_id": "wire-session", "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [], "relationships": [],
        }  # fmt: skip

    def _guild_payload(self) -> dict[str, Any]:
        g = self.guild
        roles = [_role(g.id, "@everyone", g.id)] + [_role(rid, name, g.id) for name, rid in g.roles.items()]
        return {
            "id": str(g.id), "name": "Club RisiKo! Wire", "owner_id": "1", "roles": roles, "emojis": [],
            "stickers": [], "features": [], "member_count": 2, "members": [], "presences": [], "voice_states": [],
            "threads": list(self.threads), "stage_instances": [], "guild_scheduled_events": [],
            "preferred_locale": g.locale,
            "joined_at": "2026-01-01T00:00:00+00:00", "large": False, "unavailable": False,
            "channels": [{"id": str(g.channel_id), "type": 0, "name": "tornei", "position": 0, "guild_id": str(g.id),
                          "permission_overwrites": []}],
        }  # fmt: skip

    # ---------------------------------------------------------------------------------------- interactions
    async def interact(self, payload: dict[str, Any]) -> Exchange:
        exchange = Exchange(int(payload["id"]), payload["token"], time.perf_counter())
        if isinstance(payload.get("message"), dict):
            exchange.message_id = int(payload["message"]["id"])
        self.exchanges[payload["token"]] = exchange
        await self._dispatch("INTERACTION_CREATE", payload)
        return exchange

    def command_payload(
        self,
        path: str,
        *,
        user_id: int,
        roles: tuple[str, ...] = (),
        admin: bool = False,
        locale: str = "it",
        options: dict[str, Any] | None = None,
        option_types: dict[str, int] | None = None,
    ) -> dict[str, Any]:
        names = path.split()
        opts = [
            {"type": (option_types or {}).get(k, _option_type(v)), "name": k, "value": _option_value(v)}
            for k, v in (options or {}).items()
        ]
        resolved: dict[str, Any] = {}
        for v in (options or {}).values():
            if isinstance(v, RoleRef):
                resolved.setdefault("roles", {})[str(v.id)] = _role(v.id, v.name, self.guild.id)
        node: list[dict[str, Any]] = opts
        for depth in range(len(names) - 1, 0, -1):
            node = [{"type": 1 if depth == len(names) - 1 else 2, "name": names[depth], "options": node}]
        data: dict[str, Any] = {"id": str(snowflake()), "type": 1, "name": names[0], "options": node,
                                "guild_id": str(self.guild.id)}  # fmt: skip
        if resolved:
            data["resolved"] = resolved
        return self._payload(2, data, user_id=user_id, roles=roles, admin=admin, locale=locale)

    def component_payload(
        self, message: dict[str, Any], custom_id: str, *, user_id: int, roles: tuple[str, ...] = (), locale: str = "it"
    ) -> dict[str, Any]:
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._payload(3, data, user_id=user_id, roles=roles, admin=False, locale=locale)
        payload["message"] = message
        return payload

    def _payload(
        self, kind: int, data: dict[str, Any], *, user_id: int, roles: tuple[str, ...], admin: bool, locale: str
    ) -> dict[str, Any]:
        g = self.guild
        perms = discord.Permissions(administrator=True) if admin else discord.Permissions.general()
        user = {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0", "avatar": None}
        return {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": kind, "token": f"tok{snowflake()}",
            "version": 1, "data": data, "locale": locale, "guild_locale": g.locale, "guild_id": str(g.id),
            "attachment_size_limit": ATTACHMENT_LIMIT, "app_permissions": str(discord.Permissions.all().value),
            "channel": {"id": str(g.channel_id), "type": 0, "name": "tornei", "guild_id": str(g.id)},
            "channel_id": str(g.channel_id), "entitlements": [], "authorizing_integration_owners": {},
            "member": {"user": user, "roles": [str(g.roles[r]) for r in roles], "permissions": str(perms.value),
                       "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0},
        }  # fmt: skip

    # ------------------------------------------------------------------------------------------------ REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        template = re.sub(r"/\d{6,}", "/{}", path)
        template = re.sub(r"/interactions/\{\}/[^/]+", "/interactions/{}/{token}", template)
        template = re.sub(r"/webhooks/\{\}/[^/]+", "/webhooks/{}/{token}", template)
        key = f"{request.method} {template}"
        self.requests.append((request.method, template))
        pending = self.rate_limits.get(key)
        if pending:
            retry = pending.pop(0)
            self.served_429.append(key)
            body = json.dumps({"message": "You are being rate limited.", "retry_after": retry, "global": False})
            headers = {"Retry-After": str(retry), "Via": "1.1 google", "X-RateLimit-Scope": "user"}
            return web.Response(status=429, body=body, content_type="application/json", headers=headers)
        payload, files = await _read_body(request)
        if self.on_request is not None:
            self.on_request(request.method, path)
        handler = self._routes().get((request.method, template))
        if handler is None:
            self.violations.append(f"unknown route {key}")
            return _json({"message": "Unknown route", "code": 0}, status=404)
        result = await handler(path, request, payload, files)
        if result is None:
            return web.Response(status=204)
        return _json(result)

    def _routes(self) -> dict[tuple[str, str], Callable[..., Awaitable[Any]]]:
        return {
            ("GET", "/users/@me"): self._me,
            ("GET", "/oauth2/applications/@me"): self._application,
            ("PUT", "/applications/{}/commands"): self._sync,
            ("PUT", "/applications/{}/guilds/{}/commands"): self._sync,
            ("POST", "/interactions/{}/{token}/callback"): self._callback,
            ("POST", "/webhooks/{}/{token}"): self._followup,
            ("PATCH", "/webhooks/{}/{token}/messages/@original"): self._followup,
            ("PATCH", "/webhooks/{}/{token}/messages/{}"): self._followup,
            ("GET", "/webhooks/{}/{token}/messages/@original"): self._original,
            ("DELETE", "/webhooks/{}/{token}/messages/@original"): self._nothing,
            ("POST", "/channels/{}/messages"): self._channel_message,
            ("PATCH", "/channels/{}/messages/{}"): self._channel_message,
            ("POST", "/channels/{}/threads"): self._thread,
            ("POST", "/users/@me/channels"): self._dm,
            ("GET", "/channels/{}"): self._channel,
            ("POST", "/guilds/{}/scheduled-events"): self._event,
            ("PATCH", "/guilds/{}/scheduled-events/{}"): self._event,
            ("DELETE", "/guilds/{}/scheduled-events/{}"): self._nothing,
        }

    async def _me(self, *_: Any) -> dict[str, Any]:
        return BOT_USER

    async def _application(self, *_: Any) -> dict[str, Any]:
        return {"id": str(APP_ID), "name": "Steward", "description": "", "icon": None, "bot_public": True,
                "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0,
                "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None}}  # fmt: skip

    async def _nothing(self, *_: Any) -> None:
        return None

    async def _sync(self, _path: str, _request: web.Request, payload: Any, _files: Any) -> list[dict[str, Any]]:
        assert isinstance(payload, list)
        if len(payload) > 100:
            self.violations.append(f"{len(payload)} commands (at most 100)")
        out = []
        for command in payload:
            self._check_command(command, command.get("name", "?"))
            out.append({**command, "id": str(snowflake()), "application_id": str(APP_ID), "version": "1"})
        self.commands = out
        return out

    def _check_command(self, command: dict[str, Any], where: str) -> None:
        for node in _walk(command):
            name, desc = node.get("name", ""), node.get("description", "")
            if not NAME_RE.match(name) or name != name.lower():
                self.violations.append(f"{where}: bad name {name!r}")
            if len(desc) > 100 or (node.get("type", 1) in (1, 2, 3) and not desc and "options" in node):
                self.violations.append(f"{where}: description of {name!r} has {len(desc)} characters")
            for loc_name in (node.get("name_localizations") or {}).values():
                if not NAME_RE.match(loc_name) or loc_name != loc_name.lower():
                    self.violations.append(f"{where}: bad localised name {loc_name!r}")
            if len(node.get("options") or []) > 25 or len(node.get("choices") or []) > 25:
                self.violations.append(f"{where}: more than 25 options or choices under {name!r}")

    async def _callback(self, path: str, _request: web.Request, payload: Any, files: list[tuple[str, int]]) -> Any:
        token = path.split("/")[3]
        exchange = self.exchanges.get(token)
        now = time.perf_counter()
        if exchange is None:
            self.violations.append("callback for an unknown interaction")
            return _json_error()
        if exchange.callback is not None:
            self.violations.append(f"second callback for interaction {exchange.id}")
        exchange.callback, exchange.callback_at, exchange.callback_cpu = payload, now, time.process_time()
        if not exchange.in_time(self.wall_margin):
            self.violations.append(
                f"first response after {now - exchange.sent_at:.2f} s, {exchange.first_response_cpu:.2f} s of CPU "
                f"(limit 3 s{f', wall clock x{self.wall_margin:g}' if self.wall_margin != 1 else ''})"
            )
        data = payload.get("data") or {}
        kind = payload.get("type")
        if kind in (4, 7):
            self._check_message(data, files, where="callback")
            exchange.files += files
        if kind == 9:
            self._check_modal(data)
        message_id = snowflake()
        if kind in (1, 4, 7, 8, 9):
            exchange.answered_at = now
            exchange.done.set()
        interaction = {
            "id": str(exchange.id),
            "type": 2,
            "response_message_id": str(message_id),
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
        }
        out: dict[str, Any] = {"interaction": interaction}
        if kind in (4, 5, 7):
            out["resource"] = {"type": kind, "message": self._message(message_id, self.guild.channel_id, data, files)}
        return out

    async def _followup(self, path: str, _request: web.Request, payload: Any, files: list[tuple[str, int]]) -> Any:
        token = path.split("/")[3]
        exchange = self.exchanges.get(token)
        self._check_message(payload, files, where="follow-up")
        if exchange is not None and time.perf_counter() - exchange.sent_at > TOKEN_SECONDS:
            self.violations.append(f"follow-up on interaction {exchange.id} after its token expired (15 min)")
        if exchange is not None and exchange.message_id is not None and path.endswith("/messages/@original"):
            # a component's original response is the message that carries it: Discord applies each edit in the
            # order it arrives, so the message shows the last one; ``edit_jitter`` delays each edit by a seeded
            # random time, as the network does, so edits sent at once may land in any order
            if self.edit_jitter:
                await asyncio.sleep(self._jitter.uniform(0.0, self.edit_jitter))
            shown = self.shown.setdefault(exchange.message_id, {})
            shown.update({k: payload[k] for k in ("content", "embeds", "components") if k in payload})
        if exchange is not None:
            exchange.followups.append(payload)
            exchange.files += files
            if exchange.answered_at is None:
                exchange.answered_at = time.perf_counter()
            exchange.done.set()
        return self._message(snowflake(), self.guild.channel_id, payload, files)

    async def _original(self, *_: Any) -> dict[str, Any]:
        return self._message(snowflake(), self.guild.channel_id, {}, [])

    async def _latency(self) -> None:
        if self.message_latency:
            await asyncio.sleep(self._jitter.uniform(0.0, self.message_latency))

    async def _channel_message(self, path: str, r: web.Request, payload: Any, files: list[tuple[str, int]]) -> Any:
        await self._latency()  # on the way in
        channel_id = int(path.split("/")[2])
        nonce = payload.get("nonce") if r.method == "POST" and payload.get("enforce_nonce") else None
        key = (channel_id, str(nonce))
        seen = self._by_nonce.get(key) if nonce is not None else None
        if seen is not None and time.monotonic() - seen[1] <= self.nonce_window:  # Discord: the message already made
            self.deduplicated.append(key)
            await self._latency()
            return seen[0]
        self._check_message(payload, files, where=f"message in {channel_id}")
        record = {**payload, "channel_id": channel_id, "files": files}
        self.channel_messages.append(record)
        message = self._message(snowflake(), channel_id, payload, files)
        if nonce is not None:
            self._by_nonce[key] = (message, time.monotonic())
        await self._latency()  # made: the answer is on its way back (a process killed now never learns of it)
        return message

    async def _thread(self, path: str, _r: web.Request, payload: Any, _files: Any) -> dict[str, Any]:
        parent = int(path.split("/")[2])
        metadata = {
            "archived": False,
            "auto_archive_duration": payload.get("auto_archive_duration", 1440),
            "archive_timestamp": "2026-11-25T18:00:00+00:00",
            "locked": False,
        }
        thread = {"id": str(snowflake()), "guild_id": str(self.guild.id), "parent_id": str(parent),
                  "owner_id": str(APP_ID), "name": payload.get("name", "thread"), "type": payload.get("type", 11),
                  "last_message_id": None, "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
                  "thread_metadata": metadata}  # fmt: skip
        if len(thread["name"]) > 100:
            self.violations.append(f"thread name of {len(thread['name'])} characters")
        self.threads.append(thread)
        return thread

    async def _dm(self, _path: str, _r: web.Request, payload: Any, _files: Any) -> dict[str, Any]:
        await self._latency()
        user_id = int(payload.get("recipient_id", 0))
        channel_id = self._dm_of.setdefault(user_id, snowflake())  # asked again: the same channel
        self.dm_channels[channel_id] = user_id
        await self._latency()
        user = {"id": str(user_id), "username": "player", "discriminator": "0", "avatar": None}
        return {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [user]}

    async def _channel(self, path: str, *_: Any) -> dict[str, Any]:
        channel_id = path.split("/")[2]
        return {"id": channel_id, "type": 0, "guild_id": str(self.guild.id), "name": "tornei", "position": 0,
                "permission_overwrites": []}  # fmt: skip

    async def _event(self, path: str, _r: web.Request, payload: Any, _files: Any) -> dict[str, Any]:
        return {"id": str(snowflake()), "guild_id": str(self.guild.id), "status": 1, "entity_type": 3,
                "privacy_level": 2, "creator_id": str(APP_ID), **(payload or {})}  # fmt: skip

    # ------------------------------------------------------------------------------------------- the rules
    def _check_modal(self, data: dict[str, Any]) -> None:
        """A modal: title ≤ 45, custom_id 1–100, 1–5 components; each text input's label ≤ 45 and value ≤ 4000."""
        if not 1 <= len(data.get("title") or "") <= 45:
            self.violations.append(f"modal title of {len(data.get('title') or '')} characters")
        if not 1 <= len(data.get("custom_id") or "") <= 100:
            self.violations.append("modal custom_id not 1-100 characters")
        rows = data.get("components") or []
        if not 1 <= len(rows) <= 5:
            self.violations.append(f"modal with {len(rows)} components")
        for row in rows:
            label = row.get("label") if row.get("type") == 18 else None
            for item in (row.get("component"),) if row.get("type") == 18 else row.get("components") or ():
                if not isinstance(item, dict):
                    continue
                if len(label or item.get("label") or "") > 45:
                    self.violations.append("modal text input label over 45 characters")
                if len(item.get("value") or "") > 4000 or (item.get("max_length") or 0) > 4000:
                    self.violations.append("modal text input value over 4000 characters")

    def _check_message(self, data: dict[str, Any], files: list[tuple[str, int]], *, where: str) -> None:
        content = data.get("content") or ""
        if len(content) > 2000:
            self.violations.append(f"{where}: content of {len(content)} characters")
        embeds = data.get("embeds") or []
        if len(embeds) > 10:
            self.violations.append(f"{where}: {len(embeds)} embeds")
        total = 0
        for e in embeds:
            for key, limit in (("title", 256), ("description", 4096)):
                if len(e.get(key) or "") > limit:
                    self.violations.append(f"{where}: embed {key} of {len(e.get(key) or '')} characters")
                total += len(e.get(key) or "")
            fields = e.get("fields") or []
            if len(fields) > 25:
                self.violations.append(f"{where}: {len(fields)} embed fields")
            for f in fields:
                if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
                    self.violations.append(f"{where}: an embed field over its limits")
                total += len(f.get("name") or "") + len(f.get("value") or "")
            total += len((e.get("footer") or {}).get("text") or "") + len((e.get("author") or {}).get("name") or "")
        if total > 6000:
            self.violations.append(f"{where}: {total} characters across embeds")
        if len(files) > 10:
            self.violations.append(f"{where}: {len(files)} files")
        for name, size in files:
            if size > ATTACHMENT_LIMIT:
                self.violations.append(f"{where}: file {name} of {size} bytes")
        rows = data.get("components") or []
        if len(rows) > 5:
            self.violations.append(f"{where}: {len(rows)} component rows")
        for row in rows:
            items = row.get("components") or []
            if len(items) > 5:
                self.violations.append(f"{where}: {len(items)} components in a row")
            for item in items:
                custom_id = item.get("custom_id")
                if custom_id is not None and not 1 <= len(custom_id) <= 100:
                    self.violations.append(f"{where}: custom_id of {len(custom_id)} characters")
                if len(item.get("label") or "") > 80:
                    self.violations.append(f"{where}: button label over 80 characters")
        mentions = data.get("allowed_mentions")
        parse = set(mentions.get("parse", [])) if isinstance(mentions, dict) else {"everyone", "roles", "users"}
        texts = [content] + [e.get("description") or "" for e in embeds]
        if any("@everyone" in x or "@here" in x for x in texts) and "everyone" in parse:
            self.violations.append(f"{where}: @everyone/@here would ping (allowed_mentions {mentions!r})")
        if any(re.search(r"<@&\d+>", x) for x in texts) and "roles" in parse:
            self.violations.append(f"{where}: a role would be pinged (allowed_mentions {mentions!r})")

    def _message(self, message_id: int, channel_id: int, data: dict[str, Any], files: list[tuple[str, int]]) -> Any:
        attachments = [{"id": str(snowflake()), "filename": name, "size": size,
                        "url": f"https://cdn.test/{name}", "proxy_url": f"https://cdn.test/{name}"}
                       for name, size in files]  # fmt: skip
        return {"id": str(message_id), "channel_id": str(channel_id), "author": BOT_USER,
                "content": data.get("content") or "", "embeds": data.get("embeds") or [],
                "components": data.get("components") or [], "attachments": attachments,
                "timestamp": "2026-11-25T18:00:00+00:00", "edited_timestamp": None, "tts": False,
                "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False, "type": 0,
                "flags": data.get("flags") or 0}  # fmt: skip


@dataclass(frozen=True)
class RoleRef:
    id: int
    name: str


def _option_type(value: Any) -> int:
    if isinstance(value, RoleRef):
        return 8
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


def _option_value(value: Any) -> Any:
    return str(value.id) if isinstance(value, RoleRef) else value


def _walk(node: dict[str, Any]) -> list[dict[str, Any]]:
    out = [node]
    for child in node.get("options") or []:
        if child.get("type") in (1, 2):
            out += _walk(child)
        else:
            out.append(child)
    return out


def _role(role_id: int, name: str, guild_id: int) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 0 if role_id == guild_id else 1,
            "permissions": "0", "managed": False, "mentionable": False, "flags": 0}  # fmt: skip


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses JSON only when the content type is exactly application/json (no charset)
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def _json_error() -> dict[str, Any]:
    return {"message": "Unknown interaction", "code": 10062}


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, int]]]:
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        files: list[tuple[str, int]] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            raw = await part.read(decode=False)
            if part.name == "payload_json":
                payload = json.loads(raw)
            else:
                files.append((part.filename or part.name or "file", len(raw)))
        return payload, files
    raw = await request.read()
    return (json.loads(raw) if raw else None), []
