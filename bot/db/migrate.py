"""Run Alembic migrations programmatically (``steward db upgrade`` and bot start-up).

The migration scripts live in the top-level ``migrations`` folder, installed next to ``bot`` (it is listed in
the package discovery of pyproject.toml). It is located, never imported: importing it would run nothing useful
and would tie this module to the folder being an importable package on ``sys.path`` at import time.
"""

from __future__ import annotations

import asyncio
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bot.db.backup import (
    DiskFull,
    backup_before_upgrade,
    disk_full,
    is_disk_full,
    remove_partial,
    require_sqlite_folder,
    sqlite_file,
)
from bot.settings import normalise_database_url

VERSION_TABLE = "alembic_version"


def migrations_dir() -> Path:
    """The folder holding ``env.py`` and ``versions/``, wherever the package is installed.

    ``find_spec`` of a top-level name only locates it (nothing is executed). When no ``migrations`` is
    importable (e.g. ``sys.path`` lacks the project root) the folder next to the ``bot`` package is used.
    """
    spec = importlib.util.find_spec("migrations")
    candidates: list[Path] = []
    if spec is not None and spec.submodule_search_locations:
        candidates.extend(Path(p) for p in spec.submodule_search_locations)
    candidates.append(Path(__file__).resolve().parents[2] / "migrations")
    for candidate in candidates:
        if (candidate / "env.py").is_file() and (candidate / "versions").is_dir():
            return candidate.resolve()
    raise FileNotFoundError("migrations folder (env.py, versions/) not found next to the bot package")


def alembic_config(database_url: str, *, script_location: Path | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(script_location or migrations_dir()))
    # Passed as an attribute, not an ini option: URLs may contain '%' which configparser would interpolate.
    cfg.attributes["database_url"] = normalise_database_url(database_url)
    return cfg


@dataclass(frozen=True)
class UpgradeResult:
    """What an upgrade did: revisions before/after (None = never migrated) and the tables it created."""

    before: str | None
    after: str | None
    created_tables: tuple[str, ...] = field(default=())
    backup: Path | None = None  # the copy of the SQLite file written before a real upgrade

    @property
    def changed(self) -> bool:
        return self.before != self.after


def _read_state(connection: Connection) -> tuple[str | None, frozenset[str]]:
    revision = MigrationContext.configure(connection).get_current_revision()
    return revision, frozenset(inspect(connection).get_table_names())


async def _state(database_url: str) -> tuple[str | None, frozenset[str]]:
    from bot.db.session import make_engine

    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_read_state)
    finally:
        await engine.dispose()


def revisions(script_location: Path | None = None) -> list[str]:
    """Every revision of the migration scripts, oldest first."""
    script = ScriptDirectory.from_config(alembic_config("sqlite:///unused.db", script_location=script_location))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def upgrade_to_head(database_url: str, *, script_location: Path | None = None, backup: bool = True) -> UpgradeResult:
    """Apply every pending migration, in one transaction, and say what changed. Before changing an SQLite database
    that holds data at an older revision, a consistent copy is written next to it (``<file>.rev<revision>.bak``).
    A full disk is :class:`~bot.db.backup.DiskFull` (one line) and leaves nothing behind: no partial copy, no copy
    of a database the failed upgrade left unchanged, no new SQLite file that never held a schema.
    Blocking: call it through ``asyncio.to_thread`` from async code."""
    require_sqlite_folder(database_url)
    path = sqlite_file(database_url)
    existed = path is not None and path.exists()
    saved: Path | None = None
    try:
        before, tables_before = asyncio.run(_state(database_url))
        config = alembic_config(database_url, script_location=script_location)
        head = ScriptDirectory.from_config(config).get_current_head()
        if backup and path is not None and before is not None and before != head and path.is_file():
            saved = backup_before_upgrade(path, before)
        command.upgrade(config, "head")
    except Exception as exc:
        folder = path.parent if path is not None else None
        if isinstance(exc, DiskFull) or not is_disk_full(exc, folder):
            raise
        if saved is not None:  # the upgrade is one transaction: the database is as it was, its copy only takes room
            saved.unlink(missing_ok=True)
        if path is not None and not existed:  # a file this call created and never gave a schema
            remove_partial(path)
        if path is None:
            raise DiskFull(f"the database server's disk is full ({str(exc).splitlines()[0][:160]}); free some "
                           "space, then run it again (nothing was changed)") from exc  # fmt: skip
        raise disk_full(f"upgrade {path}", path.parent, database=path) from exc
    after, tables_after = asyncio.run(_state(database_url))
    created = tuple(sorted(tables_after - tables_before - {VERSION_TABLE}))
    return UpgradeResult(before=before, after=after, created_tables=created, backup=saved)


async def _write_probe(database_url: str) -> None:
    from sqlalchemy import text

    from bot.db.session import make_engine

    engine = make_engine(database_url)
    try:
        async with engine.connect() as connection, connection.begin() as transaction:
            await connection.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = version_num"))
            await transaction.rollback()
    finally:
        await engine.dispose()


def check_writable(database_url: str) -> None:
    """Raise the driver's error now if the database cannot be written (a read-only file or mount, a read-only
    replica), instead of on a player's first command. Writes nothing: the probe's no-op update is rolled back."""
    require_sqlite_folder(database_url)
    asyncio.run(_write_probe(database_url))
