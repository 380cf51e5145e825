"""Queries of the registrations area (re-exported by bot.db.repo): players, waitlist, check-ins.

Names carry the area (``registration_*``, ``checkin_*``) so the star re-export never shadows another area's query.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import (
    CheckIn,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Sanction,
    Seat,
    TableResult,
)

__all__ = [
    "checkin_current_round",
    "checkin_get",
    "first_waitlisted_registration",
    "get_registration_by_id",
    "registration_counts",
    "registration_delete",
    "registration_is_referenced",
    "registration_rounds",
]


async def get_registration_by_id(
    *, session: AsyncSession, guild_id: int, tournament_id: int, registration_id: int
) -> Registration | None:
    result = await session.execute(
        select(Registration).where(
            Registration.guild_id == guild_id,
            Registration.tournament_id == tournament_id,
            Registration.id == registration_id,
        )
    )
    return result.scalar_one_or_none()


async def registration_counts(*, session: AsyncSession, guild_id: int, tournament_id: int) -> dict[str, int]:
    """Number of registrations per status."""
    result = await session.execute(
        select(Registration.status, func.count())
        .where(Registration.guild_id == guild_id, Registration.tournament_id == tournament_id)
        .group_by(Registration.status)
    )
    return {str(status): int(n) for status, n in result.all()}


async def first_waitlisted_registration(
    *, session: AsyncSession, guild_id: int, tournament_id: int
) -> Registration | None:
    """The waitlisted player who registered first (BOT-REG-2: promoted when a place frees up)."""
    result = await session.execute(
        select(Registration)
        .where(
            Registration.guild_id == guild_id,
            Registration.tournament_id == tournament_id,
            Registration.status == RegistrationStatus.WAITLISTED,
        )
        .order_by(col(Registration.registered_at), col(Registration.id))
        .limit(1)
    )
    return result.scalars().first()


async def registration_is_referenced(*, session: AsyncSession, guild_id: int, registration_id: int) -> bool:
    """True when a seat, result, check-in or sanction points at the registration (then it is never deleted)."""
    for model in (Seat, TableResult, CheckIn, Sanction):
        result = await session.execute(
            select(func.count())
            .select_from(model)
            .where(model.guild_id == guild_id, model.registration_id == registration_id)
        )
        if int(result.scalar_one()):
            return True
    return False


async def registration_delete(*, session: AsyncSession, guild_id: int, registration: Registration) -> None:
    """Delete a registration of the server (one nothing points at: see :func:`registration_is_referenced`)."""
    if registration.guild_id != guild_id:  # pragma: no cover - a programming error
        raise ValueError("a registration of another server")
    await session.delete(registration)


async def registration_rounds(*, session: AsyncSession, guild_id: int, tournament_id: int) -> Sequence[Round]:
    result = await session.execute(
        select(Round)
        .where(Round.guild_id == guild_id, Round.tournament_id == tournament_id)
        .order_by(col(Round.number))
    )
    return result.scalars().all()


async def checkin_current_round(*, session: AsyncSession, guild_id: int, tournament_id: int) -> Round | None:
    """The current round of a tournament: the lowest-numbered round that is not closed."""
    result = await session.execute(
        select(Round)
        .where(
            Round.guild_id == guild_id,
            Round.tournament_id == tournament_id,
            Round.status != RoundStatus.CLOSED,
        )
        .order_by(col(Round.number))
        .limit(1)
    )
    return result.scalars().first()


async def checkin_get(*, session: AsyncSession, guild_id: int, round_id: int, registration_id: int) -> CheckIn | None:
    result = await session.execute(
        select(CheckIn).where(
            CheckIn.guild_id == guild_id,
            CheckIn.round_id == round_id,
            CheckIn.registration_id == registration_id,
        )
    )
    return result.scalar_one_or_none()
