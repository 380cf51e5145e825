"""Shared service plumbing: the sessionmaker, the clock and text validation helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import repo
from bot.db.models import Tournament
from bot.errors import InvalidInput, NotFound
from bot.rules.jsondoc import DocumentError
from bot.rules.text import visible_text

T = TypeVar("T")


class BaseService:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], clock: Callable[[], datetime]) -> None:
        self._sessionmaker = sessionmaker
        self._clock = clock


def clean_text(value: str | None, *, field: str, max_len: int, required: bool = True) -> str | None:
    """Unicode-normalise (NFC), drop invisible characters (zero-width, bidi overrides, controls), squash white space;
    refuse empty (when required) or over-long values, quoting the field. So ``Anna\u200b`` is ``Anna`` and meets the
    duplicate check, and a name of nothing but invisible characters is empty."""
    if value is None:
        if required:
            raise InvalidInput("error.field_empty", field=field)
        return None
    text = visible_text(value)
    if not text:
        if required:
            raise InvalidInput("error.field_empty", field=field)
        return None
    if len(text) > max_len:
        raise InvalidInput("error.field_too_long", field=field, max=max_len, length=len(text))
    return text


def document_refusal(exc: DocumentError, *, field: str) -> InvalidInput:
    """A JSON document a user typed that cannot be read, as one localised line naming the option."""
    return InvalidInput(f"error.json.{exc.code}", field=field, value=str(exc.value)[:80])


async def tournament_or_404(session: AsyncSession, guild_id: int, name: str) -> Tournament:
    tournament = await repo.get_tournament_by_name(session=session, guild_id=guild_id, name=name)
    if tournament is None:
        raise NotFound("error.tournament_not_found", name=name.strip()[:100])
    return tournament


LOCK_RETRIES = 5


async def retry_when_locked(use_case: Callable[[], Awaitable[T]]) -> T:
    """Run a use case again when SQLite answers "database is locked" (a writer that started from a stale snapshot
    is refused at once, without waiting): the whole transaction is retried, so a press is never lost (issue 15,
    defect 4). Use cases run through this must be idempotent — signing twice signs once."""
    for attempt in range(LOCK_RETRIES):
        try:
            return await use_case()
        except OperationalError as exc:
            if "locked" not in str(exc.orig).lower() or attempt == LOCK_RETRIES - 1:
                raise
            await asyncio.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover
