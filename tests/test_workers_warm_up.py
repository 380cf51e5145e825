"""Issue 48, "Warm workers": the worker processes start in the background at start-up, and a heavy call that arrives
before they are spawned waits for them without blocking the event loop.

The warm-up is held at a gate (a ``threading.Event``) the test opens from the event loop: were the loop blocked by
the start or by a waiting call, the test could not run its next line before the gate opened, and the assertions
about what is still pending would fail. No assertion depends on timing. The bot's own start-up, measured, is in
tests/wire/test_first_command_stall.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from collections.abc import AsyncIterator

import pytest

from bot import i18n
from bot.app import warm_caches
from bot.i18n import catalogues
from bot.rules.presets import PRESET_NAMES
from bot.rules.rulebook import articles
from bot.workers import Busy, Workers


class Gated(Workers):
    """Workers whose warm-up waits at ``gate`` before it starts anything."""

    gate: threading.Event

    def _warm_up(self, warming: concurrent.futures.Future[None]) -> None:
        self.gate.wait(60)
        super()._warm_up(warming)


@pytest.fixture
async def gated() -> AsyncIterator[Gated]:
    workers = Gated(processes=2)
    workers.gate = threading.Event()
    try:
        yield workers
    finally:
        workers.gate.set()
        workers.shutdown()


async def test_start_returns_at_once_and_the_processes_start_in_the_background(gated: Gated) -> None:
    """Issue 48: ``start`` (the setup hook's) waits for no process: it returns the warm-up's future, still running;
    once the gate opens, both worker processes are spawned by the warm-up (none by a call) and the calls go to
    them."""
    warming = gated.start()
    assert not warming.done() and gated._process_pool is None  # nothing spawned yet: the loop was not held
    assert gated.start() is warming  # a second start while warming joins it
    gated.gate.set()
    await asyncio.wrap_future(warming)
    pool = gated._process_pool
    assert pool is not None and len(pool._processes) == 2  # both spawned by the warm-up, none by a call
    pids = set(await asyncio.gather(*(gated.compute(os.getpid) for _ in range(6))))
    assert pids <= set(pool._processes) and os.getpid() not in pids


async def test_a_heavy_call_before_the_warm_up_ends_waits_without_blocking_the_loop(gated: Gated) -> None:
    """Issue 48: a command that arrives before the workers are spawned waits for them asynchronously: meanwhile the
    loop runs other work (here: this test, which opens the gate), and the call then runs in one of them."""
    gated.start()
    call = asyncio.create_task(gated.compute(os.getpid))
    other = asyncio.create_task(asyncio.sleep(0.05, result="the loop ran"))
    assert await other == "the loop ran"
    assert not call.done()  # waiting for the warm-up, not blocking the loop
    gated.gate.set()
    pid = await call
    assert gated._process_pool is not None and pid in gated._process_pool._processes


async def test_a_call_on_workers_nobody_started_starts_them_off_the_loop(gated: Gated) -> None:
    """Issue 48: a tool's or a test's workers, never started, start on the first call — in the background too."""
    call = asyncio.create_task(gated.compute(os.getpid))
    await asyncio.sleep(0.05)
    assert not call.done() and gated._warming is not None and not gated._warming.done()
    gated.gate.set()
    assert isinstance(await call, int)


async def test_a_warm_up_longer_than_the_admission_answers_busy_and_the_next_call_runs() -> None:
    """Issue 48: the wait for the warm-up counts as the wait for a free worker: past the admission time the member
    reads "busy, try again in a moment" instead of waiting on; once warm, calls run."""
    workers = Gated(processes=1, compute_admission_seconds=0.1)
    workers.gate = threading.Event()
    try:
        workers.start()
        with pytest.raises(Busy):
            await workers.compute(os.getpid)
        workers.gate.set()
        workers.compute_admission_seconds = 60.0  # the spawn itself takes longer than 0.1 s
        assert isinstance(await workers.compute(os.getpid), int)
    finally:
        workers.gate.set()
        workers.shutdown()


async def test_a_waiting_call_cancelled_leaves_the_warm_up_running(gated: Gated) -> None:
    """A member's call cancelled while it waits (the interaction gone) does not cancel the warm-up others wait for."""
    warming = gated.start()
    call = asyncio.create_task(gated.compute(os.getpid))
    await asyncio.sleep(0.05)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert not warming.cancelled()
    gated.gate.set()
    await asyncio.wrap_future(warming)
    assert isinstance(await gated.compute(os.getpid), int)


def test_warm_caches_loads_what_a_first_command_would_load_on_the_loop() -> None:
    """Issue 48: the start-up's warm-up (run off the loop by the setup hook) leaves the catalogues compiled, every
    preset's ruleset read and the rulebooks' articles parsed, so a first command finds them loaded."""
    from bot.rules import ruleset

    catalogues.clear_caches()
    i18n.catalogue.cache_clear()
    warm_caches()
    assert catalogues.index.cache_info().currsize == 1
    assert catalogues.translations.cache_info().currsize == len(i18n.LOCALES) * len(catalogues.domains())
    assert i18n.catalogue.cache_info().currsize == len(i18n.LOCALES)
    assert ruleset._shipped.cache_info().currsize >= len(PRESET_NAMES)
    assert articles.cache_info().currsize == 1
    hits = catalogues.translations.cache_info().hits
    assert i18n.t("error.heavy.busy", "it", seconds=10) and catalogues.translations.cache_info().hits > hits
