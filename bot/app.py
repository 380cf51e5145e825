"""StewardBot: loads the cogs, sets the translator, applies migrations, syncs commands; one error handler."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pkgutil
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import bot.cogs
from bot.cogs._errors import expired_message, reply_error
from bot.db.migrate import upgrade_to_head
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services
from bot.settings import Settings

log = logging.getLogger(__name__)
EXPIRED_GRACE = 2.0  # seconds: a component or form nothing answered by then has no live handler (Discord allows 3)


def discover_cogs() -> list[str]:
    """Every feature package of ``bot.cogs`` is an extension (its ``setup`` adds its cogs); ``_private`` modules
    are helpers shared by the features."""
    return sorted(
        f"{bot.cogs.__name__}.{m.name}"
        for m in pkgutil.iter_modules(bot.cogs.__path__)
        if not m.name.startswith("_") and m.ispkg
    )


class ErrorTree(app_commands.CommandTree["StewardBot"]):
    """Slash commands' failures take the one error path (``bot.cogs._errors``), as buttons and modals do."""

    async def on_error(self, interaction: discord.Interaction[StewardBot], error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        await reply_error(interaction, error, where=f"command {command}")


class StewardBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        services: Services,
        *,
        apply_migrations: bool = True,
        sync_commands: bool = True,
        start_scheduler: bool = True,
        **options: Any,
    ) -> None:
        from bot.scheduling import Runner

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
        self._apply_migrations = apply_migrations
        self._sync_commands = sync_commands
        self._start_scheduler = start_scheduler
        self.runner = Runner(self)  # schedules and reminders: rows in our tables, APScheduler only wakes the bot
        self.expired_grace = EXPIRED_GRACE

    async def load_all(self) -> None:
        """Set the translator and load every cog (no network: tests call this directly)."""
        from bot.cogs._translator import StewardTranslator

        await self.tree.set_translator(StewardTranslator())
        for name in discover_cogs():
            await self.load_extension(name)

    async def setup_hook(self) -> None:
        if self._apply_migrations:
            await asyncio.to_thread(upgrade_to_head, self.settings.database_url)
        self.services.workers.start()  # the worker processes start now, not on a member's first heavy command
        await self.load_all()
        if self._sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d commands to dev guild %s", len(synced), self.settings.dev_guild_id)
            else:
                synced = await self.tree.sync()
                log.info("synced %d global commands", len(synced))
        if self._start_scheduler:
            await self.runner.start()

    async def close(self) -> None:
        await self.runner.stop()
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction[StewardBot]) -> None:
        """A button, menu or form that nothing answers — one of a view that lived in a process since stopped, or a
        form left open past its time — is answered that it expired and which command to run again, instead of
        Discord's "This interaction failed". Every live handler acknowledges at once, so one still silent after
        ``expired_grace`` seconds has none."""
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        await asyncio.sleep(self.expired_grace)
        if interaction.response.is_done():
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        log.info("interaction %s (%s) had no handler: answered as expired", interaction.id, custom_id[:40])
        with contextlib.suppress(discord.HTTPException):  # answered meanwhile, or too late for Discord
            await interaction.response.send_message(expired_message(interaction, custom_id), ephemeral=True)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))


def create_bot(
    settings: Settings,
    *,
    services: Services | None = None,
    apply_migrations: bool = True,
    sync_commands: bool = True,
    start_scheduler: bool = True,
    **options: Any,
) -> StewardBot:
    """Build the bot without connecting. Services default to an engine on ``settings.database_url``."""
    if services is None:
        engine = make_engine(
            settings.database_url, pool_size=settings.database_pool_size, pool_timeout=settings.database_pool_timeout
        )
        services = Services(make_sessionmaker(engine))
    return StewardBot(
        settings,
        services,
        apply_migrations=apply_migrations,
        sync_commands=sync_commands,
        start_scheduler=start_scheduler,
        **options,
    )
