"""`steward doctor` (issue 43): one line per check, OK / WARN / FAIL with what to fix; exit 1 when anything FAILs."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from alembic import command

from bot.cli import main
from bot.db.migrate import alembic_config, revisions, upgrade_to_head
from bot.settings import Settings, get_settings
from bot.tools.doctor import Needs, application_id, run_checks, token_shape

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"  # shaped like one, not real


def _doctor(monkeypatch: pytest.MonkeyPatch, url: str, *args: str, **env: str) -> int:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DATABASE_URL", url)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    try:
        return main(["doctor", *args])
    finally:
        get_settings.cache_clear()


def _lines(out: str) -> dict[str, str]:
    return {line.split(":")[0].split(None, 1)[1]: line for line in out.splitlines()[:-1]}


def test_a_fresh_migrated_database_without_a_token_fails_the_token_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    upgrade_to_head(url)
    assert _doctor(monkeypatch, url) == 1
    out, err = capsys.readouterr()
    lines = _lines(out)
    assert lines["token"].startswith("FAIL  token: DISCORD_TOKEN is not set")
    assert lines["database"].startswith("OK    database: ") and "club.db" in lines["database"]
    assert lines["migrations"].startswith(f"OK    migrations: at the newest revision {revisions()[-1]}")
    assert lines["intents"].startswith("OK") and lines["fonts"].startswith("OK")
    assert "permissions=2252117641317376" in lines["invite"]  # /setup's list, as the README's invite has it
    assert "discord" not in lines  # no token: Discord is not asked
    assert [x for x in lines.values() if x.startswith("FAIL")] == [lines["token"]]
    assert out.splitlines()[-1].startswith("doctor: ") and "Traceback" not in out + err


def test_an_old_revision_fails_naming_steward_db_upgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), revisions()[-2])
    assert _doctor(monkeypatch, url, "--offline", DISCORD_TOKEN=TOKEN) == 1
    lines = _lines(capsys.readouterr().out)
    assert lines["token"].startswith("OK") and "1234567890123456789" in lines["invite"]
    assert lines["migrations"].startswith(f"FAIL  migrations: at revision {revisions()[-2]}")
    assert "`steward db upgrade`" in lines["migrations"]


def test_a_missing_database_is_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    url = f"sqlite:///{tmp_path / 'none.db'}"
    assert _doctor(monkeypatch, url, "--offline", DISCORD_TOKEN=TOKEN) == 1
    assert "`steward db upgrade`" in _lines(capsys.readouterr().out)["database"]
    assert not (tmp_path / "none.db").exists()


def test_everything_ready_exits_0_and_a_taken_port_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    upgrade_to_head(url)
    assert _doctor(monkeypatch, url, "--offline", DISCORD_TOKEN=TOKEN) == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert _doctor(monkeypatch, url, "--offline", DISCORD_TOKEN=TOKEN, WEB_PORT=str(port)) == 1
    out = capsys.readouterr().out
    assert f"FAIL  web port: 127.0.0.1:{port} cannot be listened on" in out and TOKEN not in out


def test_discord_out_of_reach_is_a_fail_line_not_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import bot.tools.doctor as doctor

    monkeypatch.setattr(doctor, "API", "http://127.0.0.1:1/api/v10")  # a closed port
    url = f"sqlite:///{tmp_path / 'club.db'}"
    upgrade_to_head(url)
    settings = Settings(_env_file=None, database_url=url, discord_token=TOKEN)  # type: ignore[call-arg]
    checks = run_checks(settings, Needs((), 0, ()), online=True)
    reached = [c for c in checks if c.name == "discord"]
    assert len(reached) == 1 and reached[0].status == "FAIL" and "cannot reach Discord" in reached[0].detail


@pytest.mark.parametrize(
    ("token", "says"),
    [(None, "not set"), ("Bot " + TOKEN, "'Bot '"), (f'"{TOKEN}"', "quoted"), ("abc.def", "not shaped"),
     ("123456789012345678", "not shaped")],
)  # fmt: skip
def test_a_malformed_token_says_what_is_wrong(token: str | None, says: str):
    check = token_shape(token)
    assert check.status == "FAIL" and says in check.detail


def test_the_application_id_comes_from_the_token():
    assert application_id(TOKEN) == 1234567890123456789
    assert token_shape(TOKEN).status == "OK"
