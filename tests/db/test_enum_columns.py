"""Issue #48, "a typed vocabulary": the status/kind/outcome columns are typed with their ``StrEnum``
(``bot.db.models.StrEnumType``). Stored as the same short strings, so no migration and no data change: rows written
before (plain strings, straight SQL) read back as the members, every member round-trips, and the stored text stays
the member's value."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import SQLModel, select

from bot.db.models import (
    AppealState,
    CheckIn,
    CheckInStatus,
    Registration,
    RegistrationStatus,
    ReminderKind,
    ReminderStatus,
    Round,
    RoundKind,
    RoundStatus,
    Sanction,
    ScheduledReminder,
    SeatOutcome,
    StrEnumType,
    TableResult,
    Tournament,
    TournamentStatus,
)
from bot.db.session import make_engine, make_sessionmaker
from tests.support.database import empty_postgres

WHEN = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)

# every typed column: (model, attribute, its enum)
COLUMNS: list[tuple[type[SQLModel], str, type[StrEnum]]] = [
    (Tournament, "status", TournamentStatus),
    (Registration, "status", RegistrationStatus),
    (Round, "kind", RoundKind),
    (Round, "status", RoundStatus),
    (TableResult, "outcome", SeatOutcome),
    (CheckIn, "status", CheckInStatus),
    (Sanction, "appeal_state", AppealState),
    (Sanction, "previous_status", RegistrationStatus),
    (ScheduledReminder, "kind", ReminderKind),
    (ScheduledReminder, "status", ReminderStatus),
]


def test_every_enum_column_is_typed_with_its_enum_and_stored_as_a_string():
    """Each column is a StrEnumType of its enum over a VARCHAR long enough for every value (no database enum)."""
    for model, name, enum in COLUMNS:
        column = model.__table__.c[name]  # type: ignore[attr-defined]
        assert isinstance(column.type, StrEnumType), (model.__name__, name)
        assert column.type.enum is enum
        assert max(len(m.value) for m in enum) <= column.type.impl.length


@pytest.fixture
async def empty_url(database_url: str) -> AsyncIterator[str]:
    await empty_postgres(database_url)
    try:
        yield database_url
    finally:
        await empty_postgres(database_url)


async def _seed(conn: Any) -> dict[str, int]:
    """A tournament with a registration, a round, a table, a result, a check-in, a sanction and a reminder, all
    written by plain SQL with plain strings, as rows written before the columns were typed."""
    await conn.execute(text(
        "INSERT INTO tournament (id, guild_id, name, name_key, game, preset, overrides, status, created_at) "
        "VALUES (1, 7, 'Coppa', 'coppa', 'risiko', 'risiko-ufficiali-2018', '{}', 'running', :at)"
    ), {"at": WHEN.replace(tzinfo=None)})  # fmt: skip
    await conn.execute(text(
        "INSERT INTO registration (id, guild_id, tournament_id, display_name, name_key, status, registered_at) "
        "VALUES (1, 7, 1, 'Anna', 'anna', 'validated', :at)"
    ), {"at": WHEN.replace(tzinfo=None)})  # fmt: skip
    await conn.execute(text(
        "INSERT INTO round (id, guild_id, tournament_id, number, kind, status, created_at) "
        "VALUES (1, 7, 1, 1, 'semifinal', 'published', :at)"
    ), {"at": WHEN.replace(tzinfo=None)})  # fmt: skip
    await conn.execute(text(
        "INSERT INTO game_table (id, guild_id, round_id, number, thread_pinged, locked) "
        "VALUES (1, 7, 1, 1, FALSE, FALSE)"
    ))  # fmt: skip
    await conn.execute(text(
        "INSERT INTO table_result (id, guild_id, table_id, registration_id, outcome, points_adjustment, locked) "
        "VALUES (1, 7, 1, 1, 'forfeit', 0, FALSE)"
    ))  # fmt: skip
    await conn.execute(text(
        "INSERT INTO check_in (id, guild_id, round_id, registration_id, status, minutes_late, checked_in_at) "
        "VALUES (1, 7, 1, 1, 'late', 5, :at)"
    ), {"at": WHEN.replace(tzinfo=None)})  # fmt: skip
    await conn.execute(text(
        "INSERT INTO sanction (id, guild_id, case_number, kind, registration_id, tournament_id, referee_id, offence, "
        "consequence, previous_status, appeal_state, created_at) "
        "VALUES (1, 7, 1, 'warning', 1, 1, 9, 1, 'recorded', 'waitlisted', 'pending', :at)"
    ), {"at": WHEN.replace(tzinfo=None)})  # fmt: skip
    await conn.execute(text(
        "INSERT INTO scheduled_reminder (id, guild_id, tournament_id, kind, due_at, status, late, attempts, "
        "created_at) VALUES (1, 7, 1, 'clock_call', :at, 'dropped', FALSE, 0, :at)"
    ), {"at": WHEN.replace(tzinfo=None)})  # fmt: skip
    return {"tournament": 1}


ROWS: list[tuple[type[SQLModel], str, StrEnum]] = [
    (Tournament, "status", TournamentStatus.RUNNING),
    (Registration, "status", RegistrationStatus.VALIDATED),
    (Round, "kind", RoundKind.SEMIFINAL),
    (Round, "status", RoundStatus.PUBLISHED),
    (TableResult, "outcome", SeatOutcome.FORFEIT),
    (CheckIn, "status", CheckInStatus.LATE),
    (Sanction, "appeal_state", AppealState.PENDING),
    (Sanction, "previous_status", RegistrationStatus.WAITLISTED),
    (ScheduledReminder, "kind", ReminderKind.CLOCK),
    (ScheduledReminder, "status", ReminderStatus.DROPPED),
]


async def test_rows_written_as_plain_strings_read_back_as_members(empty_url: str):
    """Rows stored before the columns were typed (the same strings) read back as the enum's members: no
    migration, no data change; the comparisons in the code are between members."""
    engine = make_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await _seed(conn)
        async with make_sessionmaker(engine)() as session:
            for model, name, member in ROWS:
                row = (await session.execute(select(model))).scalar_one()
                value = getattr(row, name)
                assert type(value) is type(member), (model.__name__, name, value)
                assert value is member
                assert value == member.value  # still the short string for whatever compares with text
    finally:
        await engine.dispose()


@pytest.mark.parametrize(("model", "name", "enum"), COLUMNS, ids=[f"{m.__name__}.{n}" for m, n, _ in COLUMNS])
async def test_every_value_round_trips_as_its_short_string(empty_url: str, model: Any, name: str, enum: Any):
    """Every member of every typed column is written as its value (the text in the file is unchanged) and read
    back as the member; a member's plain string is written alike (old call sites), and a query compares either."""
    engine = make_engine(empty_url)
    table = model.__tablename__
    try:
        async with engine.begin() as conn:
            await _seed(conn)
        maker = make_sessionmaker(engine)
        for i, member in enumerate(enum):
            for written in (member, member.value):
                async with maker() as session:
                    row = (await session.execute(select(model))).scalar_one()
                    setattr(row, name, written)
                    session.add(row)
                    await session.commit()
                async with engine.connect() as conn:
                    stored = (await conn.execute(text(f"SELECT {name} FROM {table}"))).scalar_one()
                assert stored == member.value and type(stored) is str, (i, stored)
                async with maker() as session:
                    column = getattr(model, name)
                    found = (await session.execute(select(model).where(column == member))).scalar_one()
                    assert getattr(found, name) is member
                    by_text = (await session.execute(select(model).where(column == member.value))).scalar_one()
                    assert by_text is found
    finally:
        await engine.dispose()


async def test_a_string_that_is_no_member_is_refused_on_write_and_read_as_text(empty_url: str, caplog: Any):
    """Writing a string that is no member fails before it reaches the file; a row holding one (a newer release's
    value, a hand edit) still reads — as the plain string, logged — rather than failing the whole query."""
    engine = make_engine(empty_url)
    try:
        async with engine.begin() as conn:
            await _seed(conn)
            await conn.execute(text("UPDATE round SET status = 'suspended'"))
        maker = make_sessionmaker(engine)
        async with maker() as session:
            with caplog.at_level(logging.WARNING, logger="bot.db.models"):
                row = (await session.execute(select(Round))).scalar_one()
            assert row.status == "suspended" and not isinstance(row.status, RoundStatus)
            assert "suspended" in caplog.text
            assert row.kind is RoundKind.SEMIFINAL
        async with maker() as session:
            tournament = (await session.execute(select(Tournament))).scalar_one()
            tournament.status = "paused"  # type: ignore[assignment]
            session.add(tournament)
            with pytest.raises(Exception, match="paused"):
                await session.commit()
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT status FROM tournament"))).scalar_one() == "running"
    finally:
        await engine.dispose()
