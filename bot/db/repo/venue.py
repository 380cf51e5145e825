"""Queries of the venue page: a tournament by its venue token, a new token, the tables' report state and
the server's change counter the page's snapshot is keyed on.

The token lookup is the one query not filtered on ``guild_id``: the token *is* the scope (an unguessable key that
names one tournament of one server); everything read after it filters on that tournament's server."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import AuditLog, GameTable, TableResult, Tournament, new_venue_token

__all__ = [
    "TableReportState",
    "change_counter",
    "change_counters",
    "list_tournaments_everywhere",
    "table_report_states",
    "tournament_by_venue_token",
    "venue_token_renew",
    "venue_token_set_if_missing",
]


@dataclass(frozen=True, slots=True)
class TableReportState:
    table_id: int
    reported_at: datetime | None
    countersigned_at: datetime | None
    locked: bool
    lines: int  # the report's lines (one per seat once entered)
    signed: int  # of them, signed by their player


async def tournament_by_venue_token(*, session: AsyncSession, token: str) -> Tournament | None:
    if not token:
        return None
    result = await session.execute(select(Tournament).where(col(Tournament.venue_token) == token))
    return result.scalar_one_or_none()


async def venue_token_set_if_missing(*, session: AsyncSession, guild_id: int, tournament_id: int) -> str:
    """The tournament's token, given one first if it has none (a row written before tokens existed)."""
    row = await session.get(Tournament, tournament_id)
    assert row is not None and row.guild_id == guild_id
    if row.venue_token is None:
        row.venue_token = new_venue_token()
        await session.flush()
    assert row.venue_token is not None
    return row.venue_token


async def venue_token_renew(*, session: AsyncSession, guild_id: int, tournament_id: int) -> str:
    """A new token: the old URL answers 404 from now on."""
    token = new_venue_token()
    await session.execute(
        update(Tournament)
        .where(col(Tournament.guild_id) == guild_id, col(Tournament.id) == tournament_id)
        .values(venue_token=token)
    )
    return token


async def list_tournaments_everywhere(*, session: AsyncSession) -> Sequence[Tournament]:
    """Every tournament of the database, oldest first (``steward web`` prints each one's page)."""
    result = await session.execute(select(Tournament).order_by(col(Tournament.id)))
    return result.scalars().all()


async def table_report_states(
    *, session: AsyncSession, guild_id: int, table_ids: Sequence[int]
) -> dict[int, TableReportState]:
    """Each table's report: entered, signed by how many of its lines, countersigned."""
    if not table_ids:
        return {}
    counts = await session.execute(
        select(
            col(TableResult.table_id),
            func.count(col(TableResult.id)),
            func.count(col(TableResult.signed_at)),
        )
        .where(col(TableResult.guild_id) == guild_id, col(TableResult.table_id).in_(list(table_ids)))
        .group_by(col(TableResult.table_id))
    )
    lines = {int(tid): (int(n), int(s)) for tid, n, s in counts.all()}
    tables = await session.execute(
        select(GameTable).where(col(GameTable.guild_id) == guild_id, col(GameTable.id).in_(list(table_ids)))
    )
    out = {}
    for gt in tables.scalars().all():
        assert gt.id is not None
        n, s = lines.get(gt.id, (0, 0))
        out[gt.id] = TableReportState(gt.id, gt.reported_at, gt.countersigned_at, gt.locked, n, s)
    return out


async def change_counter(*, session: AsyncSession, guild_id: int) -> int:
    """The server's last audit entry: every use case that changes what the venue page shows writes one, in the same
    transaction, so a new value means a committed change (one indexed MAX, whatever the number of viewers)."""
    result = await session.execute(select(func.max(col(AuditLog.id))).where(col(AuditLog.guild_id) == guild_id))
    return int(result.scalar_one() or 0)


async def change_counters(*, session: AsyncSession, guild_ids: Sequence[int]) -> dict[int, int]:
    """:func:`change_counter` of several servers in one query."""
    if not guild_ids:
        return {}
    result = await session.execute(
        select(col(AuditLog.guild_id), func.max(col(AuditLog.id)))
        .where(col(AuditLog.guild_id).in_(list(guild_ids)))
        .group_by(col(AuditLog.guild_id))
    )
    found = {int(g): int(v or 0) for g, v in result.all()}
    return {g: found.get(g, 0) for g in guild_ids}
