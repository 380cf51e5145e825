"""Queries of the reports and standings area (re-exported by bot.db.repo).

Names carry a ``report_``/``standings_`` flavour so they never clash with the other areas' modules, which
``bot.db.repo`` star-imports side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import exists, update
from sqlalchemy import select as sa_select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import GameTable, Registration, ReportDraft, Round, RoundStatus, Seat, TableResult, Tournament

__all__ = [
    "get_report_draft",
    "get_report_page_table",
    "get_report_round",
    "get_report_table",
    "get_report_table_by_id",
    "get_report_table_in_server",
    "list_report_page_tables",
    "list_report_results",
    "list_report_seats",
    "list_report_tables_for_registration",
    "list_standings_results",
    "list_tables_of_tournament",
    "list_unseated_results",
    "lock_report_table",
    "mark_result_signed",
    "put_report_drafts",
]


async def get_report_round(
    *, session: AsyncSession, guild_id: int, tournament_id: int, number: int | None
) -> Round | None:
    """Round ``number`` of a tournament; without a number, the latest published (or closed) round that has tables:
    a draft's tables are not yet anyone's to report."""
    stmt = select(Round).where(Round.guild_id == guild_id, Round.tournament_id == tournament_id)
    if number is not None:
        stmt = stmt.where(Round.number == number)
    else:
        has_tables = select(GameTable.id).where(GameTable.guild_id == guild_id, GameTable.round_id == Round.id).exists()
        shown = col(Round.status).in_((RoundStatus.PUBLISHED, RoundStatus.CLOSED))
        stmt = stmt.where(has_tables, shown).order_by(col(Round.number).desc())
    result = await session.execute(stmt.limit(1))
    return result.scalars().first()


async def get_report_table(*, session: AsyncSession, guild_id: int, round_id: int, number: int) -> GameTable | None:
    result = await session.execute(
        select(GameTable).where(
            GameTable.guild_id == guild_id, GameTable.round_id == round_id, GameTable.number == number
        )
    )
    return result.scalar_one_or_none()


async def get_report_table_by_id(*, session: AsyncSession, guild_id: int, table_id: int) -> GameTable | None:
    result = await session.execute(select(GameTable).where(GameTable.guild_id == guild_id, GameTable.id == table_id))
    return result.scalar_one_or_none()


async def get_report_page_table(*, session: AsyncSession, table_id: int) -> tuple[GameTable, Round, Tournament] | None:
    """A table with its round and tournament by the table's id alone: the report page's link names the table, and
    its token (checked by the caller against the tournament's venue token) is the only credential."""
    result = await session.execute(
        select(GameTable, Round, Tournament)
        .join(Round, col(Round.id) == col(GameTable.round_id))
        .join(Tournament, col(Tournament.id) == col(Round.tournament_id))
        .where(col(GameTable.id) == table_id)
    )
    row = result.first()
    return None if row is None else (row[0], row[1], row[2])


async def get_report_table_in_server(
    *, session: AsyncSession, guild_id: int, table_id: int
) -> tuple[GameTable, Round, Tournament] | None:
    """A table of this server with its round and tournament, by the table's id (a button's, a report page's)."""
    result = await session.execute(
        select(GameTable, Round, Tournament)
        .join(Round, col(Round.id) == col(GameTable.round_id))
        .join(Tournament, col(Tournament.id) == col(Round.tournament_id))
        .where(col(GameTable.id) == table_id, col(GameTable.guild_id) == guild_id, col(Round.guild_id) == guild_id)
    )
    row = result.first()
    return None if row is None else (row[0], row[1], row[2])


async def get_report_draft(*, session: AsyncSession, table_id: int) -> ReportDraft | None:
    """The report page's stored draft of a table (the caller checks its round and number)."""
    result = await session.execute(select(ReportDraft).where(col(ReportDraft.table_id) == table_id))
    return result.scalar_one_or_none()


async def put_report_drafts(
    *, session: AsyncSession, drafts: Sequence[tuple[int, int, int, int, dict[str, Any], int]], when: datetime
) -> None:
    """Store report pages' drafts: (guild, table, round, table number, draft, version) each, replacing the table's
    row; a stored draft of a higher version is kept (another writer was later)."""
    for guild_id, table_id, round_id, number, draft, version in drafts:
        found = await session.execute(
            select(ReportDraft).where(col(ReportDraft.table_id) == table_id).with_for_update()
        )
        row = found.scalar_one_or_none()
        if row is None:
            session.add(ReportDraft(table_id=table_id, guild_id=guild_id, round_id=round_id, number=number,
                                    draft=draft, version=version, updated_at=when))  # fmt: skip
        elif (row.round_id, row.number) != (round_id, number) or row.version <= version:
            row.guild_id, row.round_id, row.number = guild_id, round_id, number
            row.draft, row.version, row.updated_at = draft, version, when
    await session.flush()


async def list_report_page_tables(
    *, session: AsyncSession, guild_id: int, round_id: int
) -> Sequence[tuple[GameTable, Round, Tournament]]:
    """A round's tables with the round and the tournament (the report pages' links of a publication)."""
    result = await session.execute(
        select(GameTable, Round, Tournament)
        .join(Round, col(Round.id) == col(GameTable.round_id))
        .join(Tournament, col(Tournament.id) == col(Round.tournament_id))
        .where(col(GameTable.round_id) == round_id, col(GameTable.guild_id) == guild_id)
        .order_by(col(GameTable.number))
    )
    return [(t, r, tt) for t, r, tt in result.all()]


async def list_report_seats(
    *, session: AsyncSession, guild_id: int, table_id: int
) -> Sequence[tuple[Seat, Registration]]:
    """The seats of a table in seating order, each with its registration."""
    result = await session.execute(
        select(Seat, Registration)
        .join(Registration, col(Registration.id) == col(Seat.registration_id))
        .where(Seat.guild_id == guild_id, Seat.table_id == table_id, Registration.guild_id == guild_id)
        .order_by(col(Seat.position))
    )
    return [(s, r) for s, r in result.all()]


async def list_report_results(*, session: AsyncSession, guild_id: int, table_id: int) -> Sequence[TableResult]:
    result = await session.execute(
        select(TableResult)
        .where(TableResult.guild_id == guild_id, TableResult.table_id == table_id)
        .order_by(col(TableResult.id))
    )
    return result.scalars().all()


class StandingsRow(NamedTuple):
    round_number: int
    table_id: int
    table_number: int
    table_locked: bool
    result: TableResult


async def list_standings_results(
    *, session: AsyncSession, guild_id: int, tournament_id: int, kinds: Sequence[str] | None = None
) -> Sequence[StandingsRow]:
    """Every reported seat of a tournament (rounds of the given kinds), by round and table. Only the columns the
    standings read: whole rows would decode every round's draw report and table's final situation (JSON, tens of
    kilobytes) once per seat — about a second of CPU for 300 players after five rounds."""
    stmt = (
        sa_select(col(Round.number), col(GameTable.id), col(GameTable.number), col(GameTable.locked), TableResult)
        .join(GameTable, col(GameTable.round_id) == col(Round.id))
        .join(TableResult, col(TableResult.table_id) == col(GameTable.id))
        .where(
            col(Round.guild_id) == guild_id,
            col(Round.tournament_id) == tournament_id,
            col(GameTable.guild_id) == guild_id,
            col(TableResult.guild_id) == guild_id,
        )
        .order_by(col(Round.number), col(GameTable.number), col(TableResult.id))
    )
    if kinds is not None:
        stmt = stmt.where(col(Round.kind).in_(list(kinds)))
    result = await session.execute(stmt)
    return [StandingsRow(int(n), int(i or 0), int(tn), bool(lk), r) for n, i, tn, lk, r in result.all()]


async def list_tables_of_tournament(
    *, session: AsyncSession, guild_id: int, tournament_id: int
) -> Sequence[tuple[Round, GameTable]]:
    result = await session.execute(
        select(Round, GameTable)
        .join(GameTable, col(GameTable.round_id) == col(Round.id))
        .where(Round.guild_id == guild_id, Round.tournament_id == tournament_id, GameTable.guild_id == guild_id)
        .order_by(col(Round.number), col(GameTable.number))
    )
    return [(r, g) for r, g in result.all()]


async def list_report_tables_for_registration(
    *, session: AsyncSession, guild_id: int, registration_id: int
) -> Sequence[tuple[Round, GameTable]]:
    """The tables a registration sits at, by round."""
    result = await session.execute(
        select(Round, GameTable)
        .join(GameTable, col(GameTable.round_id) == col(Round.id))
        .join(Seat, col(Seat.table_id) == col(GameTable.id))
        .where(Seat.guild_id == guild_id, Seat.registration_id == registration_id, GameTable.guild_id == guild_id)
        .order_by(col(Round.number))
    )
    return [(r, g) for r, g in result.all()]


async def mark_result_signed(*, session: AsyncSession, guild_id: int, result_id: int, when: datetime) -> bool:
    """Sign one seat's line unless it is already signed; False when it was (two clicks racing sign once)."""
    result = await session.execute(
        update(TableResult)
        .where(
            col(TableResult.guild_id) == guild_id,
            col(TableResult.id) == result_id,
            col(TableResult.signed_at).is_(None),
        )
        .values(signed_at=when)
        .execution_options(synchronize_session="fetch")
    )
    return bool(getattr(result, "rowcount", 0))


async def lock_report_table(*, session: AsyncSession, guild_id: int, table_id: int) -> bool:
    """Serialise what changes one table's seats or its report (a replacement, an entry, a signature, a correction,
    a repair): an UPDATE of the table's row, before anything of the table is read, takes its row lock on PostgreSQL
    and the write lock on SQLite, so the seats and the report read next are the ones the write goes against. False:
    no such table (nothing is locked)."""
    result = await session.execute(
        update(GameTable)
        .where(col(GameTable.id) == table_id, col(GameTable.guild_id) == guild_id)
        .values(number=GameTable.number)
        .returning(col(GameTable.id))
        .execution_options(synchronize_session=False)
    )
    return result.first() is not None


class UnseatedResult(NamedTuple):
    round_number: int
    table_id: int
    table_number: int
    result: TableResult


async def list_unseated_results(
    *,
    session: AsyncSession,
    guild_id: int,
    tournament_id: int,
    round_number: int | None = None,
    table_id: int | None = None,
) -> Sequence[UnseatedResult]:
    """The report lines of a tournament whose player no longer sits at their table (a replacement that raced the
    report, before tables were locked), by round and table; ``round_number`` / ``table_id``: only those."""
    seated = sa_select(col(Seat.id)).where(
        col(Seat.table_id) == col(TableResult.table_id), col(Seat.registration_id) == col(TableResult.registration_id)
    )
    stmt = (
        sa_select(col(Round.number), col(GameTable.id), col(GameTable.number), TableResult)
        .join(GameTable, col(GameTable.round_id) == col(Round.id))
        .join(TableResult, col(TableResult.table_id) == col(GameTable.id))
        .where(
            col(Round.guild_id) == guild_id,
            col(Round.tournament_id) == tournament_id,
            col(GameTable.guild_id) == guild_id,
            col(TableResult.guild_id) == guild_id,
            ~exists(seated),
        )
        .order_by(col(Round.number), col(GameTable.number), col(TableResult.id))
    )
    if round_number is not None:
        stmt = stmt.where(col(Round.number) == round_number)
    if table_id is not None:
        stmt = stmt.where(col(GameTable.id) == table_id)
    result = await session.execute(stmt)
    return [UnseatedResult(int(n), int(i or 0), int(tn), r) for n, i, tn, r in result.all()]
