"""Issue 40, findings 6 and 7: a restore across an upgrade, a restore under a running bot, a full disk before an
upgrade — each as it was found, on SQLite and (with ``TEST_POSTGRES_URL``) PostgreSQL.

* Finding 6a: on PostgreSQL, restoring a backup taken before an upgrade was refused (``pg_restore --clean`` could not
  drop tables a later migration's tables point at), with no way back through the tool. Now the backup comes back at
  its own revision, schema and rows exactly as they were, and ``steward db upgrade`` brings it forward.
* Finding 6b: restore did not check that the bot was stopped, and the running bot kept writing into the restored
  data. Now the bot holds a lock for its lifetime (SQLite: a flock on ``<db>.lock``; PostgreSQL: a shared advisory
  lock): a restore under a real running bot process is refused in one line naming the process, and changes nothing;
  a bot does not start while a restore holds the lock; a bot whose lock connection dropped while a restore took the
  database stops.
* Finding 7: a full disk before an upgrade printed a 20–25-line traceback and left ``….partial-journal`` (or
  ``-wal``/``-shm``) files. Now it is one line, exit 1, and no partial file is left.
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot import cli
from bot.db import backup
from bot.db.backup import DatabaseLock
from bot.db.migrate import revisions, upgrade_to_head
from bot.settings import get_settings, normalise_database_url
from tests.conftest import POSTGRES_URL
from tests.db.test_migration_ladder import _migrate_to, _run, _snapshot, _write

ROOT = Path(__file__).resolve().parents[2]
REVISIONS = revisions()
HEAD = REVISIONS[-1]
BEFORE_SEASONS = "0008"  # a revision before 0011, whose season tables point at tournament and sanction
needs_pg_tools = pytest.mark.skipif(
    any(shutil.which(t) is None for t in ("pg_dump", "pg_restore", "psql")), reason="needs PostgreSQL's client tools"
)


def _backends() -> list[Any]:
    pg = pytest.param("postgres", marks=needs_pg_tools)
    return ["sqlite", pg] if POSTGRES_URL else ["sqlite"]


def _admin(sql: str) -> None:
    assert POSTGRES_URL is not None

    async def go() -> None:
        engine = create_async_engine(normalise_database_url(POSTGRES_URL), isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text(sql))
        finally:
            await engine.dispose()

    asyncio.run(go())


@pytest.fixture(params=_backends())
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of this test's own: a new SQLite file, or a new PostgreSQL database on the test server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'steward.db'}"
        return
    assert POSTGRES_URL is not None
    base = make_url(normalise_database_url(POSTGRES_URL))
    name = f"{base.database}_restore_{os.getpid()}"
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _steward(args: list[str], url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        code = cli.main(args)
    finally:
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str, *says: str) -> None:
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    for words in says:
        assert words in err, err


def _revision(url: str) -> str | None:
    return asyncio.run(_run(url, lambda c: c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()))


def _tables(url: str) -> set[str]:
    return set(asyncio.run(_run(url, lambda c: sa.inspect(c).get_table_names())))


def _actions(url: str) -> list[str]:
    rows = asyncio.run(_run(url, lambda c: c.execute(sa.text("SELECT action FROM audit_log ORDER BY id")).all()))
    return [r[0] for r in rows]


def _audit(url: str, action: str) -> None:
    asyncio.run(_run(url, lambda c: c.execute(sa.text(
        "INSERT INTO audit_log (guild_id, action, entity, details, created_at) "
        "VALUES (1, :a, 'test', '{}', CURRENT_TIMESTAMP)"), {"a": action})))  # fmt: skip


def _backup_path(url: str, tmp_path: Path) -> Path:
    return tmp_path / ("backup.db" if url.startswith("sqlite") else "backup.pgdump")


def _kept(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob("*before-restore*"))


# ------------------------------------------------------------------------------------ finding 6: across an upgrade


def test_finding_6_a_backup_taken_before_an_upgrade_restores_identical_then_upgrades(
    empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The club's data at revision 0008, backed up; the upgrade to head, and a day of play on it; then the restore:
    the schema of 0008 and every row exactly as backed up (later tables gone), the tool saying it is at 0008 and
    how to bring it forward; then `steward db upgrade` reaches head with every row, and new rows get new ids."""
    url = empty_url
    _migrate_to(url, BEFORE_SEASONS)
    asyncio.run(_run(url, _write))
    backed_up, tables_then = asyncio.run(_run(url, _snapshot)), _tables(url)
    dump = _backup_path(url, tmp_path)
    code, _, err = _steward(["db", "backup", str(dump)], url, monkeypatch, capsys)
    assert code == 0, err

    code, _, err = _steward(["db", "upgrade"], url, monkeypatch, capsys)
    assert code == 0 and _revision(url) == HEAD, err
    _audit(url, "after the upgrade")
    assert _tables(url) > tables_then

    code, out, err = _steward(["db", "restore", str(dump)], url, monkeypatch, capsys)
    assert code == 0 and err == "", err
    assert f"the database is now at revision {BEFORE_SEASONS}; this version's newest is {HEAD}" in out
    assert "steward db upgrade" in out
    (kept,) = _kept(tmp_path)
    assert f"kept as {kept}" in out
    assert _revision(url) == BEFORE_SEASONS
    assert _tables(url) == tables_then
    assert asyncio.run(_run(url, _snapshot)) == backed_up

    code, out, err = _steward(["db", "upgrade"], url, monkeypatch, capsys)
    assert code == 0 and f"from revision {BEFORE_SEASONS} to {HEAD}" in out, err
    after = asyncio.run(_run(url, _snapshot))
    for table, rows in backed_up.items():
        assert {i: {k: after[table][i][k] for k in r} for i, r in rows.items()} == rows, table
    _audit(url, "a new row after the restore")  # the sequences came back with the rows (PostgreSQL)
    assert _actions(url)[-1] == "a new row after the restore"


@needs_pg_tools
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_POSTGRES_URL")
def test_finding_6_a_postgres_restore_refuses_what_it_cannot_restore_in_one_line_and_changes_nothing(
    empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = empty_url
    if url.startswith("sqlite"):
        pytest.skip("PostgreSQL's archives (SQLite's refusals: tests/db/test_backup.py)")
    upgrade_to_head(url)
    _audit(url, "kept")
    newer = tmp_path / "newer.pgdump"
    asyncio.run(_run(url, lambda c: c.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))))
    assert _steward(["db", "backup", str(newer)], url, monkeypatch, capsys)[0] == 0
    asyncio.run(_run(url, lambda c: c.execute(sa.text(f"UPDATE alembic_version SET version_num = '{HEAD}'"))))
    junk = tmp_path / "junk.pgdump"
    junk.write_bytes(b"not an archive" * 50)
    for path, says in [(newer, f"is at revision 9999, which this version does not know (its newest is {HEAD})"),
                       (junk, "is not a pg_dump archive"), (tmp_path / "missing", "does not exist")]:  # fmt: skip
        code, out, err = _steward(["db", "restore", str(path)], url, monkeypatch, capsys)
        assert (code, out) == (2, ""), err
        _one_line(err, says)
    assert _actions(url) == ["kept"] and _revision(url) == HEAD
    assert _kept(tmp_path) == []


@needs_pg_tools
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_POSTGRES_URL")
def test_finding_6_a_postgres_restore_cut_short_commits_nothing(
    empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The restore's drops and the archive's statements are one transaction, committed only after pg_restore ended
    well: a pg_restore that stops half-way through its script (here: cut after 20 kB, exit 1) leaves the database
    exactly as it was, later tables included, and no kept copy."""
    url = empty_url
    if url.startswith("sqlite"):
        pytest.skip("PostgreSQL's restore transaction")
    _migrate_to(url, BEFORE_SEASONS)
    asyncio.run(_run(url, _write))
    dump = tmp_path / "backup.pgdump"
    assert _steward(["db", "backup", str(dump)], url, monkeypatch, capsys)[0] == 0
    upgrade_to_head(url)
    before, tables = asyncio.run(_run(url, _snapshot)), _tables(url)
    real = shutil.which("pg_restore")
    cut = tmp_path / "pg_restore"
    cut.write_text(
        f'#!/bin/sh\ncase "$*" in *--clean*) "{real}" "$@" | head -c 20000; exit 1;; esac\nexec "{real}" "$@"\n'
    )
    cut.chmod(0o755)
    real_tool = backup._tool
    monkeypatch.setattr(backup, "_tool", lambda name: str(cut) if name == "pg_restore" else real_tool(name))
    code, out, err = _steward(["db", "restore", str(dump)], url, monkeypatch, capsys)
    assert (code, out) == (2, ""), err
    _one_line(err, "pg_restore failed, nothing was changed")
    assert _revision(url) == HEAD and _tables(url) == tables
    assert asyncio.run(_run(url, _snapshot)) == before
    assert _kept(tmp_path) == []


# ------------------------------------------------------------------------------------ finding 6: a running bot


class RunningBot:
    """`steward run` in a process of its own (tests/db/running_bot.py): the real start-up, lock included, then a
    row every 50 ms until stopped."""

    def __init__(self, url: str, folder: Path) -> None:
        self.stop_file = folder / "stop-the-bot"
        env = dict(os.environ, DATABASE_URL=url, STOP_FILE=str(self.stop_file), DISCORD_TOKEN="not-a-token",
                   PYTHONPATH=str(ROOT))  # fmt: skip
        self.process = subprocess.Popen([sys.executable, "-m", "tests.db.running_bot"], cwd=ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.strip() == "ready", self.process.stderr.read() if self.process.stderr else line

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> int:
        self.stop_file.touch()
        try:
            return self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def test_finding_6_restore_refuses_while_the_bot_runs(
    empty_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup, a row after it, then the bot started and writing: the restore is refused in one line that names
    the bot's process, and changes nothing (the row after the backup is still there, every row the bot wrote
    too, no copy kept). Once the bot has stopped, the same restore gives the backup back, exactly."""
    url = empty_url
    upgrade_to_head(url)
    _audit(url, "in the backup")
    dump = _backup_path(url, tmp_path)
    assert _steward(["db", "backup", str(dump)], url, monkeypatch, capsys)[0] == 0
    _audit(url, "after the backup")

    bot = RunningBot(url, tmp_path)
    try:
        before = _actions(url)
        code, out, err = _steward(["db", "restore", str(dump)], url, monkeypatch, capsys)
        assert (code, out) == (2, ""), err
        _one_line(err, "the bot is running on", f"process {bot.pid}", "stop it first, then restore",
                  "nothing was changed")  # fmt: skip
        time.sleep(0.2)  # the bot goes on writing into the same database, not into a restored one
        after = _actions(url)
        assert after[: len(before)] == before and len(after) > len(before)
        assert after[:2] == ["in the backup", "after the backup"] and set(after[2:]) == {"bot"}
        assert _kept(tmp_path) == []
    finally:
        assert bot.stop() == 0

    code, out, err = _steward(["db", "restore", str(dump)], url, monkeypatch, capsys)
    assert code == 0, err
    assert _actions(url) == ["in the backup"]


def test_finding_6_the_bot_does_not_start_while_a_restore_holds_the_database(empty_url: str, tmp_path: Path) -> None:
    """The other side of the lock: `steward run` during a restore stops before its start-up upgrade, in one line,
    exit 1 (try again later), having written nothing."""
    url = empty_url
    upgrade_to_head(url)
    env = dict(os.environ, DATABASE_URL=url, DISCORD_TOKEN="not-a-token", PYTHONPATH=str(ROOT))
    with DatabaseLock(url, exclusive=True, command="db restore"):
        result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=120)  # fmt: skip
    assert result.returncode == 1, result.stderr
    _one_line(result.stderr, "a restore of", "is in progress", f"process {os.getpid()}", "run the bot again")
    assert _actions(url) == []


@pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_POSTGRES_URL")
def test_finding_6_a_bot_whose_lock_connection_dropped_takes_it_again_or_stops_if_a_restore_took_it(
    empty_url: str,
) -> None:
    """PostgreSQL's lock is a session's: if the bot's lock connection drops (a server restart, a killed session), the
    bot takes the lock again at its next check, and a restore is refused again; if a restore took the lock in the
    meantime, the bot is told to stop (``on_lost``) instead of writing into restored data."""
    url = empty_url
    if url.startswith("sqlite"):
        pytest.skip("a flock is the process's own: it cannot drop while the process lives")
    upgrade_to_head(url)

    def kill_lock_sessions() -> None:
        _admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
               f"WHERE datname = '{make_url(url).database}' AND application_name LIKE 'steward run %'")  # fmt: skip

    def lock_sessions() -> set[int]:
        rows = asyncio.run(_run(url, lambda c: c.execute(sa.text(
            "SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
            "AND l.granted AND a.application_name LIKE 'steward run %'")).all()))  # fmt: skip
        return {r[0] for r in rows}

    lost: list[str] = []
    with DatabaseLock(url, command="run", heartbeat=1.0, on_lost=lost.append) as bot_lock:
        (first,) = lock_sessions()
        kill_lock_sessions()
        deadline = time.monotonic() + 10
        while not (lock_sessions() - {first}):  # taken again, by a new session
            assert time.monotonic() < deadline, "the bot did not take its lock again"
            time.sleep(0.05)
        with pytest.raises(backup.DatabaseInUse, match="the bot is running"):
            DatabaseLock(url, exclusive=True, command="db restore").acquire()
        assert lost == [] and bot_lock.lost is None

        kill_lock_sessions()  # and a restore gets in before the bot's next check
        deadline = time.monotonic() + 0.8
        while True:
            try:
                restore_lock = DatabaseLock(url, exclusive=True, command="db restore")
                restore_lock.acquire()
                break
            except backup.DatabaseInUse:  # the killed session has not ended yet
                assert time.monotonic() < deadline
                time.sleep(0.02)
        try:
            deadline = time.monotonic() + 10
            while not lost:
                assert time.monotonic() < deadline, "the bot was not told"
                time.sleep(0.05)
        finally:
            restore_lock.release()
        assert "a restore took the database" in lost[0] and bot_lock.lost == lost[0]


# ------------------------------------------------------------------------------------ finding 7: a full disk


def _old_sqlite_database(path: Path) -> None:
    url = f"sqlite:///{path}"
    _migrate_to(url, "0005")
    asyncio.run(_run(url, _write))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".partial" in p.name or p.name.endswith("-journal"))


def test_finding_7_a_full_disk_while_the_upgrade_writes_its_backup_is_one_line_and_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite fails the copy the upgrade writes first, half-way (its ``-journal`` already beside the partial copy):
    one line, exit 1, the database as it was, no ``.partial`` or ``.partial-journal`` file, no backup."""
    db = tmp_path / "steward.db"
    _old_sqlite_database(db)
    real_open = backup._open_existing

    class FailingSource:
        def __init__(self, connection: sqlite3.Connection) -> None:
            self.connection = connection

        def backup(self, target: sqlite3.Connection) -> None:  # SQLite had begun: the partial file and its journal
            (tmp_path / "steward.db.rev0005.bak.partial-journal").write_bytes(b"\0" * 512)
            raise sqlite3.OperationalError("database or disk is full")

        def __getattr__(self, name: str) -> Any:
            return getattr(self.connection, name)

    monkeypatch.setattr(backup, "_open_existing", lambda path: FailingSource(real_open(path)))
    before = sqlite3.connect(db).execute("SELECT count(*) FROM registration").fetchone()
    code, out, err = _steward(["db", "upgrade"], f"sqlite:///{db}", monkeypatch, capsys)
    assert (code, out) == (1, ""), err
    _one_line(err, "database or disk is full: cannot write", "steward.db.rev0005.bak", "free some space",
              "nothing was changed")  # fmt: skip
    assert _leftovers(tmp_path) == [] and not list(tmp_path.glob("*.bak"))
    assert _revision(f"sqlite:///{db}") == "0005"
    assert sqlite3.connect(db).execute("SELECT count(*) FROM registration").fetchone() == before


def test_finding_7_an_enospc_in_the_migration_after_the_backup_removes_the_backup_and_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy written, then the migration's own write fails with ENOSPC: the database is as it was (one
    transaction), so the copy is only taking room and goes; one line, exit 1."""
    from alembic import command

    db = tmp_path / "steward.db"
    _old_sqlite_database(db)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(db) + "-wal")

    monkeypatch.setattr(command, "upgrade", full)
    code, out, err = _steward(["db", "upgrade"], f"sqlite:///{db}", monkeypatch, capsys)
    assert (code, out) == (1, ""), err
    _one_line(err, f"database or disk is full: cannot upgrade {db}", "nothing was changed")
    assert _leftovers(tmp_path) == [] and not list(tmp_path.glob("*.bak"))
    assert _revision(f"sqlite:///{db}") == "0005"


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "tiny"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_finding_7_on_a_really_full_disk_every_upgrade_is_one_line_or_done_and_leaves_no_partial_file(
    tiny_disk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1 MB tmpfs, a club's database at 0005, and from 0 kB free upwards in steps of 16 kB, `steward db upgrade`:
    each run ends in one line (exit 1, the database still at 0005, no backup left) or upgrades (exit 0, its backup
    beside it) — never a traceback, never a partial file. `steward db backup` onto the full disk too."""
    original = tmp_path / "club-0005.db"
    _old_sqlite_database(original)
    db, filler = tiny_disk / "steward.db", tiny_disk / "filler"
    outcomes: dict[int, int] = {}
    for free_kb in range(0, 2 * original.stat().st_size // 1024 + 160, 16):
        for leftover in tiny_disk.iterdir():
            leftover.unlink()
        shutil.copyfile(original, db)
        available = shutil.disk_usage(tiny_disk).free // 1024
        if available < free_kb:
            break
        filler.write_bytes(b"\0" * ((available - free_kb) * 1024))
        code, out, err = _steward(["db", "upgrade"], f"sqlite:///{db}", monkeypatch, capsys)
        outcomes[free_kb] = code
        assert _leftovers(tiny_disk) == [], (free_kb, err)
        if code == 0:
            assert _revision(f"sqlite:///{db}") == HEAD and list(tiny_disk.glob("*.rev0005.bak")), free_kb
            continue
        assert code == 1 and out == "", (free_kb, err)
        _one_line(err, "database or disk is full", "free some space")
        assert not list(tiny_disk.glob("*.bak")), free_kb
        filler.unlink()
        assert _revision(f"sqlite:///{db}") == "0005", free_kb
    assert outcomes[0] == 1 and set(outcomes.values()) == {0, 1}, outcomes

    for leftover in tiny_disk.iterdir():
        leftover.unlink()
    filler.write_bytes(b"\0" * (shutil.disk_usage(tiny_disk).free - 16 * 1024))
    code, out, err = _steward(["db", "backup", str(tiny_disk / "copy.db")], f"sqlite:///{original}", monkeypatch,
                              capsys)  # fmt: skip
    assert (code, out) == (1, ""), err
    _one_line(err, "database or disk is full: cannot write", "copy.db")
    assert _leftovers(tiny_disk) == [] and not (tiny_disk / "copy.db").exists()
