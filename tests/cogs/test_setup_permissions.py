"""the bot's own Discord permissions — one list (bot/cogs/setup/permissions.NEEDED) that the README's invite
step names and `/setup roles` checks in the server and in the announcement channel, each missing one with its reason."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from bot.app import StewardBot
from bot.cogs.setup.permissions import NEEDED, invite_permissions, missing
from bot.i18n import catalogue
from tests.support.helpers import Harness, _role_payload, snowflake

README = Path(__file__).resolve().parents[2] / "README.md"


def _invite_step() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("Invite it with the OAuth2 URL generator")
    return text[start : text.index("\n3. ", start)]


def test_the_readme_invite_names_every_permission_the_bot_uses_and_its_url_grants_exactly_them():
    step = _invite_step()
    for needed in NEEDED:
        assert f"*{needed.label}*" in step, needed.label
    assert re.findall(r"permissions=(\d+)", step) == [str(invite_permissions().value)]
    named = set(re.findall(r"\*([A-Z][A-Za-z ]+)\*", step))
    assert named == {n.label for n in NEEDED}, named ^ {n.label for n in NEEDED}


def test_the_readme_names_the_round_event_and_the_pinned_ruling_as_reasons():
    step = _invite_step()
    assert "*Manage Events*" in step and "*Pin Messages*" in step
    assert "event" in step and "/rule" in step


@pytest.mark.parametrize("locale", ["it", "en"])
def test_every_needed_permission_has_a_name_and_a_reason_in_both_catalogues(locale: str):
    words = catalogue(locale)
    for needed in NEEDED:
        assert words.get(f"setup.permission.{needed.attribute}"), (locale, needed.attribute)
        assert words.get(f"setup.permission.{needed.attribute}.name"), (locale, needed.attribute)
    assert catalogue("en")["setup.permission.manage_events.name"] == "Manage Events"
    assert all(getattr(discord.Permissions, n.attribute, None) is not None for n in NEEDED)


def test_missing_splits_the_server_from_the_channel_and_names_each_permission_once():
    everything = invite_permissions()
    server = discord.Permissions(everything.value)
    server.manage_events = False
    channel = discord.Permissions(everything.value)
    channel.attach_files = channel.manage_events = False
    in_server, in_channel = missing(server, channel)
    assert [n.attribute for n in in_server] == ["manage_events"]
    assert [n.attribute for n in in_channel] == ["attach_files"]
    assert missing(everything, everything) == ([], [])
    assert missing(everything, None) == ([], [])


def _bot_member(harness: Harness, bot: StewardBot, permissions: discord.Permissions) -> int:
    """The bot's own member in the guild's cache, with one role granting ``permissions``; returns the role's id."""
    guild = bot.get_guild(harness.guild.id)
    assert guild is not None and bot.user is not None
    state = bot._connection
    role_id = snowflake()
    role_data = _role_payload(role_id, "Steward", guild.id) | {"permissions": str(permissions.value), "managed": True}
    guild._add_role(discord.Role(guild=guild, state=state, data=role_data))  # type: ignore[arg-type]
    user = {"id": str(bot.user.id), "username": "steward", "discriminator": "0", "avatar": None, "bot": True}
    member_data = {"user": user, "roles": [str(role_id)], "joined_at": "2025-01-01T00:00:00+00:00",
                   "deaf": False, "mute": False, "flags": 0}  # fmt: skip
    guild._add_member(discord.Member(data=member_data, guild=guild, state=state))  # type: ignore[arg-type]
    assert guild.me is not None
    return role_id


def _channel(harness: Harness, bot: StewardBot, name: str, *, deny: discord.Permissions, role_id: int):
    guild = bot.get_guild(harness.guild.id)
    assert guild is not None
    overwrite = {"id": str(role_id), "type": 0, "allow": "0", "deny": str(deny.value)}
    data = {"id": str(snowflake()), "type": 0, "name": name, "position": 1, "permission_overwrites": [overwrite]}
    channel = discord.TextChannel(state=bot._connection, guild=guild, data=data)  # type: ignore[arg-type]
    guild._add_channel(channel)
    return channel


async def _setup(harness: Harness, locale: str, **options: object):
    return await harness.invoke(
        "setup roles",
        admin=True,
        locale=locale,
        organizer=harness.role("Organizzatori"),
        referee=harness.role("Arbitri"),
        head_referee=harness.role("Capo arbitro"),
        **options,
    )


async def test_setup_lists_what_the_bot_lacks_in_the_server_with_the_reason_in_italian(harness: Harness, bot):
    granted = invite_permissions()
    granted.manage_events = granted.pin_messages = False
    _bot_member(harness, bot, granted)
    sent = await _setup(harness, "it")
    text = sent[-1].text
    assert sent[-1].ephemeral and "Ruoli configurati" in text
    assert "Al bot mancano questi permessi nel server" in text
    assert "**Gestisci eventi**: per creare, spostare e annullare l'evento Discord di ogni turno" in text
    assert "**Fissa messaggi**" in text and "`/regola`" in text
    assert "Allega file" not in text and "tutti i permessi" not in text


async def test_setup_lists_what_the_announcement_channel_denies_in_english(harness: Harness, bot):
    role_id = _bot_member(harness, bot, invite_permissions())
    deny = discord.Permissions(attach_files=True, create_public_threads=True)
    channel = _channel(harness, bot, "annunci", deny=deny, role_id=role_id)
    sent = await _setup(harness, "en-GB", announcements=channel)
    text = sent[-1].text
    assert f"In <#{channel.id}> the bot lacks these permissions" in text
    assert "**Attach Files**: to attach the table cards" in text
    assert "**Create Public Threads**: to open one thread per table" in text
    assert "in the server" not in text and "Manage Events" not in text


async def test_setup_says_so_when_nothing_is_missing(harness: Harness, bot):
    _bot_member(harness, bot, invite_permissions())
    sent = await _setup(harness, "it")
    assert "Il bot ha tutti i permessi che gli servono." in sent[-1].text
    assert "mancano" not in sent[-1].text
