"""Reading a round's tables and seats in two queries (the rounds use cases and the knockout share it)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db import repo
from bot.db.models import GameTable, Seat


async def tables_of(
    session: AsyncSession, guild_id: int, round_ids: Sequence[int]
) -> tuple[dict[int, list[GameTable]], dict[int, list[Seat]]]:
    """The tables of ``round_ids`` by round, and their seats by table."""
    tables = await repo.list_tables_for_rounds(session=session, guild_id=guild_id, round_ids=round_ids)
    by_round: dict[int, list[GameTable]] = defaultdict(list)
    for gt in tables:
        by_round[gt.round_id].append(gt)
    seats = await repo.list_seats_for_tables(
        session=session, guild_id=guild_id, table_ids=[gt.id for gt in tables if gt.id is not None]
    )
    by_table: dict[int, list[Seat]] = defaultdict(list)
    for s in seats:
        by_table[s.table_id].append(s)
    return by_round, by_table
