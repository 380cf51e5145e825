"""Issue 40, finding 5: a compute worker process that died (the OOM killer, a kill) left the process pool broken for
good — odds, the solver and scoring all failed until the bot restarted (5/5). Now the pool is replaced and the call
retried once; a worker that dies twice under one call is a clear error, and the next call works; each worker's
memory is bounded (an address-space limit), so a call too big for it fails alone instead of inviting the OOM killer.

Every worker here is the real thing (``Workers``: forkserver processes); the deaths are real (SIGKILL from outside,
``os._exit`` inside). No assertion depends on timing: whichever moment the pool notices a death, the outcome is the
same."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import signal
from collections.abc import AsyncIterator

import pytest

from bot.i18n import t
from bot.rules.ricochet import notation
from bot.services import Services
from bot.services.access import Actor
from bot.settings import Settings
from bot.workers import DEFAULT_WORKER_MEMORY_MB, MIB, OutOfMemory, WorkerLost, Workers

MEMBER = Actor(guild_id=111, user_id=42, display_name="Anna")
POSITION = {"board": "1A 2A 3A 4A", "robots": "R15,5 G10,7 B5,15 Y10,3", "target": "2,9 blue triangle"}  # 12 moves


def situation() -> str:
    """A whole final situation: four players over the 42 territories."""
    from bot.rules.risiko.board import standard_board

    names = sorted(standard_board().territories)
    players = [
        {
            "name": f"P{i}",
            "territories": {n: 1 + k % 5 for k, n in enumerate(names) if k % 4 == i},
            "objective": names[5 * i : 5 * i + 5],
        }
        for i in range(4)
    ]
    return json.dumps({"players": players})


@pytest.fixture
async def workers() -> AsyncIterator[Workers]:
    own = Workers(processes=2)  # its own pool: killing its workers touches no other test
    try:
        yield own
    finally:
        own.shutdown()


async def odds(services: Services) -> object:
    answer = await services.adjudicators.odds(MEMBER, attackers=12, defenders=9)
    return answer.values["kind"]


async def solve(services: Services) -> object:
    target = notation.parse_target(POSITION["target"], "en")
    answer = await services.ricochet.solve(
        MEMBER,
        quadrants=POSITION["board"].split(),
        robots=notation.parse_robots(POSITION["robots"], "en"),
        target=[*(target.cell or ()), target.colour, target.symbol],
    )
    return answer.values["optimal"]


async def score(services: Services) -> object:
    answer = await services.scoring.score(MEMBER, text=situation(), preset="risiko-ufficiali-2018")
    return len(answer.scored.table.players)


async def test_finding_5_after_a_worker_is_killed_odds_the_solver_and_scoring_answer_5_of_5(
    services: Services, workers: Workers
):
    heavy = Services(services.sessionmaker, services.clock, workers=workers)
    workers.start()
    answers = []
    for _ in range(5):
        victim = await workers.compute(os.getpid)  # a live worker of the pool
        os.kill(victim, signal.SIGKILL)  # as the OOM killer does
        answers.append((await odds(heavy), await solve(heavy), await score(heavy)))
    assert answers == [("battle", 12, 4)] * 5


async def test_finding_5_a_call_that_meets_a_pool_broken_before_it_is_retried_on_a_new_pool(workers: Workers):
    first = await workers.compute(os.getpid)
    broken = workers._process_pool
    os.kill(first, signal.SIGKILL)
    for _ in range(5):
        assert isinstance(await workers.compute(os.getpid), int)
    assert workers._process_pool is not broken and first not in await asyncio.gather(
        *(workers.compute(os.getpid) for _ in range(2))
    )


async def test_finding_5_a_worker_that_dies_twice_under_one_call_is_a_clear_error(
    workers: Workers, caplog: pytest.LogCaptureFixture
):
    with caplog.at_level(logging.WARNING, logger="bot.workers"), pytest.raises(WorkerLost) as lost:
        await workers.compute(os._exit, 3)  # its worker dies: in the pool, then in the retry's own process
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", "a compute worker process died (out of memory, or killed): the pool is replaced"),
        ("ERROR", "_exit: its worker process died twice; answered as lost"),
    ]
    assert t(lost.value.key, "en").startswith("The calculation was lost twice")
    assert t(lost.value.key, "it").startswith("Il calcolo si è interrotto due volte")
    assert isinstance(await workers.compute(os.getpid), int)  # and the next call has a working pool


async def test_finding_5_a_call_that_kills_its_worker_every_time_fails_alone(workers: Workers):
    """The calls beside it when it broke the pool are retried each in a process of their own, away from its retry."""
    results = await asyncio.gather(
        workers.compute(os._exit, 3), *(workers.compute(os.getpid) for _ in range(3)), return_exceptions=True
    )
    assert isinstance(results[0], WorkerLost)
    assert all(isinstance(pid, int) for pid in results[1:]), results
    assert isinstance(await workers.compute(os.getpid), int)


async def test_finding_5_each_worker_s_memory_is_bounded_and_a_call_past_it_fails_alone():
    small = Workers(processes=1, memory_mb=400)
    try:
        pid = await small.compute(os.getpid)
        assert await small.compute(resource.getrlimit, resource.RLIMIT_AS) == (
            400 * MIB,
            resource.getrlimit(resource.RLIMIT_AS)[1],
        )
        with pytest.raises(OutOfMemory) as too_big:
            await small.compute(bytearray, 600 * MIB)
        assert too_big.value.params == {"mb": 400}
        assert "(400 MB)" in t(too_big.value.key, "en", **too_big.value.params)
        assert await small.compute(os.getpid) == pid  # the worker lived on: only that call failed
        assert len(await small.compute(bytearray, 50 * MIB)) == 50 * MIB  # within the limit, as before
    finally:
        small.shutdown()


async def test_finding_5_the_memory_limit_is_a_setting_with_a_documented_default():
    assert Settings().worker_memory_mb == DEFAULT_WORKER_MEMORY_MB == Workers().memory_mb == 1024
    assert Settings(worker_memory_mb=0).worker_memory_mb == 0  # 0: no limit
    unlimited = Workers(processes=1, memory_mb=0)
    try:
        assert (await unlimited.compute(resource.getrlimit, resource.RLIMIT_AS)) == resource.getrlimit(
            resource.RLIMIT_AS
        )
    finally:
        unlimited.shutdown()
