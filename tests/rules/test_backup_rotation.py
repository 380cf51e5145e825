"""The scheduled backups' names, times and rotation (bot.rules.backups): pure functions, checked with hypothesis."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.backups import (
    BackupTimeError,
    backup_name,
    backups_to_keep,
    backups_to_remove,
    last_backup_slot,
    next_backup_at,
    our_backups,
    parse_backup_name,
    parse_backup_time,
)

ROME = ZoneInfo("Europe/Rome")
START = datetime(2024, 1, 1, tzinfo=UTC)

instants = st.integers(min_value=0, max_value=3 * 365 * 24 * 3600).map(lambda s: START + timedelta(seconds=s))
ours = st.builds(lambda at, pg: backup_name(at, postgres=pg), instants, st.booleans())
foreign = st.one_of(
    st.sampled_from(
        [
            "steward.db",
            "steward-2026-11-26.db",
            "steward.db.rev0005.bak",
            "notes.txt",
            ".steward-backup.lock",
            "steward-backup-20261126T033000Z.db.partial",
            "steward-backup-20261126T033000Z.sqlite",
            "steward-backup-20261399T033000Z.db",
            "xsteward-backup-20261126T033000Z.db",
            "steward-backup-latest.db",
        ]
    ),
    st.text(min_size=1, max_size=30),
)
folders = st.lists(st.one_of(ours, foreign), max_size=60, unique=True)
keep_days = st.integers(min_value=1, max_value=10)
keep_weeks = st.integers(min_value=0, max_value=8)


def test_a_name_carries_its_utc_instant_and_reads_back() -> None:
    at = datetime(2026, 11, 26, 4, 30, 5, tzinfo=ROME)
    name = backup_name(at, postgres=False)
    assert name == "steward-backup-20261126T033005Z.db"
    parsed = parse_backup_name(name)
    assert parsed is not None and parsed.taken_at == at
    assert backup_name(at, postgres=True).endswith(".pgdump")
    with pytest.raises(ValueError):
        backup_name(datetime(2026, 1, 1), postgres=False)  # a naive instant is refused


@pytest.mark.parametrize(
    "name",
    ["steward-2026-11-26.db", "steward-backup-20261126T033000Z.db.partial", "steward-backup-20261340T033000Z.db",
     "steward-backup-20261126T033000Z.db-wal", "a/steward-backup-20261126T033000Z.db", ".steward-backup.lock"],
)  # fmt: skip
def test_other_names_are_not_ours(name: str) -> None:
    assert parse_backup_name(name) is None


def test_backup_time_is_hh_mm() -> None:
    assert parse_backup_time("04:30") == time(4, 30)
    assert parse_backup_time("4:05") == time(4, 5)
    for bad in ("24:00", "4", "04:60", "quattro", "", "04:30:00"):
        with pytest.raises(BackupTimeError):
            parse_backup_time(bad)


def test_the_next_backup_is_the_wall_clock_time_of_the_zone() -> None:
    at = time(4, 30)
    winter = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    assert next_backup_at(winter, at, ROME) == datetime(2026, 1, 11, 3, 30, tzinfo=UTC)
    summer = datetime(2026, 7, 10, 1, 0, tzinfo=UTC)  # 03:00 in Rome: today's is still ahead
    assert next_backup_at(summer, at, ROME) == datetime(2026, 7, 10, 2, 30, tzinfo=UTC)
    exactly = datetime(2026, 7, 10, 2, 30, tzinfo=UTC)  # strictly after: the one just due is not next
    assert next_backup_at(exactly, at, ROME) == datetime(2026, 7, 11, 2, 30, tzinfo=UTC)
    assert last_backup_slot(exactly, at, ROME) == exactly
    assert last_backup_slot(exactly - timedelta(seconds=1), at, ROME) == datetime(2026, 7, 9, 2, 30, tzinfo=UTC)


def test_the_clocks_changing_neither_skips_nor_doubles_a_day() -> None:
    gap = time(2, 30)  # 29 March 2026: Rome's clocks jump from 02:00 to 03:00
    due = next_backup_at(datetime(2026, 3, 28, 12, 0, tzinfo=UTC), gap, ROME)
    assert due == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)  # 03:00 summer time, the first minute after the gap
    fold = time(2, 30)  # 25 October 2026: 02:30 happens twice; the first one
    due = next_backup_at(datetime(2026, 10, 24, 12, 0, tzinfo=UTC), fold, ROME)
    assert due == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert next_backup_at(due, fold, ROME) == datetime(2026, 10, 26, 1, 30, tzinfo=UTC)


@given(st.integers(min_value=0, max_value=400 * 24 * 60), st.sampled_from(["Europe/Rome", "UTC", "America/New_York"]),
       st.integers(0, 23), st.integers(0, 59))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_one_backup_a_day(minutes: int, zone: str, hour: int, minute: int) -> None:
    tz, at = ZoneInfo(zone), time(hour, minute)
    now = START + timedelta(minutes=minutes)
    due = next_backup_at(now, at, tz)
    assert now < due <= now + timedelta(hours=25)
    assert last_backup_slot(due, at, tz) == due
    following = next_backup_at(due, at, tz)
    assert timedelta(hours=22) <= following - due <= timedelta(hours=26)
    assert following.astimezone(tz).date() == due.astimezone(tz).date() + timedelta(days=1)


def test_rotation_keeps_days_then_weeks() -> None:
    # a backup every day at 03:30 UTC for 60 days, up to Thursday 26 November 2026
    last = datetime(2026, 11, 26, 3, 30, tzinfo=UTC)
    names = [backup_name(last - timedelta(days=d), postgres=False) for d in range(60)]
    kept = backups_to_keep(names, keep_days=7, keep_weeks=4)
    days = sorted((parse_backup_name(n).taken_at.date() for n in kept), reverse=True)  # type: ignore[union-attr]
    expected_daily = [(last - timedelta(days=d)).date() for d in range(7)]  # 26 Nov back to Fri 20 Nov
    assert days[:7] == expected_daily
    # beyond them: Thu 19 Nov (the newest of its week, whose Fri–Sun are daily), then the Sundays before
    assert [d.isoformat() for d in days[7:]] == ["2026-11-19", "2026-11-15", "2026-11-08", "2026-11-01"]
    removed = backups_to_remove([*names, "steward.db", "steward-2026-11-26.db"], keep_days=7, keep_weeks=4)
    assert len(removed) == 60 - 11 and "steward.db" not in removed and "steward-2026-11-26.db" not in removed


def test_several_backups_a_day_count_as_one_day() -> None:
    day = datetime(2026, 11, 26, tzinfo=UTC)
    names = [backup_name(day + timedelta(hours=h), postgres=False) for h in (1, 5, 9)]
    names += [backup_name(day - timedelta(days=1, hours=-h), postgres=False) for h in (1, 5)]
    kept = backups_to_keep(names, keep_days=2, keep_weeks=0)
    assert kept == {names[2], names[4]}


@given(folders, keep_days, keep_weeks)
@settings(max_examples=400, deadline=None)
def test_rotation_properties(names: list[str], days: int, weeks: int) -> None:
    mine = our_backups(names)
    kept = backups_to_keep(names, keep_days=days, keep_weeks=weeks)
    removed = backups_to_remove(names, keep_days=days, keep_weeks=weeks)
    assert len(kept) <= days + weeks
    if mine:
        assert mine[0].name in kept  # the newest is always kept
    assert all(parse_backup_name(n) is not None for n in removed)  # only ours, ever
    assert set(removed) | kept == {b.name for b in mine} and not set(removed) & kept
    left = [n for n in names if n not in removed]
    assert backups_to_remove(left, keep_days=days, keep_weeks=weeks) == []  # idempotent
    assert backups_to_keep(left, keep_days=days, keep_weeks=weeks) == kept


@given(folders, keep_days, keep_weeks, st.data())
@settings(max_examples=200, deadline=None)
def test_the_file_just_written_is_never_removed(names: list[str], days: int, weeks: int, data: st.DataObject) -> None:
    mine = [b.name for b in our_backups(names)]
    if not mine:
        return
    written = data.draw(st.sampled_from(mine))
    assert written not in backups_to_remove(names, keep_days=days, keep_weeks=weeks, protect={written})
