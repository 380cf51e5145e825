"""The running bot: the cogs' bot (``bot.cogs._bot``) with what an application adds — migrations applied at start,
the schedule's runner, the commands synced with Discord — and ``create_bot``, which builds it from the settings."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot import metrics
from bot.cogs._bot import EXPIRED_GRACE, ErrorTree, StewardBot, discover_cogs
from bot.db.migrate import upgrade_to_head
from bot.db.session import make_engine, make_sessionmaker
from bot.scheduling import Runner
from bot.services import Services
from bot.services.backups import BackupPlan, ScheduledBackups, last_backup_provider
from bot.settings import Settings
from bot.web.app import VenueServer
from bot.web.health import HealthProbe, database_checks

__all__ = ["EXPIRED_GRACE", "ErrorTree", "Steward", "StewardBot", "create_bot", "discover_cogs"]

log = logging.getLogger(__name__)


class Steward(StewardBot):
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
        super().__init__(settings, services, **options)
        self._apply_migrations = apply_migrations
        self._sync_commands = sync_commands
        self._start_scheduler = start_scheduler
        self.runner: Runner = Runner(self)  # schedules and reminders: rows in our tables, APScheduler only wakes us
        self.venue_server: VenueServer | None = None  # the venue pages, when WEB_PORT is set
        # /readyz's checks (the scheduled backups may set ``self.health.last_backup``: informational) and /metrics'
        # gauges read at collection
        self.health = HealthProbe({"gateway": self._gateway_state, **database_checks(services)})
        if start_scheduler:
            self.health.add("scheduler", self._scheduler_state)
        if settings.backup_dir:  # /readyz says when the last scheduled backup was taken (informational)
            self.health.last_backup = last_backup_provider(settings)
        metrics.watch_gateway(self)
        metrics.watch_engine(services.sessionmaker.kw.get("bind"))

    def _gateway_state(self) -> str | None:
        return None if self.is_ready() and not self.is_closed() else "not connected"

    def _scheduler_state(self) -> str | None:
        return None if self.runner.running() else "not running"

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
            self.runner.backups = scheduled_backups(self.settings, self.services)
            await self.runner.start()
        settings = self.settings
        if settings.web_port is not None:
            self.venue_server = VenueServer(
                self.services.venue, host=settings.web_host, port=settings.web_port, base_url=settings.venue_base_url(),
                probe=self.health, metrics=settings.metrics_enabled,
            )  # fmt: skip
            try:
                await self.venue_server.start()
            except OSError as exc:  # the port is taken or refused: the bot runs on, the pages are off
                log.error("venue pages not served on %s:%s: %s", settings.web_host, settings.web_port, exc)
                self.venue_server = None

    async def close(self) -> None:
        if self.venue_server is not None:
            await self.venue_server.stop()
        await self.runner.stop()
        try:  # the members' languages noted since the last write
            await self.flush_locales()
        except Exception:
            log.warning("members' languages not stored at shutdown", exc_info=True)
        await super().close()


def scheduled_backups(settings: Settings, services: Services) -> ScheduledBackups | None:
    """The daily backup ``BACKUP_DIR`` asks for (None when unset); a malformed ``BACKUP_TIME`` is logged and the
    bot runs without it."""
    try:
        plan = BackupPlan.from_settings(settings)
    except ValueError as exc:
        log.error("no scheduled backup: %s", exc)
        return None
    if plan is None:
        return None
    return ScheduledBackups(plan, services.sessionmaker, clock=services.clock)


def create_bot(
    settings: Settings,
    *,
    services: Services | None = None,
    apply_migrations: bool = True,
    sync_commands: bool = True,
    start_scheduler: bool = True,
    **options: Any,
) -> Steward:
    """Build the bot without connecting. Services default to an engine on ``settings.database_url``."""
    if services is None:
        engine = make_engine(
            settings.database_url, pool_size=settings.database_pool_size, pool_timeout=settings.database_pool_timeout
        )
        services = Services(make_sessionmaker(engine))
    return Steward(
        settings,
        services,
        apply_migrations=apply_migrations,
        sync_commands=sync_commands,
        start_scheduler=start_scheduler,
        **options,
    )
