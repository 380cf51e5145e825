"""Shared service plumbing: the sessionmaker, the clock and text validation helpers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import repo
from bot.db.models import Tournament
from bot.errors import InvalidInput, NotFound
from bot.rules.jsondoc import DocumentError
from bot.rules.text import visible_text


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
