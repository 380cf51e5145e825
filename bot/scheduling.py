"""The schedule's runner: APScheduler only wakes the bot; the rows in ``scheduled_reminder`` are the truth.

It lives outside the cog packages on purpose: an extension unloaded or reloaded drops its modules from
``sys.modules``, and the jobs name this module's functions as text, so its registry of live runners must stay.

At start-up (``StewardBot.setup_hook``) the runner reconciles — rows that fell due while no bot ran are marked late —
then gives APScheduler (3.x ``AsyncIOScheduler``, in-memory) one ``DateTrigger`` job per pending row, referring to
the row by id only, plus a sweep every minute that claims whatever is due (rows planned by another process, or
a wake-up that came a moment early). ``misfire_grace_time=None`` and ``coalesce=True`` on purpose: a wake-up that
is late for any reason still runs, once; whether anything is *sent* is decided by the row's claim
(:mod:`bot.services.deliveries`), so two processes on one PostgreSQL never send a row twice.

Sending uses ``PartialMessageable`` channels (no cache or fetch needed), DMs through ``POST /users/@me/channels``,
and ``AllowedMentions.none()``: a reminder pings nobody.
"""

from __future__ import annotations

import io
import logging
import os
import socket
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.cogs.schedule.texts import delivery_text
from bot.db.models import ReminderKind
from bot.services.access import Actor
from bot.services.deliveries import DM_REFUSED, Delivery

if TYPE_CHECKING:
    from bot.app import StewardBot

log = logging.getLogger(__name__)

RUNNERS: dict[str, Runner] = {}  # the live runners by key: jobs carry the key and a row id, nothing else
SWEEP_SECONDS = 60
CLAIM_BATCH = 50


async def fire(runner_key: str, reminder_id: int) -> None:
    """APScheduler job (referenced as text): one row fell due."""
    runner = RUNNERS.get(runner_key)
    if runner is not None:
        await runner.fire(reminder_id)


async def sweep(runner_key: str) -> None:
    """APScheduler job (referenced as text): claim and send whatever is due."""
    runner = RUNNERS.get(runner_key)
    if runner is not None:
        await runner.run_due()


class Runner:
    def __init__(self, bot: StewardBot, *, worker: str | None = None) -> None:
        self.bot = bot
        self.worker = worker or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self.scheduler: AsyncIOScheduler | None = None
        self.started_at: datetime | None = None
        self.sent: list[int] = []  # rows this process delivered (diagnostics and tests)

    @property
    def services(self) -> Any:
        return self.bot.services

    # ----------------------------------------------------------------------------------------- life cycle

    async def start(self, *, wake: bool = True, paused: bool = False) -> None:
        """Reconcile with the table, then (``wake``) start APScheduler with a job per pending row and the sweep
        (``paused``: jobs are planned but none runs — for inspection)."""
        self.started_at = self.services.clock()
        late, stuck = await self.services.deliveries.reconcile(self.started_at)
        if late:
            log.warning("%d reminder(s) fell due while the bot was offline: sending them late, once", late)
        if stuck:
            log.warning("reminder(s) %s were claimed by a process that stopped before confirming: not resent", stuck)
        RUNNERS[self.worker] = self
        if not wake:
            return
        self.scheduler = AsyncIOScheduler(
            timezone=UTC, job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1}
        )
        for reminder_id, due in await self.services.deliveries.pending():
            self.wake_at(reminder_id, due)
        self.scheduler.add_job(
            "bot.scheduling:sweep", IntervalTrigger(seconds=SWEEP_SECONDS, timezone=UTC),
            id="sweep", args=[self.worker], replace_existing=True,
        )  # fmt: skip
        self.scheduler.start(paused=paused)

    async def stop(self) -> None:
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        self.scheduler = None
        RUNNERS.pop(self.worker, None)

    def wake_at(self, reminder_id: int, due: datetime) -> None:
        """Ask APScheduler to wake this process when row ``reminder_id`` falls due (a row planned right now)."""
        if self.scheduler is None:
            return
        self.scheduler.add_job(
            "bot.scheduling:fire", DateTrigger(run_date=due, timezone=UTC), id=f"reminder:{reminder_id}",
            args=[self.worker, reminder_id], replace_existing=True,
        )  # fmt: skip

    def wake_all(self, rows: Sequence[tuple[int, datetime]]) -> None:
        for reminder_id, due in rows:
            self.wake_at(reminder_id, due)

    async def wake_guild(self, guild_id: int | None) -> None:
        """After a use case planned rows for a server (a round's reminders, a clock's call): wake-ups for them
        (``replace_existing``: a row already planned is only re-planned)."""
        if self.scheduler is not None and guild_id is not None:
            self.wake_all(await self.services.deliveries.pending(guild_id=guild_id))

    # ------------------------------------------------------------------------------------------- delivery

    async def fire(self, reminder_id: int) -> bool:
        if not await self.services.deliveries.claim(reminder_id, self.worker):
            return False  # another process, or the sweep, took it; or it moved and is no longer due
        await self.deliver(reminder_id)
        return True

    async def run_due(self) -> list[int]:
        """Claim and send every due row, in batches; the rows this process took."""
        taken: list[int] = []
        while True:
            batch = await self.services.deliveries.claim_due(self.worker, limit=CLAIM_BATCH)
            if not batch:
                return taken
            for reminder_id in batch:
                await self.deliver(reminder_id)
            taken.extend(batch)

    async def deliver(self, reminder_id: int) -> None:
        """Send one claimed row; a failure is recorded on the row (never retried: the claim is spent)."""
        try:
            delivery = await self.services.deliveries.prepare(reminder_id)
            if delivery is None:
                return  # dropped (its round started) or moved: logged by the service
            problems = await self._send(delivery)
            await self.services.deliveries.finish(reminder_id, outcome=", ".join(problems) or None)
            self.sent.append(reminder_id)
        except Exception:  # a row must never take the runner down; it stays 'claimed', visible in /schedule list
            log.exception("delivering reminder %s failed", reminder_id)

    async def _send(self, d: Delivery) -> list[str]:
        problems: list[str] = []
        if d.kind == ReminderKind.REGISTRATION_CLOSE.value and not d.registration_closed:
            return ["already_closed"]
        text = delivery_text(d)
        if d.channel_id is not None:
            files = await self._image(d)
            channel = self.bot.get_partial_messageable(d.channel_id, guild_id=d.guild_id)
            try:
                await channel.send(
                    text[:2000], files=files or discord.utils.MISSING, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.Forbidden:
                problems.append("channel:forbidden")
            except discord.HTTPException as exc:
                problems.append(f"channel:http {exc.status}")
        else:
            problems.append("no_channel")
        for user_id in d.dm_user_ids:
            problems.extend(await self._dm(d, user_id, text))
        return problems

    async def _dm(self, d: Delivery, user_id: int, text: str) -> list[str]:
        try:
            data = await self.bot.http.start_private_message(user_id)
            dm = self.bot.get_partial_messageable(int(data["id"]))
            await dm.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:  # the player does not accept DMs from this server: recorded, never retried
            await self.services.deliveries.record_dm(d.reminder_id, user_id, ok=False, error=DM_REFUSED)
            return []
        except (discord.HTTPException, KeyError, ValueError) as exc:
            await self.services.deliveries.record_dm(d.reminder_id, user_id, ok=False, error=f"failed: {exc}"[:200])
            return [f"dm:{user_id}"]
        await self.services.deliveries.record_dm(d.reminder_id, user_id, ok=True)
        return []

    async def _image(self, d: Delivery) -> list[discord.File]:
        """The announcement's image: the published round's tables or the standings (rendered off the loop)."""
        if d.kind != ReminderKind.ANNOUNCEMENT.value or d.image is None or d.tournament_name is None:
            return []
        reader = Actor(guild_id=d.guild_id, user_id=0, locale=d.locale)  # reads what any player may read
        try:
            if d.image == "tables":
                from bot.cogs.rounds.text import table_images

                view = await self.services.rounds.show(reader, tournament=d.tournament_name)
                return (await table_images(view, d.locale, now=self.services.clock()))[:4]
            if d.image == "standings":
                from bot.present.standings import standings_image

                standings = await self.services.standings.compute(d.guild_id, d.tournament_name)
                date = self.services.clock().date().isoformat()
                image = await standings_image(standings, date=date, locale=d.locale)
                return [
                    discord.File(io.BytesIO(p), filename=f"standings-{i}.png") for i, p in enumerate(image.pages, 1)
                ][:4]
        except Exception as exc:  # no image is better than no announcement
            log.warning("announcement %s: no %s image (%s)", d.reminder_id, d.image, exc)
        return []
