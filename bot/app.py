"""The running bot: the cogs' bot (``bot.cogs._bot``) with what an application adds — migrations applied at start,
the schedule's runner, the commands synced with Discord — and ``create_bot``, which builds it from the settings."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import discord

from bot import i18n, metrics
from bot.cogs._bot import EXPIRED_GRACE, ErrorTree, StewardBot, discover_cogs
from bot.db.migrate import upgrade_to_head
from bot.db.session import make_engine, make_sessionmaker
from bot.i18n.numbers import format_date, format_number, plural_category
from bot.present.images import image_words
from bot.rules.presets import PRESET_NAMES
from bot.rules.rulebook import articles
from bot.rules.ruleset import load_ruleset
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
        self.warm_up: asyncio.Future[None] | None = None  # the worker processes' start (set by the setup hook)
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
        # The worker processes start in a thread of their own while the bot loads and connects (issue 48): a heavy
        # command that arrives before they are warm waits for them without blocking the event loop (bot.workers).
        self.warm_up = asyncio.wrap_future(self.services.workers.start())
        await self.load_all()
        began = time.perf_counter()
        await asyncio.to_thread(warm_caches)  # off the loop, before the sync: its translator reads the catalogues
        log.info("catalogues, presets, rulebooks and fonts loaded off the loop in %.1f s", time.perf_counter() - began)
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
        # What the start-up made (modules, catalogues, presets, the rules desk's indexes) lives as long as the bot: it
        # is moved out of the garbage collector's sight, whose every full pass would otherwise walk it all on the
        # event loop (0.1-0.16 s of the loop's CPU each, measured after start-up; issue 48). Before the gateway.
        gc.collect()
        gc.freeze()

    async def close(self) -> None:
        gc.unfreeze()  # another bot in this process (tests) freezes its own start-up
        if self.venue_server is not None:
            await self.venue_server.stop()
        await self.runner.stop()
        try:  # the members' languages noted since the last write
            await self.flush_locales()
        except Exception:
            log.warning("members' languages not stored at shutdown", exc_info=True)
        await super().close()


def warm_caches() -> None:
    """Load now what a first command would otherwise load on the event loop, or in the middle of its image: the
    message catalogues (compiled from the ``.po`` where no current ``.mo`` is), the number and date formats, the
    image words, the presets' rulesets, the rulebooks' articles (what an adjudicator's answer cites), the renderer's
    main fonts and Pillow's PNG encoder. The setup hook runs it in a thread (issue 48): loaded where first used,
    the catalogues (0.2-0.4 s; about 1 s without ``.mo`` files) and the rulebooks' articles (0.1-0.3 s) ran on the
    loop, in the command sync or in the first command that needed them. A piece that fails is logged and left to
    fail where it is used, as it did before."""
    steps: list[tuple[str, Callable[[], object]]] = [
        ("the message catalogues", i18n.load),
        *((f"the {locale} formats and image words", partial(_warm_locale, locale)) for locale in i18n.LOCALES),
        *((f"the preset {name}", partial(load_ruleset, name)) for name in PRESET_NAMES),
        ("the rulebooks' articles", articles),
        ("the renderer's fonts", _warm_renderer),
    ]
    for what, step in steps:
        try:
            step()
        except Exception:
            log.warning("start-up: %s could not be loaded ahead", what, exc_info=True)


def _warm_locale(locale: str) -> None:
    format_number(1234.5, locale)
    format_date("2024-01-31", locale)
    plural_category(2, locale)
    image_words(locale)


def _warm_renderer() -> None:
    from PIL import Image

    from renderer import _fonts

    for kind in _fonts.FONT_FILES:  # the faces every image draws with; the CJK and emoji faces (7.6 MB) stay
        _fonts.font(kind, 12)  # unread until a name needs them, in the thread that draws it
    _fonts.covers(_fonts.CJK_FILE, 0x4E00)  # reads the faces' coverage table
    Image.new("RGB", (2, 2)).save(io.BytesIO(), "PNG")


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
