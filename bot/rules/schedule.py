"""Wall-clock times and reminders (BOT-SCH-1): what an organizer types, in the server's time zone, as an instant.

* :func:`wall_clock_to_utc` turns a wall-clock time of a zone into aware UTC. A time that does not exist (the
  spring-forward gap: 02:30 on the last Sunday of March in Europe/Rome) or happens twice (the autumn fold) is
  refused with a :class:`ScheduleError` carrying the two nearest unambiguous readings, so the message can say
  "02:30 does not exist that night; 01:30 or 03:30?" instead of silently moving a round by an hour.
* :func:`reminder_plan` gives the due instants of a round's reminders from the tournament's offsets; the ones
  already past when the round is scheduled are left out (they were never due while the bot was running).
* :func:`parse_offsets` reads "24h, 1h, 10m" into minutes.

Nothing here reads the time: ``now`` is always passed in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.rules.errors import RuleError

DEFAULT_TIMEZONE = "Europe/Rome"
DEFAULT_REMINDER_OFFSETS = (1440, 60, 10)  # our default: 24 h, 1 h, 10 min before the start (BOT-SCH-1)
MAX_OFFSET_MINUTES = 14 * 24 * 60  # two weeks: further ahead a reminder reminds nobody
MAX_OFFSETS = 6
CHECK_IN_LIST_OFFSET = 10  # the reminder at (or under) this many minutes lists who has not checked in
MAX_AHEAD = timedelta(days=730)  # a schedule two years ahead is a typo


class ScheduleError(RuleError):
    """A time or an offset that cannot be scheduled. ``code`` is stable, ``value`` quotes the input."""


class DstRefusal(ScheduleError):
    """``code``: ``time_nonexistent`` (skipped by the clocks going forward) or ``time_ambiguous`` (happens twice).

    ``before`` and ``after`` are the two nearest unambiguous instants (aware UTC) a user may pick instead."""

    def __init__(self, code: str, value: datetime, before: datetime, after: datetime, zone_name: str) -> None:
        super().__init__(code, value)
        self.before = before
        self.after = after
        self.zone_name = zone_name


def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name`` (``Europe/Rome``); refuses names the system does not know."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_+\-/]{1,64}", name) or ".." in name:
        raise ScheduleError("timezone_unknown", name)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ScheduleError("timezone_unknown", name) from None


def wall_clock_to_utc(local: datetime, tz_name: str) -> datetime:
    """The instant a naive wall-clock ``local`` means in zone ``tz_name`` (DST-safe: gaps and folds refused)."""
    if local.tzinfo is not None:
        return local.astimezone(UTC)
    tz = zone(tz_name)
    first = local.replace(tzinfo=tz, fold=0)
    second = local.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        return first.astimezone(UTC)
    exists = first.astimezone(UTC).astimezone(tz).replace(tzinfo=None) == local
    if not exists:  # the gap: fold=0 reads it with the offset before the jump, fold=1 with the one after
        gap = abs((first.utcoffset() or timedelta()) - (second.utcoffset() or timedelta()))
        before = (local - gap).replace(tzinfo=tz).astimezone(UTC)
        after = (local + gap).replace(tzinfo=tz).astimezone(UTC)
        raise DstRefusal("time_nonexistent", local, before, after, tz.key)
    raise DstRefusal("time_ambiguous", local, first.astimezone(UTC), second.astimezone(UTC), tz.key)


def check_future(when: datetime, now: datetime) -> datetime:
    """A start or a post time must be ahead of ``now`` and within two years."""
    if when <= now:
        raise ScheduleError("time_in_past", when)
    if when - now > MAX_AHEAD:
        raise ScheduleError("time_too_far", when)
    return when


def parse_offsets(text: str) -> tuple[int, ...]:
    """Reminder offsets as typed, "24h, 1h, 10m" (also "1d", "90", "1h30m") → minutes, largest first, without
    repeats."""
    if not isinstance(text, str) or not text.strip():
        raise ScheduleError("offsets_empty", text)
    out: set[int] = set()
    for part in re.split(r"[,;\s]+", text.strip().lower()):
        if not part:
            continue
        m = re.fullmatch(r"(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,5})m?)?", part)
        if m is None or not any(m.groups()):
            raise ScheduleError("offset_invalid", part[:20])
        days, hours, minutes = (int(g) if g else 0 for g in m.groups())
        out.add(days * 1440 + hours * 60 + minutes)
    return check_offsets(tuple(out))


def check_offsets(offsets: tuple[int, ...]) -> tuple[int, ...]:
    """Offsets in minutes before the start: 1 … two weeks, at most six, largest first."""
    if not offsets:
        raise ScheduleError("offsets_empty", offsets)
    if len(set(offsets)) > MAX_OFFSETS:
        raise ScheduleError("offsets_too_many", len(set(offsets)))
    for o in offsets:
        if o < 1 or o > MAX_OFFSET_MINUTES:
            raise ScheduleError("offset_out_of_range", o)
    return tuple(sorted(set(offsets), reverse=True))


@dataclass(frozen=True, slots=True)
class PlannedReminder:
    """One reminder of a round: its offset before the start in minutes and its due instant; the last one (10 minutes
    or less) lists who has not checked in."""

    offset_minutes: int
    due_at: datetime
    lists_missing_check_ins: bool  # the last one (≤ 10 minutes) names who has not checked in


def reminder_plan(start: datetime, offsets: tuple[int, ...], now: datetime) -> tuple[PlannedReminder, ...]:
    """The reminders of a round starting at ``start``: one per offset still ahead of ``now``, earliest first."""
    plan = [
        PlannedReminder(o, start - timedelta(minutes=o), o <= CHECK_IN_LIST_OFFSET)
        for o in check_offsets(offsets)
        if start - timedelta(minutes=o) > now
    ]
    return tuple(sorted(plan, key=lambda p: p.due_at))
