"""The members' languages: each member's Discord language, remembered from their own interactions, is the language of
the direct messages the bot writes them (reminders, a declined final); a member never seen reads the server's.

The bot reports every interaction's language here; a language this process already knows for the member costs
nothing, and the database is written only when it is new or different (one read otherwise)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db import repo
from bot.services._base import BaseService, retry_when_locked
from bot.workers import Workers

LOCALES = ("it", "en")
REMEMBERED = 20_000  # members whose language this process keeps in memory (the least recently seen forgotten first)


class MemberService(BaseService):
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Callable[[], datetime],
        workers: Workers | None = None,
    ) -> None:
        super().__init__(sessionmaker, clock, workers)
        self._known: OrderedDict[tuple[int, int], str] = OrderedDict()

    def _remembered(self, guild_id: int, user_id: int, locale: str) -> None:
        self._known[(guild_id, user_id)] = locale
        self._known.move_to_end((guild_id, user_id))
        while len(self._known) > REMEMBERED:
            self._known.popitem(last=False)

    async def remember_locale(self, guild_id: int, user_id: int, locale: str) -> bool:
        """The language ('it' or 'en') an interaction of the member carried; True when it was written (new or
        changed). Anything else (a Discord language the bot does not speak) is not remembered: their DMs keep the
        server's language."""
        if locale not in LOCALES or self._known.get((guild_id, user_id)) == locale:
            return False

        async def attempt() -> bool:
            async with self.run(guild_id) as uc:
                return await repo.set_member_locale(session=uc.session, guild_id=guild_id, user_id=user_id,
                                                    locale=locale, now=uc.clock())  # fmt: skip

        written = await retry_when_locked(attempt)
        self._remembered(guild_id, user_id, locale)
        return written

    async def locale(self, guild_id: int, user_id: int, *, default: str) -> str:
        """The language to write the member a direct message in: theirs when known, else ``default`` (the
        server's)."""
        async with self.run(guild_id) as uc:
            stored = await repo.member_locale(session=uc.session, guild_id=guild_id, user_id=user_id)
        return stored if stored in LOCALES else default

    async def locales(self, guild_id: int, user_ids: Iterable[int], *, default: str) -> dict[int, str]:
        """:meth:`locale` for several members at once."""
        ids = list(user_ids)
        async with self.run(guild_id) as uc:
            stored = await repo.member_locales(session=uc.session, guild_id=guild_id, user_ids=ids)
        return {u: stored[u] if stored.get(u) in LOCALES else default for u in ids}
