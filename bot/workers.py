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
* **warm before the first call**: the bot's start-up starts the worker processes in a thread of their own
  (``start``): each is spawned and runs a first trivial task while the bot connects, and a heavy call that arrives
  before they are spawned waits for them without blocking the event loop (as it waits for a free worker: within the
  admission time). A spawn from the loop stalled it for as long as the forkserver's first start takes (it imports
  the solver and the dice before it forks: 0.3-0.9 s), on the first heavy command or in the start-up.
* **a lost worker is replaced**: a worker process that dies (the OOM killer, a kill) leaves a process pool broken
  for good (``BrokenProcessPool`` on every later call). The first call that meets the broken pool replaces it, and
  every call that met it is retried once, each in a worker process of its own (every heavy call is a pure function
  of its arguments, so running it again is safe; a call that kills its worker every time then fails alone); a
  second loss answers "the calculation was lost twice" (``WorkerLost``).
* **memory per worker is bounded**: each worker's address space is limited (``RLIMIT_AS``, ``memory_mb``, the
  setting ``WORKER_MEMORY_MB``; 1024 MB by default, 0 for none), so a call that would grow past it fails alone with
  ``MemoryError`` — answered "needs more memory than a calculation may use" (``OutOfMemory``) — instead of the
  kernel's OOM killer choosing a process, perhaps the bot's. Measured (``benchmarks/worker_memory.py``, Python
  3.11): a warmed worker holds 71 MiB resident in 218 MiB of address space; its peak is 72 MiB for odds at 300
  armies a side and for scoring, 198 MiB resident / 282 MiB address space for the solver on the hardest known
  positions (C engine), 216 / 300 MiB for the Python engine (the diagonal variant's) in its 20 s — whose table may
  grow to ~450 MB on a faster machine, still inside 1024 MB. Not ``max_tasks_per_child``: on Python 3.11–3.13 it
  can deadlock the pool when a worker retires while calls wait (CPython gh-115634), and no cache of the heavy calls
  grows without bound, so there is nothing to recycle.

Nothing of ours is imported here but the errors, the metrics' counters (``bot.metrics``: calls waiting, running,
refused) and, in ``default_workers``, the settings: services, the renderer's callers and cogs all use it.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import multiprocessing
import os
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot import metrics
from bot.errors import UserFacingError

T = TypeVar("T")
log = logging.getLogger(__name__)

WARM_UP_TIMEOUT = 120.0  # seconds for a worker's spawn and first task at start-up (a stuck start is logged)
DEFAULT_WORKER_MEMORY_MB = 1024  # address space per compute worker (its peak use is a few hundred MB: the docstring)
MIB = 1024 * 1024


class Busy(UserFacingError):
    """The workers are all taken for longer than a member should wait: try again in a moment."""

    key = "error.heavy.busy"


class TooBig(UserFacingError):
    """The call did not finish within its budget."""

    key = "error.heavy.too_slow"


class OneAtATime(UserFacingError):
    """The member already has a heavy call running."""

    key = "error.heavy.one_at_a_time"


class WorkerLost(UserFacingError):
    """The worker process running the call died twice (the OOM killer, a kill): the pool was rebuilt each time."""

    key = "error.heavy.worker_lost"


class OutOfMemory(UserFacingError):
    """The call needed more memory than a worker may use (``mb``: the limit)."""

    key = "error.heavy.out_of_memory"


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


_PRELOAD = ("bot.rules.risiko.dice", "bot.rules.risiko.scoring", "bot.rules.ricochet.solver")


def _limit_memory(memory_mb: int) -> None:
    """Bound this process's address space to ``memory_mb`` MB (0: unchanged); never above a hard limit already set."""
    if memory_mb <= 0:
        return
    try:
        import resource
    except ImportError:  # pragma: no cover - not a Unix
        return
    limit = memory_mb * MIB
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _warm(owner: int, memory_mb: int = 0) -> None:
    """A process worker's start: bound its memory (``memory_mb``); import what the heavy calls use, so the first call
    does not pay for it; and leave when the bot process that owns the pool is gone (killed, it cannot shut its pool
    down)."""
    _limit_memory(memory_mb)
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
    memory_mb: int = DEFAULT_WORKER_MEMORY_MB  # the address space of each worker process (0: no limit)
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
    _warming: concurrent.futures.Future[None] | None = field(default=None, init=False, repr=False)  # ``start``'s

    # ---------------------------------------------------------------------------------------------- pools

    def _new_process_pool(self, size: int) -> concurrent.futures.ProcessPoolExecutor:
        # a fresh interpreter per worker (forkserver): never a fork of a process holding a running event loop,
        # database connections and sockets
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(_PRELOAD))
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=size, mp_context=context, initializer=_warm, initargs=(os.getpid(), self.memory_mb)
        )

    def _processes(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._lock:
            if self._process_pool is None:
                self._process_pool = self._new_process_pool(self.processes)
            return self._process_pool

    def _replace_broken(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """Replace a pool a dead worker broke (its other workers are already stopped) by a new one, its workers
        starting now. Only once for all the calls that met the same broken pool."""
        with self._lock:
            if self._process_pool is not broken:
                return
            self._process_pool = None
        log.warning("a compute worker process died (out of memory, or killed): the pool is replaced")
        broken.shutdown(wait=False, cancel_futures=True)
        self.start()

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

    def start(self) -> concurrent.futures.Future[None]:
        """Start the worker processes in the background (the bot's start-up calls it; so does the replacement of a
        broken pool) and return a future done once every one of them is spawned.

        A thread of its own makes the process pool, spawns each worker and runs a first trivial task in each (a
        worker's start imports what the heavy calls use): the caller — the event loop — waits for none of it. The
        forkserver's first start, which imports the solver and the dice before it forks anything, takes 0.3-0.9 s,
        which a spawn from the loop would have stalled it for. A heavy call made before the workers are spawned waits
        for them without blocking the loop (``compute``); once they are, it queues behind their first tasks, as
        behind any call. The thread pools are made now too."""
        self._threads()
        self._txn_threads()
        with self._lock:
            if self._warming is not None and not self._warming.done():
                return self._warming
            warming: concurrent.futures.Future[None] = concurrent.futures.Future()
            warming.set_running_or_notify_cancel()  # running: a waiter's cancellation cannot cancel it
            self._warming = warming
        threading.Thread(target=self._warm_up, args=(warming,), name="workers-warm-up", daemon=True).start()
        return warming

    def _warm_up(self, warming: concurrent.futures.Future[None]) -> None:
        began = time.perf_counter()
        pool: concurrent.futures.ProcessPoolExecutor | None = None
        try:
            pool = self._processes()
            started = _start_all(pool, self.processes, spawned=lambda: warming.set_result(None))
            log.info("%d of %d compute worker processes started and warm in %.1f s", started, self.processes,
                     time.perf_counter() - began)  # fmt: skip
        except concurrent.futures.process.BrokenProcessPool:  # a worker died (a call killed it): the call that
            log.info("a compute worker died during the warm-up")  # meets the broken pool replaces it, and says so
        except Exception:  # the calls meet the same failure themselves, and a broken pool is replaced then
            if pool is None or pool is self._process_pool:  # not merely shut down (the bot closing) meanwhile
                log.warning("the compute worker processes could not be started ahead", exc_info=True)
        finally:
            if not warming.done():
                warming.set_result(None)

    def _started_pool(self, size: int) -> concurrent.futures.ProcessPoolExecutor:
        """A new pool with its ``size`` workers spawned and warm (run in a thread: spawning waits on the forkserver)."""
        pool = self._new_process_pool(size)
        try:
            _start_all(pool, size)
        except Exception:  # the call on it meets the failure and answers for it
            log.info("a spare compute worker could not be started ahead", exc_info=True)
        return pool

    async def _warmed(self, admission: float) -> None:
        """Wait — without blocking the event loop — until the worker processes are spawned, starting them when
        nobody has (a tool, a test) or they were shut down: then a submit from the loop never spawns one. A call that
        arrives before waits as for a free worker: at most ``admission`` seconds, then "busy"."""
        warming = self._warming
        if warming is None or (warming.done() and self._process_pool is None):
            warming = self.start()
        if warming.done():
            return
        metrics.heavy_waiting("process", 1)
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(warming)), admission)
        except TimeoutError:
            metrics.heavy_refused("process", "busy")
            raise Busy(seconds=round(admission)) from None
        finally:
            metrics.heavy_waiting("process", -1)

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
        metrics.heavy_waiting(kind, 1)
        try:
            await asyncio.wait_for(slot.acquire(), admission)
        except TimeoutError:
            metrics.heavy_refused(kind, "busy")
            raise Busy(seconds=round(admission)) from None
        finally:
            metrics.heavy_waiting(kind, -1)
        try:
            future = asyncio.get_running_loop().run_in_executor(executor, call)
        except BaseException:
            slot.release()
            raise
        metrics.heavy_running(kind, 1)

        def done(_: asyncio.Future[T]) -> None:
            slot.release()
            metrics.heavy_running(kind, -1)

        future.add_done_callback(done)
        if budget is None:
            return await future
        try:
            return await asyncio.wait_for(asyncio.shield(future), budget)
        except TimeoutError:
            future.add_done_callback(_consume)  # its late result (or error) is dropped quietly
            metrics.heavy_refused(kind, "too_slow")
            raise TooBig(seconds=round(budget)) from None

    async def compute(self, fn: Callable[..., T], /, *args: Any, budget: float | None = 30.0) -> T:
        """``fn(*args)`` in a worker process: ``fn`` a module-level function, ``args`` plain data (both pickle).

        A worker that dies under the call (or had died before it) breaks the pool: the pool is replaced for the calls
        that follow, and this call runs once more in a worker process of its own — so a call that kills its worker
        every time fails alone, never the retries of the calls that were beside it. A second loss raises
        ``WorkerLost``. ``MemoryError`` (the worker's memory limit) raises ``OutOfMemory``, with no second try: the
        same call would need the same memory."""
        call = _Call(fn, args)
        await self._warmed(self.compute_admission_seconds)
        pool = self._processes()
        try:
            return await self._in_process(pool, budget, call)
        except concurrent.futures.process.BrokenProcessPool:
            self._replace_broken(pool)
        spare = await asyncio.to_thread(self._started_pool, 1)  # spawned off the loop
        try:
            return await self._in_process(spare, budget, call)
        except concurrent.futures.process.BrokenProcessPool:
            log.error("%s: its worker process died twice; answered as lost", getattr(fn, "__name__", "a call"))
            raise WorkerLost() from None
        finally:
            spare.shutdown(wait=False)  # its worker leaves once the call ends (also one answered "too big")

    async def _in_process(
        self, pool: concurrent.futures.ProcessPoolExecutor, budget: float | None, call: Callable[[], T]
    ) -> T:
        try:
            return await self._run("process", self.processes, pool, budget, call, self.compute_admission_seconds)
        except MemoryError:
            raise OutOfMemory(mb=self.memory_mb) from None

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
            metrics.heavy_refused("any", "one_at_a_time")
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


def _ready(hold: float) -> int:
    """A warm-up task: this worker's process id, after ``hold`` seconds (which keeps it busy while the others are
    spawned, so each process of the pool takes one)."""
    if hold:
        time.sleep(hold)
    return os.getpid()


def _start_all(
    pool: concurrent.futures.ProcessPoolExecutor, size: int, rounds: int = 4, spawned: Callable[[], None] | None = None
) -> int:
    """Spawn the ``size`` workers of ``pool`` and run a first task in each; returns how many answered (each in its own
    process). Blocks (a thread, never the loop): each spawn waits for the forkserver, and the first for its start.
    ``spawned`` is called once all ``size`` are spawned (a submit spawns synchronously), before their first tasks end.

    A pool spawns a process for a task only when none is idle, so each warm-up task holds its worker a moment; should
    one still have been free (a very busy machine), another round spawns the rest."""
    hold = 0.05 if size > 1 else 0.0
    answered: set[int] = set()
    for _ in range(rounds):
        tasks = [pool.submit(_ready, hold) for _ in range(size)]
        if spawned is not None and len(pool._processes or ()) >= size:  # CPython's pid -> process of the pool
            spawned()
            spawned = None
        answered.update(task.result(timeout=WARM_UP_TIMEOUT) for task in tasks)
        if len(answered) >= size:
            break
    return len(answered)


def _exit_with(owner: int, every: float = 2.0) -> None:
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
    """The process's workers, made on first use (with the settings' ``WORKER_MEMORY_MB``) and shut down at exit."""
    global _DEFAULT
    if _DEFAULT is None:
        from bot.settings import get_settings

        try:
            memory_mb = get_settings().worker_memory_mb
        except ValueError:  # settings that do not validate stop the bot at its start; an offline tool goes on
            memory_mb = DEFAULT_WORKER_MEMORY_MB
        _DEFAULT = Workers(memory_mb=memory_mb)
        atexit.register(_DEFAULT.shutdown)
    return _DEFAULT
