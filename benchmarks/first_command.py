"""Benchmark (issue 48, "Warm workers"): the event loop's longest stall during the first commands after a normal
start-up, the start-up's own times, and the bot's memory.

    python -m benchmarks.first_command [--runs 3] [--stacks] [--memory | --cold-pool]

Each run starts the bot as ``steward run`` does (``bot.launch.run_bot``: a fresh SQLite file upgraded at start-up,
the setup hook, the command sync), in its own process, logged in to the wire tier's fake Discord
(``tests.support.first_command``). The moment the fake Discord has sent READY and GUILD_CREATE, ``/rr solve`` of a
12-move position is sent; then the first of each other kind (an organizer's evening up to the first draw, the
standings, the odds, a rules desk question). Reported per run:

* start-up: seconds from the process's start to the setup hook, to the gateway (the first command sent), to
  ``on_ready`` and until the compute workers are spawned (``warm``: the future ``Workers.start`` returns is done; the
  bot's log line "… started and warm in …" says when their first tasks ended; the catalogues, presets, rulebooks
  and fonts are loaded within the setup hook, "… loaded off the loop in …");
* the longest stall of the event loop while the first command ran, and while any command ran, as the wall clock
  measured it and as the loop thread's CPU (``tests/cogs/test_loop_lag.py``'s ``Ticker``); the longest stall from the
  setup hook to the first command (start-up, informational);
* the resident memory (VmRSS) of the bot's process, and of the processes it started (the compute workers and their
  forkserver), once the workers are spawned and after the commands.

``--memory`` starts the bot without sending any command and reports, 2 s after it is ready and its workers are
spawned, the resident memory of its process and of the processes it started.

``--cold-pool`` measures instead, in fresh processes, the first heavy call on workers nobody started (a tool's, a
test's; the bot's own before issue 48 when its start-up had not started them): its answer time and the loop's
longest stall meanwhile.

``--stacks`` also writes, for every stall over 50 ms, what the loop thread was running (``stacks.log`` in the run's
folder, printed as the innermost frames of ours).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.first_command import FirstCommandBot, Sent, first_command_bot, first_commands

MIB = 1024


def ours(stack_log: Path, since: float, until: float) -> list[tuple[int, str]]:
    """The stacks' innermost frames of ours (bot/, renderer/) within ``[since, until]``: (samples, frames), most
    first."""
    counts: collections.Counter[str] = collections.Counter()
    if not stack_log.exists():
        return []
    at, frames = 0.0, list[str]()
    root = str(Path(__file__).resolve().parents[1]) + os.sep

    def flush() -> None:
        if since <= at <= until and frames:
            mine = [f for f in frames if f.startswith(("bot/", "renderer/")) and not f.startswith("bot/launch.py")]
            counts[" <- ".join(reversed(mine[-3:] or frames[-2:]))] += 1

    for line in stack_log.read_text(encoding="utf-8").splitlines():
        if line.startswith("stack "):
            flush()
            at, frames = float(line.split()[1]), []
        else:
            frames.append(line.strip().replace(root, ""))
    flush()
    return [(n, k) for k, n in counts.most_common(12)]


async def one_run(folder: Path, stacks: bool) -> dict[str, float]:
    began = time.monotonic()
    async with first_command_bot(f"sqlite:///{folder / 'steward.db'}", folder, stacks=stacks) as bot:
        connected = time.monotonic()
        warm = asyncio.create_task(rss_once_warm(bot))
        sent = await first_commands(bot)
        print("  first answer:", " | ".join(sent[0].exchange.text.splitlines()[:2])[:160])
        rss_warm = await asyncio.wait_for(warm, 120)
        rss_after = bot.rss()
        report = measure(bot, sent, began, connected)
        hook = bot.marks().get("hook", [began])[0]
        report["rss_warm_bot_mib"], report["rss_warm_workers_mib"] = rss_warm[0] / MIB, rss_warm[1] / MIB
        report["rss_bot_mib"], report["rss_workers_mib"] = rss_after[0] / MIB, rss_after[1] / MIB
    for line in (folder / "bot.stderr").read_text(encoding="utf-8", errors="replace").splitlines():
        if "warm in" in line or "loaded off the loop" in line or "could not be" in line:
            print("  bot:", line[-150:])
    if stacks:
        phases = (("from the setup hook to the first command", hook, sent[0].sent),
                  ("while the commands ran", sent[0].sent, sent[-1].answered))  # fmt: skip
        for name, since, until in phases:
            print(f"  what the loop ran while stalled over 50 ms {name} (10 ms samples):")
            for n, where in ours(folder / "stacks.log", since, until):
                print(f"    {n:4d}  {where}")
    return report


async def rss_once_warm(bot: FirstCommandBot) -> tuple[int, int]:
    """The memory the moment the compute workers are spawned (the ``warm`` line of the stall log)."""
    while "warm" not in bot.marks():  # noqa: ASYNC110 - another process writes the line: polled
        await asyncio.sleep(0.05)
    return bot.rss()


def measure(bot: FirstCommandBot, sent: list[Sent], began: float, connected: float) -> dict[str, float]:
    marks = bot.marks()
    first = sent[0]
    first_worst = bot.worst(first.sent, first.answered)
    every = [bot.worst(s.sent, s.answered) for s in sent]
    startup = bot.worst(marks.get("hook", [began])[0], first.sent)
    worst, worst_sent = max(zip(every, sent, strict=True), key=lambda p: (p[0].cpu, p[0].wall))
    worst_path = worst_sent.path if worst.cpu or worst.wall else "none over 10 ms"
    return {
        "hook_s": marks.get("hook", [began])[0] - began,
        "connected_s": connected - began,
        "ready_s": marks.get("ready", [float("nan")])[0] - began,
        "warm_s": marks.get("warm", [float("nan")])[0] - began,
        "first_answer_s": first.answered - first.sent,
        "first_wall_ms": first_worst.wall * 1000,
        "first_cpu_ms": first_worst.cpu * 1000,
        "any_wall_ms": max(w.wall for w in every) * 1000,
        "any_cpu_ms": max(w.cpu for w in every) * 1000,
        "startup_wall_ms": startup.wall * 1000,
        "startup_cpu_ms": startup.cpu * 1000,
        "worst_command": worst_path,  # type: ignore[dict-item]
        "commands": len(sent),
    }


async def cold_pool_call() -> dict[str, float]:
    """In this (fresh) process: the first heavy call on workers nobody started — a tool's, a test's, or the bot's
    before issue 48 when its start-up had not started them — with the loop's longest stall meanwhile."""
    from bot.workers import Workers

    worst = {"wall": 0.0, "cpu": 0.0}

    async def tick() -> None:
        while True:
            start, cpu = time.monotonic(), time.thread_time()
            await asyncio.sleep(0.005)
            worst["wall"] = max(worst["wall"], time.monotonic() - start - 0.005)
            worst["cpu"] = max(worst["cpu"], time.thread_time() - cpu)

    workers = Workers(processes=2)
    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.05)
    worst.update(wall=0.0, cpu=0.0)
    began = time.monotonic()
    await workers.compute(os.getpid)
    answered = time.monotonic() - began
    ticker.cancel()
    workers.shutdown()
    return {"answer_s": answered, "wall_ms": worst["wall"] * 1000, "cpu_ms": worst["cpu"] * 1000}


async def idle_run(folder: Path) -> tuple[float, float, float]:
    """A start with no command: seconds to ``on_ready``, and the memory (MiB) 2 s after it is ready and its
    workers are spawned."""
    began = time.monotonic()
    async with first_command_bot(f"sqlite:///{folder / 'steward.db'}", folder) as bot:
        while not {"ready", "warm"} <= set(bot.marks()):  # noqa: ASYNC110 - another process writes the lines
            await asyncio.sleep(0.05)
        await asyncio.sleep(2.0)  # the workers' first tasks (their start) end meanwhile
        bot_kib, workers_kib = bot.rss()
        return bot.marks()["ready"][0] - began, bot_kib / MIB, workers_kib / MIB


def memory(runs: int) -> None:
    for run in range(runs):
        with tempfile.TemporaryDirectory(prefix="first-command-") as tmp:
            ready, bot_mib, workers_mib = asyncio.run(idle_run(Path(tmp)))
        print(f"memory, run {run + 1}: ready {ready:.1f} s after the process started; 2 s after ready and "
              f"spawned, resident: the bot {bot_mib:.0f} MiB, the processes it started (workers, forkserver) "
              f"{workers_mib:.0f} MiB")  # fmt: skip


def cold_pool(runs: int) -> None:
    for run in range(runs):
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.first_command", "--cold-pool-child"], capture_output=True, text=True,
            check=True, cwd=Path(__file__).resolve().parents[1],
        )  # fmt: skip
        r = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"cold pool, run {run + 1}: the first call answered in {r['answer_s']:.2f} s; the loop's longest stall "
              f"meanwhile {r['wall_ms']:.0f} ms ({r['cpu_ms']:.0f} ms of its CPU)")  # fmt: skip


def ms(value: float) -> str:
    """Milliseconds of a stall (the ticker writes none under 10 ms)."""
    return "<10 ms" if value < 10 else f"{value:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh bot processes, one after the other")
    parser.add_argument("--stacks", action="store_true", help="sample what the loop ran during stalls over 50 ms")
    parser.add_argument("--cold-pool", action="store_true", help="only the first call on workers nobody started")
    parser.add_argument("--memory", action="store_true", help="only the memory once started, no command sent")
    parser.add_argument("--cold-pool-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_pool_child:
        print(json.dumps(asyncio.run(cold_pool_call())))
        return
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.cold_pool:
        cold_pool(args.runs)
        return
    if args.memory:
        memory(args.runs)
        return
    reports = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="first-command-") as tmp:
            report = asyncio.run(one_run(Path(tmp), args.stacks))
        reports.append(report)
        r = report
        print(
            f"run {run + 1}: hook {r['hook_s']:.1f} s, connected {r['connected_s']:.1f} s, ready "
            f"{r['ready_s']:.1f} s, warm {r['warm_s']:.1f} s after the process started | first command (/rr solve, "
            f"answered in {r['first_answer_s']:.1f} s): longest stall {ms(r['first_wall_ms'])} "
            f"({ms(r['first_cpu_ms'])} of the loop's CPU) | any of {r['commands']:.0f} first commands: "
            f"{ms(r['any_wall_ms'])} ({ms(r['any_cpu_ms'])} CPU, /{r['worst_command']}) | start-up before it: "
            f"{ms(r['startup_wall_ms'])} ({ms(r['startup_cpu_ms'])} CPU) | RSS once spawned: bot "
            f"{r['rss_warm_bot_mib']:.0f} MiB, its workers {r['rss_warm_workers_mib']:.0f} MiB; after the commands: "
            f"{r['rss_bot_mib']:.0f} + {r['rss_workers_mib']:.0f} MiB"
        )
    if len(reports) > 1:
        for key in ("first_cpu_ms", "first_wall_ms", "any_cpu_ms", "any_wall_ms", "ready_s", "warm_s",
                    "rss_warm_bot_mib", "rss_warm_workers_mib", "rss_bot_mib", "rss_workers_mib"):  # fmt: skip
            values = [float(r[key]) for r in reports]
            print(f"  {key:16s} median {statistics.median(values):8.1f}  max {max(values):8.1f}")


if __name__ == "__main__":
    main()
