"""Queries of the referee's desk (re-exported by bot.db.repo): case numbers, sanctions and their records.

Names carry the area (``sanction_*``) so the star re-export never shadows another area's query.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import select as sa_select
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import (
    AppealState,
    GameTable,
    GuildConfig,
    Registration,
    Round,
    Sanction,
    SanctionProposal,
    Tournament,
)

__all__ = [
    "sanction_allocate_case_number",
    "sanction_appeal_once",
    "sanction_by_case",
    "sanction_cases",
    "sanction_count_offences",
    "sanction_decide_once",
    "sanction_list",
    "sanction_proposal_confirm_once",
    "sanction_revoke_once",
]


async def sanction_allocate_case_number(*, session: AsyncSession, guild_id: int) -> int | None:
    """The server's next case number, taken atomically: one UPDATE … RETURNING on the server's row (a row lock on
    PostgreSQL, the write lock on SQLite), so concurrent sanctions never share a number. ``None``: no server row.
    Run it first in its transaction: the lock is then held for the rest of the use case."""
    result = await session.execute(
        update(GuildConfig)
        .where(col(GuildConfig.guild_id) == guild_id)
        .values(next_case_number=GuildConfig.next_case_number + 1)
        .returning(col(GuildConfig.next_case_number))
    )
    value = result.scalar_one_or_none()
    return None if value is None else int(value) - 1


async def sanction_by_case(*, session: AsyncSession, guild_id: int, case_number: int) -> Sanction | None:
    result = await session.execute(
        select(Sanction).where(col(Sanction.guild_id) == guild_id, col(Sanction.case_number) == case_number)
    )
    return result.scalar_one_or_none()


class SanctionCase(NamedTuple):
    """A sanction with what its view names: the tournament, the player, and the round and table it belongs to."""

    sanction: Sanction
    tournament: Tournament
    registration: Registration
    round: Round | None
    table: GameTable | None


async def sanction_cases(*, session: AsyncSession, guild_id: int, sanction_ids: Sequence[int]) -> list[SanctionCase]:
    """These sanctions with their tournament, player, round and table, in one query, by case number."""
    if not sanction_ids:
        return []
    result = await session.execute(
        sa_select(Sanction, Tournament, Registration, Round, GameTable)
        .join(Tournament, col(Tournament.id) == col(Sanction.tournament_id))
        .join(Registration, col(Registration.id) == col(Sanction.registration_id))
        .outerjoin(Round, col(Round.id) == col(Sanction.round_id))
        .outerjoin(GameTable, col(GameTable.id) == col(Sanction.table_id))
        .where(col(Sanction.guild_id) == guild_id, col(Sanction.id).in_(list(sanction_ids)))
        .order_by(col(Sanction.case_number))
    )
    return [SanctionCase(s, t, r, rnd, table) for s, t, r, rnd, table in result.all()]


async def sanction_count_offences(
    *,
    session: AsyncSession,
    guild_id: int,
    tournament_id: int,
    registration_id: int,
    infraction: str,
    game: int | None = None,
    in_game_only: bool = False,
) -> int:
    """Earlier sanctions in force for the same infraction by the same player in this tournament (the ladder); with
    ``in_game_only``, only those at table ``game`` (an infraction whose ladder counts within the game)."""
    rows = await sanction_list(
        session=session, guild_id=guild_id, tournament_id=tournament_id, registration_id=registration_id
    )
    return sum(1 for s in rows if s.infraction == infraction and s.active and (not in_game_only or s.table_id == game))


async def sanction_list(
    *,
    session: AsyncSession,
    guild_id: int,
    tournament_id: int,
    registration_id: int | None = None,
    round_id: int | None = None,
    table_id: int | None = None,
) -> Sequence[Sanction]:
    query = select(Sanction).where(col(Sanction.guild_id) == guild_id, col(Sanction.tournament_id) == tournament_id)
    if registration_id is not None:
        query = query.where(col(Sanction.registration_id) == registration_id)
    if round_id is not None:
        query = query.where(col(Sanction.round_id) == round_id)
    if table_id is not None:
        query = query.where(col(Sanction.table_id) == table_id)
    result = await session.execute(query.order_by(col(Sanction.case_number)))
    return result.scalars().all()


# "Once only" changes of a case: each is one conditional UPDATE whose WHERE is the state it starts from, so of two
# head referees (or a revoke and a decision) pressing at the same moment exactly one changes the row; the other's
# UPDATE matches nothing and the caller explains why from the row as it now is.


async def sanction_revoke_once(
    *, session: AsyncSession, guild_id: int, case_number: int, at: datetime, by: int, reason: str
) -> bool:
    """Revoke a case not revoked and not decided on appeal (the head referee's decision is final: RR 11); False when
    it was not. A pending appeal ends with the revoke (nothing is left to decide)."""
    result = await session.execute(
        update(Sanction)
        .where(
            col(Sanction.guild_id) == guild_id,
            col(Sanction.case_number) == case_number,
            col(Sanction.revoked_at).is_(None),
            col(Sanction.appeal_state).in_((AppealState.NONE, AppealState.PENDING)),
        )
        .values(revoked_at=at, revoked_by=by, revoke_reason=reason)
        .returning(col(Sanction.id))
    )
    return result.first() is not None


async def sanction_appeal_once(
    *, session: AsyncSession, guild_id: int, case_number: int, at: datetime, reason: str
) -> bool:
    """Open the appeal of a case in force that was never appealed; False when it was not."""
    result = await session.execute(
        update(Sanction)
        .where(
            col(Sanction.guild_id) == guild_id,
            col(Sanction.case_number) == case_number,
            col(Sanction.revoked_at).is_(None),
            col(Sanction.appeal_state) == AppealState.NONE,
        )
        .values(appeal_state=AppealState.PENDING, appeal_reason=reason, appealed_at=at)
        .returning(col(Sanction.id))
    )
    return result.first() is not None


async def sanction_decide_once(
    *,
    session: AsyncSession,
    guild_id: int,
    case_number: int,
    state: AppealState,
    note: str | None,
    by: int,
    at: datetime,
) -> bool:
    """Decide a pending appeal of a case not revoked meanwhile; False when there was none."""
    result = await session.execute(
        update(Sanction)
        .where(
            col(Sanction.guild_id) == guild_id,
            col(Sanction.case_number) == case_number,
            col(Sanction.revoked_at).is_(None),
            col(Sanction.appeal_state) == AppealState.PENDING,
        )
        .values(appeal_state=state, appeal_note=note, appeal_decided_by=by, appeal_decided_at=at)
        .returning(col(Sanction.id))
    )
    return result.first() is not None


async def sanction_proposal_confirm_once(
    *, session: AsyncSession, guild_id: int, proposal_id: int, at: datetime, fresh_since: datetime
) -> bool:
    """Mark an open, unexpired proposal confirmed; False when it was not (already confirmed, expired, unknown)."""
    result = await session.execute(
        update(SanctionProposal)
        .where(
            col(SanctionProposal.id) == proposal_id,
            col(SanctionProposal.guild_id) == guild_id,
            col(SanctionProposal.confirmed_at).is_(None),
            col(SanctionProposal.created_at) >= fresh_since,
        )
        .values(confirmed_at=at)
        .returning(col(SanctionProposal.id))
    )
    return result.first() is not None
