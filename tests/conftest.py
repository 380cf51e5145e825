"""Shared fixtures: a real migrated SQLite file per test (and PostgreSQL when TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.db.migrate import upgrade_to_head
from bot.db.models import SQLModel
from bot.db.session import make_engine, make_sessionmaker
from bot.services import Services

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")  # set by .ci/run after starting a local server


class FakeClock:
    """A clock tests move by hand; aware UTC."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 11, 22, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(scope="session")
def migrated_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade_to_head(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def migrated_postgres() -> Iterator[str]:
    assert POSTGRES_URL is not None
    upgrade_to_head(POSTGRES_URL)
    yield POSTGRES_URL


def _backends() -> list[str]:
    return ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]


@pytest.fixture(params=_backends())
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated database: a fresh SQLite file, or (in CI) the PostgreSQL test database, emptied."""
    if request.param == "sqlite":
        template = request.getfixturevalue("migrated_sqlite_template")
        path = tmp_path / "steward.db"
        shutil.copyfile(template, path)
        return f"sqlite+aiosqlite:///{path}"
    return str(request.getfixturevalue("migrated_postgres"))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def services(database_url: str, clock: FakeClock) -> AsyncIterator[Services]:
    engine = make_engine(database_url)
    if engine.dialect.name == "postgresql":
        async with engine.begin() as conn:
            names = ", ".join(f'"{t.name}"' for t in SQLModel.metadata.sorted_tables)
            await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    try:
        yield Services(make_sessionmaker(engine), clock)
    finally:
        await engine.dispose()
