"""Ricochet Robots solver benchmark (issue 3 acceptance): solve and void-check times over boards.json positions.

For every benchmark position (boards A and B; 4-robot and 5-robot sets) and every engine available (pure Python;
the optional C accelerator when built) it measures:

* the void check of RR-MIN-1 for a minimum of 5 (``exists_solution(..., 4)``): median, p90, p99, max;
* the full optimal solve: median, p90, max (with a per-position time budget; positions over it are counted);
* a baseline in the same run: a plain breadth-first search over whole positions (``bfs_solve``, no bound, no
  pruning) with a state budget, and the ratio baseline / engine on the positions both finish.

Board tables are cached per board (as in a game, where the board does not change); the one-off cost of
building them for a new board and target is printed separately ("cold").

    python benchmarks/rr_solver.py                      # everything
    python benchmarks/rr_solver.py --engines python --budget 10 --bfs-states 200000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules.ricochet.board import Board, Position
from bot.rules.ricochet.solver import (
    SolveStatus,
    _tables,
    accelerator_available,
    bfs_solve,
    exists_solution,
    lower_bounds,
    solve,
)
from tests.rules.ricochet._positions import benchmark_positions

Item = tuple[str, Board, Position, dict[str, Any]]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def ms(x: float) -> str:
    return f"{x * 1000:9.2f} ms"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def summary(label: str, times: list[float], *, p99: bool = False) -> None:
    if not times:
        print(f"  {label:<34} n=  0")
        return
    line = f"  {label:<34} n={len(times):3d}  median {ms(statistics.median(times))}  p90 {ms(pct(times, 0.9))}"
    if p99:
        line += f"  p99 {ms(pct(times, 0.99))}"
    print(line + f"  max {ms(max(times))}")


def run(engines: list[str], budget: float, bfs_states: int, repeat: int) -> None:
    items = benchmark_positions()
    sets = {
        "4 robots": [i for i in items if len(i[2].robots) == 4],
        "5 robots": [i for i in items if len(i[2].robots) == 5],
    }
    print(f"positions: {', '.join(f'{k}: {len(v)}' for k, v in sets.items())}; engines: {', '.join(engines)}")
    print(
        f"per-position solve budget {budget:g} s; BFS baseline state budget {bfs_states}; void check repeated {repeat}x"
    )

    # cold cost of a new board + target (tables, lower bound)
    _tables.cache_clear()
    lower_bounds.cache_clear()
    board, pos = items[0][1], items[0][2]
    t = pos.target
    cold, _ = timed(lambda: (_tables(board), lower_bounds(board, t.row * 16 + t.col)))
    print(f"cold tables for a new board and target: {ms(cold)} (paid once per board/target, cached after)")

    solve_times: dict[tuple[str, str], dict[str, float]] = {}
    for set_name, chosen in sets.items():
        print(f"\n== {set_name} ==")
        for engine in engines:
            void_times: list[float] = []
            for name, board, pos, spec in chosen:
                best = min(
                    timed(lambda b=board, p=pos, e=engine: exists_solution(b, p, 4, engine=e))[0] for _ in range(repeat)
                )
                ok = exists_solution(board, pos, 4, engine=engine)
                assert ok == (spec["optimal_moves"] <= 4), name
                void_times.append(best)
            summary(f"[{engine}] void check (minimum 5)", void_times, p99=True)
            times: dict[str, float] = {}
            over = 0
            for name, board, pos, spec in chosen:
                dt, res = timed(
                    lambda b=board, p=pos, e=engine: solve(b, p, time_budget=budget, clock=time.perf_counter, engine=e)
                )
                if res.status is SolveStatus.SOLVED:
                    assert res.optimal_moves == spec["optimal_moves"], (name, res.optimal_moves, spec["optimal_moves"])
                    times[name] = dt
                else:
                    over += 1
                    times[name] = float("inf")
            finite = [v for v in times.values() if v != float("inf")]
            summary(f"[{engine}] full solve", list(times.values()))  # over-budget positions count as inf
            if over:
                print(f"  [{engine}] {over} position(s) over the {budget:g} s budget (inf above)")
            agree = len(finite)
            print(f"  [{engine}] solved within budget {agree}/{len(chosen)}; every count equals boards.json's optimum")
            solve_times[(set_name, engine)] = times

        # baseline: plain BFS
        bfs: dict[str, float] = {}
        missed = 0
        for name, board, pos, spec in chosen:
            dt, res = timed(lambda b=board, p=pos: bfs_solve(b, p, node_budget=bfs_states))
            if res is None:
                missed += 1
                continue
            assert res == spec["optimal_moves"], name
            bfs[name] = dt
        longest = max((spec["optimal_moves"] for name, _b, _p, spec in chosen if name in bfs), default=0)
        summary("[baseline BFS] full solve", list(bfs.values()))
        print(f"  [baseline BFS] finished {len(bfs)}/{len(chosen)} (longest: {longest} moves), {missed} over budget")
        for engine in engines:
            mine = solve_times[(set_name, engine)]
            common = [n for n in bfs if mine.get(n, float("inf")) != float("inf")]
            ratios = [bfs[n] / max(mine[n], 1e-7) for n in common]
            if ratios:
                print(
                    f"  ratio BFS / {engine}: median {statistics.median(ratios):8.1f}x  over {len(common)} positions"
                    f" (BFS total {sum(bfs[n] for n in common):.2f} s vs {sum(mine[n] for n in common):.3f} s)"
                )
        if "python" in engines and "c" in engines:
            py, c = solve_times[(set_name, "python")], solve_times[(set_name, "c")]
            common = [n for n in py if py[n] != float("inf") and c[n] != float("inf")]
            ratios = [py[n] / max(c[n], 1e-7) for n in common]
            print(f"  ratio python / c: median {statistics.median(ratios):8.1f}x over {len(common)} positions")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default="auto", help="comma list of python,c (default: both when C is built)")
    parser.add_argument("--budget", type=float, default=30.0, help="per-position solve budget in seconds")
    parser.add_argument("--bfs-states", type=int, default=300_000, help="state budget of the BFS baseline")
    parser.add_argument("--repeat", type=int, default=3, help="void check repetitions (best of)")
    args = parser.parse_args()
    if args.engines == "auto":
        engines = ["python", "c"] if accelerator_available() else ["python"]
    else:
        engines = args.engines.split(",")
    if "c" in engines and not accelerator_available():
        print("C accelerator not built: python setup.py build_ext --inplace", file=sys.stderr)
        return 2
    run(engines, args.budget, args.bfs_states, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
