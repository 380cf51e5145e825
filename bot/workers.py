"""Where the CPU-heavy work runs: never on the event loop, always in a bounded executor.

While the loop computes, every button and command of every server waits, and Discord's 3-second rule starts
failing. So every call that can take more than a few milliseconds goes to one of three executors:

* ``compute`` — a **process pool** for pure, long work whose Python holds the GIL (exact battle odds, the
  Ricochet Robots solver, scoring a large final situation). Each worker is a separate interpreter, so one slow call
  cannot slow the loop or the other workers; sized by the machine's cores.
* ``thread`` — a small **thread pool** for work that releases the GIL or is short but not free (images: Pillow
  draws in C; the rules desk's search; verifying a demonstration).
* ``in_transaction`` — its own thread pool for the short computations a use case makes while its transaction is
  open (a draw's plan, the standings' arithmetic), so they never queue behind images while holding a lock.

On top of the pools:

* **one heavy call per person at a time** (``for_user``): a second one while the first runs is refused at once
  with a line that says so, so one member cannot fill the pool;
* **admission**: a call waits at most ``admission_seconds`` for a free worker, then is answered "busy, try again in
  a moment" instead of queueing for minutes;
* **a time budget** per call: past it the member reads "too big" with the reason, instead of waiting for minutes.
  A process already computing cannot be interrupted; the input limits (300 armies a side, the solver's own budget)
  bound what it can still cost.

Nothing of ours is imported here but the errors: services, the renderer's callers and cogs all use it.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import multiprocessing
import os
import threading
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.errors import UserFacingError

T = TypeVar("T")


class Busy(UserFacingError):
    """The workers are all taken for longer than a member should wait: try again in a moment."""

    key = "error.heavy.busy"


class TooBig(UserFacingError):
    """The call did not finish within its budget."""

    key = "error.heavy.too_slow"


class OneAtATime(UserFacingError):
    """The member already has a heavy call running."""

    key = "error.heavy.one_at_a_time"


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


_PRELOAD = ("bot.rules.risiko.dice", "bot.rules.risiko.scoring", "bot.rules.ricochet.solver")


def _warm(owner: int) -> None:
    """A process worker's start: import what the heavy calls use, so the first call does not pay for it; and leave
    when the bot process that owns the pool is gone (killed, it cannot shut its pool down)."""
    threading.Thread(target=_exit_with, args=(owner,), daemon=True, name="owner-watch").start()
    import bot.rules.ricochet.solver
    import bot.rules.risiko.dice
    import bot.rules.risiko.scoring

    bot.rules.risiko.dice.roll_distribution(3, 3)


@dataclass
class Workers:
    """The bounded executors and the per-person gate. One per process is enough (``default_workers``)."""

    processes: int = field(default_factory=_cores)
    threads: int = field(default_factory=lambda: min(4, _cores() + 2))
    admission_seconds: float = 10.0  # the thread pool's: images and searches take well under a second each
    compute_admission_seconds: float = 45.0  # the process pool's: a solve may take seconds (the member sees progress)
    _process_pool: concurrent.futures.ProcessPoolExecutor | None = field(default=None, init=False, repr=False)
    _thread_pool: concurrent.futures.ThreadPoolExecutor | None = field(default=None, init=False, repr=False)
    _txn_pool: concurrent.futures.ThreadPoolExecutor | None = field(default=None, init=False, repr=False)
    _slots: dict[str, weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]] = field(
        default_factory=dict, init=False, repr=False
    )
    _users: set[tuple[int, int]] = field(default_factory=set, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    # ---------------------------------------------------------------------------------------------- pools

    def _processes(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._process_pool is None:
                # a fresh interpreter per worker (forkserver): never a fork of a process holding a running event
                # loop, database connections and sockets
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(list(_PRELOAD))
                self._process_pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.processes, mp_context=context, initializer=_warm, initargs=(os.getpid(),)
                )
            return self._process_pool

    def _threads(self) -> concurrent.futures.ThreadPoolExecutor:
        with self._lock:
            if self._thread_pool is None:
                self._thread_pool = concurrent.futures.ThreadPoolExecutor(self.threads, thread_name_prefix="heavy")
            return self._thread_pool

    def _txn_threads(self) -> concurrent.futures.ThreadPoolExecutor:
        with self._lock:
            if self._txn_pool is None:
                self._txn_pool = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="in-txn")
            return self._txn_pool

    def _slot(self, kind: str, size: int) -> asyncio.Semaphore:
        """Admission to a pool: as many at once as it has workers (one gate per event loop)."""
        gates = self._slots.setdefault(kind, weakref.WeakKeyDictionary())
        loop = asyncio.get_running_loop()
        if loop not in gates:
            gates[loop] = asyncio.Semaphore(size)
        return gates[loop]

    def start(self) -> None:
        """Start the process workers now (at the bot's start-up) rather than on the first heavy call."""
        pool = self._processes()
        for _ in range(self.processes):
            pool.submit(_noop)

    def shutdown(self) -> None:
        with self._lock:
            pools = (self._process_pool, self._thread_pool, self._txn_pool)
            self._process_pool = self._thread_pool = self._txn_pool = None
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    # -------------------------------------------------------------------------------------------- running

    async def _run(
        self,
        kind: str,
        size: int,
        executor: concurrent.futures.Executor,
        budget: float | None,
        call: Callable[[], T],
        admission: float,
    ) -> T:
        """Wait (bounded) for a free worker, run ``call`` there and wait for it within ``budget``. The worker is
        given back when the call ends, also when the member was answered "too big" before that."""
        slot = self._slot(kind, size)
        try:
            await asyncio.wait_for(slot.acquire(), admission)
        except TimeoutError:
            raise Busy(seconds=round(admission)) from None
        try:
            future = asyncio.get_running_loop().run_in_executor(executor, call)
        except BaseException:
            slot.release()
            raise
        future.add_done_callback(lambda _: slot.release())
        if budget is None:
            return await future
        try:
            return await asyncio.wait_for(asyncio.shield(future), budget)
        except TimeoutError:
            future.add_done_callback(_consume)  # its late result (or error) is dropped quietly
            raise TooBig(seconds=round(budget)) from None

    async def compute(self, fn: Callable[..., T], /, *args: Any, budget: float | None = 30.0) -> T:
        """``fn(*args)`` in a worker process: ``fn`` a module-level function, ``args`` plain data (both pickle)."""
        return await self._run(
            "process", self.processes, self._processes(), budget, _Call(fn, args), self.compute_admission_seconds
        )

    async def thread(self, fn: Callable[..., T], /, *args: Any, budget: float | None = 60.0) -> T:
        """``fn(*args)`` in the heavy thread pool (images, search, verification)."""
        return await self._run("thread", self.threads, self._threads(), budget, _Call(fn, args), self.admission_seconds)

    async def in_transaction(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` for a use case whose transaction is open: its own pool, no admission wait and no budget
        (the computation is bounded by its input, and the transaction must end with its result)."""
        return await asyncio.get_running_loop().run_in_executor(self._txn_threads(), _Call(fn, args))

    @asynccontextmanager
    async def for_user(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        """One heavy call per person at a time: a second one while the first runs is refused at once."""
        key = (guild_id, user_id)
        if key in self._users:
            raise OneAtATime()
        self._users.add(key)
        try:
            yield
        finally:
            self._users.discard(key)


class _Call:
    """A picklable ``fn(*args)`` (a lambda would not reach a worker process; use functools.partial for keywords)."""

    __slots__ = ("args", "fn")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fn, self.args = fn, args

    def __call__(self) -> Any:
        return self.fn(*self.args)


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def _noop() -> None:
    return None


def _exit_with(owner: int, every: float = 2.0) -> None:
    import time

    while True:
        time.sleep(every)
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # pragma: no cover - alive, under another user
            continue


_DEFAULT: Workers | None = None


def default_workers() -> Workers:
    """The process's workers, made on first use and shut down at exit."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Workers()
        atexit.register(_DEFAULT.shutdown)
    return _DEFAULT
