"""ISSUE-40.4 — a flood of wrong venue links costs the database nothing.

As found: every request with a random token cost a database query; 1,000 in flight slowed the bot's own reads from
2 ms to 6.4 s. Now a token is looked up in an in-memory set of the tournaments' tokens (``bot/web/tokens.py``): a
wrong one is a 404 without a query of its own — the set is re-read at most once a second whatever the number of
requests — and a token made or revoked a moment ago works or stops within a bounded time.

The flood comes from a separate process (as phones and scripts would), 1,000 requests in flight at once, while this
process reads the standings as ``/standings`` does. The database's statements are counted with an SQLAlchemy event
listener, and the token lookup is spied on."""

from __future__ import annotations

import asyncio
import itertools
import statistics
import time
from collections import Counter
from typing import Any

import aiohttp
import pytest

import bot.db.repo.venue
from bot.services import Services
from bot.web.tokens import TokenBook, TokensUnavailable
from tests.support.reports_fixtures import GUILD, ORGANIZER, build_tournament
from tests.support.web_limits_wrong_tokens import FLOOD, counting, flood, served, statuses, timed, until

ROUNDS = {1: [["Anna", "Bruno", "Carla", "Dario"], ["Elio", "Fabio", "Gino", "Ilaria"]]}


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Calls of the repo's token lookup (what each wrong token cost before)."""
    calls: Counter[str] = Counter()
    real = bot.db.repo.venue.tournament_by_venue_token

    async def spy(**kwargs: Any) -> Any:
        calls["lookup"] += 1
        return await real(**kwargs)

    monkeypatch.setattr(bot.db.repo.venue, "tournament_by_venue_token", spy)  # what the bound repositories call
    return calls


async def test_issue_40_4_a_thousand_wrong_tokens_cost_no_query_and_the_bot_s_reads_keep_their_pace(
    services: Services, lookups: Counter[str]
):
    b = await build_tournament(services, rounds=ROUNDS)
    await services.venue.link(ORGANIZER, tournament=b.name)

    async def read() -> None:  # the bot's own read: what /standings does
        await services.standings.compute(GUILD, b.name)

    async with served(services) as server:
        hub = server.hub
        await until(lambda: hub.tokens.loads >= 1 and len(hub.tokens) == 1, 30, "the tokens are read at start")
        with counting(services) as per_reload:
            await hub._load_tokens()
        with counting(services) as per_read:
            await read()
        baseline = [await timed(read) for _ in range(30)]

        loads_before = hub.tokens.loads
        with counting(services) as during:
            proc = await flood(server)
            await until(lambda: hub.tokens.misses >= FLOOD // 2, 120, "the flood reaches the server")
            reads = []
            while proc.returncode is None and len(reads) < 30:  # the bot reads while the flood is in flight
                reads.append(await timed(read))
            answered = await statuses(proc)
        loads = hub.tokens.loads - loads_before

    assert answered == {"404": FLOOD}, answered
    assert lookups["lookup"] == 0 and during.lookups == 0  # not one token looked up in the database
    # every statement of the flood's time is a read of the bot's or one of the set's re-reads: the flood's own is 0
    assert during.total == per_read.total * len(reads) + per_reload.total * loads, (during.total, len(reads), loads)
    assert loads <= 1 + 180 / hub.tokens.refresh_seconds  # at most one re-read a second, however many requests
    assert hub.builds == 0  # no snapshot was built for a wrong token
    # the reads kept their pace (the finding: 2 ms → 6.4 s); a generous ratio, measured in this run
    assert reads, "the flood ended before the bot could read"
    ratio = statistics.median(reads) / statistics.median(baseline)
    print(f"standings read: {statistics.median(baseline) * 1000:.1f} ms alone, {statistics.median(reads) * 1000:.1f} ms"
          f" during {FLOOD} wrong tokens in flight (x{ratio:.1f}); {loads} re-reads of the tokens")  # fmt: skip
    assert ratio < 8, (ratio, statistics.median(baseline), reads)  # here ~1; as found 16–240


async def test_issue_40_4_as_found_each_wrong_token_was_a_database_query(
    services: Services, lookups: Counter[str], monkeypatch: pytest.MonkeyPatch
):
    """The same flood with the set bypassed (every string taken for a token, as before): one lookup per request."""

    async def anything(self: TokenBook, token: str) -> bool:
        return True

    monkeypatch.setattr(TokenBook, "known", anything)
    b = await build_tournament(services, rounds=ROUNDS)

    async def read() -> None:
        await services.standings.compute(GUILD, b.name)

    async with served(services) as server:
        baseline = [await timed(read) for _ in range(10)]
        proc = await flood(server)
        await until(lambda: lookups["lookup"] >= FLOOD // 10, 120, "the flood reaches the database")
        reads = []
        while proc.returncode is None and len(reads) < 10:
            reads.append(await timed(read))
        answered = await statuses(proc)
    assert answered == {"404": FLOOD}, answered
    assert lookups["lookup"] == FLOOD and server.hub.builds == FLOOD
    if reads:  # reported, not asserted: how the bot's reads fared before
        print(f"as found: standings read {statistics.median(baseline) * 1000:.1f} ms alone, "
              f"{statistics.median(reads) * 1000:.1f} ms during the flood")  # fmt: skip


async def test_issue_40_4_a_new_link_works_at_once_and_a_revoked_one_stops_within_a_bound(
    services: Services, lookups: Counter[str]
):
    b = await build_tournament(services, rounds=ROUNDS)
    async with served(services) as server, aiohttp.ClientSession() as http:
        hub = server.hub
        await until(lambda: hub.tokens.loads >= 1, 30, "the tokens are read at start")

        async def status(token: str) -> int:
            async with http.get(f"{server.base_url}/v/{token}/data") as r:
                await r.read()
                return r.status

        # a tournament made while the server runs, its link given a moment ago: served at the first request
        await build_tournament(services, name="Coppa Nuova", rounds=ROUNDS)
        new = (await services.venue.link(ORGANIZER, tournament="Coppa Nuova")).token
        assert await status(new) == 200
        old = (await services.venue.link(ORGANIZER, tournament=b.name)).token
        assert await status(old) == 200
        # revoked: the old link stops (the hub sees the change within its poll; the wait is a backstop)
        fresh = (await services.venue.revoke(ORGANIZER, tournament=b.name)).token
        deadline = time.monotonic() + 30
        while await status(old) != 404:
            assert time.monotonic() < deadline, "the revoked link still answers"
            await asyncio.sleep(0.05)
        assert await status(fresh) == 200
        # from then on the old link is a wrong token like any other: no lookup
        before = lookups["lookup"]
        assert {await status(old) for _ in range(3)} == {404}
        assert lookups["lookup"] == before
        # a string that cannot be a token is answered without even re-reading the set
        loads = hub.tokens.loads
        assert await status("nope") == 404 and await status("../../etc") == 404
        assert hub.tokens.loads == loads


async def test_issue_40_4_unknown_tokens_share_one_re_read_and_wait_only_for_it():
    loads: list[float] = []
    tokens = {"a" * 32}

    async def load() -> set[str]:
        loads.append(time.monotonic())
        await asyncio.sleep(0.01)
        return set(tokens)

    book = TokenBook(load, refresh_seconds=0.2)
    book.refresh()
    await until(lambda: len(loads) == 1 and len(book) == 1, 30, "the first read")
    assert await book.known("a" * 32) and len(loads) == 1  # known: no read
    assert not await book.known("not a token") and len(loads) == 1  # cannot be one: no read
    tokens.add("b" * 32)  # made after the last read: found by the read that starts after the request
    assert await book.known("b" * 32) and len(loads) == 2
    answers = await asyncio.gather(*(book.known(f"{i:032d}") for i in range(500)))
    assert not any(answers) and len(loads) <= 4  # 500 wrong tokens: one or two shared reads, not 500
    assert all(b - a >= 0.2 * 0.9 for a, b in itertools.pairwise(loads))  # never more often than asked
    await book.stop()


async def test_issue_40_4_an_unreadable_set_is_a_503_not_a_false_404():
    async def load() -> set[str]:
        raise OSError("database unreachable")

    book = TokenBook(load, refresh_seconds=0.05)
    with pytest.raises(TokensUnavailable):
        await book.known("c" * 32)
    await book.stop()
