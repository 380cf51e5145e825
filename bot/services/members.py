"""The members' languages: each member's Discord language, remembered from their own interactions, is the language of
the direct messages the bot writes them (reminders, a declined final); a member never seen reads the server's.

The bot reports every interaction's language here without waiting for the database (:meth:`MemberService.note`):
a language this process already knows for the member costs nothing, a new or changed one waits in memory and is
written in the background, many at once (:meth:`MemberService.flush`), so a rush of first interactions — 300
registrations at the opening of a tournament — adds no database write before any first response. A language
still waiting is already the one this process writes DMs in; another process reads it once it is written
(``remember_locale`` writes one at once, reading first: only when it is new or different)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

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
        self._pending: dict[tuple[int, int], str] = {}  # noted, not yet written: the latest language of each member

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
                return await uc.members.set_member_locale(user_id=user_id, locale=locale, now=uc.clock())

        written = await retry_when_locked(attempt)
        self._remembered(guild_id, user_id, locale)
        return written

    def note(self, guild_id: int, user_id: int, locale: str) -> bool:
        """An interaction's language, kept in memory for :meth:`flush`: no database work, so it may run before a
        command's first response. True when it is new or changed for this process (a flush has work)."""
        if locale not in LOCALES:
            return False
        key = (guild_id, user_id)
        if self._pending.get(key, self._known.get(key)) == locale:
            return False
        self._pending[key] = locale
        return True

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def flush(self) -> int:
        """Write every noted language, one transaction per server (a row only when new or different); returns how
        many were written. A language stays noted until its write commits, so a DM prepared meanwhile reads it; a
        failed server's languages stay noted for the next flush."""
        batch = dict(self._pending)  # stays noted (and read by ``locale``) until it is written
        by_guild: dict[int, list[tuple[int, str]]] = {}
        for (guild_id, user_id), locale in batch.items():
            by_guild.setdefault(guild_id, []).append((user_id, locale))
        written = 0
        for guild_id, members in by_guild.items():

            async def attempt(guild_id: int = guild_id, members: list[tuple[int, str]] = members) -> int:
                async with self.run(guild_id) as uc:
                    count = 0
                    for user_id, locale in members:
                        count += await uc.members.set_member_locale(user_id=user_id, locale=locale, now=uc.clock())
                    return count

            written += await retry_when_locked(attempt)  # a failure leaves them noted for the next flush
            for user_id, locale in members:
                self._remembered(guild_id, user_id, locale)
                if self._pending.get((guild_id, user_id)) == locale:  # a newer language noted meanwhile stays
                    del self._pending[(guild_id, user_id)]
        return written

    async def locale(self, guild_id: int, user_id: int, *, default: str) -> str:
        """The language to write the member a direct message in: theirs when known, else ``default`` (the
        server's)."""
        noted = self._pending.get((guild_id, user_id))
        if noted is not None:  # noted here, not yet written (it stays noted until its write commits)
            return noted
        async with self.run(guild_id) as uc:
            stored = await uc.members.member_locale(user_id=user_id)
        return stored if stored in LOCALES else default

    async def locales(self, guild_id: int, user_ids: Iterable[int], *, default: str) -> dict[int, str]:
        """:meth:`locale` for several members at once."""
        ids = list(user_ids)
        async with self.run(guild_id) as uc:
            stored = await uc.members.member_locales(user_ids=ids)
        stored |= {u: self._pending[(guild_id, u)] for u in ids if (guild_id, u) in self._pending}
        return {u: stored[u] if stored.get(u) in LOCALES else default for u in ids}
