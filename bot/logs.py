"""The bot's log: one line per event, on standard error and, with ``LOG_FILE``, in a rotated file; never a secret.

``configure_logging(settings)`` is called once by ``steward run``. Under systemd, standard error goes to the journal
(``journalctl -u steward``), so ``LOG_FILE`` is only needed where nothing collects standard error.

- **text** (``LOG_FORMAT=text``, the default): ``time LEVEL logger: message``; a traceback stays on the same line,
  its line breaks written as ``\\n`` (one event, one line: ``grep`` and the journal keep it whole).
- **json** (``LOG_FORMAT=json``): one JSON object per line, ``time`` (ISO 8601 with the offset), ``level``,
  ``logger``, ``message`` and, when there is one, ``exception`` (the traceback, escaped by JSON).

A filter on every handler replaces the Discord token and the database password with ``***`` wherever they appear —
in the message, its arguments or a traceback — even when logged on purpose; any ``scheme://user:password@`` and
anything shaped like a Discord token are masked as well.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from bot.settings import Settings

MASK = "***"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_URL_PASSWORD = re.compile(r"(://[^:/@\s]*):[^@\s]*@")
# a bot token: the application id in base64, a timestamp, an HMAC (three base64url parts joined by dots)
_TOKEN_SHAPE = re.compile(r"\b[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}\b")
_OURS = "_steward_handler"  # marks the handlers this module installed, so a second call replaces them


class RedactSecrets(logging.Filter):
    """Replace each secret (and anything shaped like one) with ``***`` in the record, before any handler writes it."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        text = _URL_PASSWORD.sub(rf"\1:{MASK}@", text)
        return _TOKEN_SHAPE.sub(MASK, text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message``, the traceback on the same line (its line breaks as ``\\n``)."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "").replace("\n", "\\n")


class JsonFormatter(logging.Formatter):
    """One JSON object per event: time, level, logger, message and the exception's text when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        event: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created).astimezone().isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            event["exception"] = record.exc_text
        if record.stack_info:
            event["stack"] = self.formatStack(record.stack_info)
        return json.dumps(event, ensure_ascii=False)


def secrets_of(settings: Settings) -> list[str]:
    """The values that must never be written: the Discord token and the database password."""
    from sqlalchemy.engine import make_url

    found: list[str] = []
    if settings.discord_token is not None:
        found.append(settings.discord_token.get_secret_value().strip())
    try:
        password = make_url(settings.database_url).password
    except Exception:  # a malformed URL is refused by the settings already; nothing to add here
        password = None
    if password:
        found.append(str(password))
    return found


def configure_logging(
    settings: Settings, *, level: int | str | None = None, stream: TextIO | None = None
) -> list[logging.Handler]:
    """Set the root logger up from the settings (``LOG_LEVEL``, ``LOG_FORMAT``, ``LOG_FILE``, ``LOG_MAX_MB``,
    ``LOG_KEEP``), replacing any handler set before (``logging.basicConfig`` or an earlier call). Returns the new
    handlers. ``OSError`` when ``LOG_FILE`` cannot be opened (the caller says so in one line)."""
    formatter: logging.Formatter = JsonFormatter() if settings.log_format == "json" else TextFormatter()
    redact = RedactSecrets(secrets_of(settings))
    handlers: list[logging.Handler] = [logging.StreamHandler(stream if stream is not None else sys.stderr)]
    if settings.log_file:
        path = Path(settings.log_file).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(
            logging.handlers.RotatingFileHandler(
                path, maxBytes=settings.log_max_mb * 1024 * 1024, backupCount=settings.log_keep, encoding="utf-8"
            )
        )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
        if getattr(old, _OURS, False):
            old.close()
    for handler in handlers:
        handler.setFormatter(formatter)
        handler.addFilter(redact)
        setattr(handler, _OURS, True)
        root.addHandler(handler)
    if level is None:
        level = logging.getLevelNamesMapping()[settings.log_level.strip().upper()]  # the settings refuse others
    root.setLevel(level)
    # Alembic's INFO lines (plugins, "Will assume transactional DDL") are noise: the start-up says what an upgrade
    # did in its own words. They stay at DEBUG.
    logging.getLogger("alembic").setLevel(logging.DEBUG if root.level <= logging.DEBUG else logging.WARNING)
    return handlers
