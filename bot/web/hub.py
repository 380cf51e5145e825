"""One snapshot per tournament page, rebuilt once per change and shared by every viewer.

The hub polls each server's change counter (``VenueService.versions``: one query for all the pages it keeps, every
``poll_seconds``, whatever the number of viewers) and rebuilds a page's snapshot only when the counter moved (and
every ``refresh_seconds`` anyway, so a clock that passes its limit is re-read). Each page's JSON is encoded once per
change and language. Open pages wait on the page's ``changed`` event; a revoked token ends them (``gone``).

A page is built only for a token of the in-memory set (:class:`~bot.web.tokens.TokenBook`): a wrong token costs no
database query."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import LOCALES
from bot.services.venue import VenueService
from bot.web.pages import words
from bot.web.tokens import REFRESH_SECONDS as TOKEN_REFRESH_SECONDS
from bot.web.tokens import TokenBook
from bot.web.venue_data import VenueSnapshot, snapshot_of

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # a change reaches the open pages within this plus one rebuild (the issue asks 2 s)
REFRESH_SECONDS = 30.0  # a page is re-read at least this often (a clock passing its limit changes no row)
IDLE_SECONDS = 600.0  # a page nobody asked for this long and nobody watches is dropped from memory
MAX_PAGES = 500  # pages kept at once (a flood of valid tokens cannot grow memory without bound)


@dataclass(eq=False)
class Page:
    token: str
    snapshot: VenueSnapshot
    built: float
    last_used: float
    watchers: int = 0
    generation: int = 0  # bumped at every change of the data: what an open stream has sent
    gone: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    _payloads: dict[str, bytes] = field(default_factory=dict)

    def payload(self, lang: str) -> bytes:
        """The page's JSON in ``lang``, encoded once per snapshot and language."""
        cached = self._payloads.get(lang)
        if cached is None:
            body = {"version": self.snapshot.version, "lang": lang, "words": words(lang), "data": self.snapshot.data}
            cached = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
            self._payloads[lang] = cached
        return cached

    def replace(self, snapshot: VenueSnapshot, now: float) -> None:
        changed = snapshot.data != self.snapshot.data
        self.snapshot, self.built = snapshot, now
        if changed:
            self._payloads = {}
            self.generation += 1
            self.wake()

    def end(self) -> None:
        self.gone = True
        self.wake()

    def wake(self) -> None:
        old, self.changed = self.changed, asyncio.Event()
        old.set()


class VenueHub:
    def __init__(
        self,
        venue: VenueService,
        *,
        poll_seconds: float = POLL_SECONDS,
        refresh_seconds: float = REFRESH_SECONDS,
        idle_seconds: float = IDLE_SECONDS,
        token_refresh_seconds: float = TOKEN_REFRESH_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.venue = venue
        self.tokens = TokenBook(self._load_tokens, refresh_seconds=token_refresh_seconds, monotonic=monotonic)
        self.poll_seconds = poll_seconds
        self.refresh_seconds = refresh_seconds
        self.idle_seconds = idle_seconds
        self._now = monotonic
        self._pages: dict[str, Page] = {}
        self._building: dict[str, asyncio.Future[Page | None]] = {}
        self._task: asyncio.Task[None] | None = None
        self.closing = False  # the server is stopping: open streams end without "gone" (browsers reconnect)
        self.builds = 0  # snapshots built so far (the load check counts them)
        self.polls = 0

    async def page(self, token: str) -> Page | None:
        """The page of ``token``, built on first request (once, however many viewers ask at the same moment); None
        for a wrong or revoked token — one that is no tournament's costs no query of its own (``tokens.py``; raises
        :class:`~bot.web.tokens.TokensUnavailable` when the tokens cannot be read)."""
        found = self._pages.get(token)
        if found is not None and not found.gone:
            found.last_used = self._now()
            return found
        if not await self.tokens.known(token):
            return None
        pending = self._building.get(token)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Page | None] = asyncio.get_running_loop().create_future()
        self._building[token] = future
        try:
            snapshot = await self._build(token)
            page = None
            if snapshot is None:  # revoked since the tokens were read
                self.tokens.forget(token)
            else:
                now = self._now()
                page = Page(token, snapshot, built=now, last_used=now)
                self._pages[token] = page
                self._trim()
            future.set_result(page)
            return page
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody logs "never retrieved"
            raise
        finally:
            self._building.pop(token, None)

    async def _load_tokens(self) -> list[str]:
        return [link.token for link in await self.venue.pages()]

    async def _build(self, token: str) -> VenueSnapshot | None:
        self.builds += 1
        page = await self.venue.page(token)
        return snapshot_of(page) if page is not None else None

    def _trim(self) -> None:
        if len(self._pages) <= MAX_PAGES:
            return
        idle = sorted((p for p in self._pages.values() if not p.watchers), key=lambda p: p.last_used)
        for page in idle[: len(self._pages) - MAX_PAGES]:
            self._pages.pop(page.token, None)

    async def poll_once(self) -> None:
        """Rebuild the pages whose server changed (or that are due a refresh); drop idle ones and revoked ones."""
        self.polls += 1
        now = self._now()
        for token, page in list(self._pages.items()):
            if not page.watchers and now - page.last_used > self.idle_seconds:
                del self._pages[token]
        if not self._pages:
            return
        guilds = sorted({p.snapshot.guild_id for p in self._pages.values()})
        counters = await self.venue.versions(guilds)
        for token, page in list(self._pages.items()):
            moved = counters.get(page.snapshot.guild_id, 0) != page.snapshot.version
            if not moved and now - page.built < self.refresh_seconds:
                continue
            snapshot = await self._build(token)
            if snapshot is None:  # the token was revoked (or the tournament deleted)
                self._pages.pop(token, None)
                self.tokens.forget(token)
                page.end()
            else:
                page.replace(snapshot, self._now())

    async def run(self) -> None:
        """Poll until cancelled; a database error is logged and the pages keep their last snapshot."""
        while True:
            try:
                await self.poll_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("venue pages: reading the changes failed; the pages keep their last snapshot")
            await asyncio.sleep(self.poll_seconds)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run(), name="venue-hub")
            self.tokens.refresh()

    async def stop(self) -> None:
        task, self._task = self._task, None
        self.close_streams()
        await self.tokens.stop()
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def close_streams(self) -> None:
        """The server is stopping: every open stream ends (without "gone": the browsers reconnect)."""
        self.closing = True
        for page in self._pages.values():
            page.wake()

    def stats(self) -> dict[str, Any]:
        return {"pages": len(self._pages), "builds": self.builds, "polls": self.polls} | self.tokens.stats()


def lang_of(asked: str | None, default: str) -> str:
    """``?lang=`` when it names a language of the project, else the server's."""
    return asked if asked in LOCALES else (default if default in LOCALES else "it")
