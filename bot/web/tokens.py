"""The venue tokens the pages know, in memory: a wrong token is a 404 without a database query of its own.

The set is every tournament's token (``VenueService.pages``: one read of the tournaments). A token in the set goes
on to the hub, whose snapshot is the authority (a revoked token is a 404 there at once, and is dropped from the set).
A token not in the set may have been made since the last read (``/venue link`` a second ago): it waits for a read
that *starts after it was asked* — one read shared by every request waiting, at most one every ``refresh_seconds``
— and is answered from that. So a flood of wrong tokens costs no query per request: however many they are, the
set is re-read at most once a second, and not at all while nobody asks for an unknown token. A string that cannot
be a token (not 16–64 URL-safe characters) is answered at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable

log = logging.getLogger(__name__)

REFRESH_SECONDS = 1.0  # the set is re-read at most this often: a new token waits for at most this plus one read
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # secrets.token_urlsafe(24) is 32 of these


class TokensUnavailable(Exception):
    """The set could not be read (the database is unreachable): the page answers 503, not a false 404."""


class TokenBook:
    def __init__(
        self,
        load: Callable[[], Awaitable[Iterable[str]]],
        *,
        refresh_seconds: float = REFRESH_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self.refresh_seconds = refresh_seconds
        self._now = monotonic
        self._tokens: frozenset[str] = frozenset()
        self._waiting: list[tuple[float, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._last_start: float | None = None
        self._wanted = False  # a read with nobody waiting (the first, at start-up)
        self.loads = 0  # reads of the set so far (the tests count them)
        self.misses = 0  # requests for a token not in the set

    def __len__(self) -> int:
        return len(self._tokens)

    async def known(self, token: str) -> bool:
        """Whether ``token`` names a tournament's page (as of a read started after this call, when it is new)."""
        if token in self._tokens:
            return True
        if not TOKEN_SHAPE.fullmatch(token):
            return False
        self.misses += 1
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((self._now(), waiter))
        self._ensure_running()
        await asyncio.shield(waiter)
        return token in self._tokens

    def forget(self, token: str) -> None:
        """The hub found no page for ``token`` (revoked since the last read)."""
        if token in self._tokens:
            self._tokens = self._tokens - {token}

    def refresh(self) -> None:
        """Read the set now (the server starts), without anyone waiting for it."""
        self._wanted = True
        self._ensure_running()

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="venue-tokens")

    async def _run(self) -> None:
        while self._waiting or self._wanted:
            self._wanted = False
            if self._last_start is not None:
                delay = self._last_start + self.refresh_seconds - self._now()
                if delay > 0:
                    await asyncio.sleep(delay)
            started = self._now()
            self._last_start = started
            self.loads += 1
            try:
                tokens = frozenset(await self._load())
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("venue pages: the tokens could not be read (%s); unknown tokens answer 503", exc)
                self._settle(started, TokensUnavailable(str(exc)))
                continue
            self._tokens = tokens
            self._settle(started, None)

    def _settle(self, started: float, error: Exception | None) -> None:
        """Answer every request asked before this read started; later ones wait for the next read."""
        later = []
        for asked, waiter in self._waiting:
            if asked > started:
                later.append((asked, waiter))
            elif not waiter.done():
                if error is None:
                    waiter.set_result(None)
                else:
                    waiter.set_exception(error)
                    waiter.exception()  # retrieved here: a request that left meanwhile logs nothing
        self._waiting = later

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for _, waiter in self._waiting:
            if not waiter.done():
                waiter.set_exception(TokensUnavailable("the server is stopping"))
                waiter.exception()
        self._waiting = []

    def stats(self) -> dict[str, int]:
        return {"tokens": len(self._tokens), "loads": self.loads, "misses": self.misses}
