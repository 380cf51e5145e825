"""The `steward` command line frame (issue 2 acceptance): help, db upgrade on an empty SQLite file, no drift."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from bot.cli import TOOL_MODULES, build_parser, main
from bot.db.models import SQLModel


def test_steward_help_lists_every_command(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for command in ("run", "db", "demo", "rr", "risiko", "draw", "standings", "render"):
        assert f"    {command} " in out, command


def test_every_engine_tool_module_registers_its_commands():
    parser = build_parser()
    actions = [a for a in parser._subparsers._group_actions if a.choices]  # type: ignore[union-attr]
    registered = set(actions[0].choices)
    assert {"rr", "risiko", "draw", "standings", "render"} <= registered
    assert len(TOOL_MODULES) == 4


def test_db_upgrade_on_an_empty_sqlite_file_creates_every_table_with_no_drift(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    db = tmp_path / "empty.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{db}")
    from bot.settings import get_settings

    get_settings.cache_clear()
    try:
        assert main(["db", "upgrade"]) == 0
    finally:
        get_settings.cache_clear()
    assert "up to date" in capsys.readouterr().out
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        assert set(SQLModel.metadata.tables) <= set(inspect(conn).get_table_names())
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert diff == []
