"""The daily backup the bot takes by itself (issue 43), and the time of the last one.

:class:`ScheduledBackups` is what the bot's scheduler (``bot.scheduling``) runs once a day at ``BACKUP_TIME``:

1. it takes the backup folder's lock (``flock`` on ``.steward-backup.lock`` in ``BACKUP_DIR``) and, on PostgreSQL,
   the advisory lock :data:`bot.db.backup.SCHEDULED_BACKUP_LOCK_KEY` for as long as it works; a process that finds
   either taken leaves the day's backup to the process holding it;
2. it skips the day when the folder already holds a backup taken since the day's backup time (another process
   sharing the folder took it);
3. it writes ``steward-backup-<UTC time>.db`` (or ``.pgdump``) with the function ``steward db backup`` uses
   (:func:`bot.db.backup.backup_database`), off the event loop;
4. it rotates the folder (:func:`bot.rules.backups.backups_to_remove`): only files named as its own backups are
   ever removed, never the one just written.

A failure (a full disk, ``pg_dump`` missing, a folder that cannot be made) is logged as one error line and the bot
runs on; the next day's backup is tried as usual. The clock is the services' clock, so tests drive it.

The wall clock of ``BACKUP_TIME`` is the bot's default time zone (:data:`bot.rules.schedule.DEFAULT_TIMEZONE`,
Europe/Rome, the zone of every server before ``/setup timezone``): one process serves many servers, so the backup
follows no single server's zone.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, time
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.backup import BackupError, backup_database, is_disk_full, scheduled_backup_lock, sqlite_file
from bot.db.models import utcnow
from bot.rules.backups import (
    backup_name,
    backups_to_remove,
    last_backup_slot,
    next_backup_at,
    our_backups,
    parse_backup_time,
)
from bot.rules.schedule import DEFAULT_TIMEZONE
from bot.settings import Settings

log = logging.getLogger(__name__)

LOCK_NAME = ".steward-backup.lock"  # in BACKUP_DIR: the processes sharing the folder take turns on it


@dataclass(frozen=True, slots=True)
class BackupPlan:
    """The daily backup's settings, read once: the folder, the wall-clock time and its zone, what rotation keeps."""

    folder: Path
    at: time
    zone: ZoneInfo
    keep_days: int
    keep_weeks: int
    database_url: str

    @classmethod
    def from_settings(cls, settings: Settings) -> BackupPlan | None:
        """The plan ``BACKUP_*`` describe; None when ``BACKUP_DIR`` is unset (no scheduled backup). A malformed
        ``BACKUP_TIME`` raises :class:`bot.rules.backups.BackupTimeError` (one line)."""
        if not settings.backup_dir:
            return None
        return cls(
            folder=Path(settings.backup_dir).expanduser(),
            at=parse_backup_time(settings.backup_time),
            zone=ZoneInfo(DEFAULT_TIMEZONE),
            keep_days=settings.backup_keep_days,
            keep_weeks=settings.backup_keep_weeks,
            database_url=settings.database_url,
        )

    @property
    def postgres(self) -> bool:
        return sqlite_file(self.database_url) is None


@dataclass(frozen=True, slots=True)
class BackupRun:
    """What one scheduled run did: ``written`` (``path``), ``skipped`` (``reason``: another process has it, or the
    day's backup is there already) or ``failed`` (``reason``: the one line logged)."""

    status: Literal["written", "skipped", "failed"]
    path: Path | None = None
    removed: list[Path] = field(default_factory=list)
    reason: str | None = None


def newest_backup(folder: Path) -> datetime | None:
    """The instant of the newest scheduled backup in ``folder`` (from its name), None when there is none."""
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    found = our_backups(names)
    return found[0].taken_at if found else None


def last_backup_time(settings: Settings) -> datetime | None:
    """The time (aware UTC) of the newest scheduled backup in ``BACKUP_DIR``; None when unset or none is there yet.
    Reads a folder listing (a blocking call, quick): from the event loop, through ``asyncio.to_thread``."""
    if not settings.backup_dir:
        return None
    return newest_backup(Path(settings.backup_dir).expanduser())


def last_backup_provider(settings: Settings) -> Callable[[], Awaitable[datetime | None]]:
    """:func:`last_backup_time` as the ``/readyz`` probe's ``last_backup`` provider: the folder read off the loop."""

    async def provider() -> datetime | None:
        return await asyncio.to_thread(last_backup_time, settings)

    return provider


@dataclass(frozen=True, slots=True)
class BackupStatus:
    """For ``/setup``: whether a daily backup is scheduled, the newest one's time and the next one's."""

    enabled: bool
    last: datetime | None = None
    next: datetime | None = None


def backup_status(settings: Settings, now: datetime) -> BackupStatus:
    """The scheduled backup's state (a folder listing: from the event loop, through ``asyncio.to_thread``); a
    malformed ``BACKUP_TIME`` reads as no scheduled backup, as the bot then takes none."""
    try:
        plan = BackupPlan.from_settings(settings)
    except ValueError:
        return BackupStatus(enabled=False)
    if plan is None:
        return BackupStatus(enabled=False)
    return BackupStatus(True, newest_backup(plan.folder), next_backup_at(now, plan.at, plan.zone))


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[bool]:
    """``flock`` on the folder's lock file without waiting: True when this process has it until the block ends."""
    fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


class ScheduledBackups:
    """The daily backup of one bot process. :meth:`next_run` says when; :meth:`run_once` takes one and rotates."""

    def __init__(
        self,
        plan: BackupPlan,
        sessionmaker: async_sessionmaker[AsyncSession],
        *,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.plan = plan
        self.sessionmaker = sessionmaker
        self.clock = clock

    def next_run(self, now: datetime | None = None) -> datetime:
        """The next instant the backup falls due, after ``now`` (the clock's time by default)."""
        return next_backup_at(now or self.clock(), self.plan.at, self.plan.zone)

    async def missed(self, now: datetime | None = None) -> bool:
        """Whether the last backup time went by with no backup since (the bot was off then): start-up takes it."""
        now = now or self.clock()
        slot = last_backup_slot(now, self.plan.at, self.plan.zone)
        newest = await asyncio.to_thread(newest_backup, self.plan.folder)
        return newest is None or newest < slot

    async def run_once(self) -> BackupRun:
        """One scheduled backup, then the rotation. Never raises for a backup that cannot be taken: logs one line
        and says so in the result (the bot runs on; tomorrow's is tried as usual)."""
        try:
            return await self._run()
        except BackupError as exc:
            reason = str(exc)
        except OSError as exc:
            reason = (f"no room in {self.plan.folder}: {exc}" if is_disk_full(exc, self.plan.folder)
                      else f"cannot write in {self.plan.folder}: {exc}")  # fmt: skip
        except Exception as exc:  # the database away, a driver error: the bot runs on
            log.exception("scheduled backup failed")
            return BackupRun("failed", reason=str(exc))
        log.error("scheduled backup failed: %s (next try at %s)", reason, self.next_run().isoformat())
        return BackupRun("failed", reason=reason)

    async def _run(self) -> BackupRun:
        plan = self.plan
        now = self.clock()
        slot = last_backup_slot(now, plan.at, plan.zone)
        await asyncio.to_thread(plan.folder.mkdir, parents=True, exist_ok=True)
        with _folder_lock(plan.folder) as ours:
            if not ours:
                return self._skip("another process is taking it (the backup folder is locked)")
            async with scheduled_backup_lock(self.sessionmaker) as held:
                if not held:
                    return self._skip("another bot process is taking it (advisory lock)")
                newest = await asyncio.to_thread(newest_backup, plan.folder)
                if newest is not None and newest >= slot:
                    return self._skip(f"the backup of {slot.isoformat()} is there already ({newest.isoformat()})")
                target = plan.folder / backup_name(now, postgres=plan.postgres)
                if target.exists():
                    return self._skip(f"{target} is there already")
                done = await asyncio.to_thread(backup_database, plan.database_url, target)
            detail = f" at revision {done.revision} ({done.tables} tables, {done.rows} rows)" if done.revision else ""
            log.info("scheduled backup written to %s%s", done.path, detail)
            removed = await asyncio.to_thread(self._rotate, target.name)
        return BackupRun("written", path=target, removed=removed)

    def _skip(self, reason: str) -> BackupRun:
        log.info("scheduled backup skipped: %s", reason)
        return BackupRun("skipped", reason=reason)

    def _rotate(self, written: str) -> list[Path]:
        """Remove the backups the rotation drops (each logged); never the one just written, nothing not ours."""
        plan = self.plan
        doomed = backups_to_remove(
            os.listdir(plan.folder), keep_days=plan.keep_days, keep_weeks=plan.keep_weeks, protect={written}
        )
        removed: list[Path] = []
        for name in doomed:
            path = plan.folder / name
            try:
                path.unlink()
            except FileNotFoundError:  # another process rotated it first
                continue
            except OSError as exc:
                log.warning("old backup %s not removed: %s", path, exc)
                continue
            log.info("old backup removed: %s", path)
            removed.append(path)
        return removed
