"""The bot's log (issue 43): one line per event, text or JSON; LOG_FILE rotated at LOG_MAX_MB keeping LOG_KEEP
files; the Discord token and the database password never written, even when logged on purpose."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.logs import configure_logging
from bot.settings import Settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture(autouse=True)
def _restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        root.removeHandler(handler)
        if handler not in handlers:
            handler.close()
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def _settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(_env_file=None, database_url=f"sqlite:///{tmp_path / 'club.db'}", **values)  # type: ignore[call-arg]


def _boom() -> None:
    try:
        raise ValueError("first line\nsecond line")
    except ValueError:
        logging.getLogger("bot.test").exception("it failed\nfor a reason")


def test_json_lines_parse_one_per_event_even_with_a_multi_line_exception(tmp_path: Path):
    stream = io.StringIO()
    configure_logging(_settings(tmp_path, log_format="json"), stream=stream)
    logging.getLogger("bot.test").info("hello %s", "club")
    _boom()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["level"] == "INFO" and first["logger"] == "bot.test" and first["message"] == "hello club"
    assert {"time", "level", "logger", "message"} <= set(first)
    assert second["level"] == "ERROR" and second["message"] == "it failed\nfor a reason"
    assert "Traceback" in second["exception"] and "second line" in second["exception"]


def test_text_is_one_line_per_event_with_time_level_and_logger(tmp_path: Path):
    stream = io.StringIO()
    configure_logging(_settings(tmp_path), stream=stream)
    logging.getLogger("bot.test").warning("plain")
    _boom()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].endswith(" WARNING bot.test: plain") and lines[0][:4].isdigit()
    assert " ERROR bot.test: it failed\\nfor a reason\\nTraceback" in lines[1]


def test_the_file_rotates_at_its_size_and_keeps_log_keep_files(tmp_path: Path):
    log_file = tmp_path / "logs" / "steward.log"  # the folder is made
    configure_logging(_settings(tmp_path, log_file=str(log_file), log_max_mb=1, log_keep=2), stream=io.StringIO())
    line = "x" * 1000
    for _ in range(3 * 1100):  # about 3.3 MB of events
        logging.getLogger("bot.test").info(line)
    files = sorted(p.name for p in log_file.parent.iterdir())
    assert files == ["steward.log", "steward.log.1", "steward.log.2"]
    for path in log_file.parent.iterdir():
        assert path.stat().st_size <= 1024 * 1024


def test_the_token_and_the_database_password_never_reach_the_file(tmp_path: Path):
    log_file = tmp_path / "steward.log"
    stream = io.StringIO()
    settings = Settings(_env_file=None, discord_token=TOKEN, log_file=str(log_file), log_format="json",  # type: ignore[call-arg]
                        database_url="postgresql://steward:Sup3rSekret@db.example:5432/steward")  # fmt: skip
    configure_logging(settings, stream=stream)
    log = logging.getLogger("bot.test")
    log.warning("the token is %s", TOKEN)  # on purpose
    log.warning("token again: " + TOKEN[:-1] + TOKEN[-1])
    log.info("database %s", "postgresql+asyncpg://steward:Sup3rSekret@db.example:5432/steward")
    log.info("the password alone: Sup3rSekret")
    try:
        raise RuntimeError(f"login with {TOKEN} failed")
    except RuntimeError:
        log.exception("start-up")
    for handler in logging.getLogger().handlers:
        handler.flush()
    written = log_file.read_text(encoding="utf-8")
    for text in (written, stream.getvalue()):
        assert TOKEN not in text and "Sup3rSekret" not in text
        assert len(text.splitlines()) == 5 and text.count("***") >= 5
    assert "steward:***@db.example" in written


def test_log_level_comes_from_the_settings(tmp_path: Path):
    stream = io.StringIO()
    configure_logging(_settings(tmp_path, log_level="warning"), stream=stream)
    logging.getLogger("bot.test").info("hidden")
    logging.getLogger("bot.test").error("shown")
    assert stream.getvalue().splitlines()[-1].endswith("ERROR bot.test: shown") and "hidden" not in stream.getvalue()
