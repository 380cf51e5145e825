"""The migration ladder: data written at every revision reaches head with every row and value kept.

For each revision from the first to head, on SQLite and (when ``TEST_POSTGRES_URL`` is set) on PostgreSQL: an
empty database is migrated to that revision, the club's data set of ``ladder_data`` is written with the schema of
that revision, then ``steward db upgrade`` brings it to head. Every row must still be there with every value it
had; the values a migration derives (name keys, publication flags, reminder statuses) must be what the migration
promises. A new migration cannot land without passing this; a new table needs rows in ``ladder_data``.

Also here: an upgrade that fails part-way leaves the database exactly as it was (one transaction), and on SQLite the
upgrade first writes a consistent backup named by the revision it held.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot import cli
from bot.db.migrate import alembic_config, migrations_dir, revisions, upgrade_to_head
from bot.db.session import make_engine
from bot.settings import get_settings, normalise_database_url
from tests.conftest import POSTGRES_URL
from tests.db import ladder_data

REVISIONS = revisions()
HEAD = REVISIONS[-1]
Snapshot = dict[str, dict[int, dict[str, Any]]]


def _backends() -> list[str]:
    return ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]


@pytest.fixture(params=_backends())
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a PostgreSQL database of its own beside the test database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'club.db'}"
        return
    assert POSTGRES_URL is not None
    base = make_url(normalise_database_url(POSTGRES_URL))
    name = f"{base.database}_ladder"

    async def recreate(drop_only: bool = False) -> None:
        admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
        try:
            async with admin.connect() as conn:
                await conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                if not drop_only:
                    await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        finally:
            await admin.dispose()

    asyncio.run(recreate())
    yield base.set(database=name).render_as_string(hide_password=False)
    asyncio.run(recreate(drop_only=True))


def _migrate_to(url: str, revision: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)


async def _run(url: str, fn: Any) -> Any:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            return await conn.run_sync(fn)
    finally:
        await engine.dispose()


def _write(conn: sa.Connection) -> set[str]:
    """The data set as the schema of the database's revision allows it; the tables written."""
    meta = sa.MetaData()
    meta.reflect(conn)
    written: set[str] = set()
    for n, (name, row) in enumerate(ladder_data.rows()):
        table = meta.tables.get(name)
        if table is None:
            continue  # the table comes with a later revision
        conn.execute(table.insert().values(ladder_data.fill(table, row, n, conn.dialect.name)))
        written.add(name)
    if conn.dialect.name == "postgresql":  # explicit ids: move each sequence past them, as the ORM's inserts would
        for table in meta.tables.values():
            if "id" in table.columns and table.name in written:
                conn.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                     f"(SELECT max(id) FROM {table.name}))"))  # fmt: skip
    return written


def _snapshot(conn: sa.Connection) -> Snapshot:
    meta = sa.MetaData()
    meta.reflect(conn)
    out: Snapshot = {}
    for table in meta.sorted_tables:
        if table.name == "alembic_version":
            continue
        rows = conn.execute(sa.select(table).order_by(table.c.id)).mappings().all()
        out[table.name] = {int(r["id"]): dict(r) for r in rows}
    return out


def _upgrade_with_steward(url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        code = cli.main(["db", "upgrade"])
    finally:
        get_settings.cache_clear()
    out = capsys.readouterr().out
    assert code == 0, out
    return out


@pytest.mark.parametrize("revision", REVISIONS)
def test_data_written_at_every_revision_reaches_head_intact(
    revision: str, empty_database: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = empty_database
    _migrate_to(url, revision)
    written = asyncio.run(_run(url, _write))
    before = asyncio.run(_run(url, _snapshot))
    assert set(before) == written, "every table of this revision holds rows"
    assert all(before[t] for t in before)

    out = _upgrade_with_steward(url, monkeypatch, capsys)
    after = asyncio.run(_run(url, _snapshot))
    current = asyncio.run(_run(url, lambda c: c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()))
    assert current == HEAD

    for table, rows in before.items():
        assert set(after[table]) == set(rows), f"{table}: rows lost or added"
        for row_id, values in rows.items():
            kept = {k: after[table][row_id][k] for k in values}
            assert kept == values, f"{table} row {row_id} changed"
    every_head_table = {name for name, _ in ladder_data.rows()}
    assert set(after) <= every_head_table, f"tables without ladder rows: {set(after) - every_head_table}"

    _check_derived(after, before)
    if url.startswith("sqlite") and revision != HEAD:
        backup = Path(make_url(url).database or "").with_name(f"club.db.rev{revision}.bak")
        assert f"backup of revision {revision} written to {backup}" in out
        copy = sqlite3.connect(backup)
        try:
            assert copy.execute("SELECT version_num FROM alembic_version").fetchone()[0] == revision
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert copy.execute("SELECT count(*) FROM registration").fetchone()[0] == len(before["registration"])
        finally:
            copy.close()


def _check_derived(after: Snapshot, before: Snapshot) -> None:
    """What the migrations compute from older data, as they promise it."""
    regs = after["registration"]
    assert regs[1]["name_key"] == "anna rossi"
    if "name_key" not in before["registration"][1]:  # keys built by 0005: the second "Anna Rossi" keeps its name
        assert regs[2]["name_key"] == "anna rossi#2" and regs[2]["display_name"] == "ANNA ROSSI"
        assert after["tournament"][3]["name_key"] == "coppa#3"
    if "thread_pinged" not in before["game_table"][1]:  # 0007: a table with a thread had its players told
        assert [after["game_table"][i]["thread_pinged"] for i in (1, 3, 4)] == [True, True, False]
    reminders = after["scheduled_reminder"]
    if "status" not in before["scheduled_reminder"][1]:  # sent before statuses existed: delivered, not pending
        assert reminders[1]["status"] == "delivered"
        assert [reminders[i]["status"] for i in (2, 3, 5)] == ["pending"] * 3
    if "offence" not in before["sanction"][1]:  # 0002: older sanctions are first offences, recorded
        assert {s["offence"] for s in after["sanction"].values()} == {1}
        assert {s["consequence"] for s in after["sanction"].values()} == {"recorded"}
    if "member_locale" not in before:  # 0010: nobody's language is invented: DMs keep the server's until they speak
        assert after["member_locale"] == {}


def test_a_failed_upgrade_leaves_the_database_exactly_as_it_was(tmp_path: Path) -> None:
    """A migration that fails after changing tables (here: a column added to a parent table by a batch rebuild,
    then an error) is rolled back whole: the same schema, rows and revision as before, byte for byte in a dump."""
    scripts = tmp_path / "migrations"
    shutil.copytree(migrations_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "9999_fails.py").write_text(
        f'''"""fails half-way"""
from alembic import op
import sqlalchemy as sa

revision = "9999"
down_revision = "{HEAD}"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournament") as batch_op:
        batch_op.add_column(sa.Column("extra", sa.Integer(), nullable=False, server_default="1"))
    op.execute("DELETE FROM seat")
    raise RuntimeError("a migration failed half-way")


def downgrade():
    pass
'''
    )
    path = tmp_path / "club.db"
    url = f"sqlite:///{path}"
    _migrate_to(url, HEAD)
    asyncio.run(_run(url, _write))

    def dump() -> list[str]:
        conn = sqlite3.connect(path)
        try:
            return list(conn.iterdump())
        finally:
            conn.close()

    before = dump()
    with pytest.raises(RuntimeError, match="half-way"):
        upgrade_to_head(url, script_location=scripts)
    assert dump() == before


def test_an_upgrade_that_would_break_a_foreign_key_is_refused_whole(tmp_path: Path) -> None:
    """Foreign keys are off while tables are rebuilt, and checked before the commit: a migration that would leave a
    row pointing at nothing is rolled back."""
    scripts = tmp_path / "migrations"
    shutil.copytree(migrations_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "9999_orphans.py").write_text(
        f'''"""orphans seats"""
from alembic import op

revision = "9999"
down_revision = "{HEAD}"
branch_labels = None
depends_on = None


def upgrade():
    op.execute("DELETE FROM registration WHERE id = 1")


def downgrade():
    pass
'''
    )
    url = f"sqlite:///{tmp_path / 'club.db'}"
    _migrate_to(url, HEAD)
    asyncio.run(_run(url, _write))
    with pytest.raises(Exception, match="point at nothing"):
        upgrade_to_head(url, script_location=scripts)
    kept = asyncio.run(_run(url, lambda c: c.execute(sa.text("SELECT count(*) FROM registration")).scalar()))
    assert kept == len([r for t, r in ladder_data.rows() if t == "registration"])


def test_no_backup_for_a_new_database_or_one_already_at_head(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    assert upgrade_to_head(url).backup is None
    assert upgrade_to_head(url).backup is None
    assert sorted(p.name for p in tmp_path.iterdir() if ".bak" in p.name) == []
