"""Helpers shared by the cogs: the actor of an interaction, its locale, replies and safe text."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import InvalidInput
from bot.i18n import normalise_locale, t
from bot.services.access import Actor

if TYPE_CHECKING:
    from bot.cogs._bot import StewardBot


EMBED_COLOUR = discord.Colour.from_rgb(0xB7, 0x1C, 0x1C)


def bot_of(interaction: discord.Interaction[Any]) -> StewardBot:
    return interaction.client  # type: ignore[no-any-return]


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The user's language; the server's, then the configured default, when the user's is neither it nor en."""
    default = bot_of(interaction).settings.default_locale
    guild_default = normalise_locale(interaction.guild_locale, default) if interaction.guild_locale else default
    return normalise_locale(interaction.locale, guild_default)


async def server_locale(interaction: discord.Interaction[Any]) -> str:
    """The server's language, for public messages (announcements, table threads, report messages): the one stored
    for the server (``GuildConfig.locale``), else Discord's server language; private replies keep ``locale_of``."""
    default = bot_of(interaction).settings.default_locale
    guild_default = normalise_locale(interaction.guild_locale, default) if interaction.guild_locale else default
    if interaction.guild_id is None:
        return guild_default
    return await bot_of(interaction).services.setup.locale(interaction.guild_id, default=guild_default)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    if interaction.guild_id is None:
        raise InvalidInput("error.guild_only")
    user = interaction.user
    role_ids: frozenset[int] = frozenset()
    if isinstance(user, discord.Member):
        role_ids = frozenset(r.id for r in user.roles)
    # Discord sends the member's resolved permissions in the channel with every interaction.
    is_admin = interaction.permissions.administrator
    return Actor(
        guild_id=interaction.guild_id,
        user_id=user.id,
        display_name=user.display_name,
        role_ids=role_ids,
        is_admin=is_admin,
        locale=locale_of(interaction),
    )


def one_heavy_call(interaction: discord.Interaction[Any]) -> AbstractAsyncContextManager[None]:
    """Around a command's heavy calculation: one per member at a time (a second is refused at once, so one member
    cannot fill the workers everybody shares)."""
    return bot_of(interaction).services.workers.for_user(interaction.guild_id or 0, interaction.user.id)


def embed(title: str, description: str = "") -> discord.Embed:
    return discord.Embed(title=title[:256], description=description[:4096], colour=EMBED_COLOUR)


async def send(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    ephemeral: bool = False,
) -> None:
    """Reply whether or not the interaction was already answered or deferred."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if embed is not None:
        kwargs["embed"] = embed
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


def tr(interaction: discord.Interaction[Any], key: str, /, **params: Any) -> str:
    return t(key, locale_of(interaction), **params)


ATTACHMENT_MAX = 256 * 1024


async def attached_text(file: discord.Attachment | None, typed: str | None) -> str:
    """The situation from an attached .json/.csv/.txt file (≤ 256 KB, UTF-8) or typed in the option."""
    if file is not None:
        if file.size > ATTACHMENT_MAX:
            raise InvalidInput("error.adjudicator.file_too_large", name=file.filename[:60], max=ATTACHMENT_MAX // 1024)
        try:
            return (await file.read()).decode("utf-8-sig")
        except (UnicodeDecodeError, discord.HTTPException):
            raise InvalidInput("error.adjudicator.file_unreadable", name=file.filename[:60]) from None
    if typed is None or not typed.strip():
        raise InvalidInput("error.adjudicator.situation_missing")
    return typed
