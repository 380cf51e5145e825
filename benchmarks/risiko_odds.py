"""Benchmark: exact whole-battle odds by dynamic programming vs baselines, measured in the same run.

    python -m benchmarks.risiko_odds

1. The full 30 x 30 table of P(attacker conquers) with the memoised programme (``win_table``).
2. Baseline A — the same exact recursion WITHOUT memoisation (``naive_attacker_wins``): exponential, so it is
   timed on growing squares N x N until a single entry takes over ~2 s; the ratio compares the time for that one
   entry against the memoised table computing the whole N x N square.
3. Baseline B — a Monte-Carlo simulation given the same wall-clock budget as the 30 x 30 exact table: how many
   battles it simulates per table cell in that time and its worst absolute error against the exact table.
4. The FIRK chain-strip search (exact longest simple path) on random holdings, worst time per size.
Prints ratios; no assertions (performance is reported, not tested).
"""

from __future__ import annotations

import random
import time

from bot.rules.risiko.board import standard_board
from bot.rules.risiko.dice import battle_odds, naive_attacker_wins, roll_distribution, win_table
from bot.rules.risiko.scoring import best_chain_strip


def timed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def simulate(a: int, d: int, rng: random.Random) -> bool:
    while a > 0 and d > 0:
        att = sorted((rng.randint(1, 6) for _ in range(min(3, a))), reverse=True)
        dfn = sorted((rng.randint(1, 6) for _ in range(min(3, d))), reverse=True)
        for x, y in zip(att, dfn, strict=False):
            if x > y:
                d -= 1
            else:
                a -= 1
    return d == 0


def main() -> None:
    for a in (1, 2, 3):
        for d in (1, 2, 3):
            roll_distribution(a, d)  # warm the 9 single-roll tables (enumerated once)

    table, t_table = timed(win_table, 30, 30)
    print(f"exact 30x30 table (900 battles, Fractions): {t_table * 1000:.1f} ms")
    single, t_single = timed(battle_odds, 30, 30)
    assert single.attacker_wins == table[29][29]
    print(f"exact single battle 30 vs 30 with full distributions: {t_single * 1000:.1f} ms")

    print("\nbaseline A: same recursion without memoisation (one entry N vs N) vs memoised whole N x N table")
    for n in range(4, 31):
        naive, t_naive = timed(naive_attacker_wins, n, n)
        memo, t_memo = timed(win_table, n, n)
        assert naive == memo[n - 1][n - 1]
        print(
            f"  N={n:2d}: naive one entry {t_naive * 1000:9.1f} ms | memoised {n}x{n} table {t_memo * 1000:7.2f} ms"
            f" | ratio {t_naive / t_memo:8.1f}x"
        )
        if t_naive > 2.0:
            break

    print("\nbaseline B: Monte-Carlo with the same time budget as the exact 30x30 table")
    rng = random.Random(2024)
    budget = t_table
    sims = 0
    wins = [[0] * 30 for _ in range(30)]
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        for a in range(30):
            for d in range(30):
                wins[a][d] += simulate(a + 1, d + 1, rng)
        sims += 1
    if sims == 0:
        print("  not even one battle per cell fits in the budget")
    else:
        worst = max(abs(wins[a][d] / sims - float(table[a][d])) for a in range(30) for d in range(30))
        print(
            f"  {sims} simulated battle(s) per cell in {time.perf_counter() - start:.3f} s;"
            f" worst absolute error {worst:.3f}"
        )
    per_cell = 2000
    start = time.perf_counter()
    for _ in range(per_cell):
        simulate(30, 30, rng)
    t_mc = time.perf_counter() - start
    print(
        f"  {per_cell} simulations of ONE cell (30 vs 30, error ~1%): {t_mc * 1000:.1f} ms"
        f" = {t_mc / t_table:.1f}x the exact whole table"
    )

    print("\nFIRK chain strip (exact longest simple path), worst of 20 random holdings per size")
    board = standard_board()
    names = list(board.territories)
    srng = random.Random(1)
    for k in (10, 15, 20, 25, 30, 35, 42):
        worst = 0.0
        for _ in range(20 if k < 42 else 1):
            owned = srng.sample(names, k)
            _, t = timed(best_chain_strip, owned, board, 2)
            worst = max(worst, t)
        print(f"  {k:2d} territories: worst {worst * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
