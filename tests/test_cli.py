"""The `steward` command line frame: help, db upgrade on an empty SQLite file, no drift."""

from __future__ import annotations

import http.server
import io
import os
import re
import subprocess
import sys
import threading
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
    for command in ("run", "db", "demo", "rr", "risiko", "draw", "standings", "season", "render"):
        assert f"    {command} " in out, command


def test_every_engine_tool_module_registers_its_commands():
    parser = build_parser()
    actions = [a for a in parser._subparsers._group_actions if a.choices]  # type: ignore[union-attr]
    registered = set(actions[0].choices)
    assert {"rr", "risiko", "draw", "standings", "season", "render", "rule", "verify", "modulo", "print"} <= registered
    assert len(TOOL_MODULES) == 8


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
    # issue 43: from a git checkout, the `git describe` follows in brackets
    assert re.fullmatch(rf"steward {re.escape(declared)}( \(git \S+\))?", capsys.readouterr().out.strip())


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


MALFORMED_URLS = [  # nine DATABASE_URLs a club's admin might really type
    "nonsense::://",
    "mysql+nope://user:sekret@host/db",
    "mysql://user:sekret@host/db",  # a real dialect whose driver the project does not install
    "sqlite+pysqlite:///steward.db",  # a synchronous driver
    "postgresql://user:sekret@host:port/db",  # the port left as a placeholder
    "postgresql://user:sekret@[::1/db",  # an unclosed IPv6 bracket
    "sqlite:///",  # no file: a database in memory, lost at exit
    "sqlite:///:memory:",
    "redis://user:sekret@host/0",
]


@pytest.mark.parametrize("url", MALFORMED_URLS)
def test_a_malformed_database_url_is_one_line_exit_2_with_the_password_masked(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """A malformed or unsupported DATABASE_URL ends in one clear line naming the setting, exit 2 (a setting to
    fix), and never prints the password; `steward run` says the same before anything else."""
    from bot.settings import get_settings

    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DISCORD_TOKEN", "sekret")
    for command in (["db", "upgrade"], ["run"]):
        get_settings.cache_clear()
        try:
            assert main(command) == 2
        finally:
            get_settings.cache_clear()
        out, err = capsys.readouterr()
        assert err.startswith("error: configuration: DATABASE_URL") and err.count("\n") == 1, err
        assert "sekret" not in err + out


def _one_line(result: subprocess.CompletedProcess[str], code: int, says: str) -> None:
    assert result.returncode == code, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.stderr
    assert "sekret" not in result.stderr + result.stdout and "Traceback" not in result.stderr


def test_an_unreachable_postgresql_server_is_one_line_with_the_password_masked(tmp_path: Path):
    result = _steward(["db", "upgrade"], tmp_path, "postgresql://steward:sekret@127.0.0.1:1/x")
    _one_line(result, 1, "cannot reach the database at postgresql://steward:***@")


def test_a_read_only_database_is_refused_before_the_bot_contacts_discord(tmp_path: Path):
    """`steward run` on a database it cannot write stops at start-up with the driver's reason, not at a player's
    first command; Discord is never contacted (no network here: that would be a different line)."""
    db = tmp_path / "club.db"
    assert _steward(["db", "upgrade"], tmp_path, f"sqlite:///{db}").returncode == 0
    env_url = f"sqlite:///file:{db}?mode=ro&uri=true"
    env = dict(os.environ, DATABASE_URL=env_url, DISCORD_TOKEN="not-a-token", PYTHONPATH=str(REPO))
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    _one_line(result, 1, "refused: attempt to write a readonly database")


def test_a_full_disk_is_one_line(tmp_path: Path):
    """A database on a full file system (a 64 KiB tmpfs: the migrations need more) ends in one line."""
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(tiny)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        result = _steward(["db", "upgrade"], tmp_path, f"sqlite:///{tiny / 'club.db'}")
    finally:
        subprocess.run(["umount", str(tiny)], capture_output=True)
    _one_line(result, 1, "database or disk is full")


class _RefusingDiscord(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.mark.parametrize(("refuse", "code", "says"), [(False, 1, "cannot reach Discord"),
                                                       (True, 2, "Discord refused DISCORD_TOKEN")])  # fmt: skip
def test_discord_unreachable_or_refusing_the_token_is_one_line_not_a_database_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refuse: bool,
    code: int,
    says: str,
):
    """`steward run` with Discord out of reach (a closed port) or refusing the token (401 on login): one line
    saying so — never "cannot reach the database" — exit 1 for the network, 2 for the setting."""
    from discord.http import Route

    from bot.settings import get_settings

    server = http.server.HTTPServer(("127.0.0.1", 0), _RefusingDiscord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1] if refuse else 1
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'club.db'}")
    monkeypatch.setenv("DISCORD_TOKEN", "sekret")
    monkeypatch.setenv("LOG_LEVEL", "ERROR")  # issue 43: the log writes to standard error too; only the error here
    get_settings.cache_clear()
    try:
        assert main(["run"]) == code
    finally:
        get_settings.cache_clear()
        server.shutdown()
    err = capsys.readouterr().err
    assert err.startswith(f"error: {says}") and err.count("\n") == 1 and "sekret" not in err, err


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
    monkeypatch.setattr(
        "sys.stdin",
        io.TextIOWrapper(io.BytesIO(b'{"preset": "risiko-firk-1", "query": "ho 8 carte", "limit": 5}')),
    )
    assert main(["rule", "--json"]) == 0
    assert len(_json.loads(capsys.readouterr().out)["matches"]) <= 5
    for bad in ('{"preset": "risiko-firk-1"}', '{"preset": "monopoly", "query": "x"}',
                '{"preset": "risiko-firk-1", "query": "x", "limit": 99}', "not json"):  # fmt: skip
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((bad).encode())))
        assert main(["rule", "--json"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error:") and "\n" not in err


def test_a_reader_that_closes_the_pipe_early_ends_quietly_with_exit_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/cli.md: `steward … | head` ends quietly with exit 0 when the reader closes the pipe early — no
    BrokenPipeError traceback (the clause that says so used to come after a broader one that caught it first)."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone: the first write fails with EPIPE
    with os.fdopen(write_end, "w") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"attacker_dice": 3, "defender_dice": 2}')))
        assert main(["risiko", "odds", "--json"]) == 0


def test_input_that_is_not_utf8_is_one_line_from_a_file_or_standard_input(tmp_path, capsys):
    """A non-UTF-8 file or pipe used to end in a UnicodeDecodeError traceback (whatever the terminal's locale)."""
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"preset": "risiko-firk-1", "query": "dadi \xc3\x28"}')
    assert main(["rule", "--input", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "error: input file is not UTF-8 text (byte 44 cannot be read)\n"
    done = subprocess.run([sys.executable, "-m", "bot.cli", "rule"], input=bad.read_bytes(), capture_output=True,
                          env={**os.environ, "LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}, check=False)  # fmt: skip
    assert done.returncode == 2 and done.stderr == b"error: standard input is not UTF-8 text (byte 44 cannot be read)\n"


DOCS_EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
CODE_LIKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # three_cannons, first_game_table_points, bound_met


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["risiko", "cards", "-i", "risiko/cards.json"], ["Three cannons: 4 + 2 territory bonus", "hand: may draw"]),
        (["risiko", "sdadata", "-i", "risiko/sdadata.json"], ["time up: Time is up.", "turn ended: next turn"]),
        (["risiko", "score", "-i", "risiko/score.json"], ["26 table points [active]"]),
        (
            ["draw", "-i", "draw/export.json", "--seed", "3"],
            ["At a 5-player table again", "optimality: optimal for these cinquisti", "cinquisti (drawn first"],
        ),
        (["standings", "-i", "standings/firk.json"], ["tie carla, anna: the table points of the first game"]),
        (["rr", "verify", "-i", "rr/verify.json"], ["in 12 moves; valid"]),
    ],
)
def test_text_output_prints_words_not_internal_codes(argv: list[str], expected: list[str], capsys, monkeypatch):
    """`steward … --text` once printed codes (`three_cannons`, `first_game_table_points`): it prints words; the
    JSON output keeps the codes."""
    monkeypatch.chdir(DOCS_EXAMPLES)
    assert main([*argv, "--text"]) == 0
    text = capsys.readouterr().out
    for words in expected:
        assert words in text, text
    assert CODE_LIKE.findall(text) == [], text
    assert main([*argv, "--json"]) == 0
    assert "_" in capsys.readouterr().out  # the codes are still there for programs


def test_text_battle_reason_in_words(capsys, monkeypatch):
    doc = b'{"attacker_dice": [6, 5, 1], "defender_dice": [5, 5, 2], "attacker_armies": 2, "defender_armies": 3}'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(doc)))
    assert main(["risiko", "battle", "--text"]) == 0
    text = capsys.readouterr().out
    assert "attack NOT allowed: too many attack dice for the armies" in text
    assert CODE_LIKE.findall(text) == [], text
