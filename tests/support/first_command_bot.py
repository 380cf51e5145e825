"""The bot started as ``steward run`` starts it, against a wire test's fake Discord, with a ticker on its event loop
(issue 48, "Warm workers").

    WIRE_PORT=… STALL_LOG=path DISCORD_TOKEN=wire-token DATABASE_URL=… DEV_GUILD_ID=… \
        python -m tests.support.first_command_bot

Everything is the normal start-up, ``bot.launch.run_bot``: the settings from the environment, the logging, the
database lock, the start-up upgrade, ``create_bot`` and ``client.run`` with its setup hook. What is added only
observes: discord.py's HTTP and gateway addresses point at the fake Discord on 127.0.0.1:WIRE_PORT, a ticker starts on
the bot's event loop as the setup hook begins, and the hook's start of the workers and ``on_ready`` are noted.

The ticker measures as ``tests/cogs/test_loop_lag.py``'s ``Ticker`` does: it sleeps 5 ms at a time and takes, for
each wake-up, its lateness (wall clock, which a busy machine stretches) and the loop thread's CPU time since the
previous wake-up (what code running on the loop costs, which load does not stretch). Every interval late by more
than 10 ms, or with more than 10 ms of the loop's CPU, is a line of STALL_LOG::

    stall <start> <end> <wall> <cpu>        seconds; start and end on time.monotonic()

``time.monotonic()`` is the clock every process of the machine shares (CLOCK_MONOTONIC), so a test judges the stalls
inside the window of its own command. Further lines: ``hook <t>`` (the setup hook begins), ``ready <t>`` (discord.py's
``on_ready``), ``warm <t> <seconds>`` (the start-up's worker processes are spawned: the future ``Workers.start``
returns is done; before issue 48, ``start`` returned).

With STALL_STACKS=path, a watchdog thread writes the loop thread's stack there every 10 ms while the loop has not
woken for 50 ms (``stack <t> <age>`` then the frames, innermost last): what a stall was doing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import sys
import threading
import time
import traceback
from typing import IO, Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

THRESHOLD = 0.010  # seconds of lateness or of the loop's CPU an interval needs to be written
TICK = 0.005


class StallLog:
    """The ticker's lines, written as they happen (a line after a stall costs microseconds; the test reads the file
    while the bot runs)."""

    def __init__(self, path: str) -> None:
        self._file: IO[str] = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - open for the process
        self._lock = threading.Lock()
        self.beat = time.monotonic()  # the loop's last wake-up, for the watchdog

    def write(self, *fields: object) -> None:
        with self._lock:
            self._file.write(" ".join(f"{f:.6f}" if isinstance(f, float) else str(f) for f in fields) + "\n")

    async def tick(self) -> None:
        while True:
            start, cpu = time.monotonic(), time.thread_time()
            await asyncio.sleep(TICK)
            end = self.beat = time.monotonic()
            wall, used = end - start - TICK, time.thread_time() - cpu
            if wall > THRESHOLD or used > THRESHOLD:
                self.write("stall", start, end, wall, used)


def watch(log_path: str, beat_of: StallLog, loop_thread: int) -> None:
    """Every 10 ms: when the loop has not woken for 50 ms, write its thread's stack."""
    with open(log_path, "a", encoding="utf-8", buffering=1) as out:
        while True:
            time.sleep(0.01)
            age = time.monotonic() - beat_of.beat
            if age < 0.05:
                continue
            frame = sys._current_frames().get(loop_thread)
            if frame is None:
                continue
            frames = traceback.extract_stack(frame)[-16:]
            out.write(f"stack {time.monotonic():.6f} {age:.3f}\n")
            out.write("".join(f"    {f.filename}:{f.lineno} {f.name}\n" for f in frames))


def install(stall_log: StallLog, stacks: str | None) -> None:
    """Start the ticker (and the watchdog) as the setup hook begins; note readiness and the warm-up's end."""
    from bot.app import Steward

    original = Steward.setup_hook

    async def setup_hook(self: Any) -> None:
        stall_log.write("hook", time.monotonic())
        ticker = asyncio.create_task(stall_log.tick())
        self._first_command_ticker = ticker  # kept: a task nobody holds may be collected
        if stacks:
            threading.Thread(target=watch, args=(stacks, stall_log, threading.get_ident()), daemon=True).start()
        workers = self.services.workers
        start = workers.start

        def noted_start() -> Any:
            """The workers' start: ``warm`` when its warm-up ends (before issue 48 it ended when ``start`` returned)."""
            began = time.monotonic()
            warming = start()
            workers.start = start  # the start-up's only: a replaced pool's warm-up is not the start-up's

            def warmed(_: object = None) -> None:
                stall_log.write("warm", time.monotonic(), time.monotonic() - began)

            if isinstance(warming, concurrent.futures.Future):
                warming.add_done_callback(warmed)
            else:
                warmed()
            return warming

        workers.start = noted_start
        await original(self)

    async def on_ready(self: Any) -> None:
        stall_log.write("ready", time.monotonic())
        await original_ready(self)

    original_ready = Steward.on_ready
    Steward.setup_hook = setup_hook  # type: ignore[method-assign]
    Steward.on_ready = on_ready  # type: ignore[method-assign]


def main() -> int:
    port = int(os.environ["WIRE_PORT"])
    Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    install(StallLog(os.environ["STALL_LOG"]), os.environ.get("STALL_STACKS"))
    from bot.launch import run_bot

    return run_bot()


if __name__ == "__main__":
    raise SystemExit(main())
