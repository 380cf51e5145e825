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
from bot.rules.text import name_key, visible_text
from bot.workers import Workers, default_workers

T = TypeVar("T")


class BaseService:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        workers: Workers | None = None,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._clock = clock
        self._workers = workers or default_workers()  # CPU-heavy work: never on the event loop


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


class Spellings:
    """One spelling per club, team and family group of a tournament: "lupi" or "LUPI" typed after "Lupi" *is* Lupi
    (the name key: case, accents' composition, invisible and look-alike characters), so the draw keeps teammates and
    clubmates apart and the team standings add up one team. The first spelling written wins. Read inside the
    tournament's lock (every entry use case takes it first), so two simultaneous spellings cannot both be first."""

    FIELDS = ("club", "team", "family_group")

    def __init__(self, known: dict[str, list[str]]) -> None:
        self._by_key: dict[str, dict[str, str]] = {
            name: {key: spelling for spelling in reversed(known.get(name, [])) if (key := name_key(spelling))}
            for name in self.FIELDS
        }

    @classmethod
    async def of(cls, session: AsyncSession, guild_id: int, tournament_id: int, *, but: int | None = None) -> Spellings:
        """The tournament's spellings; ``but``: a registration whose own do not count (an edit may respell a club
        or team nobody else has)."""
        known = await repo.group_spellings(session=session, guild_id=guild_id, tournament_id=tournament_id, exclude=but)
        return cls(known)

    def spell(self, field: str, value: str | None) -> str | None:
        """``value`` as the tournament first wrote it (remembered, so a file's later rows follow its first)."""
        if value is None:
            return None
        return self._by_key[field].setdefault(name_key(value), value)


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
