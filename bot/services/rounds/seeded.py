"""What the draws and the finals share: a seed source for every draw and the standings they are drawn from."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.services._base import BaseService
from bot.services.rounds.views import new_seed
from bot.services.standings import StandingsService
from bot.workers import Workers


class SeededRoundsService(BaseService):
    """A service that draws tables: where its seeds come from (the OS by default; the demo and tests inject a seeded
    source) and the standings service it reads the players' order from."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        seed_source: Callable[[], int] = new_seed,
        workers: Workers | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, workers)
        self._seed_source = seed_source
        self._standings = StandingsService(sessionmaker, clock, workers=self._workers)
