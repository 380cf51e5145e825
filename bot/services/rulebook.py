"""The rules desk's use cases (BOT-RUL-1): which preset a question is about, the search itself (the rules engine's
:func:`bot.rules.rulebook.search.search`, the same as ``steward rule``), and where a referee posts an answer."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from bot.db.models import RoundStatus
from bot.errors import InvalidInput, NotFound
from bot.rules.presets import PRESET_NAMES
from bot.rules.rulebook import Article
from bot.rules.rulebook.search import QUERY_MAX, SearchError, search
from bot.services._base import BaseService, id_of
from bot.services.access import Actor, StaffRole

SEARCH_BUDGET = 10.0  # seconds; a search takes milliseconds


@dataclass(frozen=True, slots=True)
class Ruling:
    preset: str
    query: str
    language: str
    matches: tuple[tuple[Article, float], ...]  # best first, with the score relative to the best


class RulebookService(BaseService):
    async def preset_for(self, guild_id: int, *, preset: str | None, tournament: str | None) -> str:
        """The preset asked about: the one named, the tournament's, or the server's most recent open tournament's."""
        if preset is not None:
            if preset not in PRESET_NAMES:
                raise InvalidInput("error.unknown_preset", preset=preset[:64], known=", ".join(PRESET_NAMES))
            return preset
        async with self.run(guild_id, tournament=tournament) as uc:
            if tournament is not None:
                return uc.tournament.preset
            latest = await uc.rulebook.latest_open_tournament()
        if latest is None:
            raise InvalidInput("error.rule.which_preset")
        return latest.preset

    async def ask(self, preset: str, query: str, *, limit: int = 3, offset: int = 0, lang: str | None = None) -> Ruling:
        """The articles of ``preset`` that answer ``query``, from ``offset`` on (no database; the search runs in the
        heavy thread pool: a few milliseconds each, but a burst of hundreds must not hold the event loop)."""
        try:
            language, found = await self._workers.thread(
                partial(search, query, preset, limit=offset + limit, lang=lang), budget=SEARCH_BUDGET
            )
        except SearchError as exc:
            raise InvalidInput(f"error.rule.{exc.code}", max=QUERY_MAX) from None
        return Ruling(preset, " ".join(query.split()), language, tuple((m.article, m.score) for m in found[offset:]))

    async def table_thread(self, actor: Actor, *, tournament: str, table: int) -> int:
        """The thread of ``table`` in the tournament's latest published round, for a referee posting an answer."""
        async with self.run(actor, role=StaffRole.REFEREE, tournament=tournament) as uc:
            rounds = await uc.rounds.list_rounds(tournament_id=uc.tournament_id)
            rnd = next((r for r in reversed(rounds) if r.status == RoundStatus.PUBLISHED), None)
            tables = await uc.rounds.list_tables(round_id=id_of(rnd)) if rnd is not None else []
            found = next((x for x in tables if x.number == table), None)
            if found is None or found.thread_id is None:
                raise NotFound("error.call.no_such_table", table=table, tournament=uc.tournament.name)
            return found.thread_id
