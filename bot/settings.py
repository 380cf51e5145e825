"""Typed settings from the environment and ``.env`` — nothing else in the project reads ``os.environ``."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///steward.db"
SUPPORTED_DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg")  # the drivers the project installs
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")  # LOG_LEVEL's values (any case)


def normalise_database_url(url: str) -> str:
    """Map plain URLs to the async drivers: ``sqlite://`` → aiosqlite, ``postgresql://`` → asyncpg."""
    url = url.strip()
    if url.startswith("sqlite:"):
        return "sqlite+aiosqlite:" + url[len("sqlite:") :]
    for prefix in ("postgres://", "postgresql://", "postgresql+psycopg://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    return url


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="the bot token (secret, never logged)")
    database_url: str = Field(default=DEFAULT_DATABASE_URL, description="SQLAlchemy URL; SQLite file by default")
    dev_guild_id: int | None = Field(default=None, description="sync commands to this server only (instant)")
    default_locale: Literal["it", "en"] = Field(default="it", description="language when a user's is unknown")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING, ERROR or CRITICAL (any case)")
    database_pool_size: int = Field(default=10, ge=1, le=200, description="database connections kept per process")
    database_pool_timeout: float = Field(
        default=30.0, gt=0, le=300, description="seconds a command waits for a connection before 'busy, try again'"
    )

    worker_memory_mb: int = Field(
        default=1024, ge=0, le=1_048_576, description="address space of each compute worker process, in MB (0: none)"
    )

    web_port: int | None = Field(default=None, ge=1, le=65535, description="the venue pages' port (unset: off)")
    web_host: str = Field(default="127.0.0.1", description="the venue pages' address (loopback: behind a proxy)")
    web_base_url: str | None = Field(default=None, description="the pages' public URL, as /venue link posts it")
    # the venue pages' limits (bot/web/limits.py): the web never takes the descriptors the bot needs; 0 = no cap
    web_max_connections: int = Field(default=512, ge=0, description="connections open at once, in total")
    web_max_connections_per_address: int = Field(default=128, ge=0, description="connections open from one address")
    web_max_streams: int = Field(default=256, ge=0, description="live streams at once; past it pages poll")
    web_max_streams_per_address: int = Field(default=64, ge=0, description="live streams from one viewer address")
    web_header_timeout: float = Field(default=10.0, ge=0, le=300, description="seconds for a request's headers")
    web_idle_timeout: float = Field(default=15.0, gt=0, le=3600, description="seconds a kept-alive connection idles")
    web_fd_reserve: int = Field(
        default=512, ge=0, description="file descriptors kept for the bot: the web refuses connections within it"
    )
    web_trusted_proxies: str = Field(
        default="127.0.0.1,::1", description="the reverse proxy's addresses (comma-separated): X-Forwarded-For read"
    )
    # running unattended (issue 43): metrics, scheduled backups, log files
    metrics_enabled: bool = Field(default=False, description="serve GET /metrics (Prometheus text) on the web server")
    backup_dir: str | None = Field(default=None, description="folder of the daily backups (unset: no scheduled backup)")
    backup_time: str = Field(default="04:30", description="the daily backup's time, HH:MM (Europe/Rome)")
    backup_keep_days: int = Field(default=7, ge=1, le=366, description="daily backups kept")
    backup_keep_weeks: int = Field(default=4, ge=0, le=520, description="weekly backups kept, beyond the daily")
    log_file: str | None = Field(default=None, description="also write the log to this file, rotated (unset: stderr)")
    log_format: Literal["text", "json"] = Field(default="text", description="one line per event: text or JSON")
    log_max_mb: int = Field(default=10, ge=1, le=10_000, description="a log file's size before it rotates")
    log_keep: int = Field(default=5, ge=1, le=100, description="rotated log files kept")

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, value: str) -> str:
        value = normalise_database_url(value)
        url = make_url(value)  # raises on a malformed URL, at start-up rather than on first use
        if url.drivername not in SUPPORTED_DRIVERS:
            raise ValueError(f"{url.drivername!r} is not supported: use sqlite:///steward.db or a postgresql:// URL")
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            raise ValueError("an SQLite URL needs a file (sqlite:///steward.db): a database in memory is lost at exit")
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper() or "INFO"  # LOG_LEVEL= (empty) is the default, like the other settings
        if level not in LOG_LEVELS:  # a typo ("verbose") must not pass as INFO unnoticed (issue 44)
            raise ValueError(
                f"{value.strip()[:40]!r} is not a log level: use {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}"
            )
        return level

    @field_validator("dev_guild_id", "web_port", "web_base_url", "backup_dir", "log_file", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    def venue_base_url(self) -> str | None:
        """Where the venue pages are reached (``WEB_BASE_URL``, else this host and port); None while they are off."""
        if self.web_port is None:
            return None
        if self.web_base_url:
            return self.web_base_url.rstrip("/")
        host = "127.0.0.1" if self.web_host in ("0.0.0.0", "::", "") else self.web_host
        return f"http://{host}:{self.web_port}"

    def safe_database_url(self) -> str:
        """The URL with any password masked, for logs and messages."""
        return make_url(self.database_url).render_as_string(hide_password=True)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
