"""Backups and restores of the bot's database (``steward db backup`` / ``restore``, and the copy an upgrade writes),
and the lock that keeps a restore and a running bot apart.

* **SQLite** goes through SQLite's online backup API (``sqlite3.Connection.backup``): the copy is one consistent
  snapshot even while the bot writes (copying the file is not safe in WAL mode: the newest pages may still be in
  ``steward.db-wal``). The copy is checked with ``PRAGMA integrity_check`` before it is called done. It is written
  as ``<name>.partial`` and renamed when done: a copy that fails (a full disk) leaves no file behind, not even
  SQLite's ``-journal``/``-wal`` beside the partial one.
* **PostgreSQL** goes through PostgreSQL's own tools: ``pg_dump --format=custom`` for a backup; a restore reads the
  archive's migration revision first, then replaces every table, view and sequence of the schema ``public`` with
  the archive's, schema included, in one transaction (``pg_restore --file=-`` piped into ``psql
  --single-transaction``). So a backup taken before an upgrade comes back at its own revision, and ``steward db
  upgrade`` brings it forward again. The password travels in ``PGPASSWORD``, never on a command line.

A restore refuses a file that is not a sound Tournament Steward database or is at a revision this version does not
know, and first keeps the database it replaces (SQLite: next to it; PostgreSQL: a ``pg_dump`` beside the backup),
so a restore is never the last copy of anything.

**The bot's lock.** A running bot holds a *shared* lock on its database for its whole life, taken before its
start-up upgrade; ``steward db upgrade`` holds it too while it runs. A restore takes it *exclusively*, so it is
refused while a bot runs (and names the process to stop), and a bot does not start while a restore runs.

* SQLite: ``flock`` on ``<database>.lock``, a file beside the database that is never deleted (the kernel drops the
  lock when the process ends, however it ends). The holders are named from ``/proc/locks``.
* PostgreSQL: the session-level advisory lock :data:`ADVISORY_LOCK_KEY` (``pg_try_advisory_lock_shared`` for a
  bot, ``pg_try_advisory_lock`` for a restore), held by one connection of its own that a thread keeps alive. If that
  connection drops (a server restart) the bot takes the lock again; if a restore took it meanwhile, or the tables
  were recreated while the lock was down, the bot is told (``on_lost``) and stops rather than write into restored
  data. The holders are named from ``pg_locks`` and the ``application_name`` of their sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.engine import URL, make_url

from bot.settings import normalise_database_url

log = logging.getLogger(__name__)

T = TypeVar("T")


class BackupError(Exception):
    """A backup or restore that cannot be done, in one line for the person who asked. ``code`` is the exit status
    of ``steward`` (docs/cli.md): 2 for something to fix (a file, the bot to stop), 1 for the environment."""

    code = 2


class DiskFull(BackupError):
    """No room to write: one line saying where and how much is free; nothing half-written is left behind."""

    code = 1


class DatabaseInUse(BackupError):
    """A restore while a bot (or an upgrade) holds the database: stop it first. Nothing was changed."""

    code = 2


class RestoreInProgress(BackupError):
    """The bot (or an upgrade) cannot start while ``steward db restore`` replaces the database."""

    code = 1


class LockLost(BackupError):
    """The running bot lost its lock to a restore, or its database was replaced under it: it stopped."""

    code = 1


@dataclass(frozen=True)
class BackupResult:
    path: Path
    revision: str | None
    tables: int
    rows: int


@dataclass(frozen=True)
class RestoreResult:
    """What a restore put in place: the backup's revision and size, and where the replaced database is kept."""

    revision: str
    tables: int
    rows: int
    kept: Path | None


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


# ---------------------------------------------------------------------------------------------------- a full disk

SQLITE_FULL = 13  # "database or disk is full"
POSTGRES_DISK_FULL = "53100"  # SQLSTATE disk_full
LOW_SPACE = 1 << 20  # below this, SQLite's vaguer "disk I/O error" is read as a full disk too


def free_bytes(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    if n < 1 << 20:
        return f"{n // 1024} kB"
    return f"{n / (1 << 20):.1f} MB" if n < 1 << 30 else f"{n / (1 << 30):.1f} GB"


def is_disk_full(error: BaseException, folder: Path | None = None) -> bool:
    """Whether ``error`` (or what caused it, through SQLAlchemy's ``orig`` and Python's chain) means no room to
    write: ``ENOSPC``/``EDQUOT``, SQLite's ``SQLITE_FULL``, PostgreSQL's ``disk_full``, "No space left on device";
    and SQLite's "disk I/O error" when ``folder`` has almost nothing free (WAL's ``-shm`` cannot be made)."""
    seen: set[int] = set()
    stack: list[BaseException] = [error]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if getattr(current, "sqlstate", None) == POSTGRES_DISK_FULL:
            return True
        text = str(current).lower()
        if getattr(current, "sqlite_errorcode", None) == SQLITE_FULL or "database or disk is full" in text:
            return True
        if "no space left on device" in text:
            return True
        if folder is not None and "disk i/o error" in text:
            free = free_bytes(folder)
            if free is not None and free < LOW_SPACE:
                return True
        for nxt in (getattr(current, "orig", None), current.__cause__, current.__context__):
            if isinstance(nxt, BaseException):
                stack.append(nxt)
    return False


def disk_full(action: str, folder: Path, *, database: Path | None = None) -> DiskFull:
    """The one line for a full disk: what could not be done (``write steward.db.rev0005.bak``), what is free where
    (and how large the database is: a copy or an upgrade needs more than that), and what to do."""
    free = free_bytes(folder)
    room = f"{_size(free)} free there" if free is not None else "no room there"
    size = _file_size(database) if database is not None else None
    need = f", the database takes {_size(size)}" if size else ""
    return DiskFull(f"database or disk is full: cannot {action} ({room}{need}); free some space, then run it again "
                    "(nothing was changed)")  # fmt: skip


def remove_partial(path: Path) -> None:
    """``path`` and the files SQLite keeps beside it (``-journal``, ``-wal``, ``-shm``), if there."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------------- SQLite


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
    """A consistent copy of ``source`` at ``target`` (a new file; an existing one is refused), checked. Written as
    ``<target>.partial`` and renamed when sound: a failure (a full disk) leaves no file of it behind."""
    if target.exists():
        raise BackupError(f"{target} already exists: choose another name (a backup never overwrites a file)")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    src = _open_existing(source)
    partial = target.with_name(target.name + ".partial")
    remove_partial(partial)  # what an interrupted earlier copy left
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
        partial.replace(target)
    except BaseException as exc:
        remove_partial(partial)
        if isinstance(exc, BackupError):
            raise
        if isinstance(exc, sqlite3.Error | OSError):
            if is_disk_full(exc, target.parent):
                raise disk_full(f"write {target}", target.parent, database=source) from exc
            raise BackupError(f"cannot copy {source} to {target}: {exc}") from exc
        raise
    finally:
        src.close()
    return BackupResult(path=target, revision=revision, tables=tables, rows=rows)


def _file_size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def backup_before_upgrade(source: Path, revision: str) -> Path:
    """The copy an upgrade writes first: next to the database, named by the revision it holds."""
    target = _free_name(source.with_name(f"{source.name}.rev{revision}.bak"))
    return backup_sqlite(source, target).path


def _unknown_revision(backup: Path, revision: str, known: list[str]) -> BackupError:
    newest = known[-1] if known else "none"
    return BackupError(
        f"{backup} is at revision {revision}, which this version does not know (its newest is {newest}): restore it "
        "with the Tournament Steward version that wrote it, or a newer one"
    )


def restore_sqlite(backup: Path, target: Path, *, known_revisions: Iterable[str]) -> tuple[BackupResult, Path | None]:
    """Put the database in ``backup`` in place of ``target``, its schema included (a backup taken before an upgrade
    comes back at its own revision: ``steward db upgrade`` brings it forward). Refused while a bot holds the
    database (:class:`DatabaseInUse`). The backup must be sound and at a revision this version knows; the database
    it replaces is first kept as ``<target>.before-restore-<time>`` (returned)."""
    known = list(known_revisions)
    with DatabaseLock.for_sqlite(target, exclusive=True, command="db restore"):
        src = _open_existing(backup)
        try:
            problems = _integrity(src)
            if problems:
                raise BackupError(f"{backup} is not a sound SQLite database: {'; '.join(problems[:3])}")
            revision = _revision(src)
            if revision is None:
                raise BackupError(f"{backup} is not a Tournament Steward database (it has no migration revision)")
            if revision not in known:
                raise _unknown_revision(backup, revision, known)
            kept: Path | None = None
            if target.exists():
                kept = target.with_name(f"{target.name}.before-restore-{_stamp()}")
                backup_sqlite(target, kept)
            try:
                dst = sqlite3.connect(target, timeout=30)
                try:
                    dst.execute("PRAGMA busy_timeout=30000")
                    src.backup(dst)  # one transaction: on failure the target is left as it was
                    tables, rows = _counts(dst)
                finally:
                    dst.close()
            except sqlite3.Error as exc:
                if kept is not None:  # the target is unchanged: its copy only takes room
                    kept.unlink(missing_ok=True)
                if is_disk_full(exc, target.parent):
                    raise disk_full(f"restore into {target}", target.parent, database=backup) from exc
                raise BackupError(f"cannot restore {backup} into {target}: {exc}") from exc
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
    """The documented commands (without the password) for a backup to ``path`` and a restore of the archive's
    objects alone (``steward db restore`` also replaces what the archive lacks: :func:`restore_postgres`)."""
    args, _ = _libpq(database_url)
    dbname = make_url(normalise_database_url(database_url)).database or ""
    dump = ["pg_dump", *args, "--format=custom", "--no-owner", "--file", str(path), dbname]
    restore = ["pg_restore", *args, "--clean", "--if-exists", "--no-owner", "--single-transaction",
               "--dbname", dbname, str(path)]  # fmt: skip
    return dump, restore


def backup_postgres(database_url: str, path: Path) -> Path:
    """``pg_dump --format=custom`` to ``path`` (a new file), written as ``<path>.partial`` and renamed when done."""
    if path.exists():
        raise BackupError(f"{path} already exists: choose another name (a backup never overwrites a file)")
    if not path.parent.is_dir():
        raise BackupError(f"the folder {path.parent} does not exist")
    _dump(database_url, path)
    return path


def _dump(database_url: str, path: Path) -> None:
    partial = path.with_name(path.name + ".partial")
    dump, _ = postgres_commands(database_url, partial)
    _, env = _libpq(database_url)
    try:
        _run([_tool("pg_dump"), *dump[1:]], env, folder=path.parent, what=str(path))
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


# Every table, view and sequence of the schema public, except an extension's: gone before the archive's come back,
# in the same transaction (a table a later migration added would otherwise keep its foreign keys into the tables
# the archive drops and recreates, and the restore would be refused).
_DROP_PUBLIC = """
SET client_min_messages = warning;
SET lock_timeout = '30s';
DO $steward$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.relname, c.relkind FROM pg_catalog.pg_class c
           WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
             AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                             WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
           ORDER BY c.relkind = 'S', c.relname
  LOOP
    EXECUTE format('DROP %s IF EXISTS public.%I CASCADE',
                   CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                                  WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.relname);
  END LOOP;
END
$steward$;
"""


def archive_revision(path: Path) -> str:
    """The migration revision a ``pg_dump`` custom archive holds (its ``alembic_version`` row); refused in one line
    when the file is not such an archive or not a Tournament Steward database."""
    listed = subprocess.run([_tool("pg_restore"), "--list", str(path)], capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        first = (listed.stderr.strip().splitlines() or [f"exit {listed.returncode}"])[0]
        raise BackupError(f"{path} is not a pg_dump archive of custom format (steward db backup writes one): "
                          f"{first[:200]}")  # fmt: skip
    if not any(" TABLE DATA public alembic_version " in line for line in listed.stdout.splitlines()):
        raise BackupError(f"{path} is not a Tournament Steward database (it has no migration revision)")
    data = subprocess.run(
        [_tool("pg_restore"), "--data-only", "--schema=public", "--table=alembic_version", "--file=-", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    lines = data.stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line and i + 1 < len(lines) and lines[i + 1] != "\\.":
            return lines[i + 1].strip()
    raise BackupError(f"{path} is not a Tournament Steward database (it has no migration revision)")


def restore_postgres(database_url: str, path: Path, *, known_revisions: Iterable[str]) -> RestoreResult:
    """Put the archive ``path`` in place of the database: every table, view and sequence of the schema public is
    dropped and the archive's schema and rows are created, in one transaction (all or nothing), so a backup taken
    before an upgrade comes back at its own revision. Refused while a bot holds the database; the archive must
    hold a revision this version knows. What it replaces is first kept as a ``pg_dump`` beside the archive."""
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    known = list(known_revisions)
    pg_restore, psql = _tool("pg_restore"), _tool("psql")
    revision = archive_revision(path)
    if revision not in known:
        raise _unknown_revision(path, revision, known)
    dbname = make_url(normalise_database_url(database_url)).database or ""
    with DatabaseLock(database_url, exclusive=True, command="db restore"):
        kept: Path | None = None
        if _run_async(_public_relations(database_url)):
            kept = _free_name(path.with_name(f"{dbname}.before-restore-{_stamp()}.pgdump"))
            _dump(database_url, kept)
        failed, error = _replace_public(database_url, path, pg_restore=pg_restore, psql=psql)
        if failed:  # nothing was committed: the database is as it was, its copy only takes room
            if kept is not None:
                kept.unlink(missing_ok=True)
            if "no space left on device" in error.lower() or "could not extend" in error.lower():
                raise DiskFull(f"the database server's disk is full: {error[:200]}; free some space, then run it "
                               "again (nothing was changed)")  # fmt: skip
            raise BackupError(f"{failed} failed, nothing was changed: {error[:240]}")
        tables, rows = _run_async(_postgres_counts(database_url))
    return RestoreResult(revision=revision, tables=tables, rows=rows, kept=kept)


def _replace_public(database_url: str, path: Path, *, pg_restore: str, psql: str) -> tuple[str, str]:
    """One transaction through psql: ``BEGIN``, :data:`_DROP_PUBLIC`, the archive as SQL (``pg_restore --file=-``),
    and ``COMMIT`` — written only once ``pg_restore`` has ended well. A failed statement stops psql
    (``ON_ERROR_STOP``); a script cut short (``pg_restore`` failing, this process killed) ends without ``COMMIT``, and
    the server rolls the transaction back when psql leaves. Returns ("", "") or (the tool that failed, its first
    error line)."""
    args, env = _libpq(database_url)
    dbname = make_url(normalise_database_url(database_url)).database or ""
    script = [pg_restore, "--clean", "--if-exists", "--no-owner", "--file=-", str(path)]
    apply = [psql, *args, "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--file=-", "--dbname", dbname]
    with tempfile.TemporaryFile() as script_err, tempfile.TemporaryFile() as apply_err:
        applier = subprocess.Popen(apply, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=apply_err, env=env)
        reader = subprocess.Popen(script, stdout=subprocess.PIPE, stderr=script_err)
        assert applier.stdin is not None and reader.stdout is not None
        try:
            with contextlib.suppress(BrokenPipeError):  # psql stopped at an error: the rest is not needed
                applier.stdin.write(b"BEGIN;\n" + _DROP_PUBLIC.encode())
                shutil.copyfileobj(reader.stdout, applier.stdin)
                if reader.wait() == 0:
                    applier.stdin.write(b"\nCOMMIT;\n")
        finally:
            if reader.poll() is None:
                reader.kill()
            reader.wait()
            reader.stdout.close()
            with contextlib.suppress(BrokenPipeError):
                applier.stdin.close()
            applier.wait()
        script_err.seek(0)
        apply_err.seek(0)
        errors = {"pg_restore": script_err.read(), "psql": apply_err.read()}
    failed = "psql" if applier.returncode != 0 else "pg_restore" if reader.returncode != 0 else ""
    if not failed:
        return "", ""
    status = applier.returncode if failed == "psql" else reader.returncode
    lines = errors[failed].decode(errors="replace").strip().splitlines()
    first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else f"exit status {status}")
    return failed, first


def _run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


async def _public_relations(database_url: str) -> int:
    from sqlalchemy import text

    from bot.db.session import make_engine

    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            found = await connection.execute(text(
                "SELECT count(*) FROM pg_catalog.pg_class WHERE relnamespace = 'public'::regnamespace "
                "AND relkind IN ('r', 'p', 'v', 'm', 'S', 'f')"))  # fmt: skip
            return int(found.scalar_one())
    finally:
        await engine.dispose()


async def _postgres_counts(database_url: str) -> tuple[int, int]:
    from sqlalchemy import text

    from bot.db.session import make_engine

    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            names = (await connection.execute(text(
                "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = 'public'"))).scalars().all()  # fmt: skip
            rows = 0
            for name in names:
                quoted = '"' + str(name).replace('"', '""') + '"'
                rows += int((await connection.execute(text(f"SELECT count(*) FROM public.{quoted}"))).scalar_one())
            return len(names), rows
    finally:
        await engine.dispose()


def _run(command: list[str], env: dict[str, str], *, folder: Path | None = None, what: str = "") -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        if folder is not None and "no space left on device" in first.lower():
            raise disk_full(f"write {what or command[-1]}", folder)
        raise BackupError(f"{Path(command[0]).name} failed: {first[:300]}")


# ---------------------------------------------------------------------------------------------------- the lock

ADVISORY_LOCK_KEY = int.from_bytes(b"steward", "big")  # pg_locks: classid = key >> 32, objid = key & 0xffffffff
HEARTBEAT_SECONDS = 15.0  # how often the bot's lock connection is checked (and, if it dropped, taken again)


@dataclass(frozen=True)
class Holder:
    """A process holding the lock, as far as it can be told: its pid, host, command, PostgreSQL session."""

    pid: int | None = None
    host: str | None = None
    command: str | None = None
    session: int | None = None
    exclusive: bool = False

    def describe(self) -> str:
        parts = []
        if self.pid is not None:
            parts.append(f"process {self.pid}" + (f" on {self.host}" if self.host else ""))
        if self.command:
            parts.append(f'"{self.command}"')
        if self.session is not None:
            parts.append(f"database session {self.session}")
        return ", ".join(parts) or "a process of another user"


def _refusal(where: str, holders: list[Holder], *, exclusive: bool, command: str) -> BackupError:
    """The one line for a lock that cannot be had, naming what holds it and what to do."""
    named = "; ".join(h.describe() for h in holders[:3]) or "a process that cannot be named"
    if not exclusive or any(h.exclusive for h in holders):  # a restore holds it
        return RestoreInProgress(f"a restore of {where} is in progress ({named}): run {_steward(command)} again "
                                 "when it has finished")  # fmt: skip
    if holders and all(h.command and "upgrade" in h.command for h in holders):
        return DatabaseInUse(f"an upgrade of {where} is running ({named}): wait for it to finish, then restore "
                             "(nothing was changed)")  # fmt: skip
    them = "them" if len(holders) > 1 else "it"
    if holders and all(h.command and re.search(r"(steward|bot\.cli) web\b", h.command) for h in holders):
        return DatabaseInUse(f"steward web is serving {where} ({named}): stop {them} first, then restore (nothing "
                             "was changed)")  # fmt: skip
    return DatabaseInUse(f"the bot is running on {where} ({named}): stop {them} first, then restore (nothing was "
                         "changed)")  # fmt: skip


def _steward(command: str) -> str:
    return "the bot" if command == "run" else f"steward {command}"


def _own_command(command: str) -> str:
    return f"steward {command} {os.getpid()}@{socket.gethostname()}"[:63]  # PostgreSQL's application_name limit


class DatabaseLock:
    """The lock that keeps a restore and a running bot apart (see the module's docstring). A bot holds it shared
    for its lifetime (``with DatabaseLock(url, command="run"):``); a restore holds it exclusively. Taking it never
    waits: a lock held the other way raises :class:`RestoreInProgress` (for a bot) or :class:`DatabaseInUse` (for
    a restore) at once, naming the holders."""

    def __init__(
        self,
        database_url: str,
        *,
        exclusive: bool = False,
        command: str = "run",
        on_lost: Callable[[str], None] | None = None,
        heartbeat: float = HEARTBEAT_SECONDS,
    ) -> None:
        self.database_url = database_url
        self.exclusive = exclusive
        self.command = command
        self.on_lost = on_lost
        self.lost: str | None = None  # why the lock was lost while held (PostgreSQL), once it was
        path = sqlite_file(database_url)
        self._impl: _FileLock | _AdvisoryLock = (
            _FileLock(self, path) if path is not None else _AdvisoryLock(self, database_url, heartbeat)
        )

    @classmethod
    def for_sqlite(cls, database: Path, *, exclusive: bool, command: str) -> DatabaseLock:
        return cls(f"sqlite:///{database}", exclusive=exclusive, command=command)

    def acquire(self) -> None:
        self._impl.acquire()

    def release(self) -> None:
        self._impl.release()

    def __enter__(self) -> DatabaseLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def _lose(self, reason: str) -> None:
        self.lost = reason
        log.error("%s", reason)
        if self.on_lost is not None:
            self.on_lost(reason)


def lock_file(database: Path) -> Path:
    """The file a bot's flock is on: beside the database, never deleted (``steward.db.lock``)."""
    return database.with_name(database.name + ".lock")


class _FileLock:
    def __init__(self, owner: DatabaseLock, database: Path) -> None:
        self.owner = owner
        self.path = lock_file(database)
        self.database = database
        self.fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not a POSIX system: no lock to take
            log.warning("the database lock is not available on this system: stop the bot before a restore")
            return
        if not self.path.parent.is_dir():
            raise FileNotFoundError(f"the folder {self.path.parent} does not exist (create it, or set DATABASE_URL)")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            if is_disk_full(exc):
                raise disk_full(f"write {self.path}", self.path.parent) from exc
            raise
        mode = fcntl.LOCK_EX if self.owner.exclusive else fcntl.LOCK_SH
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            holders = _flock_holders(self.path)
            os.close(fd)
            raise _refusal(str(self.database), holders, exclusive=self.owner.exclusive,
                           command=self.owner.command) from None  # fmt: skip
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # the flock goes with the last descriptor of this open file
            self.fd = None


def _flock_holders(path: Path) -> list[Holder]:
    """Who holds a flock on ``path``, read from ``/proc/locks`` (Linux); empty elsewhere."""
    try:
        st = path.stat()
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return []
    key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    holders: list[Holder] = []
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or fields[1] != "FLOCK" or fields[5] != key:
            continue
        pid = int(fields[4])
        if pid == os.getpid() or any(h.pid == pid for h in holders):
            continue
        holders.append(Holder(pid=pid, command=_process_command(pid), exclusive=fields[3] == "WRITE"))
    return holders


def _process_command(pid: int) -> str | None:
    """A short name for a process's command line: ``steward run``, ``python -m bot``, ``steward db upgrade``."""
    try:
        argv = [a for a in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0") if a]
    except OSError:
        return None
    if argv and Path(argv[0]).name.startswith("python"):
        argv = ["python", *argv[1:]] if len(argv) > 1 and argv[1] == "-m" else argv[1:]
    if not argv:
        return None
    return " ".join([Path(argv[0]).name, *argv[1:]])[:60]


class _AdvisoryLock:
    """PostgreSQL: one connection of its own, in a thread with its own event loop (so it outlives no loop and stalls
    on none), holding the advisory lock at session level; for a bot, checked every ``heartbeat`` seconds."""

    def __init__(self, owner: DatabaseLock, database_url: str, heartbeat: float) -> None:
        self.owner = owner
        self.url = database_url
        self.heartbeat = heartbeat
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.engine: Any = None
        self.connection: Any = None
        self.watch: Future[None] | None = None
        self.table_oid: int | None = None

    def _call(self, coroutine: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def acquire(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="steward-db-lock", daemon=True)
        self.thread.start()
        try:
            self._call(self._take_first())
        except BaseException:
            self._stop_loop()
            raise
        if not self.owner.exclusive:
            self.watch = asyncio.run_coroutine_threadsafe(self._watch(), self.loop)

    def release(self) -> None:
        if self.loop is None:
            return
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
        try:
            self._call(self._disconnect(), timeout=15.0)
        except Exception:  # the server is gone: the lock went with the session
            log.debug("closing the database lock's connection failed", exc_info=True)
        self._stop_loop()

    def _stop_loop(self) -> None:
        loop, thread = self.loop, self.thread
        self.loop = self.thread = None
        if loop is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=15.0)
        loop.close()

    async def _connect(self) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine
        from sqlalchemy.pool import NullPool

        settings = {
            "application_name": _own_command(self.owner.command),
            # the server notices a bot whose host vanished in about a minute, not two hours
            "tcp_keepalives_idle": "30",
            "tcp_keepalives_interval": "10",
            "tcp_keepalives_count": "3",
        }
        self.engine = create_async_engine(
            normalise_database_url(self.url),
            poolclass=NullPool,
            isolation_level="AUTOCOMMIT",
            connect_args={"server_settings": settings},
        )
        try:
            self.connection = await self.engine.connect()
        except BaseException:
            await self.engine.dispose()
            self.engine = None
            raise

    async def _disconnect(self) -> None:
        connection, engine = self.connection, self.engine
        self.connection = self.engine = None
        try:
            if connection is not None:
                await asyncio.wait_for(connection.close(), 10)  # the session ends: so does its lock
        finally:
            if engine is not None:
                await engine.dispose()

    async def _try_take(self) -> bool:
        from sqlalchemy import text

        function = "pg_try_advisory_lock" if self.owner.exclusive else "pg_try_advisory_lock_shared"
        result = await self.connection.execute(text(f"SELECT {function}(:key)"), {"key": ADVISORY_LOCK_KEY})
        return bool(result.scalar_one())

    async def _holders(self) -> list[Holder]:
        from sqlalchemy import text

        rows = (await self.connection.execute(text(
            "SELECT l.pid, l.mode, a.application_name, a.client_hostname, host(a.client_addr) "
            "FROM pg_catalog.pg_locks l LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = :hi AND l.objid = :lo AND l.objsubid = 1 "
            "AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database()) "
            "AND l.pid <> pg_backend_pid() ORDER BY l.pid"),
            {"hi": ADVISORY_LOCK_KEY >> 32, "lo": ADVISORY_LOCK_KEY & 0xFFFFFFFF})).all()  # fmt: skip
        holders = []
        for session, mode, application, client_host, client_addr in rows:
            pid, host, command = None, client_host or client_addr, None
            name = str(application or "")
            if name.startswith("steward ") and "@" in name:
                command, _, where = name.rpartition(" ")
                number, _, host_name = where.partition("@")
                pid = int(number) if number.isdigit() else None
                host = host_name or host
            holders.append(Holder(pid=pid, host=host, command=command, session=int(session),
                                  exclusive=mode == "ExclusiveLock"))  # fmt: skip
        return holders

    async def _table_oid(self) -> int | None:
        from sqlalchemy import text

        found = await self.connection.execute(text("SELECT to_regclass('public.alembic_version')::oid"))
        value = found.scalar_one_or_none()
        return int(value) if value is not None else None

    async def _take_first(self) -> None:
        await self._connect()
        try:
            if not await self._try_take():
                holders = await self._holders()
                where = make_url(normalise_database_url(self.url)).render_as_string(hide_password=True)
                raise _refusal(where, holders, exclusive=self.owner.exclusive, command=self.owner.command)
            self.table_oid = await self._table_oid()
        except BaseException:
            await self._disconnect()
            raise

    async def _watch(self) -> None:
        """The bot's side: keep the session alive; if it dropped, take the lock again — unless a restore holds it
        or the tables were recreated meanwhile: then the bot must stop."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                oid = await asyncio.wait_for(self._table_oid(), self.heartbeat)
                if self.table_oid is None:
                    self.table_oid = oid  # the start-up upgrade created the tables after the lock was taken
                continue
            except Exception as exc:
                log.warning("the database lock's connection dropped (%s); taking the lock again", exc)
            try:
                await self._disconnect()
            except Exception:
                log.debug("closing the dropped lock connection", exc_info=True)
            while True:
                try:
                    await self._connect()
                    break
                except Exception as exc:
                    log.warning("cannot reconnect for the database lock (%s); trying again", exc)
                    await asyncio.sleep(self.heartbeat)
            try:
                took = await self._try_take()
                oid = await self._table_oid()
            except Exception as exc:
                log.warning("cannot take the database lock again (%s); trying again", exc)
                await self._disconnect()
                continue
            if not took:
                self.owner._lose("a restore took the database while the bot's lock connection was down: stopping")
                return
            if self.table_oid is not None and oid != self.table_oid:
                self.owner._lose("the database was replaced (restored?) while the bot's lock connection was down: "
                                 "stopping")  # fmt: skip
                return
            log.warning("database lock taken again")


# ---------------------------------------------------------------------------------------------------- scheduled


def backup_database(database_url: str, target: Path) -> BackupResult:
    """A backup of the database at ``database_url`` to the new file ``target``: SQLite's online backup
    (:func:`backup_sqlite`) or ``pg_dump`` (:func:`backup_postgres`, whose archive's revision and counts are not
    read: ``revision`` None, 0 tables and rows). What ``steward db backup`` does, for the bot's daily backup."""
    source = sqlite_file(database_url)
    if source is None:
        return BackupResult(path=backup_postgres(database_url, target), revision=None, tables=0, rows=0)
    return backup_sqlite(source, target)


SCHEDULED_BACKUP_LOCK_KEY = int.from_bytes(b"stwd-bak", "big")  # the daily backup's advisory lock (PostgreSQL)


@contextlib.asynccontextmanager
async def scheduled_backup_lock(sessionmaker: Any) -> AsyncIterator[bool]:
    """Hold the daily backup's advisory lock (PostgreSQL, ``pg_try_advisory_xact_lock``: one open transaction of
    ``sessionmaker``'s for the block's length) without waiting: True when this process has it, False when another
    holds it. On SQLite always True without a connection (the processes of one SQLite file share one machine: the
    backup folder's ``flock`` keeps them apart)."""
    from sqlalchemy import text

    async with sessionmaker() as session:
        if session.bind.dialect.name != "postgresql":
            yield True
            return
        async with session.begin():
            found = await session.execute(
                text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": SCHEDULED_BACKUP_LOCK_KEY}
            )
            yield bool(found.scalar_one())
