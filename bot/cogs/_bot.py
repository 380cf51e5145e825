"""The bot as the cogs see it: the services, the settings, the schedule's wake-ups, the one error path and the
cogs' loading. ``bot.app`` builds the running bot on it (migrations, the schedule's runner, the commands' sync); the
cogs import this class, never the application above them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pkgutil
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import bot.cogs
from bot import metrics
from bot.cogs._errors import expired_message, reply_error
from bot.i18n import normalise_locale
from bot.services import Services
from bot.settings import Settings

log = logging.getLogger(__name__)
EXPIRED_GRACE = 2.0  # seconds: a component or form nothing answered by then has no live handler (Discord allows 3)
LOCALE_BATCH_SECONDS = 0.5  # a rush of first interactions is written as one transaction per server, after this


class Wakes(Protocol):
    """What the cogs ask of the schedule's runner (``bot.scheduling.Runner``) after planning rows."""

    @property
    def lease(self) -> timedelta: ...

    def wake_all(self, rows: Sequence[tuple[int, datetime]]) -> None: ...

    async def wake_guild(self, guild_id: int | None) -> None: ...


class Asleep:
    """No runner (a bot built for a test without the schedule): wake-ups do nothing."""

    lease = timedelta(seconds=60)

    def wake_all(self, rows: Sequence[tuple[int, datetime]]) -> None:
        return None

    async def wake_guild(self, guild_id: int | None) -> None:
        return None


def discover_cogs() -> list[str]:
    """Every feature package of ``bot.cogs`` is an extension (its ``setup`` adds its cogs); ``_private`` modules
    are helpers shared by the features."""
    return sorted(
        f"{bot.cogs.__name__}.{m.name}"
        for m in pkgutil.iter_modules(bot.cogs.__path__)
        if not m.name.startswith("_") and m.ispkg
    )


class ErrorTree(app_commands.CommandTree["StewardBot"]):
    """Slash commands' failures take the one error path (``bot.cogs._errors``), as buttons and modals do; every
    command (and its autocompletion) first tells the services the member's language, for the DMs written to them."""

    async def interaction_check(self, interaction: discord.Interaction[StewardBot]) -> bool:
        metrics.command_started(interaction.extras)
        await interaction.client.remember_locale(interaction)
        return True

    async def on_error(self, interaction: discord.Interaction[StewardBot], error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        try:
            await reply_error(interaction, error, where=f"command {command}")
        finally:
            metrics.command_finished(command, ok=False, extras=interaction.extras)


class StewardBot(commands.Bot):
    def __init__(self, settings: Settings, services: Services, **options: Any) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=ErrorTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        self.settings = settings
        self.services = services
        self.runner: Wakes = Asleep()  # the application sets the schedule's runner
        self.expired_grace = EXPIRED_GRACE
        self._locale_writer: asyncio.Task[None] | None = None

    async def load_all(self) -> None:
        """Set the translator and load every cog (no network: tests call this directly)."""
        from bot.cogs._translator import StewardTranslator

        await self.tree.set_translator(StewardTranslator())
        for name in discover_cogs():
            await self.load_extension(name)

    async def remember_locale(self, interaction: discord.Interaction[Any]) -> None:
        """The member's own Discord language (Italian or English; another is not kept), for the direct messages the
        bot writes them. Nothing waits for the database here — this runs before a command's first response: the
        language is noted in memory and written in the background, many at once (``flush_locales``)."""
        locale = normalise_locale(interaction.locale, "")
        if not locale or interaction.guild_id is None:
            return
        noted = self.services.members.note(interaction.guild_id, interaction.user.id, locale)
        if noted and (self._locale_writer is None or self._locale_writer.done()):
            self._locale_writer = asyncio.create_task(self._write_locales())

    async def _write_locales(self) -> None:
        """Write the noted languages after a short wait that gathers a rush into one transaction per server."""
        while self.services.members.pending:
            await asyncio.sleep(LOCALE_BATCH_SECONDS)
            try:
                await self.services.members.flush()
            except Exception:  # logged; the languages stay noted and the next interaction starts a new writer
                log.warning("members' languages could not be stored", exc_info=True)
                return

    async def flush_locales(self) -> None:
        """Write every noted language now (at shutdown, and in tests)."""
        if self._locale_writer is not None and not self._locale_writer.done():
            self._locale_writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._locale_writer
        await self.services.members.flush()

    async def on_interaction(self, interaction: discord.Interaction[StewardBot]) -> None:
        """A button, menu or form that nothing answers — one of a view that lived in a process since stopped, or a
        form left open past its time — is answered that it expired and which command to run again, instead of
        Discord's "This interaction failed". Every live handler acknowledges at once, so one still silent after
        ``expired_grace`` seconds has none."""
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return  # a slash command's language is remembered by the tree (ErrorTree.interaction_check)
        await self.remember_locale(interaction)  # a button's or form's: this listener runs beside its handler
        await asyncio.sleep(self.expired_grace)
        if interaction.response.is_done():
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        log.info("interaction %s (%s) had no handler: answered as expired", interaction.id, custom_id[:40])
        with contextlib.suppress(discord.HTTPException):  # answered meanwhile, or too late for Discord
            await interaction.response.send_message(expired_message(interaction, custom_id), ephemeral=True)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[StewardBot], command: app_commands.Command[Any, ..., Any] | Any
    ) -> None:
        """A slash command answered without error: counted, with its time (``bot.metrics``)."""
        metrics.command_finished(command.qualified_name, ok=True, extras=interaction.extras)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))
