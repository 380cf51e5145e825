"""Queries of the rounds area: rounds, their tables and seats, check-ins and results read for draws
(re-exported by bot.db.repo). Keyword-only ``session``; every query filters on ``guild_id``."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import CheckIn, GameTable, Registration, Round, RoundStatus, Seat, TableResult

__all__ = [
    "add_tables",
    "delete_round_tables",
    "get_round",
    "get_round_by_id",
    "list_checkins",
    "list_results_for_tables",
    "list_rounds",
    "list_seats_for_tables",
    "list_tables",
    "list_tables_for_rounds",
    "registrations_by_ids",
    "reseat_tables",
    "seat_in_latest_round",
]


async def list_rounds(*, session: AsyncSession, guild_id: int, tournament_id: int) -> Sequence[Round]:
    result = await session.execute(
        select(Round)
        .where(Round.guild_id == guild_id, Round.tournament_id == tournament_id)
        .order_by(col(Round.number))
    )
    return result.scalars().all()


async def get_round(*, session: AsyncSession, guild_id: int, tournament_id: int, number: int) -> Round | None:
    result = await session.execute(
        select(Round).where(Round.guild_id == guild_id, Round.tournament_id == tournament_id, Round.number == number)
    )
    return result.scalar_one_or_none()


async def get_round_by_id(*, session: AsyncSession, guild_id: int, round_id: int) -> Round | None:
    result = await session.execute(select(Round).where(Round.guild_id == guild_id, Round.id == round_id))
    return result.scalar_one_or_none()


async def list_tables(*, session: AsyncSession, guild_id: int, round_id: int) -> Sequence[GameTable]:
    result = await session.execute(
        select(GameTable)
        .where(GameTable.guild_id == guild_id, GameTable.round_id == round_id)
        .order_by(col(GameTable.number))
    )
    return result.scalars().all()


async def list_tables_for_rounds(
    *, session: AsyncSession, guild_id: int, round_ids: Sequence[int]
) -> Sequence[GameTable]:
    if not round_ids:
        return []
    result = await session.execute(
        select(GameTable)
        .where(GameTable.guild_id == guild_id, col(GameTable.round_id).in_(list(round_ids)))
        .order_by(col(GameTable.round_id), col(GameTable.number))
    )
    return result.scalars().all()


async def add_tables(
    *,
    session: AsyncSession,
    guild_id: int,
    round_id: int,
    tables: Sequence[Sequence[int]],
    dummy_tables: Sequence[int] = (),
    dummy_size: int | None = None,
) -> None:
    """A round's tables and their seats, in the order given (table 1 first, seat 1 first)."""
    for number, players in enumerate(tables, start=1):
        gt = GameTable(
            guild_id=guild_id, round_id=round_id, number=number, size=dummy_size if number in dummy_tables else None
        )
        session.add(gt)
        await session.flush()
        assert gt.id is not None
        for position, rid in enumerate(players, start=1):
            session.add(Seat(guild_id=guild_id, table_id=gt.id, registration_id=int(rid), position=position))
    await session.flush()


async def reseat_tables(
    *, session: AsyncSession, guild_id: int, old: Sequence[Seat], new: Sequence[tuple[int, Sequence[int]]]
) -> None:
    """Replace the seats ``old`` with ``new`` (each a table id and its players, seat 1 first): a hand change."""
    for seat in old:
        await session.delete(seat)
    await session.flush()
    for table_id, players in new:
        for position, rid in enumerate(players, start=1):
            session.add(Seat(guild_id=guild_id, table_id=table_id, registration_id=int(rid), position=position))
    await session.flush()


async def list_seats_for_tables(*, session: AsyncSession, guild_id: int, table_ids: Sequence[int]) -> Sequence[Seat]:
    if not table_ids:
        return []
    result = await session.execute(
        select(Seat)
        .where(Seat.guild_id == guild_id, col(Seat.table_id).in_(list(table_ids)))
        .order_by(col(Seat.table_id), col(Seat.position))
    )
    return result.scalars().all()


async def list_results_for_tables(
    *, session: AsyncSession, guild_id: int, table_ids: Sequence[int]
) -> Sequence[TableResult]:
    if not table_ids:
        return []
    result = await session.execute(
        select(TableResult)
        .where(TableResult.guild_id == guild_id, col(TableResult.table_id).in_(list(table_ids)))
        .order_by(col(TableResult.table_id), col(TableResult.table_rank))
    )
    return result.scalars().all()


async def list_checkins(*, session: AsyncSession, guild_id: int, round_id: int) -> Sequence[CheckIn]:
    result = await session.execute(select(CheckIn).where(CheckIn.guild_id == guild_id, CheckIn.round_id == round_id))
    return result.scalars().all()


async def registrations_by_ids(*, session: AsyncSession, guild_id: int, ids: Sequence[int]) -> dict[int, Registration]:
    if not ids:
        return {}
    result = await session.execute(
        select(Registration).where(Registration.guild_id == guild_id, col(Registration.id).in_(list(ids)))
    )
    return {r.id: r for r in result.scalars().all() if r.id is not None}


async def delete_round_tables(*, session: AsyncSession, guild_id: int, round_id: int) -> None:
    """Remove a round's tables and seats (a re-draw, or a final recomputed after a decline)."""
    tables = await list_tables(session=session, guild_id=guild_id, round_id=round_id)
    ids = [t.id for t in tables if t.id is not None]
    if ids:
        # a FIRK sit-out table carries its result from the draw on: it goes with the table
        await session.execute(
            delete(TableResult).where(col(TableResult.guild_id) == guild_id, col(TableResult.table_id).in_(ids))
        )
        await session.execute(delete(Seat).where(col(Seat.guild_id) == guild_id, col(Seat.table_id).in_(ids)))
        await session.execute(delete(GameTable).where(col(GameTable.guild_id) == guild_id, col(GameTable.id).in_(ids)))


async def seat_in_latest_round(
    *, session: AsyncSession, guild_id: int, tournament_id: int, registration_id: int, published_only: bool = False
) -> tuple[Round, GameTable] | None:
    """The player's table in the latest round that seats them (only published or closed rounds when asked): one
    query for /my-table, the referee's desk and the call to a referee."""
    query = (
        select(Round, GameTable)
        .join(GameTable, col(GameTable.round_id) == col(Round.id))
        .join(Seat, col(Seat.table_id) == col(GameTable.id))
        .where(
            col(Round.guild_id) == guild_id,
            col(Round.tournament_id) == tournament_id,
            col(Seat.registration_id) == registration_id,
        )
        .order_by(col(Round.number).desc())
        .limit(1)
    )
    if published_only:
        query = query.where(col(Round.status).in_((RoundStatus.PUBLISHED, RoundStatus.CLOSED)))
    row = (await session.execute(query)).first()
    return None if row is None else (row[0], row[1])
