"""The `steward` command line frame (issue 2 acceptance): help, db upgrade on an empty SQLite file, no drift."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

import bot
from bot.cli import TOOL_MODULES, build_parser, main
from bot.db.migrate import alembic_config
from bot.db.models import SQLModel

# the newest migration: what `steward db upgrade` reports on a new database
HEAD = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


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
    assert {"rr", "risiko", "draw", "standings", "render", "rule"} <= registered
    assert len(TOOL_MODULES) == 5


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
    assert capsys.readouterr().out.startswith(f"created {len(SQLModel.metadata.tables)} tables at revision {HEAD} in ")
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        assert set(SQLModel.metadata.tables) <= set(inspect(conn).get_table_names())
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert diff == []


REPO = Path(__file__).resolve().parents[1]


def _steward(args: list[str], cwd: Path, database_url: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=database_url, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_db_upgrade_from_another_directory_says_what_it_created_then_that_nothing_is_left(tmp_path: Path):
    """Issue 11: `steward db upgrade` reports its work; the migrations folder is found wherever we run from."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    url = f"sqlite:///{tmp_path / 'new.db'}"
    first = _steward(["db", "upgrade"], elsewhere, url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("created ") and f" tables at revision {HEAD} in sqlite" in first.stdout
    assert "new.db" in first.stdout
    second = _steward(["db", "upgrade"], elsewhere, url)
    assert second.returncode == 0, second.stderr
    assert f"already at revision {HEAD}: nothing to do" in second.stdout
    assert not (elsewhere / "migrations").exists()


def test_db_upgrade_masks_the_password_in_what_it_prints():
    from bot.settings import Settings

    assert "secret" not in Settings(database_url="postgresql://u:secret@db:5432/x").safe_database_url()


def test_the_migrations_folder_is_located_not_imported():
    """Issue 11 (structure): bot.db.migrate finds env.py and versions/ without importing `migrations`."""
    from bot.db.migrate import migrations_dir

    folder = migrations_dir()
    assert (folder / "env.py").is_file() and (folder / "versions").is_dir()
    source = (REPO / "bot" / "db" / "migrate.py").read_text(encoding="utf-8")
    assert "import migrations" not in source


def test_version_matches_pyproject_and_the_package(capsys: pytest.CaptureFixture[str]):
    """Issue 11: `steward --version`; the package's __version__ (fallback) equals pyproject's version."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert bot.__version__ == declared
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"steward {declared}"


def test_license_file_matches_the_declared_licence():
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["license"]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert declared == "MIT" and text.startswith("MIT License") and "Tournament Steward contributors" in text


def test_postgres_marker_names_the_variable_the_fixtures_read():
    markers = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    postgres = next(m for m in markers["markers"] if m.startswith("postgres:"))
    assert "TEST_POSTGRES_URL" in postgres
    assert 'os.environ.get("TEST_POSTGRES_URL")' in (REPO / "tests" / "conftest.py").read_text(encoding="utf-8")


def test_an_installed_package_carries_the_migrations_folder():
    """Issue 11 (structure): a non-editable install ships env.py, the template and versions/ next to `bot`.

    Checked once by hand with `pip wheel .` and `steward db upgrade` from the unpacked wheel; here the packaging
    settings that make it so are pinned.
    """
    tool = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "migrations*" in tool["packages"]["find"]["include"]  # migrations and migrations.versions (.py files)
    assert "*.mako" in tool["package-data"]["migrations"]
    assert (REPO / "migrations" / "versions" / "__init__.py").is_file()


@pytest.mark.parametrize(
    ("url", "code", "says"),
    [
        ("postgresql://steward:sekret@127.0.0.1:1/x", 1, "cannot reach the database at postgresql://steward:***@"),
        ("nonsense::://", 2, "configuration: DATABASE_URL"),
        ("mysql+nope://user:sekret@host/db", 2, "configuration: DATABASE_URL"),
    ],
)
def test_start_up_failures_are_one_line_with_the_password_masked(tmp_path: Path, url: str, code: int, says: str):
    """Issue 15 item 15: an unreachable server or a malformed DATABASE_URL ends in one clear line, exit 2 for a
    setting to fix, and never prints the database password."""
    result = _steward(["db", "upgrade"], tmp_path, url)
    assert result.returncode == code
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.stderr
    assert "sekret" not in result.stderr + result.stdout and "Traceback" not in result.stderr


def test_the_secret_mask_covers_every_url_in_a_message():
    from bot.cli import mask_secrets

    text = "postgresql://a:b@h/x and postgresql+asyncpg://steward:p4ss:w0rd@db:5432/s"
    assert mask_secrets(text) == "postgresql://a:***@h/x and postgresql+asyncpg://steward:***@db:5432/s"


def test_bot_rul_1_steward_rule_meets_its_contract_and_refuses_bad_input_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    """CLI.md "steward rule": matches best first with article, title, summary (the query's language) and score."""
    import io
    import json as _json

    assert main(["rule", "two of us called seven at the same moment, who shows first?", "--preset", "ricochet-v3.3",
                 "--json"]) == 0  # fmt: skip
    out = _json.loads(capsys.readouterr().out)
    assert out["locale"] == "en" and out["matches"][0]["article"] == "4.9" and out["matches"][0]["score"] == 1.0
    assert {"article", "title", "summary", "score"} <= set(out["matches"][0])
    monkeypatch.setattr("sys.stdin", io.StringIO('{"preset": "risiko-firk-1", "query": "ho 8 carte", "limit": 5}'))
    assert main(["rule", "--json"]) == 0
    assert len(_json.loads(capsys.readouterr().out)["matches"]) <= 5
    for bad in ('{"preset": "risiko-firk-1"}', '{"preset": "monopoly", "query": "x"}',
                '{"preset": "risiko-firk-1", "query": "x", "limit": 99}', "not json"):  # fmt: skip
        monkeypatch.setattr("sys.stdin", io.StringIO(bad))
        assert main(["rule", "--json"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error:") and "\n" not in err
