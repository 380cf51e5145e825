"""Memory of one compute worker process (issue 40, finding 5): its peak resident set (VmHWM) and peak address space
(VmPeak) after its start, and after the heaviest call of each kind the bot sends it — exact battle odds at the
largest battle allowed, the Ricochet Robots solver on the known hardest positions within the preset's budget, and
scoring a whole final situation (the official and the FIRK presets; the FIRK chain strip is an exact search).

    python -m benchmarks.worker_memory                  # every kind, each in a fresh one-worker pool
    python -m benchmarks.worker_memory --kinds odds,solver
    python -m benchmarks.worker_memory --memory-mb 0    # without the address-space limit (compare)

Each kind runs in its own fresh pool of one worker (``bot.workers.Workers``: forkserver, the same preloading and
limit as the bot's), so one kind's peak does not hide in another's. The figures come from the worker's own
``/proc/self/status`` (Linux). Prints a table; no assertions (memory is reported, not tested).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from functools import partial
from typing import Any

from bot.rules.ricochet import solver as rr_solver
from bot.rules.ruleset import load_ruleset
from bot.services.adjudicators import BATTLE_MAX, battle_values, scored_text
from bot.workers import DEFAULT_WORKER_MEMORY_MB, Workers
from tests.support.ricochet_positions import hard_positions


def status() -> dict[str, int]:
    """The worker's VmHWM, VmPeak and VmRSS in KiB (run in the worker)."""
    out: dict[str, int] = {}
    with open("/proc/self/status") as handle:
        for line in handle:
            key, _, rest = line.partition(":")
            if key in ("VmHWM", "VmPeak", "VmRSS"):
                out[key] = int(rest.split()[0])
    return out


def situation(players: int, rng_seed: int = 7) -> str:
    """A whole final situation over the 42 territories: ``players`` players, territories dealt round-robin in a
    seeded order (so each holds long chains the FIRK strip search must explore)."""
    import random

    from bot.rules.risiko.board import standard_board

    names = sorted(standard_board().territories)
    random.Random(rng_seed).shuffle(names)
    table: list[dict[str, Any]] = [
        {"name": f"P{i}", "territories": {}, "objective": names[8 * i : 8 * i + 8]} for i in range(players)
    ]
    for k, territory in enumerate(names):
        table[k % players]["territories"][territory] = 1 + k % 7
    return json.dumps({"players": table})


def calls() -> dict[str, list[tuple[str, Any]]]:
    ricochet = load_ruleset("ricochet-v3.3").ricochet
    official = load_ruleset("risiko-ufficiali-2018").risiko
    firk = load_ruleset("risiko-firk-1").risiko
    assert ricochet is not None and official is not None and firk is not None
    solve = partial(
        rr_solver.solve,
        time_budget=float(ricochet.solve_budget_seconds),
        clock=time.perf_counter,
        diagonal_variant=ricochet.diagonal_variant,
    )
    solves = [(name, partial(solve, board, position)) for name, board, position, _spec in hard_positions()]
    solves += [
        (f"{name}, Python engine (the diagonal variant's)", partial(solve, board, position, engine="python"))
        for name, board, position, _spec in hard_positions()
    ]
    return {
        "odds": [
            (f"battle {BATTLE_MAX} v {BATTLE_MAX}", partial(battle_values, BATTLE_MAX, BATTLE_MAX, official.dice)),
            ("battle 300 v 1", partial(battle_values, BATTLE_MAX, 1, official.dice)),
        ],
        "solver": solves,
        "scoring": [
            ("official, 5 players", partial(scored_text, situation(5), official)),
            ("FIRK, 2 players (21 territories each)", partial(scored_text, situation(2), firk)),
            ("FIRK, 3 players", partial(scored_text, situation(3), firk)),
        ],
    }


async def measure(kind: str, items: list[tuple[str, Any]], memory_mb: int) -> list[tuple[str, float, dict[str, int]]]:
    workers = Workers(processes=1, memory_mb=memory_mb)
    rows: list[tuple[str, float, dict[str, int]]] = []
    try:
        await workers.compute(status, budget=None)  # the worker started and warmed
        rows.append(("(started, warmed)", 0.0, await workers.compute(status, budget=None)))
        for label, call in items:
            started = time.perf_counter()
            await workers.compute(call, budget=None)
            rows.append((label, time.perf_counter() - started, await workers.compute(status, budget=None)))
    finally:
        workers.shutdown()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="odds,solver,scoring")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_WORKER_MEMORY_MB, help="0: no limit")
    args = parser.parse_args()
    table = calls()
    print(f"python {sys.version.split()[0]}; worker address-space limit: {args.memory_mb or 'none'} MB")
    print(f"{'kind':8} {'call':50} {'seconds':>8} {'peak RSS MiB':>13} {'peak VM MiB':>12} {'RSS now MiB':>12}")
    for kind in args.kinds.split(","):
        for label, seconds, s in asyncio.run(measure(kind, table[kind], args.memory_mb)):
            print(
                f"{kind:8} {label:50} {seconds:8.2f} {s['VmHWM'] / 1024:13.1f} {s['VmPeak'] / 1024:12.1f} "
                f"{s['VmRSS'] / 1024:12.1f}"
            )


if __name__ == "__main__":
    main()
