"""The schedule's runner: APScheduler only wakes the bot; the rows in ``scheduled_reminder`` are the truth.

It lives outside the cog packages on purpose: an extension unloaded or reloaded drops its modules from
``sys.modules``, and the jobs name this module's functions as text, so its registry of live runners must stay.

At start-up (``StewardBot.setup_hook``) the runner reconciles — rows that fell due while no bot ran are marked late,
claims whose lease ran out are reported — then gives APScheduler (3.x ``AsyncIOScheduler``, in-memory) one
``DateTrigger`` job per pending row, referring to the row by id only, plus a sweep every ``sweep_seconds`` that
claims whatever is due (rows planned by another process, a wake-up that came a moment early, a row whose runner
died). ``misfire_grace_time=None`` and ``coalesce=True`` on purpose: a wake-up that is late for any reason still
runs, once; whether anything is *sent* is decided by the row's claim (:mod:`bot.services.deliveries`).

A runner claims ONE row, sends it and confirms it, then claims the next, renewing the claim's lease while it sends;
a process that dies holds one row, which any runner takes again once the lease has run out (within lease + sweep,
90 s by default). Every message of a row carries a nonce derived from the row (and the player, for a DM): a message
Discord made but the dead process never confirmed is answered, when sent again, with the message already made.

Sending uses ``PartialMessageable`` channels (no cache or fetch needed), DMs through ``POST /users/@me/channels``,
and ``AllowedMentions.none()``: a reminder pings nobody. The channel post is in the server's language; each DM in
its reader's (as their own interactions carried it, :mod:`bot.services.members`), the server's when unknown.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import io
import logging
import os
import socket
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger
from discord.http import HTTPClient

from bot import metrics
from bot.present.schedule import delivery_text
from bot.present.tables import MAX_PAGES, table_pages
from bot.services import ReminderKind, Services
from bot.services.access import Actor
from bot.services.backups import BackupRun, ScheduledBackups
from bot.services.deliveries import DM_REFUSED, LEASE, Delivery


class Host(Protocol):
    """What the runner needs of the bot (``bot.app.Steward`` is one): the services, Discord's HTTP client and
    channels by id. The runner imports nothing above it; the bot hands itself in."""

    @property
    def services(self) -> Services: ...

    @property
    def http(self) -> HTTPClient: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


log = logging.getLogger(__name__)

RUNNERS: dict[str, Runner] = {}  # the live runners by key: jobs carry the key and a row id, nothing else
# With the 60-second lease a dead process's row is taken again within ~90 s: Discord recognises a nonce only
# "within the past few minutes", so the resend of a message it made is still answered with that message.
SWEEP_SECONDS = 30.0


def channel_nonce(reminder_id: int) -> str:
    """The nonce of a row's channel post: the same at every attempt (at most 25 characters, Discord's limit)."""
    return f"rem{reminder_id}"


def dm_nonce(reminder_id: int, user_id: int) -> str:
    """The nonce of a row's DM to one player, the same at every attempt. A digest, as the two snowflakes together
    can exceed Discord's 25 characters: "dm" and 22 hex digits."""
    return "dm" + hashlib.blake2b(f"{reminder_id}:{user_id}".encode(), digest_size=11).hexdigest()


class ClaimLost(Exception):
    """The row's lease could not be renewed: another runner took it over; stop sending it."""


async def fire(runner_key: str, reminder_id: int) -> None:
    """APScheduler job (referenced as text): one row fell due."""
    runner = RUNNERS.get(runner_key)
    if runner is not None:
        await runner.fire(reminder_id)


async def backup(runner_key: str) -> None:
    """APScheduler job (referenced as text): the daily backup fell due (``bot.services.backups``)."""
    runner = RUNNERS.get(runner_key)
    if runner is not None:
        await runner.run_backup()


async def sweep(runner_key: str) -> None:
    """APScheduler job (referenced as text): claim and send whatever is due."""
    runner = RUNNERS.get(runner_key)
    if runner is not None:
        await runner.run_due()


class Runner:
    def __init__(
        self,
        bot: Host,
        *,
        worker: str | None = None,
        lease: timedelta = LEASE,
        sweep_seconds: float = SWEEP_SECONDS,
    ) -> None:
        self.bot = bot
        self.worker = worker or f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self.lease = lease  # a claim not renewed for this long is taken again by any runner
        self.sweep_seconds = sweep_seconds
        self.scheduler: AsyncIOScheduler | None = None
        self.started_at: datetime | None = None
        self.sent: list[int] = []  # rows this process delivered (diagnostics and tests)
        self.backups: ScheduledBackups | None = None  # the daily backup, when BACKUP_DIR is set (bot.app sets it)

    @property
    def services(self) -> Services:
        return self.bot.services

    def running(self) -> bool:
        """APScheduler is up and waking this process (``/readyz``'s ``scheduler`` check)."""
        return self.scheduler is not None and bool(self.scheduler.running)

    # ----------------------------------------------------------------------------------------- life cycle

    async def start(self, *, wake: bool = True, paused: bool = False) -> None:
        """Reconcile with the table, then (``wake``) start APScheduler with a job per pending row and the sweep
        (``paused``: jobs are planned but none runs — for inspection)."""
        self.started_at = self.services.clock()
        found = await self.services.deliveries.reconcile(lease=self.lease)
        if found.late:
            log.warning("%d reminder(s) fell due while the bot was offline: sending them late, once", found.late)
        if found.retried:
            log.warning("reminder(s) %s were claimed by a process that stopped before confirming: sending them "
                        "again (what Discord already made is not made twice)", list(found.retried))  # fmt: skip
        if found.abandoned:
            log.error("reminder(s) %s failed at every attempt: given up, visible in /schedule list",
                      list(found.abandoned))  # fmt: skip
        RUNNERS[self.worker] = self
        if not wake:
            return
        self.scheduler = AsyncIOScheduler(
            timezone=UTC, job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1}
        )
        for reminder_id, due in await self.services.deliveries.pending():
            self.wake_at(reminder_id, due)
        self.scheduler.add_job(
            "bot.scheduling:sweep", IntervalTrigger(seconds=self.sweep_seconds, timezone=UTC),
            id="sweep", args=[self.worker], replace_existing=True,
        )  # fmt: skip
        await self.plan_backup(at_start=True)
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

    async def plan_backup(self, *, at_start: bool = False) -> None:
        """Wake this process at the next daily backup; at start-up, a minute from now when the last one was missed
        (the bot was off at BACKUP_TIME)."""
        if self.scheduler is None or self.backups is None:
            return
        now = self.services.clock()
        due = self.backups.next_run(now)
        if at_start and await self.backups.missed(now):
            due = min(due, now + timedelta(minutes=1))
        self.scheduler.add_job(
            "bot.scheduling:backup", DateTrigger(run_date=due, timezone=UTC), id="backup", args=[self.worker],
            replace_existing=True,
        )  # fmt: skip
        log.info("next scheduled backup at %s", due.isoformat())

    async def run_backup(self) -> BackupRun | None:
        """The daily backup (off the event loop, never raising), then the next day's wake-up."""
        if self.backups is None:
            return None
        try:
            return await self.backups.run_once()
        finally:
            await self.plan_backup()

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
        if not await self.services.deliveries.claim(reminder_id, self.worker, lease=self.lease):
            return False  # another process, or the sweep, took it; or it moved and is no longer due
        await self.deliver(reminder_id)
        return True

    async def run_due(self) -> list[int]:
        """Claim and send due rows one at a time until none is left; the rows this process took."""
        taken: list[int] = []
        while (reminder_id := await self.services.deliveries.claim_next(self.worker, lease=self.lease)) is not None:
            await self.deliver(reminder_id)
            taken.append(reminder_id)
        return taken

    async def deliver(self, reminder_id: int) -> None:
        """Send one claimed row, renewing its lease meanwhile; a failure leaves the row claimed, and once the lease
        has run out a runner tries it again (up to the service's MAX_ATTEMPTS)."""
        lost = asyncio.Event()
        keeper = asyncio.create_task(self._keep_lease(reminder_id, lost))
        metrics.reminder_due()
        try:
            delivery = await self.services.deliveries.prepare(reminder_id, self.worker)
            if delivery is None:
                return  # dropped (its round started), moved, or no longer ours: logged by the service
            problems = await self._send(delivery, lost)
            if await self.services.deliveries.finish(reminder_id, self.worker, outcome=", ".join(problems) or None):
                self.sent.append(reminder_id)
                metrics.reminder_sent(late=delivery.late)
            else:
                log.warning("reminder %s was taken over by another runner before %s confirmed it", reminder_id,
                            self.worker)  # fmt: skip
        except ClaimLost:
            log.warning("reminder %s: %s lost its claim while sending; the runner that took it finishes it",
                        reminder_id, self.worker)  # fmt: skip
        except Exception:  # a row must never take the runner down; it stays 'claimed' and is retried after the lease
            log.exception("delivering reminder %s failed", reminder_id)
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper

    async def _keep_lease(self, reminder_id: int, lost: asyncio.Event) -> None:
        """Renew the claim three times per lease while the row is sent (a channel post and maybe dozens of DMs), so
        a slow but live send is never taken over; ``lost`` tells the sender when another runner has it."""
        every = self.lease.total_seconds() / 3
        while True:
            await asyncio.sleep(every)
            try:
                if not await self.services.deliveries.renew(reminder_id, self.worker):
                    lost.set()
                    return
            except Exception as exc:  # the database is away for a moment: try again at the next beat
                log.warning("renewing the claim on reminder %s failed: %s", reminder_id, exc)

    async def _send(self, d: Delivery, lost: asyncio.Event) -> list[str]:
        """DMs first, the channel post last: each DM is recorded as soon as Discord made it and the post is
        confirmed by ``finish`` right after it, so a crash leaves at most one message made but unrecorded — sent
        again within lease + sweep with the same nonce, while Discord still answers it with the message it made."""
        problems: list[str] = []
        if d.kind == ReminderKind.REGISTRATION_CLOSE and not d.registration_closed:
            return ["already_closed"]
        text = delivery_text(d)
        texts = {d.locale: text}  # each DM in its reader's language (the server's for a player never seen)
        for user_id in d.dm_user_ids:
            if lost.is_set():
                raise ClaimLost
            locale = d.locale_for(user_id)
            if locale not in texts:
                texts[locale] = delivery_text(dataclasses.replace(d, locale=locale))
            problems.extend(await self._dm(d, user_id, texts[locale]))
        if d.channel_id is not None:
            files = await self._image(d)
            if lost.is_set():
                raise ClaimLost
            channel = self.bot.get_partial_messageable(d.channel_id, guild_id=d.guild_id)
            try:
                await channel.send(
                    text[:2000],
                    files=files or discord.utils.MISSING,
                    allowed_mentions=discord.AllowedMentions.none(),
                    nonce=channel_nonce(d.reminder_id),
                )
            except discord.Forbidden:
                problems.append("channel:forbidden")
            except discord.HTTPException as exc:
                problems.append(f"channel:http {exc.status}")
        else:
            problems.append("no_channel")
        return problems

    async def _dm(self, d: Delivery, user_id: int, text: str) -> list[str]:
        try:
            data = await self.bot.http.start_private_message(user_id)  # Discord's one DM channel with the player
            dm = self.bot.get_partial_messageable(int(data["id"]))
            await dm.send(
                text[:2000], allowed_mentions=discord.AllowedMentions.none(), nonce=dm_nonce(d.reminder_id, user_id)
            )
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
        if d.kind != ReminderKind.ANNOUNCEMENT or d.image is None or d.tournament_name is None:
            return []
        reader = Actor(guild_id=d.guild_id, user_id=0, locale=d.locale)  # reads what any player may read
        try:
            if d.image == "tables":
                view = await self.services.rounds.show(reader, tournament=d.tournament_name)
                pages = await table_pages(view, d.locale, now=self.services.clock())
                return [discord.File(io.BytesIO(p), filename=f"tavoli-{view.number}-{i}.png")
                        for i, p in enumerate(pages[:MAX_PAGES], 1)]  # fmt: skip
            if d.image == "standings":  # the final classification once the final phase is played (the prize-giving)
                from bot.present.standings import classification_image, standings_image

                date = self.services.clock().date().isoformat()
                final = await self.services.classification.show(d.guild_id, d.tournament_name)
                if final is not None and final.complete:
                    drawn = await classification_image(final, date=date, locale=d.locale)
                    return [discord.File(io.BytesIO(p), filename=f"classification-{i}.png")
                            for i, p in enumerate(drawn, 1)][:4]  # fmt: skip
                standings = await self.services.standings.compute(d.guild_id, d.tournament_name)
                image = await standings_image(standings, date=date, locale=d.locale)
                return [
                    discord.File(io.BytesIO(p), filename=f"standings-{i}.png") for i, p in enumerate(image.pages, 1)
                ][:4]
        except Exception as exc:  # no image is better than no announcement
            log.warning("announcement %s: no %s image (%s)", d.reminder_id, d.image, exc)
        return []
