"""Every query of the project. Keyword-only ``session``; every read filters on ``guild_id``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col, select

from bot.db.models import (
    AuditLog,
    GuildConfig,
    Registration,
    RegistrationStatus,
    Tournament,
    registration_key,
    tournament_key,
)

ACTIVE_REGISTRATION = (RegistrationStatus.REGISTERED, RegistrationStatus.VALIDATED)


async def get_guild_config(*, session: AsyncSession, guild_id: int) -> GuildConfig | None:
    result = await session.execute(select(GuildConfig).where(GuildConfig.guild_id == guild_id))
    return result.scalar_one_or_none()


async def get_or_create_guild_config(*, session: AsyncSession, guild_id: int, locale: str) -> GuildConfig:
    config = await get_guild_config(session=session, guild_id=guild_id)
    if config is None:
        config = GuildConfig(guild_id=guild_id, locale=locale)
        session.add(config)
        await session.flush()
    return config


async def get_tournament_by_name(*, session: AsyncSession, guild_id: int, name: str) -> Tournament | None:
    result = await session.execute(
        select(Tournament).where(Tournament.guild_id == guild_id, Tournament.name_key == tournament_key(name))
    )
    return result.scalar_one_or_none()


async def list_tournaments(
    *, session: AsyncSession, guild_id: int, name_prefix: str = "", limit: int = 25
) -> Sequence[Tournament]:
    stmt = select(Tournament).where(Tournament.guild_id == guild_id)
    if name_prefix:
        stmt = stmt.where(func.lower(Tournament.name).contains(name_prefix.strip().lower(), autoescape=True))
    stmt = stmt.order_by(col(Tournament.created_at).desc(), col(Tournament.id).desc()).limit(limit)
    result = await session.execute(stmt)
    return result.scalars().all()


async def get_registration_for_user(
    *, session: AsyncSession, guild_id: int, tournament_id: int, user_id: int
) -> Registration | None:
    result = await session.execute(
        select(Registration).where(
            Registration.guild_id == guild_id,
            Registration.tournament_id == tournament_id,
            Registration.user_id == user_id,
        )
    )
    return result.scalar_one_or_none()


async def get_registration_by_name(
    *, session: AsyncSession, guild_id: int, tournament_id: int, display_name: str
) -> Registration | None:
    result = await session.execute(
        select(Registration).where(
            Registration.guild_id == guild_id,
            Registration.tournament_id == tournament_id,
            Registration.name_key == registration_key(display_name),
            col(Registration.status).in_((*ACTIVE_REGISTRATION, RegistrationStatus.WAITLISTED)),
        )
    )
    return result.scalars().first()


async def count_active_registrations(*, session: AsyncSession, guild_id: int, tournament_id: int) -> int:
    result = await session.execute(
        select(func.count())
        .select_from(Registration)
        .where(
            Registration.guild_id == guild_id,
            Registration.tournament_id == tournament_id,
            col(Registration.status).in_(ACTIVE_REGISTRATION),
        )
    )
    return int(result.scalar_one())


async def list_registrations(*, session: AsyncSession, guild_id: int, tournament_id: int) -> Sequence[Registration]:
    result = await session.execute(
        select(Registration)
        .where(Registration.guild_id == guild_id, Registration.tournament_id == tournament_id)
        .order_by(col(Registration.registered_at), col(Registration.id))
    )
    return result.scalars().all()


async def add_audit(
    *,
    session: AsyncSession,
    guild_id: int,
    actor_id: int | None,
    action: str,
    entity: str,
    entity_id: int | None,
    details: dict[str, Any] | None = None,
) -> None:
    session.add(
        AuditLog(
            guild_id=guild_id,
            actor_id=actor_id,
            action=action,
            entity=entity,
            entity_id=entity_id,
            details=details or {},
        )
    )


async def list_audit(*, session: AsyncSession, guild_id: int, limit: int = 100) -> Sequence[AuditLog]:
    result = await session.execute(
        select(AuditLog).where(AuditLog.guild_id == guild_id).order_by(col(AuditLog.id).desc()).limit(limit)
    )
    return result.scalars().all()


async def lock_tournament(*, session: AsyncSession, guild_id: int, name: str) -> None:
    """Serialise the use cases that count a tournament's entries (the cap, the waitlist): an UPDATE of the
    tournament's row, as the transaction's first statement, takes its row lock on PostgreSQL and the write lock on
    SQLite, so the count that follows sees every earlier registration. A name that matches nothing locks nothing
    (the caller's lookup then says so)."""
    from sqlalchemy import update

    await session.execute(
        update(Tournament)
        .where(col(Tournament.guild_id) == guild_id, col(Tournament.name_key) == tournament_key(name))
        .values(cap=Tournament.cap)
    )


async def group_spellings(
    *, session: AsyncSession, guild_id: int, tournament_id: int, exclude: int | None = None
) -> dict[str, list[str]]:
    """Each club, team and family group of a tournament as first written, oldest first (one row per spelling);
    ``exclude``: a registration whose own spellings do not count (the one being edited)."""
    out: dict[str, list[str]] = {}
    for name in ("club", "team", "family_group"):
        column = getattr(Registration, name)
        query = (
            select(column, func.min(Registration.id))
            .where(Registration.guild_id == guild_id, Registration.tournament_id == tournament_id, column.is_not(None))
            .group_by(column)
            .order_by(func.min(Registration.id))
        )
        if exclude is not None:
            query = query.where(col(Registration.id) != exclude)
        out[name] = [row[0] for row in await session.execute(query)]
    return out
