"""Queries of deleting a test tournament (re-exported by bot.db.repo): the tournament by id, what it holds, whether it
has results, and the delete of every row of it. Keyword-only ``session``; every query filters on ``guild_id``."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, or_, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from bot.db.models import (
    CheckIn,
    DmDelivery,
    GameTable,
    RefereeCall,
    Registration,
    ReportDraft,
    Round,
    Sanction,
    SanctionProposal,
    ScheduledReminder,
    SeasonGame,
    SeasonSanction,
    SeasonTournament,
    Seat,
    TableClock,
    TableResult,
    Tournament,
)

__all__ = [
    "TournamentResults",
    "delete_tournament_rows",
    "tournament_by_id",
    "tournament_results",
    "tournament_size",
]


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """What makes a tournament part of the club's history: tables with a report (a result line, or a report entered
    on the table) and sanctions (any case, revoked or annulled ones too: their numbers were given)."""

    reported_tables: int
    sanctions: int

    @property
    def any(self) -> bool:
        return bool(self.reported_tables or self.sanctions)


async def tournament_by_id(*, session: AsyncSession, guild_id: int, tournament_id: int) -> Tournament | None:
    """The server's tournament ``tournament_id`` (a button carries the id); None when it is not (or no longer) there."""
    result = await session.execute(
        select(Tournament).where(col(Tournament.guild_id) == guild_id, col(Tournament.id) == tournament_id)
    )
    return result.scalar_one_or_none()


def _rounds(guild_id: int, tournament_id: int) -> SelectOfScalar[int | None]:
    return select(col(Round.id)).where(col(Round.guild_id) == guild_id, col(Round.tournament_id) == tournament_id)


def _tables(guild_id: int, tournament_id: int) -> SelectOfScalar[int | None]:
    return select(col(GameTable.id)).where(
        col(GameTable.guild_id) == guild_id, col(GameTable.round_id).in_(_rounds(guild_id, tournament_id))
    )


def _registrations(guild_id: int, tournament_id: int) -> SelectOfScalar[int | None]:
    return select(col(Registration.id)).where(
        col(Registration.guild_id) == guild_id, col(Registration.tournament_id) == tournament_id
    )


async def tournament_results(*, session: AsyncSession, guild_id: int, tournament_id: int) -> TournamentResults:
    """The tournament's results (see :class:`TournamentResults`)."""
    tables = _tables(guild_id, tournament_id)
    with_lines = select(TableResult.table_id).where(
        col(TableResult.guild_id) == guild_id, col(TableResult.table_id).in_(tables)
    )
    reported = await session.execute(
        select(func.count())
        .select_from(GameTable)
        .where(
            col(GameTable.guild_id) == guild_id,
            col(GameTable.id).in_(tables),
            or_(
                col(GameTable.id).in_(with_lines),
                col(GameTable.reported_at).is_not(None),  # a report stamps it (its final situation may be JSON null)
            ),
        )
    )
    sanctions = await session.execute(
        select(func.count())
        .select_from(Sanction)
        .where(col(Sanction.guild_id) == guild_id, col(Sanction.tournament_id) == tournament_id)
    )
    return TournamentResults(int(reported.scalar_one()), int(sanctions.scalar_one()))


async def tournament_size(*, session: AsyncSession, guild_id: int, tournament_id: int) -> tuple[int, int, int]:
    """How much a deletion removes: the tournament's registrations (any status), rounds and tables."""
    counts = []
    for query in (_registrations(guild_id, tournament_id), _rounds(guild_id, tournament_id),
                  _tables(guild_id, tournament_id)):  # fmt: skip
        result = await session.execute(select(func.count()).select_from(query.subquery()))
        counts.append(int(result.scalar_one()))
    return counts[0], counts[1], counts[2]


async def delete_tournament_rows(
    *, session: AsyncSession, guild_id: int, tournament_id: int, name: str, given_at_instead: int | None
) -> int:
    """Delete the tournament and every row that belongs to it, children first (every foreign key to ``tournament``,
    and to its rounds, tables, registrations, sanctions and reminders): its reminders and their direct messages,
    clocks, report drafts, referee calls, sanctions (and their season entries), result lines, check-ins, seats,
    tables, rounds, registrations, its place in a season, the sanction proposals naming it. A season's
    one-off games and season sanctions dated at this tournament (``given_at``) are dated ``given_at_instead`` (the
    season's tournament before it; None: before every tournament). The caller holds the tournament's lock.
    Returns the number of rows deleted."""
    rounds = _rounds(guild_id, tournament_id)
    tables = _tables(guild_id, tournament_id)
    registrations = _registrations(guild_id, tournament_id)
    sanctions = select(Sanction.id).where(
        col(Sanction.guild_id) == guild_id,
        or_(
            col(Sanction.tournament_id) == tournament_id,
            col(Sanction.registration_id).in_(registrations),
            col(Sanction.round_id).in_(rounds),
            col(Sanction.table_id).in_(tables),
        ),
    )
    reminders = select(ScheduledReminder.id).where(
        col(ScheduledReminder.guild_id) == guild_id,
        or_(
            col(ScheduledReminder.tournament_id) == tournament_id,
            col(ScheduledReminder.round_id).in_(rounds),
            col(ScheduledReminder.table_id).in_(tables),
        ),
    )
    for model in (SeasonGame, SeasonSanction):  # dated at this tournament: dated at the one before it
        await session.execute(
            update(model)
            .where(col(model.guild_id) == guild_id, col(model.given_at) == tournament_id)
            .values(given_at=given_at_instead)
        )
    statements = [
        delete(DmDelivery).where(
            col(DmDelivery.guild_id) == guild_id,
            or_(col(DmDelivery.tournament_id) == tournament_id, col(DmDelivery.reminder_id).in_(reminders)),
        ),
        delete(ScheduledReminder).where(
            col(ScheduledReminder.guild_id) == guild_id, col(ScheduledReminder.id).in_(reminders)
        ),
        delete(TableClock).where(col(TableClock.guild_id) == guild_id, col(TableClock.table_id).in_(tables)),
        delete(ReportDraft).where(col(ReportDraft.guild_id) == guild_id, col(ReportDraft.table_id).in_(tables)),
        delete(RefereeCall).where(
            col(RefereeCall.guild_id) == guild_id,
            or_(
                col(RefereeCall.tournament_id) == tournament_id,
                col(RefereeCall.round_id).in_(rounds),
                col(RefereeCall.table_id).in_(tables),
            ),
        ),
        delete(SeasonSanction).where(
            col(SeasonSanction.guild_id) == guild_id, col(SeasonSanction.sanction_id).in_(sanctions)
        ),
        delete(Sanction).where(col(Sanction.guild_id) == guild_id, col(Sanction.id).in_(sanctions)),
        delete(SanctionProposal).where(
            col(SanctionProposal.guild_id) == guild_id, col(SanctionProposal.tournament) == name
        ),
        delete(TableResult).where(
            col(TableResult.guild_id) == guild_id,
            or_(col(TableResult.table_id).in_(tables), col(TableResult.registration_id).in_(registrations)),
        ),
        delete(CheckIn).where(
            col(CheckIn.guild_id) == guild_id,
            or_(col(CheckIn.round_id).in_(rounds), col(CheckIn.registration_id).in_(registrations)),
        ),
        delete(Seat).where(
            col(Seat.guild_id) == guild_id,
            or_(col(Seat.table_id).in_(tables), col(Seat.registration_id).in_(registrations)),
        ),
        delete(GameTable).where(col(GameTable.guild_id) == guild_id, col(GameTable.round_id).in_(rounds)),
        delete(Round).where(col(Round.guild_id) == guild_id, col(Round.tournament_id) == tournament_id),
        delete(Registration).where(
            col(Registration.guild_id) == guild_id, col(Registration.tournament_id) == tournament_id
        ),
        delete(SeasonTournament).where(
            col(SeasonTournament.guild_id) == guild_id, col(SeasonTournament.tournament_id) == tournament_id
        ),
        delete(Tournament).where(col(Tournament.guild_id) == guild_id, col(Tournament.id) == tournament_id),
    ]
    removed = 0
    for statement in statements:
        result = await session.execute(statement.execution_options(synchronize_session=False))
        removed += int(getattr(result, "rowcount", 0) or 0)
    return removed
