"""``steward db backup`` / ``restore``: a consistent copy while the bot writes, and a restore that gives it back."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot import cli
from bot.db.migrate import upgrade_to_head
from bot.settings import get_settings, normalise_database_url
from tests.conftest import POSTGRES_URL


def _steward(args: list[str], url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        code = cli.main(args)
    finally:
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    return code, out, err


def _rows(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT id, action, entity_id FROM audit_log ORDER BY id").fetchall()
    finally:
        conn.close()


class Writer(threading.Thread):
    """The bot at work: transactions of two audit rows sharing a number, as fast as SQLite takes them."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path, self.stop, self.batches = path, threading.Event(), 0

    def run(self) -> None:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        while not self.stop.is_set():
            n = self.batches
            conn.execute("BEGIN IMMEDIATE")
            for half in ("first", "second"):
                conn.execute(
                    "INSERT INTO audit_log (guild_id, action, entity, entity_id, details, created_at) "
                    "VALUES (1, ?, 'test', ?, '{}', '2026-11-26 12:00:00')",
                    (half, n),
                )
            conn.execute("COMMIT")
            self.batches += 1
        conn.close()


def test_sqlite_backup_while_the_bot_writes_is_consistent_and_restores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "steward.db"
    url = f"sqlite:///{db}"
    upgrade_to_head(url)
    writer = Writer(db)
    writer.start()
    copies = []
    try:
        while writer.batches < 50:
            time.sleep(0.01)
        for i in range(5):
            target = tmp_path / f"backup-{i}.db"
            code, out, err = _steward(["db", "backup", str(target)], url, monkeypatch, capsys)
            assert code == 0, err
            assert f"written to {target}" in out and "integrity check ok" in out
            copies.append(target)
            time.sleep(0.05)
    finally:
        writer.stop.set()
        writer.join()
    assert writer.batches > 100
    for copy in copies:
        conn = sqlite3.connect(copy)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal beside it
        conn.close()
        rows = _rows(copy)
        per_batch: dict[object, set[object]] = {}
        for _, half, n in rows:
            per_batch.setdefault(n, set()).add(half)
        assert rows and all(v == {"first", "second"} for v in per_batch.values()), "a transaction cut in two"
    assert len(_rows(copies[0])) < len(_rows(copies[-1])) < len(_rows(db))

    # restore the third copy over the live file: its rows come back exactly; the replaced file is kept
    live_rows = _rows(db)
    code, out, err = _steward(["db", "restore", str(copies[2])], url, monkeypatch, capsys)
    assert code == 0, err
    assert _rows(db) == _rows(copies[2])
    kept = next(tmp_path.glob("steward.db.before-restore-*"))
    assert f"kept as {kept}" in out
    assert _rows(kept) == live_rows


def test_backup_and_restore_refuse_in_one_line_and_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "steward.db"
    url = f"sqlite:///{db}"
    upgrade_to_head(url)
    before = _rows(db)
    taken = tmp_path / "taken.db"
    taken.write_text("mine")
    code, out, err = _steward(["db", "backup", str(taken)], url, monkeypatch, capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "already exists" in err
    assert taken.read_text() == "mine"

    # a folder that cannot be made (a file stands where a folder should be); a missing one is made (issue 44)
    code, _, err = _steward(["db", "backup", str(taken / "such" / "x.db")], url, monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and str(taken) in err, err
    assert taken.read_text() == "mine"

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    code, _, err = _steward(["db", "restore", str(junk)], url, monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "not a sound SQLite database" in err

    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    code, _, err = _steward(["db", "restore", str(foreign)], url, monkeypatch, capsys)
    assert code == 2 and "not a Tournament Steward database" in err

    future = tmp_path / "future.db"
    shutil.copyfile(db, future)
    conn = sqlite3.connect(future)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    code, _, err = _steward(["db", "restore", str(future)], url, monkeypatch, capsys)
    assert code == 2 and "revision 9999" in err

    code, _, err = _steward(["db", "restore", str(tmp_path / "missing.db")], url, monkeypatch, capsys)
    assert code == 2 and "does not exist" in err
    assert _rows(db) == before
    assert not list(tmp_path.glob("*before-restore*"))


def test_upgrade_into_a_missing_folder_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path) -> None:
    code, out, err = _steward(["db", "upgrade"], f"sqlite:///{tmp_path}/no/such/dir/x.db", monkeypatch, capsys)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "does not exist" in err


@pytest.mark.skipif(POSTGRES_URL is None or shutil.which("pg_dump") is None, reason="needs PostgreSQL and pg_dump")
def test_postgres_backup_and_restore_with_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert POSTGRES_URL is not None
    base = make_url(normalise_database_url(POSTGRES_URL))
    name = f"{base.database}_backup"
    url = base.set(database=name).render_as_string(hide_password=False)

    async def admin(sql: str) -> None:
        engine = create_async_engine(base, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text(sql))
        finally:
            await engine.dispose()

    async def query(sql: str) -> list[tuple[object, ...]]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                result = await conn.execute(sa.text(sql))
                return [tuple(r) for r in result.all()] if result.returns_rows else []
        finally:
            await engine.dispose()

    asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        upgrade_to_head(url)
        asyncio.run(query("INSERT INTO audit_log (guild_id, action, entity, details, created_at) "
                          "VALUES (1, 'kept', 'test', '{}', now())"))  # fmt: skip
        dump = tmp_path / "steward.pgdump"
        code, out, err = _steward(["db", "backup", str(dump)], url, monkeypatch, capsys)
        assert code == 0, err
        assert "pg_dump" in out and dump.stat().st_size > 0
        asyncio.run(query("INSERT INTO audit_log (guild_id, action, entity, details, created_at) "
                          "VALUES (1, 'after the backup', 'test', '{}', now())"))  # fmt: skip
        code, out, err = _steward(["db", "restore", str(dump)], url, monkeypatch, capsys)
        assert code == 0, err
        assert asyncio.run(query("SELECT action FROM audit_log ORDER BY id")) == [("kept",)]
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
