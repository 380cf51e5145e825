"""Drive the real discord.py command tree without Discord (unit tier of DISCORD-TESTING.md).

``Harness`` builds a real ``discord.Interaction`` from a payload dict, exactly as the gateway would send
it, and dispatches it through the bot's real ``CommandTree``. Outgoing HTTP goes through discord.py's own
webhook adapter, whose single ``request`` method is replaced by a recorder: everything discord.py would
send to Discord (callback type, content, embeds, flags, allowed mentions, files) is captured as JSON.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

EPHEMERAL = 1 << 6
APP_ID = 424242
_ids = itertools.count(10_000_000_000)


def snowflake() -> int:
    return next(_ids)


def _message_payload(channel_id: int, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(snowflake()),
        "channel_id": str(channel_id),
        "type": 0,
        "content": data.get("content") or "",
        "author": {"id": str(APP_ID), "username": "steward", "discriminator": "0", "avatar": None, "bot": True},
        "attachments": [],
        "embeds": data.get("embeds") or [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-11-22T18:00:00+00:00",
        "edited_timestamp": None,
        "flags": data.get("flags", 0),
        "components": data.get("components") or [],
    }


@dataclass
class Sent:
    """One request discord.py made: kind ('callback', 'followup', 'edit', ...) and its JSON body."""

    kind: str
    method: str
    path: str
    body: dict[str, Any]
    files: list[str] = field(default_factory=list)
    blobs: list[bytes] = field(default_factory=list)  # the files' bytes, in the order of ``files``

    @property
    def data(self) -> dict[str, Any]:
        return self.body.get("data", self.body) if self.kind == "callback" else self.body

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, for assertions."""
        parts = [self.data.get("content") or ""]
        for e in self.data.get("embeds") or []:
            parts += [e.get("title", ""), e.get("description", "")]
            parts += [f"{f['name']} {f['value']}" for f in e.get("fields", [])]
            parts.append((e.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)


class RecordingAdapter(AsyncWebhookAdapter):
    def __init__(self, channel_id: int) -> None:
        super().__init__()
        self.sent: list[Sent] = []
        self.channel_id = channel_id

    async def request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        payload = kwargs.get("payload")
        files: list[str] = []
        blobs: list[bytes] = []
        if kwargs.get("multipart"):
            for part in kwargs["multipart"]:
                if part["name"] == "payload_json":
                    payload = json.loads(part["value"])
                else:
                    files.append(part.get("filename") or part["name"])
                    blobs.append(_read_part(part["value"]))
        body = payload or {}
        path = route.path
        if "/callback" in path:
            kind = "callback"
        elif route.method == "POST":
            kind = "followup"
        elif route.method == "PATCH":
            kind = "edit"
        else:
            kind = route.method.lower()
        self.sent.append(Sent(kind, route.method, path, body, files, blobs))
        if kind == "callback":
            data = body.get("data") or {}
            return {
                "interaction": {
                    "id": str(route.webhook_id) if hasattr(route, "webhook_id") else "0",
                    "type": 2,
                    "response_message_id": str(snowflake()),
                    "response_message_loading": body.get("type") == 5,
                    "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
                },
                "resource": {"type": body.get("type", 4), "message": _message_payload(self.channel_id, data)},
            }
        if kind in ("followup", "edit"):
            return _message_payload(self.channel_id, body)
        return None


def _read_part(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if hasattr(value, "getvalue"):
        return bytes(value.getvalue())
    if hasattr(value, "read"):
        position = value.tell() if hasattr(value, "tell") else None
        if hasattr(value, "seek"):
            value.seek(0)
        data = value.read()
        if position is not None:
            value.seek(position)
        return bytes(data)
    return str(value).encode()


@dataclass(frozen=True)
class FakeMember:
    """A server member given as a User/Member option (sent in ``resolved.users`` and ``resolved.members``)."""

    id: int
    name: str
    roles: tuple[int, ...] = ()


@dataclass(frozen=True)
class FakeFile:
    """A file given as an Attachment option (``resolved.attachments``); ``attachment.read()`` returns ``data``."""

    filename: str
    data: bytes
    content_type: str = "text/csv; charset=utf-8"


@dataclass
class FakeGuild:
    id: int
    roles: dict[str, int]
    channel_id: int


class Harness:
    """One bot, one guild with named roles; ``invoke`` dispatches a slash command as a given member."""

    def __init__(self, bot: discord.Client, *, guild_id: int | None = None, roles: tuple[str, ...] = ()) -> None:
        self.bot = bot
        gid = guild_id or snowflake()
        self.guild = FakeGuild(gid, {name: snowflake() for name in roles}, snowflake())
        self.adapter = RecordingAdapter(self.guild.channel_id)
        self.cdn: dict[str, bytes] = {}  # attachment url -> bytes, served to Attachment.read()
        state = bot._connection

        async def get_from_cdn(url: str) -> bytes:
            return self.cdn[url]

        state.http.get_from_cdn = get_from_cdn  # type: ignore[method-assign]
        if state.user is None:  # as READY would set it
            state.user = discord.ClientUser(
                state=state,
                data={"id": str(APP_ID), "username": "steward", "discriminator": "0", "avatar": None, "bot": True},
            )
            state.application_id = APP_ID
        guild_data = {
            "id": str(gid),
            "name": "Club RisiKo! Test",
            "owner_id": "1",
            "roles": [_role_payload(gid, "@everyone", gid)]
            + [_role_payload(rid, name, gid) for name, rid in self.guild.roles.items()],
            "channels": [{"id": str(self.guild.channel_id), "type": 0, "name": "tornei", "position": 0}],
            "member_count": 1,
            "members": [],
            "features": [],
            "emojis": [],
            "stickers": [],
            "preferred_locale": "it",
        }
        state._add_guild(discord.Guild(data=guild_data, state=state))  # as GUILD_CREATE would

    def member(self, user_id: int, name: str, *, roles: tuple[str, ...] = ()) -> FakeMember:
        return FakeMember(user_id, name, tuple(self.guild.roles[r] for r in roles))

    def role(self, name: str) -> discord.Role:
        guild = self.bot.get_guild(self.guild.id)
        assert guild is not None
        role = guild.get_role(self.guild.roles[name])
        assert role is not None
        return role

    async def invoke(
        self,
        path: str,
        *,
        user_id: int = 5555,
        roles: tuple[str, ...] = (),
        admin: bool = False,
        locale: str = "en-US",
        in_guild: bool = True,
        _focused: str | None = None,
        **options: Any,
    ) -> list[Sent]:
        """Dispatch ``/path`` (e.g. "tournament create") with ``options`` through the real tree."""
        names = path.split()
        command = self.bot.tree.get_command(names[0])
        assert command is not None, f"no command {names[0]!r}"
        for sub in names[1:]:
            command = command.get_command(sub)  # type: ignore[union-attr]
            assert command is not None, f"no command {path!r}"
        assert isinstance(command, discord.app_commands.Command)
        opts, resolved = self._options(command, options)
        for opt in opts:
            if opt["name"] == _focused:
                opt["focused"] = True
        node_options: list[dict[str, Any]] = opts
        for depth in range(len(names) - 1, 0, -1):  # innermost subcommand first
            kind = 1 if depth == len(names) - 1 else 2  # SUB_COMMAND, then SUB_COMMAND_GROUP
            node_options = [{"type": kind, "name": names[depth], "options": node_options}]
        data: dict[str, Any] = {"type": 1, "name": names[0], "options": node_options}
        data["id"] = str(snowflake())
        if resolved:
            data["resolved"] = resolved
        if in_guild:
            data["guild_id"] = str(self.guild.id)
        user = {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0", "avatar": None}
        payload: dict[str, Any] = {
            "id": str(snowflake()),
            "application_id": str(APP_ID),
            "type": 2 if _focused is None else 4,  # APPLICATION_COMMAND or its AUTOCOMPLETE
            "token": f"token-{snowflake()}",
            "version": 1,
            "data": data,
            "locale": locale,
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": str(discord.Permissions.all().value),
            "channel": {"id": str(self.guild.channel_id), "type": 0, "name": "tornei"},
            "channel_id": str(self.guild.channel_id),
        }
        if in_guild:
            perms = discord.Permissions(administrator=True) if admin else discord.Permissions.general()
            payload |= {
                "guild_id": str(self.guild.id),
                "guild_locale": "it",
                "member": {
                    "user": user,
                    "roles": [str(self.guild.roles[r]) for r in roles],
                    "permissions": str(perms.value),
                    "joined_at": "2025-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                },
            }
        else:
            payload["user"] = user
            payload["channel"] = {"id": str(snowflake()), "type": 1}
        before = len(self.adapter.sent)
        token = async_context.set(self.adapter)
        try:
            interaction = discord.Interaction(data=payload, state=self.bot._connection)  # type: ignore[arg-type]
            await self.bot.tree._call(interaction)
        finally:
            async_context.reset(token)
        return self.adapter.sent[before:]

    async def autocomplete(self, path: str, focused: str, **options: Any) -> list[dict[str, Any]]:
        """The choices the bot offers while the user types option ``focused`` (other options as filled so far)."""
        sent = await self.invoke(path, _focused=focused, **options)
        assert sent and sent[-1].kind == "callback" and sent[-1].body["type"] == 8, sent
        return list(sent[-1].data.get("choices") or [])

    def _options(self, command: discord.app_commands.Command[Any, ..., Any], options: dict[str, Any]) -> Any:
        out: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        params = {p.name: p for p in command.parameters}
        for name, value in options.items():
            param = params.get(name)
            opt_type = param.type if param else discord.AppCommandOptionType.string
            if isinstance(value, discord.Role):
                resolved.setdefault("roles", {})[str(value.id)] = _role_payload(value.id, value.name, self.guild.id)
                value = str(value.id)
                opt_type = discord.AppCommandOptionType.role
            elif isinstance(value, discord.abc.GuildChannel):  # a channel of the guild's cache (resolved from it)
                resolved.setdefault("channels", {})[str(value.id)] = {
                    "id": str(value.id),
                    "name": value.name,
                    "type": value.type.value,
                    "permissions": str(discord.Permissions.all().value),
                }
                value = str(value.id)
                opt_type = discord.AppCommandOptionType.channel
            elif isinstance(value, FakeMember):
                user = {"id": str(value.id), "username": value.name, "discriminator": "0", "avatar": None}
                resolved.setdefault("users", {})[str(value.id)] = user
                resolved.setdefault("members", {})[str(value.id)] = {
                    "roles": [str(r) for r in value.roles],
                    "nick": value.name,
                    "joined_at": "2025-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                    "permissions": str(discord.Permissions.general().value),
                }
                value = str(value.id)
                opt_type = discord.AppCommandOptionType.user
            elif isinstance(value, FakeFile):
                attachment_id = str(snowflake())
                url = f"https://cdn.discordapp.test/attachments/{attachment_id}/{value.filename}"
                self.cdn[url] = value.data
                resolved.setdefault("attachments", {})[attachment_id] = {
                    "id": attachment_id,
                    "filename": value.filename,
                    "size": len(value.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": value.content_type,
                }
                value = attachment_id
                opt_type = discord.AppCommandOptionType.attachment
            out.append({"type": opt_type.value, "name": name, "value": value})
        return out, resolved


def _role_payload(role_id: int, name: str, guild_id: int) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": 0 if role_id == guild_id else 1,
        "permissions": "0",
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
