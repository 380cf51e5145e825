"""The scheduled backups' names, times and rotation (issue 43) — pure: file names and instants in, decisions out.

* A scheduled backup is named ``steward-backup-YYYYMMDDTHHMMSSZ.db`` (SQLite) or ``….pgdump`` (PostgreSQL): the
  UTC instant it was taken. :func:`parse_backup_name` reads it back; any other name (a ``steward db backup`` file
  named by hand, an upgrade's ``.bak``, a ``.partial`` copy being written, a file of the user's) is *not ours* and
  is never chosen for removal.
* :func:`next_backup_at` is the next instant the daily backup falls due: ``HH:MM`` on the wall clock of a zone
  (the bot's default zone). On the night the clocks go forward a time in the gap is taken at the first minute
  after it; on the night they go back a time that happens twice is taken the first time.
* :func:`backups_to_keep` / :func:`backups_to_remove` are the rotation: the newest backup of each of the newest
  ``keep_days`` days that have one (UTC days), and, on the days older than those, the newest backup of each of the
  newest ``keep_weeks`` ISO weeks that have one. So at most ``keep_days + keep_weeks`` files are kept, the newest
  always among them, and a second rotation of what is left removes nothing more.

Nothing here reads the clock or the disk: ``now`` and the names are passed in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

PREFIX = "steward-backup-"
SUFFIXES = (".db", ".pgdump")
NAME_PATTERN = re.compile(r"steward-backup-(\d{8}T\d{6}Z)(\.db|\.pgdump)")
_STAMP = "%Y%m%dT%H%M%SZ"


class BackupTimeError(ValueError):
    """``BACKUP_TIME`` is not a wall-clock time ``HH:MM``."""


@dataclass(frozen=True, slots=True, order=True)
class BackupFile:
    """One of our scheduled backups: its instant (aware UTC) and its file name. Ordered by instant, then name."""

    taken_at: datetime
    name: str


def backup_name(taken_at: datetime, *, postgres: bool) -> str:
    """The file name of a backup taken at ``taken_at`` (aware; written in UTC, to the second)."""
    if taken_at.tzinfo is None:
        raise ValueError("taken_at must be aware")
    stamp = taken_at.astimezone(UTC).strftime(_STAMP)
    return f"{PREFIX}{stamp}{'.pgdump' if postgres else '.db'}"


def parse_backup_name(name: str) -> BackupFile | None:
    """The backup a file name stands for, or None when the name is not one of ours (exactly our pattern)."""
    found = NAME_PATTERN.fullmatch(name)
    if found is None:
        return None
    try:
        taken_at = datetime.strptime(found.group(1), _STAMP).replace(tzinfo=UTC)
    except ValueError:  # 20261331T…: the shape of ours, not a real instant
        return None
    return BackupFile(taken_at=taken_at, name=name)


def our_backups(names: Iterable[str]) -> list[BackupFile]:
    """Our backups among ``names``, newest first (the others left out)."""
    found = {b.name: b for n in names if (b := parse_backup_name(n)) is not None}
    return sorted(found.values(), reverse=True)


def parse_backup_time(text: str) -> time:
    """``"04:30"`` → 04:30; refuses anything but ``H:MM``/``HH:MM`` within the day."""
    found = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", text or "")
    if found is None or int(found.group(1)) > 23 or int(found.group(2)) > 59:
        raise BackupTimeError(f"BACKUP_TIME must be HH:MM (00:00 to 23:59), not {text!r}")
    return time(int(found.group(1)), int(found.group(2)))


def _at(day: date, at: time, tz: ZoneInfo) -> datetime:
    """``at`` on ``day`` in ``tz`` as aware UTC: the first of two readings in the autumn fold; in the spring gap,
    the instant the clocks jump to (02:30 that does not exist → 03:00 summer time, one minute after 01:59)."""
    local = datetime.combine(day, at).replace(tzinfo=tz, fold=0)
    instant = local.astimezone(UTC)
    if instant.astimezone(tz).replace(tzinfo=None) != local.replace(tzinfo=None):  # in the gap
        later = datetime.combine(day, at).replace(tzinfo=tz, fold=1).astimezone(UTC)
        earlier = instant
        # the jump happens between the two readings: the first instant whose wall clock is past ``at``
        instant = min(earlier, later)
        while instant.astimezone(tz).replace(tzinfo=None) < local.replace(tzinfo=None):
            instant += timedelta(minutes=1)
    return instant


def next_backup_at(now: datetime, at: time, tz: ZoneInfo) -> datetime:
    """The first instant strictly after ``now`` (aware) that is ``at`` on the wall clock of ``tz``, in UTC."""
    if now.tzinfo is None:
        raise ValueError("now must be aware")
    today = now.astimezone(tz).date()
    for offset in range(0, 3):
        due = _at(today + timedelta(days=offset), at, tz)
        if due > now:
            return due
    raise AssertionError("unreachable: a wall-clock time comes back within two days")  # pragma: no cover


def last_backup_slot(now: datetime, at: time, tz: ZoneInfo) -> datetime:
    """The latest instant at or before ``now`` that is ``at`` on the wall clock of ``tz`` (the slot ``now`` is in)."""
    if now.tzinfo is None:
        raise ValueError("now must be aware")
    today = now.astimezone(tz).date()
    for offset in range(0, 3):
        due = _at(today - timedelta(days=offset), at, tz)
        if due <= now:
            return due
    raise AssertionError("unreachable: a wall-clock time comes back within two days")  # pragma: no cover


def backups_to_keep(names: Iterable[str], *, keep_days: int, keep_weeks: int) -> set[str]:
    """The names of our backups the rotation keeps (see the module's docstring). ``keep_days`` ≥ 1."""
    if keep_days < 1 or keep_weeks < 0:
        raise ValueError("keep_days must be at least 1 and keep_weeks at least 0")
    files = our_backups(names)  # newest first
    kept: list[BackupFile] = []
    days: list[date] = []
    for f in files:
        day = f.taken_at.date()
        if day in days:
            continue
        if len(days) == keep_days:
            break
        days.append(day)
        kept.append(f)
    if not days:
        return set()
    oldest_day = days[-1]
    weeks: list[tuple[int, int]] = []
    for f in files:
        if f.taken_at.date() >= oldest_day:
            continue
        year, week, _ = f.taken_at.date().isocalendar()
        if (year, week) in weeks:
            continue
        if len(weeks) == keep_weeks:
            break
        weeks.append((year, week))
        kept.append(f)
    return {f.name for f in kept}


def backups_to_remove(
    names: Iterable[str], *, keep_days: int, keep_weeks: int, protect: Iterable[str] = ()
) -> list[str]:
    """The names of our backups the rotation removes, oldest first; never one of ``protect`` (the file just
    written), never a name that is not ours."""
    listed = list(names)
    keep = backups_to_keep(listed, keep_days=keep_days, keep_weeks=keep_weeks) | set(protect)
    return [f.name for f in reversed(our_backups(listed)) if f.name not in keep]
