"""Backups and restores of the bot's database (``steward db backup`` / ``restore``, and the copy an upgrade writes).

* **SQLite** goes through SQLite's online backup API (``sqlite3.Connection.backup``): the copy is one consistent
  snapshot even while the bot writes (copying the file is not safe in WAL mode: the newest pages may still be in
  ``steward.db-wal``). The copy is checked with ``PRAGMA integrity_check`` before it is called done.
* **PostgreSQL** goes through PostgreSQL's own tools, ``pg_dump --format=custom`` and ``pg_restore --clean
  --if-exists --single-transaction``; the password travels in ``PGPASSWORD``, never on a command line.

A restore refuses a file that is not a sound Tournament Steward database, and (SQLite) first keeps the database it
replaces next to it, so a restore is never the last copy of anything.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from bot.settings import normalise_database_url


class BackupError(Exception):
    """A backup or restore that cannot be done, in one line for the person who asked (``steward`` exits 2)."""


@dataclass(frozen=True)
class BackupResult:
    path: Path
    revision: str | None
    tables: int
    rows: int


def sqlite_file(database_url: str) -> Path | None:
    """The file of an SQLite URL, None for any other database."""
    url = make_url(normalise_database_url(database_url))
    if url.get_backend_name() != "sqlite" or not url.database:
        return None
    name = url.database
    if url.query.get("uri") == "true" and name.startswith("file:"):  # sqlite:///file:/path?mode=ro&uri=true
        name = name[len("file:") :].split("?", 1)[0]
    return Path(name)


def require_sqlite_folder(database_url: str) -> None:
    """Refuse at once, in one line, an SQLite file whose folder does not exist (the driver's own failure comes from
    a worker thread and can print a traceback after the program's answer)."""
    path = sqlite_file(database_url)
    if path is not None and not path.parent.is_dir():
        raise FileNotFoundError(f"the folder {path.parent} does not exist (create it, or set DATABASE_URL)")


def _stamp(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")


def _free_name(path: Path) -> Path:
    """``path``, or ``path`` with a time stamp when a file of that name is already there (never overwritten)."""
    if not path.exists():
        return path
    return path.with_name(f"{path.name}.{_stamp()}")


def _revision(connection: sqlite3.Connection) -> str | None:
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        return None
    return str(row[0]) if row else None


def _counts(connection: sqlite3.Connection) -> tuple[int, int]:
    tables = [
        r[0]
        for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    ]
    rows = sum(int(connection.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]) for t in tables)
    return len(tables), rows


def _integrity(connection: sqlite3.Connection) -> list[str]:
    """``PRAGMA integrity_check`` and ``foreign_key_check``: the problems found, empty when the file is sound."""
    try:
        problems = [str(r[0]) for r in connection.execute("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [
            f"{r[0]} row {r[1]} points at a missing {r[2]}" for r in connection.execute("PRAGMA foreign_key_check")
        ]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    return problems


def _open_existing(path: Path) -> sqlite3.Connection:
    """Open a file that must already exist (``mode=rw``: never creates an empty database by mistake)."""
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    connection = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30)
    connection.execute("PRAGMA busy_timeout=30000")
    return connection


def backup_sqlite(source: Path, target: Path) -> BackupResult:
    """A consistent copy of ``source`` at ``target`` (a new file; an existing one is refused), checked."""
    if target.exists():
        raise BackupError(f"{target} already exists: choose another name (a backup never overwrites a file)")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    src = _open_existing(source)
    partial = target.with_name(target.name + ".partial")
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one step: a snapshot of one moment, whatever the bot writes meanwhile
            dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            problems = _integrity(dst)
            if problems:
                raise BackupError(f"the copy of {source} is not sound: {'; '.join(problems[:3])}")
            revision = _revision(dst)
            tables, rows = _counts(dst)
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    partial.replace(target)
    return BackupResult(path=target, revision=revision, tables=tables, rows=rows)


def backup_before_upgrade(source: Path, revision: str) -> Path:
    """The copy an upgrade writes first: next to the database, named by the revision it holds."""
    target = _free_name(source.with_name(f"{source.name}.rev{revision}.bak"))
    return backup_sqlite(source, target).path


def restore_sqlite(backup: Path, target: Path, *, known_revisions: Iterable[str]) -> tuple[BackupResult, Path | None]:
    """Put the database in ``backup`` in place of ``target``. The backup must be sound and at a revision this
    version knows; the database it replaces is first kept as ``<target>.before-restore-<time>`` (returned).
    Stop the bot first: a running bot would keep writing to what it believes is the old database."""
    known = set(known_revisions)
    src = _open_existing(backup)
    try:
        problems = _integrity(src)
        if problems:
            raise BackupError(f"{backup} is not a sound SQLite database: {'; '.join(problems[:3])}")
        revision = _revision(src)
        if revision is None:
            raise BackupError(f"{backup} is not a Tournament Steward database (it has no migration revision)")
        if revision not in known:
            raise BackupError(f"{backup} is at revision {revision}, which this version does not know (newer?)")
        kept: Path | None = None
        if target.exists():
            kept = target.with_name(f"{target.name}.before-restore-{_stamp()}")
            backup_sqlite(target, kept)
        dst = sqlite3.connect(target, timeout=30)
        try:
            dst.execute("PRAGMA busy_timeout=30000")
            src.backup(dst)
            tables, rows = _counts(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return BackupResult(path=target, revision=revision, tables=tables, rows=rows), kept


# ---------------------------------------------------------------------------------------------------- PostgreSQL


def _libpq(database_url: str) -> tuple[list[str], dict[str, str]]:
    """Connection options for PostgreSQL's tools, and the environment carrying the password."""
    url: URL = make_url(normalise_database_url(database_url))
    args: list[str] = []
    if url.host:
        args += ["--host", url.host]
    if url.port:
        args += ["--port", str(url.port)]
    if url.username:
        args += ["--username", url.username]
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    return args, env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client tools (Debian: apt-get install postgresql-client)"
        )
    return found


def postgres_commands(database_url: str, path: Path) -> tuple[list[str], list[str]]:
    """The documented commands (without the password) for a backup to ``path`` and its restore."""
    args, _ = _libpq(database_url)
    dbname = make_url(normalise_database_url(database_url)).database or ""
    dump = ["pg_dump", *args, "--format=custom", "--no-owner", "--file", str(path), dbname]
    restore = ["pg_restore", *args, "--clean", "--if-exists", "--no-owner", "--single-transaction",
               "--dbname", dbname, str(path)]  # fmt: skip
    return dump, restore


def backup_postgres(database_url: str, path: Path) -> Path:
    if path.exists():
        raise BackupError(f"{path} already exists: choose another name (a backup never overwrites a file)")
    dump, _ = postgres_commands(database_url, path)
    _, env = _libpq(database_url)
    _run([_tool("pg_dump"), *dump[1:]], env)
    return path


def restore_postgres(database_url: str, path: Path) -> None:
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    _, restore = postgres_commands(database_url, path)
    _, env = _libpq(database_url)
    _run([_tool("pg_restore"), *restore[1:]], env)


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        raise BackupError(f"{Path(command[0]).name} failed: {first[:300]}")
