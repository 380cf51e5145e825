"""Ricochet Robots solver benchmark: today's engines against the engines of named git revisions (``REVISIONS``:
each built from its commit at run time by ``benchmarks.rr_revisions``), in one run, on the same positions.

Position sets:

* ``random``: 200 random 4-robot positions on board 1A2A3A4A, drawn by ``random.Random(16)`` (robots red, green,
  blue, yellow on distinct cells, none on the central block nor on the drawn target; the target is any target of
  the board, vortex included), plus the issue's 8-move position (reported apart as well);
* ``boards.json 4 robots`` / ``5 robots``: the peer-agreed benchmark positions of ``boards.json`` (boards A, B);
* ``hard``: the known 24- and 25-move positions, each solved in a subprocess that reports its time and peak RSS;
* ``percall``: the random set, C engine, per call: today's engine against the ``--base`` revision — cold (the
  first call on a board, and on a target of a known board) and warm (the caches filled), split into the time
  inside the C module and the rest (the Python side of ``solve()``).

For each set and engine (``c``, ``python``) every position is timed with the old (``--against``) and the new
implementation alternately (``--rounds`` rounds, the order swapped every round, the per-position median kept), so
that load from other processes hits both alike; the timer is the process's CPU time (``--clock wall`` for elapsed
time; the hard positions always report elapsed time and CPU time). Printed: old and new median/p90/p99/max, the
ratios of those percentiles new/old, and the distribution of per-position ratios new/old. Every optimum is checked:
new == old == the peers' (boards.json), else the run stops with an error.

    python -m benchmarks.rr_solver                 # everything (~12 min on a 2-core machine)
    python -m benchmarks.rr_solver --quick         # random set and boards.json 4 robots, one round (~2 min)
    python -m benchmarks.rr_solver --sets random --engines c --rounds 7
    python -m benchmarks.rr_solver --sets percall --rounds 7          # per call against --base (~1 min)
    python -m benchmarks.rr_solver --against baseline                 # the other sets against another revision
    python -m benchmarks.rr_solver --sets peer --peer-lib /tmp/_ricochet.so --rounds 9   # against a public solver
    python -m benchmarks.rr_solver --sets peer,hard --engines c --busy 2 ...             # the same under load

``--busy N`` keeps N CPU-bound processes running beside the whole run (``stress -c N`` when ``stress`` is
installed, else N spinning Python processes), started and stopped by the benchmark itself.

``--peer-lib`` times the fastest public solver side by side: Michael Fogleman's ``ricochet.c``
(github.com/fogleman/Ricochet, commit b571f46), built by you outside this repository — none of its code is here —
with ``gcc -std=c99 -fgnu89-inline -O3 -fPIC -shared -o /tmp/_ricochet.so ricochet.c``, and called through ctypes
with the ``Game`` struct its own ``ricochet.py`` declares. On three boards, 200 seeded random 4-robot positions
each, whose target is not the vortex (that solver has none): our ``solve()`` (the whole call, its Python side
included), the same call of the ``--base`` revision, the peer's ``search`` with its struct filled in the call ("peer
call"), and the peer's ``search`` alone on a struct filled before the clock starts ("peer C only"). Each kind runs
through the 200 positions in turn (the order of the kinds rotates every round; per-position median over the
rounds), so no call follows a call of the same code on the same position: such a repeat runs 1.4x (the peer) to
2.5x (ours) faster, the branch predictors having learnt the position (``--peer-order position`` times them the
way this benchmark did before issue 48: every kind on a position, then the next). Every optimum is checked against
the peer's.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks.rr_revisions import Engine, Revision, Unavailable, load, support_changes
from bot.rules.ricochet import solver as new_solver
from bot.rules.ricochet.board import Board, Position
from tests.support.ricochet_positions import benchmark_positions, hard_positions
from tests.support.ricochet_positions import random_positions as seeded_positions

# The engines this benchmark times today's against, each built from its commit at run time (benchmarks.rr_revisions)
REFERENCE = Revision(
    "24d4ce115cdd482ab4d8dfd022b7b0b5496ed8ee",
    "the engine before issue 16's pruning rules (the parent of 0045ab2, issue 16's first solver commit)",
)
BASELINE = Revision(
    "c281753f88f65c6fbe0f6fa92ea8e9447556c91e",
    "the engine before issue 30's per-call work (its solver as in 8dad3e5, the parent of 03d8bd1)",
)
BEFORE_THIN_CALL = Revision(
    "4667e2602bd85bc13b829ed3ac1d35504ae5e3d7",
    "the engine before issue 48's thin per-call path (an unbudgeted call: _solve_fast, then solve_position in C)",
)
REVISIONS = {"reference": REFERENCE, "baseline": BASELINE, "issue48": BEFORE_THIN_CALL}

SEED = 16
EIGHT_MOVE = "red@2.11,green@0.8,blue@0.2,yellow@15.2>9.14.yellow.square"  # the 8-move position, 1A2A3A4A
Item = tuple[str, Board, Position, "int | None"]  # name, board, position, expected optimum (None: the old one)


def random_positions(count: int = 200, seed: int = SEED) -> list[Item]:
    board = Board.parse("1A2A3A4A")
    drawn = seeded_positions(board, count, 4, seed)  # the tests' generator: the same positions for the same seed
    return [(f"random-{i}", board, position, None) for i, position in enumerate(drawn)]


def eight_move() -> Item:
    return ("issue-8-move", Board.parse("1A2A3A4A"), Position.parse(EIGHT_MOVE), 8)


def boards_json(robots: int) -> list[Item]:
    return [(n, b, p, s["optimal_moves"]) for n, b, p, s in benchmark_positions() if len(p.robots) == robots]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def fmt(seconds: float) -> str:
    if seconds == float("inf"):
        return "      over"
    return f"{seconds * 1000:8.3f}ms" if seconds < 10 else f"{seconds:8.2f} s"


QS = (("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))


ROOT = Path(__file__).resolve().parents[1]
TIMER = time.process_time  # CPU time of this process (--clock); the solver is single-threaded


def timed_solve(mod: ModuleType, board: Board, pos: Position, engine: str, budget: float | None) -> tuple[float, Any]:
    kwargs: dict[str, Any] = {"engine": engine}
    if budget is not None:
        kwargs.update(time_budget=budget, clock=time.perf_counter)
    t = TIMER()
    res = mod.solve(board, pos, **kwargs)
    return TIMER() - t, res


def compare(
    label: str, items: list[Item], engine: str, old: ModuleType, rounds: int, budget: float | None
) -> dict[str, Any]:
    """Time every item with old and new, alternately; check the optima; print the table."""
    per: dict[str, list[list[float]]] = {name: [[], []] for name, *_ in items}
    solved: dict[str, list[int | None]] = {}
    for rnd in range(rounds):
        for name, board, pos, expected in items:
            order = ((0, old), (1, new_solver)) if rnd % 2 == 0 else ((1, new_solver), (0, old))
            for idx, mod in order:
                dt, res = timed_solve(mod, board, pos, engine, budget)
                if res.status.value != "solved":
                    dt = float("inf")
                per[name][idx].append(dt)
                got = solved.setdefault(name, [None, None])
                got[idx] = res.optimal_moves if res.status.value == "solved" else got[idx]
            o, n = solved[name]
            if o is not None and n is not None and o != n:
                raise SystemExit(f"{name}: optimum differs, old {o} new {n}")
            if expected is not None and n is not None and n != expected:
                raise SystemExit(f"{name}: new optimum {n}, peers' {expected}")
    old_t = {k: statistics.median(v[0]) for k, v in per.items()}
    new_t = {k: statistics.median(v[1]) for k, v in per.items()}
    over_old = sum(v == float("inf") for v in old_t.values())
    over_new = sum(v == float("inf") for v in new_t.values())
    print(f"\n== [{engine}] {label}: {len(items)} positions, {rounds} round(s), per-position median ==")
    print(f"  {'':<8}" + "".join(f"{q:>12}" for q, _ in QS))
    for tag, table in (("old", old_t), ("new", new_t)):
        values = list(table.values())
        print(f"  {tag:<8}" + "".join(f"{fmt(pct(values, f)):>12}" for _, f in QS))
    pr = [pct(list(new_t.values()), f) / max(pct(list(old_t.values()), f), 1e-9) for _, f in QS]
    print(f"  {'new/old':<8}" + "".join(f"{r:>11.2f}x" for r in pr) + "   (ratio of the percentiles)")
    ratios = [new_t[k] / max(old_t[k], 1e-9) for k in per if old_t[k] != float("inf") and new_t[k] != float("inf")]
    if ratios:
        print(
            f"  per-position new/old: median {pct(ratios, 0.5):.2f}x  p90 {pct(ratios, 0.9):.2f}x  "
            f"p99 {pct(ratios, 0.99):.2f}x  max {pct(ratios, 1.0):.2f}x  "
            f"(slower than old on {sum(r > 1 for r in ratios)}/{len(ratios)})"
        )
    if budget is not None and (over_old or over_new):
        print(f"  over the {budget:g} s budget: old {over_old}, new {over_new}")
    print(
        f"  totals: old {sum(v for v in old_t.values() if v != float('inf')):.3f} s, new "
        f"{sum(v for v in new_t.values() if v != float('inf')):.3f} s; every optimum agrees"
    )
    return {"old": old_t, "new": new_t}


def forget(mod: ModuleType, board: Board, pos: Position, whole_board: bool) -> None:
    """Drop what ``mod`` (today's solver or a revision's) caches for ``board`` (whole_board) or for the target of
    ``pos`` alone, so that the next call is the first on that board or target."""
    cell = pos.target.row * 16 + pos.target.col
    mod.lower_bounds.cache_clear()
    if whole_board:
        mod._BOARDS.clear()
        mod._BOARDS_BY_VALUE.clear()
        mod._tables.cache_clear()
        return
    data = mod._board_data(board)
    for name in ("_bounds", "_below", "_useful", "_toward", "_corridors"):
        getattr(data, name).pop(cell, None)
    getattr(data, "c_tables", {}).pop(pos.target, None)  # the revisions before issue 48
    if getattr(data, "prepared", None) is not None:  # today's: the board's C state keeps the target's tables
        data.prepared.forget(cell)


class CTimer:
    """A stand-in for a C module (or for today's ``Prepared``, which its ``Prepared`` calls return) that adds the CPU
    time of every call into it to ``into.spent`` (its own by default)."""

    def __init__(self, real: Any, into: CTimer | None = None) -> None:
        self.real = real
        self.into = into or self
        self.spent = 0.0

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self.real, name)
        if not callable(fn):
            return fn

        def timed(*args: Any) -> Any:
            t = TIMER()
            try:
                got = fn(*args)
            finally:
                self.into.spent += TIMER() - t
            return CTimer(got, self.into) if name == "Prepared" else got

        return timed


@contextlib.contextmanager
def timing_c(mod: ModuleType, board: Board, timer: CTimer) -> Iterator[None]:
    """Route ``mod``'s calls into its C module through ``timer`` for the block: the module look-up, and for today's
    engine the board's ``Prepared`` state, which its per-call path calls directly (made afresh or wrapped)."""
    lookup = mod._fast_module
    mod._fast_module = lambda: timer  # type: ignore[attr-defined]
    today = hasattr(mod, "_prepared")
    if today:
        data = mod._board_data(board)
        if data.prepared is not None:
            data.prepared = CTimer(data.prepared, timer)
    try:
        yield
    finally:
        mod._fast_module = lookup  # type: ignore[attr-defined]
        if today:
            data = mod._board_data(board)
            if isinstance(data.prepared, CTimer):
                data.prepared = data.prepared.real


def per_call(items: list[Item], base: Engine, rounds: int) -> None:
    """Per-call CPU time of ``solve(engine="c")`` on ``items``, the base revision against today's engine, alternately
    (the order swapped every round, per-position median over the rounds): cold board, cold target, warm. A second
    pass with the C module behind ``CTimer`` splits each call into C and the rest (its timers add ~1 us per call to
    both engines, so the totals of the first pass are the headline figures)."""
    impls = (("base", base.solver), ("new", new_solver))
    modes = ("cold board", "cold target", "warm")
    total: dict[tuple[str, str], dict[str, list[float]]] = {(m, k): {} for m in modes for k, _ in impls}
    inside: dict[tuple[str, str], dict[str, list[float]]] = {(m, k): {} for m in modes for k, _ in impls}
    for rnd in range(rounds):
        for split in (False, True):
            # cold: the caches of the board (or of the target) dropped before each call; then warm: every position
            # once more in the same sequence, every target's tables built (a different position each call, as in
            # use: no call repeats the one before it)
            for mode in ("cold", "warm"):
                if mode == "warm":  # a cold-board call dropped the other targets' tables: build them again, untimed
                    for _name, board, pos, _expected in items:
                        for _tag, mod in impls:
                            mod.solve(board, pos, engine="c")
                for name, board, pos, _expected in items:
                    order = impls if rnd % 2 == 0 else impls[::-1]
                    optima = []
                    for tag, mod in order:
                        timer = CTimer(mod._fast_module())
                        for kind in modes[:2] if mode == "cold" else modes[2:]:
                            if kind != "warm":
                                forget(mod, board, pos, whole_board=kind == "cold board")
                            with timing_c(mod, board, timer) if split else contextlib.nullcontext():
                                timer.spent = 0.0
                                t = TIMER()
                                res = mod.solve(board, pos, engine="c")
                                dt = TIMER() - t
                            if split:
                                inside[(kind, tag)].setdefault(name, []).append(timer.spent)
                                inside.setdefault((kind, tag + "-total"), {}).setdefault(name, []).append(dt)
                            else:
                                total[(kind, tag)].setdefault(name, []).append(dt)
                            optima.append(res.optimal_moves)
                    if len(set(optima)) != 1:
                        raise SystemExit(f"{name}: optimum differs between {base.revision.short} and today: {optima}")

    def med(table: dict[str, list[float]]) -> dict[str, float]:
        return {k: statistics.median(v) for k, v in table.items()}

    us = 1e6
    print(
        f"\n== [c] per call, {len(items)} positions of the random set, {rounds} round(s), per-position median, "
        f"CPU time in us; base: {base.revision.short}, {base.revision.what} =="
    )
    print(f"  {'':<24}{'median':>10}{'p90':>10}{'max':>10}{'new/base at median':>22}")
    for mode in modes:
        b, n = med(total[(mode, "base")]), med(total[(mode, "new")])
        for tag, table in (("base", b), ("new", n)):
            v = list(table.values())
            extra = ""
            if tag == "new":
                extra = f"{pct(v, 0.5) / pct(list(b.values()), 0.5):>21.2f}x"
            print(
                f"  {mode + ' ' + tag:<24}{pct(v, 0.5) * us:>10.1f}{pct(v, 0.9) * us:>10.1f}{pct(v, 1) * us:>10.1f}"
                + extra
            )
        ratios = [n[k] / b[k] for k in b]
        print(
            f"  {'':<24}per-position new/base: median {pct(ratios, 0.5):.2f}x, slower than base on "
            f"{sum(r > 1 for r in ratios)}/{len(ratios)}"
        )
    print("  split (second pass, timed around the C calls): median us inside C / median us outside C (Python side)")
    for mode in modes:
        parts = []
        for tag, _mod in impls:
            c_in = med(inside[(mode, tag)])
            tot = med(inside[(mode, tag + "-total")])
            outside = [tot[k] - c_in[k] for k in tot]
            parts.append(f"{tag} {pct(list(c_in.values()), 0.5) * us:8.1f} / {pct(outside, 0.5) * us:6.1f}")
        print(f"  {mode:<24}" + "   ".join(parts))


def void_checks(label: str, items: list[Item], engine: str, old: ModuleType, repeat: int) -> None:
    """RR-MIN-1 void check for a minimum of 5 (exists_solution(..., 4)): old vs new, best of ``repeat``."""
    t_old: list[float] = []
    t_new: list[float] = []
    for _name, board, pos, _exp in items:
        best = [float("inf"), float("inf")]
        for _ in range(repeat):
            for idx, mod in ((0, old), (1, new_solver)):
                t = TIMER()
                got = mod.exists_solution(board, pos, 4, engine=engine)
                best[idx] = min(best[idx], TIMER() - t)
                if idx == 0:
                    want = got
                elif got != want:
                    raise SystemExit(f"{_name}: void check differs")
        t_old.append(best[0])
        t_new.append(best[1])
    print(
        f"  [{engine}] void check (minimum 5) on {label}: median old {fmt(statistics.median(t_old))} new "
        f"{fmt(statistics.median(t_new))}; p99 old {fmt(pct(t_old, 0.99))} new {fmt(pct(t_new, 0.99))}"
    )


def warm(items: list[Item], old: ModuleType) -> tuple[float, float]:
    """Build the per-board/target tables of both implementations before timing (a game pays them once per board
    and target); returns the time each took (the cold cost)."""
    t0 = time.perf_counter()
    for _n, board, pos, _e in items:
        cell = pos.target.row * 16 + pos.target.col
        if hasattr(old, "_fast_tables"):  # the reference
            old._tables(board)
            old.lower_bounds(board, cell)
            if old._fast_module() is not None:
                old._fast_tables(board, cell)
        else:  # a later revision
            old._board_data(board).prepare(cell)
            if hasattr(old, "_c_tables"):
                old._c_tables(old._fast_module(), board, pos.target)
    t1 = time.perf_counter()
    fast = new_solver._fast_module()
    for _n, board, pos, _e in items:
        cell = pos.target.row * 16 + pos.target.col
        new_solver._board_data(board).prepare(cell)
        if fast is not None:
            new_solver._c_tables(fast, board, pos.target)
    return t1 - t0, time.perf_counter() - t1


def peak_rss_kib() -> int:
    """Peak RSS of this process: VmHWM (per address space, so a child's own after exec; ru_maxrss would also count
    the parent's pages shared at fork), else ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(impl: str, engine: str, name: str, budget: float) -> None:
    """Subprocess: solve one hard position, print its elapsed time, optimum and peak RSS as JSON."""
    global TIMER
    TIMER = time.perf_counter  # the hard positions report elapsed time, as a user waits for them
    mod = new_solver if impl == "new" else load(REVISIONS[impl]).solver
    items = {n: (b, p) for n, b, p, _s in hard_positions() + benchmark_positions()}
    board, pos = items[name]
    base = peak_rss_kib()
    cpu = time.process_time()
    dt, res = timed_solve(mod, board, pos, engine, budget if budget > 0 else None)
    cpu = time.process_time() - cpu
    peak = peak_rss_kib()
    print(
        json.dumps(
            {
                "seconds": dt,
                "cpu_seconds": cpu,
                "status": res.status.value,
                "optimal": res.optimal_moves,
                "lower_bound": res.lower_bound,
                "nodes": res.nodes,
                "peak_rss_mib": peak / 1024,
                "rss_before_mib": base / 1024,
            }
        )
    )


def run_child(impl: str, engine: str, name: str, budget: float) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks.rr_solver", "--child", impl, engine, name, str(budget)]
    out = subprocess.run(
        cmd, capture_output=True, text=True, check=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"}
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def hard(engines: list[str], python_budget: float, python_reference: bool, against: str, repeat: int) -> None:
    print(
        "\n== hard positions: one subprocess each; elapsed (and CPU) time and peak RSS of that process "
        f"(Python itself ~30 MiB); {repeat} run(s) each, alternately, the median shown =="
    )
    for name, _b, _p, spec in hard_positions():
        for engine in engines:
            impls = [against, "new"] if engine == "c" or python_reference else ["new"]
            budget = 0.0 if engine == "c" else python_budget
            runs: dict[str, list[dict[str, Any]]] = {impl: [] for impl in impls}
            for k in range(repeat):
                for impl in impls if k % 2 == 0 else impls[::-1]:
                    r = run_child(impl, engine, name, budget)
                    if r["status"] == "solved" and r["optimal"] != spec["optimal_moves"]:
                        raise SystemExit(f"{name} [{engine}/{impl}]: {r['optimal']} != {spec['optimal_moves']}")
                    runs[impl].append(r)
            for impl in impls:
                r = sorted(runs[impl], key=lambda x: x["cpu_seconds"])[len(runs[impl]) // 2]
                cpus = ", ".join(f"{x['cpu_seconds']:.2f}" for x in runs[impl])
                what = (
                    f"{r['optimal']} moves (exact)"
                    if r["status"] == "solved"
                    else f"unfinished within {budget:g} s (lower bound {r['lower_bound']})"
                )
                label = impl if impl == "new" else f"{impl} {REVISIONS[impl].short}"
                print(
                    f"  {name} [{engine}] {label}: {r['seconds']:8.2f} s ({r['cpu_seconds']:.2f} s CPU; runs: {cpus})"
                    f"  peak RSS {r['peak_rss_mib']:6.0f} MiB  {r['nodes']:>11} nodes  {what}"
                )


PEER_BOARDS = (("1A2A3A4A", 16), ("1B2B3B4B", 16), ("2A1B4B3A", 17))


def peer(lib_path: str, rounds: int, base: Engine, order: str = "kind") -> None:
    """Our solve() and the base revision's against a public C solver (see the module's docstring), per call, on the
    same positions; ``order`` "kind": each kind runs through the positions in turn; "position": every kind on one
    position, then the next (the peer's two kinds then run the same position one after the other)."""

    class Game(ctypes.Structure):  # the peer's struct, as its ricochet.py declares it
        _fields_ = [
            ("grid", ctypes.c_uint * 256),
            ("moves", ctypes.c_uint * 256),
            ("robots", ctypes.c_uint * 4),
            ("token", ctypes.c_uint),
            ("last", ctypes.c_uint),
        ]

    lib = ctypes.CDLL(lib_path)
    lib.search.argtypes = [ctypes.POINTER(Game), ctypes.c_char_p, ctypes.c_void_p]
    lib.search.restype = ctypes.c_uint
    path = ctypes.create_string_buffer(256)
    robot_bit = 0x10  # the peer marks robot cells in its wall grid (N=1, E=2, S=4, W=8, as Board.masks)

    def game(grid: list[int], cells: list[int], token: int) -> Any:
        g = Game()
        g.grid[:] = grid
        g.robots[:] = cells
        g.token = token
        g.last = 0
        return g

    then = f"ours {base.revision.short}"
    print(
        f"\n== per call against {lib_path} (fogleman/Ricochet ricochet.c), {rounds} rounds, per-position median, "
        f"timed {'kind by kind' if order == 'kind' else 'position by position'}; "
        f"'{then}': the same call at {base.revision.short}, {base.revision.what} =="
    )
    for name, seed in PEER_BOARDS:
        board = Board.parse(name)
        items = seeded_positions(board, 200, 4, seed, vortex=False)  # the peer has no vortex
        inputs = []
        for pos in items:
            robots = dict(pos.robots)
            colours = [pos.target.colour, *(c for c in ("red", "green", "blue", "yellow") if c != pos.target.colour)]
            cells = [robots[c][0] * 16 + robots[c][1] for c in colours]
            grid = list(board.masks)
            for c in cells:
                grid[c] |= robot_bit
            inputs.append((grid, cells, pos.target.row * 16 + pos.target.col))
        for pos in items:  # the board's tables, built once and kept (as in the bot: one board per game)
            new_solver.solve(board, pos, engine="c")
            base.solver.solve(board, pos, engine="c")
        ready = [game(*inputs[i]) for i in range(len(items))]  # "peer C only": structs filled before the clock

        def ours(i: int, b: Board = board, ps: list[Position] = items) -> Any:
            return new_solver.solve(b, ps[i], engine="c").optimal_moves

        def ours_then(i: int, b: Board = board, ps: list[Position] = items) -> Any:
            return base.solver.solve(b, ps[i], engine="c").optimal_moves

        def peer_call(i: int, put: list[tuple[list[int], list[int], int]] = inputs) -> Any:
            return lib.search(ctypes.byref(game(*put[i])), path, None)

        def peer_c_only(i: int, r: list[Any] = ready) -> Any:
            return lib.search(ctypes.byref(r[i]), path, None)

        jobs: dict[str, Callable[[int], Any]] = {
            "ours": ours,
            then: ours_then,
            "peer call": peer_call,
            "peer C only": peer_c_only,
        }
        kinds = list(jobs)
        per: dict[str, list[list[float]]] = {k: [[] for _ in items] for k in kinds}
        got: dict[str, list[int]] = {k: [0] * len(items) for k in kinds}
        for rnd in range(rounds):
            turn = kinds[rnd % len(kinds) :] + kinds[: rnd % len(kinds)]
            if order == "kind":  # each kind through every position in turn
                sequence = [(kind, i) for kind in turn for i in range(len(items))]
            else:  # "position", the order before issue 48: every kind on a position, then the next position
                sequence = [(kind, i) for i in range(len(items)) for kind in (turn if i % 2 == 0 else turn[::-1])]
            for kind, i in sequence:
                job = jobs[kind]
                t = TIMER()
                got[kind][i] = job(i)
                per[kind][i].append(TIMER() - t)
            for i, pos in enumerate(items):
                if len({got[k][i] for k in kinds}) != 1:
                    raise SystemExit(f"{name} {pos.to_notation()}: optima differ {[got[k][i] for k in kinds]}")
        med = {k: [statistics.median(v) for v in per[k]] for k in kinds}
        print(f"  {name} (seed {seed}, 200 positions):" + "".join(f"{q:>12}" for q, _ in QS))
        for k in kinds:
            print(f"    {k:<14}" + "".join(fmt(pct(med[k], q)) + "  " for _, q in QS))
        for who in ("ours", then):
            for k in kinds[2:]:
                ratios = "  ".join(f"{q} {pct(med[who], v) / pct(med[k], v):.2f}x" for q, v in QS)
                slower = sum(a > b for a, b in zip(med[who], med[k], strict=True))
                print(f"    {who} / {k}: {ratios}; slower on {slower} of 200")


@contextlib.contextmanager
def busy(workers: int) -> Iterator[None]:
    """``workers`` CPU-bound processes beside the block (``stress -c N``, else spinning Python processes), in their
    own process group, stopped at the end."""
    if workers <= 0:
        yield
        return
    stress = shutil.which("stress")
    if stress:
        procs = [subprocess.Popen([stress, "-c", str(workers)], stdout=subprocess.DEVNULL, start_new_session=True)]
        what = f"stress -c {workers}"
    else:
        spin = [sys.executable, "-c", "while True: pass"]
        procs = [subprocess.Popen(spin, start_new_session=True) for _ in range(workers)]
        what = f"{workers} spinning Python processes (stress is not installed)"
    print(f"busy machine: {what} running beside the benchmark")
    try:
        time.sleep(0.5)
        yield
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)  # the group we started: stress and its workers
            proc.wait()


def engine_of(name: str) -> Engine:
    """The engine of revision ``name`` of ``REVISIONS``; exits with the reason when it cannot be built here."""
    try:
        return load(REVISIONS[name])
    except Unavailable as exc:
        raise SystemExit(f"the {name} engine ({REVISIONS[name].short}) is not available: {exc}") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engines", default="c,python", help="comma list of c,python")
    parser.add_argument("--sets", default="random,4,5,hard,percall", help="comma list of random,4,5,hard,percall,peer")
    revisions = "; ".join(f"{k}: {r.short}, {r.what}" for k, r in REVISIONS.items())
    parser.add_argument(
        "--against",
        choices=tuple(REVISIONS),
        default="reference",
        help=f"the revision of the old engine of the random/4/5/hard tables ({revisions})",
    )
    parser.add_argument(
        "--base", choices=tuple(REVISIONS), default="issue48", help="the revision the percall and peer sets time too"
    )
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds of the C engine (per-position median)")
    parser.add_argument("--python-rounds", type=int, default=1, help="timed rounds of the Python engine")
    parser.add_argument("--budget", type=float, default=60.0, help="per-position budget of the Python engine (s)")
    parser.add_argument("--python-hard-budget", type=float, default=120.0, help="Python budget per hard position")
    parser.add_argument("--python-hard-reference", action="store_true", help="also run the old Python engine there")
    parser.add_argument("--hard-runs", type=int, default=1, help="runs of each hard position per engine (median)")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu: process CPU time (default; steadier on a shared machine), wall: elapsed time",
    )
    parser.add_argument("--peer-lib", help="a built public solver to time side by side (the set 'peer')")
    parser.add_argument(
        "--peer-order",
        choices=("kind", "position"),
        default="kind",
        help="peer set: each kind through all positions in turn (default), or every kind on a position in turn (the "
        "order before issue 48, which lets the peer's two kinds run the same position back to back)",
    )
    parser.add_argument("--busy", type=int, default=0, metavar="N", help="N CPU-bound processes beside the run")
    parser.add_argument("--quick", action="store_true", help="random and boards.json 4-robot sets, one round")
    parser.add_argument("--child", nargs=4, metavar=("IMPL", "ENGINE", "NAME", "BUDGET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        impl, engine, name, budget = args.child
        child(impl, engine, name, float(budget))
        return 0
    global TIMER
    TIMER = time.process_time if args.clock == "cpu" else time.perf_counter
    engines = [e for e in args.engines.split(",") if e]
    sets = set(args.sets.split(","))
    rounds = args.rounds
    if args.quick:
        sets -= {"5", "hard"}  # percall stays (one round)
        rounds = 1
    if "peer" in sets and not args.peer_lib:
        print("the set 'peer' needs --peer-lib (see the module's docstring)", file=sys.stderr)
        return 2
    if ("c" in engines or sets & {"percall", "peer"}) and not new_solver.accelerator_available():
        print("C engine not built (pip install -e . or python setup.py build_ext --inplace)", file=sys.stderr)
        return 2
    old = engine_of(args.against)
    base = engine_of(args.base)
    for eng in {old.revision: old, base.revision: base}.values():
        changed = support_changes(eng.revision)
        note = f"; its {', '.join(changed)} differ from today's, which it runs on" if changed else ""
        print(f"revision {eng.revision.short}: {eng.revision.what}{note}")
    print(
        f"old: {args.against} ({old.revision.short}); base of percall/peer: {args.base} ({base.revision.short}); "
        f"random set seed {SEED}; engines {', '.join(engines)}; cpus {os.cpu_count()}; timer: {args.clock} time"
    )
    groups: list[tuple[str, str, list[Item]]] = []
    if "random" in sets:
        groups.append(
            (
                "random",
                f"random 4-robot positions on 1A2A3A4A (seed {SEED}) + the 8-move one",
                [*random_positions(), eight_move()],
            )
        )
    if "4" in sets:
        groups.append(("4", "boards.json 4-robot positions", boards_json(4)))
    if "5" in sets:
        groups.append(("5", "boards.json 5-robot positions", boards_json(5)))
    with busy(args.busy):
        for key, label, items in groups:
            cold = warm(items, old.solver)
            print(
                f"\n{label}: per-board/target tables built untimed first (cold: old {fmt(cold[0])}, new {fmt(cold[1])})"
            )
            for engine in engines:
                n_rounds = rounds if engine == "c" else (1 if args.quick else args.python_rounds)
                budget = None if engine == "c" else args.budget
                res = compare(label, items, engine, old.solver, n_rounds, budget)
                if key == "random":
                    o, n = res["old"]["issue-8-move"], res["new"]["issue-8-move"]
                    print(f"  the issue's 8-move position: old {fmt(o)}  new {fmt(n)}  ({n / o:.2f}x)")
                    void_checks(label.split(" (")[0], items, engine, old.solver, 3 if engine == "c" else 1)
        if "percall" in sets:
            per_call([*random_positions(), eight_move()], base, rounds)
        if "peer" in sets:
            peer(args.peer_lib, rounds, base, args.peer_order)
        if "hard" in sets:
            hard(engines, args.python_hard_budget, args.python_hard_reference, args.against, args.hard_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
