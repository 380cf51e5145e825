"""The one error path of every interaction: slash commands (the tree's ``on_error``), buttons and modals.

A domain refusal (``UserFacingError``) becomes one localised line; anything else is logged with a short reference
that the user sees, never a traceback. Buttons and modals do not pass through the tree, so their callbacks use
``GuardedModal`` / ``guarded`` below, which end here too.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.i18n import TRANSLATED_PARAMS, normalise_locale, render_error, t
from bot.present.markup import safe
from bot.services import is_busy
from bot.services.races import is_concurrent_change

log = logging.getLogger(__name__)

Item = TypeVar("Item")


def user_facing(error: BaseException) -> UserFacingError | None:
    """The domain refusal inside ``error`` (discord.py wraps it in ``CommandInvokeError``), if any."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, UserFacingError):
            return current
        seen.add(id(current))
        current = getattr(current, "original", None) or current.__cause__
    return None


def _escaped(params: dict[str, Any]) -> dict[str, Any]:
    """An error's parameters as shown: text a user typed (a name, a value) has its markdown and mentions escaped,
    so "**Coppa**" is not bold and "@everyone" is plain text; field and role names are
    catalogue keys, translated later."""

    def shown(key: str, value: Any) -> Any:
        if isinstance(value, list | tuple):  # names, joined as a sentence lists them (bot.i18n.render_error)
            return tuple(safe(v) if isinstance(v, str) else v for v in value)
        return value if key in TRANSLATED_PARAMS or not isinstance(value, str) else safe(value)

    return {k: shown(k, v) for k, v in params.items()}


def _default_locale(interaction: discord.Interaction[Any]) -> str:
    settings = getattr(interaction.client, "settings", None)
    return str(getattr(settings, "default_locale", "it"))


def error_message(interaction: discord.Interaction[Any], error: BaseException, *, where: str) -> str:
    """The line the user reads for ``error``; unexpected errors are logged with the reference it shows."""
    locale = normalise_locale(interaction.locale, _default_locale(interaction))
    domain = user_facing(error)
    if domain is not None:
        return render_error(domain.key, _escaped(domain.params), locale)
    if isinstance(error, app_commands.TransformerError):
        return t("error.bad_value", locale, value=safe(str(error.value)[:100]))
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.guild_only", locale)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return t("error.permission_generic", locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", locale, seconds=round(error.retry_after))
    if is_busy(error):  # a rush: the database's connections or its writer lock stayed taken past the wait
        log.warning("%s: the database was busy (user=%s guild=%s)", where, interaction.user.id if interaction.user
                    else None, interaction.guild_id)  # fmt: skip
        return t("error.busy", locale)
    if is_concurrent_change(error):  # another transaction wrote the same rows first: this one rolled back
        log.warning("%s: lost a race to a simultaneous change (user=%s guild=%s)", where, interaction.user.id
                    if interaction.user else None, interaction.guild_id, exc_info=error)  # fmt: skip
        return t("error.concurrent_change", locale)
    ref = uuid.uuid4().hex[:8]
    log.error(
        "%s failed (ref %s) user=%s guild=%s",
        where,
        ref,
        interaction.user.id if interaction.user else None,
        interaction.guild_id,
        exc_info=error,
    )
    return t("error.unexpected", locale, ref=ref)


async def reply_error(interaction: discord.Interaction[Any], error: BaseException, *, where: str = "?") -> None:
    """Tell the user, privately, whether or not the interaction was already answered."""
    message = error_message(interaction, error, where=where)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


def guarded(
    callback: Callable[[Item, discord.Interaction[Any]], Coroutine[Any, Any, None]],
) -> Callable[[Item, discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    """For a button's ``callback``: errors take the commands' path (discord.py only logs a dynamic item's)."""

    @functools.wraps(callback)
    async def wrapper(self: Item, interaction: discord.Interaction[Any]) -> None:
        try:
            await callback(self, interaction)
        except Exception as error:
            await reply_error(interaction, error, where=f"component {type(self).__name__}")

    return wrapper


class GuardedModal(discord.ui.Modal):
    """A modal whose failures take the commands' error path."""

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, /) -> None:  # type: ignore[override]
        await reply_error(interaction, error, where=f"modal {type(self).__name__}")


class GuardedView(discord.ui.View):
    """A view whose items' failures take the commands' error path."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await reply_error(interaction, error, where=f"view item {type(item).__name__}")


# What to run again for a control nothing answers any more (its custom id's prefix → the command, by catalogue key).
REDO: dict[str, str] = {
    "report:enter:": "report enter",
    "report:correct:": "review correct",
    "sanction:": "sanction give",
}


def slash(qualified_name: str, locale: str) -> str:
    """A command as the reader types it in their language: "report enter" → "/referto inserisci"."""
    parts = qualified_name.split()
    return "/" + " ".join(t(f"cmd.{' '.join(parts[: i + 1])}.name", locale) for i in range(len(parts)))


def expired_message(interaction: discord.Interaction[Any], custom_id: str) -> str:
    """The line for a button, menu or form whose handler is gone: it expired, and the command that asks again."""
    locale = normalise_locale(interaction.locale, _default_locale(interaction))
    command = next((key for prefix, key in REDO.items() if custom_id.startswith(prefix)), None)
    if command is None:
        return t("error.expired", locale)
    return t("error.expired_redo", locale, command=slash(command, locale))
