"""Queries of the members' languages: the Discord language each member's own interactions carried, which the
direct messages the bot writes them follow."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlmodel import col

from bot.db.models import MemberLocale

__all__ = ["member_locale", "member_locales", "set_member_locale"]


async def member_locale(*, session: AsyncSession, guild_id: int, user_id: int) -> str | None:
    """The member's stored language, or None when none of their interactions was seen."""
    found = await session.execute(
        select(col(MemberLocale.locale)).where(
            col(MemberLocale.guild_id) == guild_id, col(MemberLocale.user_id) == user_id
        )
    )
    return found.scalar_one_or_none()


async def member_locales(*, session: AsyncSession, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
    """The stored languages of ``user_ids`` (those never seen are absent)."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    found = await session.execute(
        select(col(MemberLocale.user_id), col(MemberLocale.locale)).where(
            col(MemberLocale.guild_id) == guild_id, col(MemberLocale.user_id).in_(ids)
        )
    )
    return {int(user_id): str(locale) for user_id, locale in found.all()}


async def set_member_locale(*, session: AsyncSession, guild_id: int, user_id: int, locale: str, now: datetime) -> bool:
    """Store the member's language: one read, and a write only when it is new or different. True when written.
    Two first interactions at once: the second insert meets the unique pair and updates instead."""
    stored = await member_locale(session=session, guild_id=guild_id, user_id=user_id)
    if stored == locale:
        return False
    if stored is None:
        try:
            async with session.begin_nested():
                session.add(MemberLocale(guild_id=guild_id, user_id=user_id, locale=locale, updated_at=now))
                await session.flush()
            return True
        except IntegrityError:  # another process stored it meanwhile: this interaction's language wins
            pass
    await session.execute(
        update(MemberLocale)
        .where(col(MemberLocale.guild_id) == guild_id, col(MemberLocale.user_id) == user_id)
        .values(locale=locale, updated_at=now)
    )
    return True
