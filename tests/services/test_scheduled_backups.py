"""The daily backup the bot takes by itself (issue 43), on a real SQLite file holding the migration ladder's club:
the runner plans it, one iteration writes it off the event loop with ``steward db backup``'s function, the folder
is rotated (only our own files, never the new one), a restore from it brings back every row, and a failure or a
second process changes nothing and stops nothing."""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.app import scheduled_backups
from bot.db import backup as db_backup
from bot.db.migrate import revisions
from bot.db.session import make_engine, make_sessionmaker
from bot.rules.backups import backup_name, parse_backup_name
from bot.scheduling import Runner
from bot.services import Services
from bot.services import backups as service
from bot.services.backups import LOCK_NAME, ScheduledBackups, backup_status, last_backup_time
from bot.settings import Settings
from tests.conftest import FakeClock
from tests.db import ladder_data

# Thursday 26 November 2026, 04:30 in Rome (winter time): the default BACKUP_TIME
DUE = datetime(2026, 11, 26, 3, 30, tzinfo=UTC)
FOREIGN = ["steward-2026-11-20.db", "notes.txt", "steward-backup-20261101T033000Z.db.partial"]


@pytest.fixture
def club(tmp_path: Path, migrated_sqlite_template: Path) -> Path:
    """A migrated SQLite file holding the migration ladder's club (every table has rows)."""
    path = tmp_path / "steward.db"
    path.write_bytes(migrated_sqlite_template.read_bytes())
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        meta = sa.MetaData()
        meta.reflect(conn)
        for n, (name, row) in enumerate(ladder_data.rows()):
            table = meta.tables.get(name)
            if table is not None:
                conn.execute(table.insert().values(ladder_data.fill(table, row, n, "sqlite")))
    engine.dispose()
    return path


def _settings(path: Path, folder: Path | None, **extra: Any) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{path}",
        backup_dir=str(folder) if folder is not None else None,
        **extra,
    )


def _counts(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                            "AND name NOT LIKE 'sqlite_%' ORDER BY name")]  # fmt: skip
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


def _dump(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


class Host:
    """What the runner needs of the bot, for a run that sends nothing."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.http: Any = None

    def get_partial_messageable(self, id: int, **_: Any) -> Any:  # pragma: no cover - nothing is sent here
        raise AssertionError("nothing is sent by a backup")


def _older(folder: Path) -> list[str]:
    """A backup every day at 04:30 Rome for the 40 days before DUE, plus two on one day, and files not ours."""
    folder.mkdir()
    names = [backup_name(DUE - timedelta(days=d), postgres=False) for d in range(1, 41)]
    names.append(backup_name(DUE - timedelta(days=2, hours=5), postgres=False))  # a second one on 24 November
    for name in [*names, *FOREIGN]:
        (folder / name).write_bytes(b"an older backup")
    return names


async def test_the_scheduled_backup_runs_rotates_and_a_restore_brings_back_every_row(
    club: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "backups"
    older = _older(folder)
    clock = FakeClock(DUE - timedelta(hours=2))  # the bot starts at 02:30 Rome; the last backup is a day old
    settings = _settings(club, folder, backup_keep_days=7, backup_keep_weeks=4)
    engine = make_engine(settings.database_url)
    services = Services(make_sessionmaker(engine), clock=clock)
    runner = Runner(Host(services))
    runner.backups = scheduled_backups(settings, services)
    assert runner.backups is not None
    threads: list[threading.Thread] = []
    real = db_backup.backup_database

    def spy(database_url: str, target: Path) -> db_backup.BackupResult:
        threads.append(threading.current_thread())
        return real(database_url, target)

    monkeypatch.setattr("bot.services.backups.backup_database", spy)
    before = _counts(club)
    assert all(before.values()), "the ladder's club has rows in every table"
    caplog.set_level(logging.INFO)
    try:
        await runner.start(paused=True)
        assert runner.scheduler is not None
        job = runner.scheduler.get_job("backup")
        assert job is not None and job.trigger.run_date == DUE  # yesterday's was taken: today's at 04:30
        clock.now = DUE
        done = await runner.run_backup()  # the job's one iteration, at 04:30 on the fake clock
        assert runner.scheduler.get_job("backup").trigger.run_date == DUE + timedelta(days=1)
    finally:
        await runner.stop()
        await engine.dispose()

    assert done is not None and done.status == "written" and done.path is not None
    assert done.path.name == "steward-backup-20261126T033000Z.db" and done.path.parent == folder
    assert threads and threads[0] is not threading.main_thread()  # off the event loop
    # rotation: the newest of each of 7 days (26 back to 20 Nov), then of each of 4 ISO weeks before them
    left = sorted(os.listdir(folder))
    ours = sorted((n for n in left if parse_backup_name(n)), reverse=True)
    days = [parse_backup_name(n).taken_at.date().isoformat() for n in ours]  # type: ignore[union-attr]
    assert days == ["2026-11-26", "2026-11-25", "2026-11-24", "2026-11-23", "2026-11-22", "2026-11-21",
                    "2026-11-20", "2026-11-19", "2026-11-15", "2026-11-08", "2026-11-01"]  # fmt: skip
    assert backup_name(DUE - timedelta(days=2), postgres=False) in ours  # 24 Nov: the later of its two
    assert all(name in left for name in FOREIGN) and LOCK_NAME in left  # nothing not ours is touched
    removed = {p.name for p in done.removed}
    assert removed == set(older) - set(ours)
    lines = [r for r in caplog.records if r.name == "bot.services.backups"]
    assert sum("scheduled backup written to" in r.getMessage() for r in lines) == 1
    assert sum("old backup removed" in r.getMessage() for r in lines) == len(removed) == 41 - 10
    assert last_backup_time(settings) == DUE
    assert await service.last_backup_provider(settings)() == DUE  # the /readyz probe's provider
    assert backup_status(settings, DUE) == service.BackupStatus(True, DUE, DUE + timedelta(days=1))

    # the database is damaged: every row of every table gone
    expected = _dump(club)
    conn = sqlite3.connect(club)
    conn.execute("PRAGMA foreign_keys = OFF")
    for table in before:
        if table != "alembic_version":
            conn.execute(f'DELETE FROM "{table}"')
    conn.commit()
    conn.close()
    assert sum(_counts(club).values()) == 1

    restored, kept = db_backup.restore_sqlite(done.path, club, known_revisions=revisions())
    assert _counts(club) == before  # every table's rows back
    assert _dump(club) == expected  # and every value
    assert restored.rows == sum(before.values()) and kept is not None and kept.exists()


async def test_a_second_process_or_a_second_run_takes_no_second_backup(club: Path, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    settings = _settings(club, folder)
    engine = make_engine(settings.database_url)
    clock = FakeClock(DUE)
    try:
        plan = service.BackupPlan.from_settings(settings)
        assert plan is not None
        one = ScheduledBackups(plan, make_sessionmaker(engine), clock=clock)
        other = ScheduledBackups(plan, make_sessionmaker(engine), clock=clock)
        folder.mkdir()
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT)
        try:  # another process holds the folder's lock: this one leaves the backup to it
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held = await one.run_once()
        finally:
            os.close(fd)
        assert held.status == "skipped" and "locked" in (held.reason or "")
        first = await one.run_once()
        clock.advance(minutes=1)  # a second process sharing the folder, a minute later
        second = await other.run_once()
        assert (first.status, second.status) == ("written", "skipped")
        assert "already" in (second.reason or "")
        clock.now = DUE + timedelta(days=1)  # the next day's is taken
        assert (await other.run_once()).status == "written"
    finally:
        await engine.dispose()
    assert sorted(n for n in os.listdir(folder) if parse_backup_name(n)) == [
        "steward-backup-20261126T033000Z.db", "steward-backup-20261127T033000Z.db"]  # fmt: skip


async def test_a_failed_backup_is_one_error_line_and_the_next_day_is_planned(
    club: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "backups"
    settings = _settings(club, folder)
    engine = make_engine(settings.database_url)
    clock = FakeClock(DUE)
    services = Services(make_sessionmaker(engine), clock=clock)
    runner = Runner(Host(services))
    runner.backups = scheduled_backups(settings, services)

    def full(database_url: str, target: Path) -> db_backup.BackupResult:
        raise db_backup.disk_full(f"write {target}", target.parent)

    monkeypatch.setattr("bot.services.backups.backup_database", full)
    caplog.set_level(logging.INFO)
    try:
        await runner.start(paused=True)
        assert runner.scheduler is not None  # no backup yet: the missed one a minute after start-up
        assert runner.scheduler.get_job("backup").trigger.run_date == DUE + timedelta(minutes=1)
        done = await runner.run_backup()
        assert runner.scheduler.get_job("backup").trigger.run_date == DUE + timedelta(days=1)
    finally:
        await runner.stop()
        await engine.dispose()
    assert done is not None and done.status == "failed" and "disk is full" in (done.reason or "")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "scheduled backup failed: database or disk is full" in errors[0].getMessage()
    assert errors[0].exc_info is None  # one line, no traceback
    assert [n for n in os.listdir(folder) if n != LOCK_NAME] == []  # nothing half-written


def test_no_backup_dir_no_scheduled_backup(club: Path) -> None:
    settings = _settings(club, None)
    services = Services(make_sessionmaker(make_engine(settings.database_url)))
    assert scheduled_backups(settings, services) is None
    assert last_backup_time(settings) is None
    assert backup_status(settings, DUE) == service.BackupStatus(False)


def test_a_malformed_backup_time_is_logged_and_the_bot_runs_without(
    club: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = _settings(club, tmp_path, backup_time="25:00")
    services = Services(make_sessionmaker(make_engine(settings.database_url)))
    assert scheduled_backups(settings, services) is None
    assert "BACKUP_TIME must be HH:MM" in caplog.text
    assert backup_status(settings, DUE).enabled is False


def test_the_scheduled_backup_of_postgres_is_steward_db_backups_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: the same function as ``steward db backup`` (``pg_dump`` to ``.partial``, renamed when done)."""
    url = "postgresql://steward:secret@db.example:5433/club"
    ran: list[tuple[list[str], dict[str, str]]] = []

    def run(command: list[str], env: dict[str, str], **_: Any) -> None:
        ran.append((command, env))
        Path(command[command.index("--file") + 1]).write_bytes(b"PGDMP")

    monkeypatch.setattr(db_backup, "_run", run)
    monkeypatch.setattr("bot.db.backup.shutil.which", lambda name: f"/usr/bin/{name}")
    target = tmp_path / backup_name(DUE, postgres=True)
    done = db_backup.backup_database(url, target)
    assert done.path == target and target.read_bytes() == b"PGDMP" and done.revision is None
    command, env = ran[0]
    assert command[0] == "/usr/bin/pg_dump" and "--format=custom" in command and command[-1] == "club"
    assert "secret" not in " ".join(command) and env["PGPASSWORD"] == "secret"
    assert service.BackupPlan.from_settings(
        Settings(_env_file=None, database_url=url, backup_dir=str(tmp_path))  # type: ignore[call-arg]
    ).postgres  # type: ignore[union-attr]
