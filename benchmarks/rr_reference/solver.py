"""Optimal Ricochet Robots solver (plain optimum, RR-MIN-0) and the void check of the minimum-moves rule (RR-MIN-1).

Techniques shared by the strong solvers (fogleman/Ricochet, DriftingDroids):

* wall stops precomputed per cell and direction (``_Tables.stop``); robots are obstacles checked by a range test;
* a per-cell lower bound from a robot-free backward search from the target in which a robot may stop anywhere
  along a slide (an admissible relaxation: another robot can stop it at any cell of its robot-free path);
* iterative deepening with a transposition table keyed on the active robot plus the sorted other robots (the
  non-active robots are interchangeable obstacles; for the vortex every robot is active, so the key is the
  sorted tuple of all robots; under the diagonal variant colours matter and the key keeps them in order);
* when the bound equals the moves left, only an active robot may move;
* no immediate reversal and no repeat of a robot's last direction (both are redundant without diagonals).

The solver is a plain synchronous pure function: no globals are mutated (tables are cached per board in a
thread-safe ``lru_cache``), time is read only from an injected ``clock``. An optional C accelerator
(``bot.rules.ricochet._fastsolve``) is used when it is built and the position has no active diagonal; results are
cross-checked against this module in the tests.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any

from bot.rules.ricochet.board import DELTA, SIZE, VORTEX_COLOUR, WALL_BIT, Board, BoardError, Position
from bot.rules.ricochet.moves import DIRECTIONS, slide_path

_N, _E, _S, _W = 0, 1, 2, 3
_REVERSE = (_S, _W, _N, _E)
_INF = 255
TT_LIMIT = 2_000_000  # transposition-table entries of the Python search (~350 MB); when full it starts afresh
NO_LIMIT = 60  # more moves than any position needs (the hardest known positions take 25-30)

ProgressCallback = Callable[[int, int], None]
"""``progress(depth_done, nodes)``: called after each completed iterative-deepening depth."""


class SolveStatus(enum.Enum):
    SOLVED = "solved"
    BUDGET_EXHAUSTED = "budget_exhausted"
    UNREACHABLE = "unreachable"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """``SOLVED``: ``moves`` is an optimal list of ``(colour, direction)``, ``optimal_moves`` its length.
    ``BUDGET_EXHAUSTED``: no solution shorter than ``lower_bound`` exists; nothing more is known.
    ``UNREACHABLE``: no solution within ``lower_bound - 1`` moves (the search limit) — for real boards this
    means the target cannot be reached at all from this position within that limit."""

    status: SolveStatus
    moves: tuple[tuple[str, str], ...] | None
    optimal_moves: int | None
    lower_bound: int
    nodes: int
    engine: str


class _Budget(Exception):
    pass


@dataclass(frozen=True, slots=True)
class _Tables:
    stop: tuple[tuple[int, ...], ...]  # stop[d][cell]: wall-only stop
    transpose: tuple[int, ...]


@lru_cache(maxsize=64)
def _tables(board: Board) -> _Tables:
    masks = board.masks
    stops: list[tuple[int, ...]] = []
    for d in DIRECTIONS:
        bit = WALL_BIT[d]
        dr, dc = DELTA[d]
        step = dr * SIZE + dc
        out = []
        for cell in range(SIZE * SIZE):
            c = cell
            while not masks[c] & bit:
                c += step
            out.append(c)
        stops.append(tuple(out))
    transpose = tuple((c % SIZE) * SIZE + c // SIZE for c in range(SIZE * SIZE))
    return _Tables(tuple(stops), transpose)


@lru_cache(maxsize=64)
def _reverse_paths(board: Board, colour: str, diagonal_variant: bool) -> tuple[tuple[int, ...], ...]:
    """For each cell c, the cells X from which a robot-free slide passes through (or stops on) c."""
    rev: list[set[int]] = [set() for _ in range(SIZE * SIZE)]
    for cell in range(SIZE * SIZE):
        rc = divmod(cell, SIZE)
        if rc in board.central_block:
            continue
        for d in DIRECTIONS:
            path = slide_path(board, {colour: rc}, colour, d, diagonal_variant=diagonal_variant)
            for r, c in path[1:]:
                rev[r * SIZE + c].add(cell)
    return tuple(tuple(sorted(s)) for s in rev)


@lru_cache(maxsize=512)
def lower_bounds(
    board: Board, target_cell: int, colour: str = "red", diagonal_variant: bool = False
) -> tuple[int, ...]:
    """Per cell, a lower bound on the moves a robot needs to reach ``target_cell`` (robot-free, stop anywhere).
    255 = unreachable. ``colour`` matters only under the diagonal variant."""
    use_diag = diagonal_variant and bool(board.diagonals)
    bound = [_INF] * (SIZE * SIZE)
    bound[target_cell] = 0
    frontier = [target_cell]
    depth = 0
    if use_diag:
        rev = _reverse_paths(board, colour, True)
        while frontier:
            depth += 1
            nxt = []
            for c in frontier:
                for x in rev[c]:
                    if bound[x] == _INF:
                        bound[x] = depth
                        nxt.append(x)
            frontier = nxt
        return tuple(bound)
    masks = board.masks
    while frontier:
        depth += 1
        nxt = []
        for c in frontier:
            for d in DIRECTIONS:
                # cells X from which sliding in direction d passes through c: walk back against d
                back = DELTA[d]
                step = -(back[0] * SIZE + back[1])
                bit = WALL_BIT[d]
                rev_bit = WALL_BIT[{"N": "S", "E": "W", "S": "N", "W": "E"}[d]]
                x = c
                while not masks[x] & rev_bit:
                    x += step
                    if masks[x] & bit:  # pragma: no cover - walls are double-stored
                        break
                    if bound[x] == _INF:
                        bound[x] = depth
                        nxt.append(x)
        frontier = nxt
    return tuple(bound)


def _prepare(board: Board, position: Position) -> tuple[list[str], list[int], int, list[int]]:
    colours = [c for c, _ in position.robots]
    cells = [r * SIZE + c for _, (r, c) in position.robots]
    t = position.target
    if position.target not in board.targets:
        raise BoardError("target_not_on_board", list(t))
    target_cell = t.row * SIZE + t.col
    if t.colour == VORTEX_COLOUR:
        active = list(range(len(colours)))
    else:
        if t.colour not in colours:
            raise BoardError("active_robot_missing", t.colour)
        active = [colours.index(t.colour)]
    return colours, cells, target_cell, active


class _Search:
    """One search; all state is local to the instance (thread-safe by construction)."""

    def __init__(
        self,
        board: Board,
        position: Position,
        diagonal_variant: bool,
        clock: Callable[[], float] | None,
        deadline: float | None,
        node_budget: int | None,
    ) -> None:
        self.colours, self.cells, self.target, self.active = _prepare(board, position)
        self.n = len(self.cells)
        self.diag = diagonal_variant and bool(board.diagonals)
        self.tables = _tables(board)
        if self.diag:  # colours cross their own diagonals: one bound table per colour
            self.bounds = [lower_bounds(board, self.target, c, True) for c in self.colours]
        else:
            shared = lower_bounds(board, self.target)
            self.bounds = [shared] * len(self.colours)
        self.vortex = position.target.colour == VORTEX_COLOUR
        self.clock = clock
        self.deadline = deadline
        self.node_budget = node_budget
        self.nodes = 0
        self.tt: dict[tuple[int, ...], int] = {}
        self.path: list[tuple[int, int]] = []
        self.limit = 0
        if self.diag:
            self.paths = [self._diag_paths(board, c) for c in self.colours]

    @staticmethod
    def _diag_paths(board: Board, colour: str) -> list[list[tuple[int, ...]]]:
        out: list[list[tuple[int, ...]]] = []
        for d in DIRECTIONS:
            row = []
            for cell in range(SIZE * SIZE):
                rc = divmod(cell, SIZE)
                p = slide_path(board, {colour: rc}, colour, d, diagonal_variant=True)
                row.append(tuple(r * SIZE + c for r, c in p[1:]))
            out.append(row)
        return out

    def solved_now(self) -> bool:
        return any(self.cells[a] == self.target for a in self.active)

    def key(self) -> tuple[int, ...]:
        cells = self.cells
        if self.diag:
            return tuple(cells)
        if self.vortex:
            return tuple(sorted(cells))
        a = self.active[0]
        return (cells[a], *sorted(cells[:a] + cells[a + 1 :]))

    def bound(self) -> int:
        if self.vortex:
            return min(b[c] for b, c in zip(self.bounds, self.cells, strict=True))
        a = self.active[0]
        return self.bounds[a][self.cells[a]]

    def moves_from(self, i: int) -> list[tuple[int, int]]:
        """(direction, stop) for robot i, excluding non-moves."""
        cells = self.cells
        p = cells[i]
        out: list[tuple[int, int]] = []
        if self.diag:
            occ = set(cells)
            for d in range(4):
                last = p
                for c in self.paths[i][d][p]:
                    if c in occ:
                        break
                    last = c
                if last != p:
                    out.append((d, last))
            return out
        stop = self.tables.stop
        tr = self.tables.transpose
        others = cells[:i] + cells[i + 1 :]
        # N
        s = stop[0][p]
        if s != p:
            pt, st = tr[p], tr[s]
            for o in others:
                ot = tr[o]
                if st <= ot < pt:
                    st = ot + 1
            s = tr[st]
            if s != p:
                out.append((0, s))
        # E
        s = stop[1][p]
        for o in others:
            if p < o <= s:
                s = o - 1
        if s != p:
            out.append((1, s))
        # S
        s = stop[2][p]
        if s != p:
            pt, st = tr[p], tr[s]
            for o in others:
                ot = tr[o]
                if pt < ot <= st:
                    st = ot - 1
            s = tr[st]
            if s != p:
                out.append((2, s))
        # W
        s = stop[3][p]
        for o in others:
            if s <= o < p:
                s = o + 1
        if s != p:
            out.append((3, s))
        return out

    def tick(self) -> None:
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise _Budget
        if self.clock is not None and self.deadline is not None and self.clock() > self.deadline:
            raise _Budget

    def dfs(self, left: int, last_robot: int, last_dir: int) -> bool:
        self.nodes += 1
        if not self.nodes & 1023:
            self.tick()
        h = self.bound()
        if h > left:
            return False
        key = self.key()
        seen = self.tt.get(key)
        if seen is not None and seen >= left:
            return False
        if len(self.tt) >= TT_LIMIT:
            self.tt.clear()  # memory cap: start a fresh table (recent states are the useful ones)
        self.tt[key] = left
        movers = self.active if h == left else range(self.n)
        cells = self.cells
        diag = self.diag
        target = self.target
        active = self.active
        for i in movers:
            p = cells[i]
            for d, s in self.moves_from(i):
                if not diag and i == last_robot and (d == last_dir or d == _REVERSE[last_dir]):
                    continue
                if s == target and i in active:
                    self.path.append((i, d))
                    return True
                if left > 1:
                    cells[i] = s
                    self.path.append((i, d))
                    if self.dfs(left - 1, i, d):
                        cells[i] = p
                        return True
                    self.path.pop()
                    cells[i] = p
        return False

    def tight_dfs(self) -> Callable[[int, int, int], bool]:
        """The same search as ``dfs`` without diagonals, written as one closure over local tables (about twice
        as fast in CPython: no attribute look-ups or helper calls per node, moves generated inline; a robot
        never blocks itself because every range test excludes its own cell)."""
        stop_n, stop_e, stop_s, stop_w = self.tables.stop
        cells = self.cells
        target = self.target
        active = self.active
        is_active = [i in active for i in range(self.n)]
        robots = range(self.n)
        tt = self.tt
        path = self.path
        vortex = self.vortex
        a = -1 if vortex else active[0]
        bounds = self.bounds[0] if vortex else self.bounds[a]
        tick = self.tick
        counter = [0]
        tr, tc = divmod(target, SIZE)
        near = {r * SIZE + c for r, c in ((tr - 1, tc), (tr + 1, tc), (tr, tc - 1), (tr, tc + 1))}

        def finish() -> tuple[int, int] | None:
            """A one-move finish from the current cells: only a slide along the target's row or column can end
            on it, so each active robot needs one slide computed, not four."""
            for i in active:
                p = cells[i]
                if p >> 4 == tr:
                    if target > p:
                        d, s = 1, stop_e[p]
                        for o in cells:
                            if p < o <= s:
                                s = o - 1
                    else:
                        d, s = 3, stop_w[p]
                        for o in cells:
                            if s <= o < p:
                                s = o + 1
                elif p & 15 == tc:
                    if target > p:
                        d, s = 2, stop_s[p]
                        for o in cells:
                            if p < o <= s and not (o - p) & 15:
                                s = o - 16
                    else:
                        d, s = 0, stop_n[p]
                        for o in cells:
                            if s <= o < p and not (p - o) & 15:
                                s = o + 16
                else:
                    continue
                if s == target:
                    return (i, d)
            return None

        def dfs(left: int, last_r: int, last_d: int) -> bool:
            if left == 1:
                last = finish()
                if last is not None:
                    path.append(last)
                    return True
                return False
            counter[0] += 1
            if not counter[0] & 1023:
                self.nodes = counter[0]
                tick()
            if vortex:
                h = min([bounds[c] for c in cells])
                key: tuple[int, ...] = tuple(sorted(cells))
            else:
                ca = cells[a]
                h = bounds[ca]
                rest = cells[:a] + cells[a + 1 :]
                rest.sort()
                key = (ca, *rest)
            if h > left:
                return False
            seen = tt.get(key)
            if seen is not None and seen >= left:
                return False
            if seen is None and len(tt) >= TT_LIMIT:
                tt.clear()  # memory cap: start a fresh table (recent states are the useful ones)
            tt[key] = left
            movers = active if h == left else robots
            deeper = left > 1
            for i in movers:
                p = cells[i]
                act = is_active[i]
                for d in range(4):
                    if i == last_r and (d == last_d or d == _REVERSE[last_d]):
                        continue
                    if d == 0:
                        s = stop_n[p]
                        for o in cells:
                            if s <= o < p and not (p - o) & 15:
                                s = o + 16
                    elif d == 1:
                        s = stop_e[p]
                        for o in cells:
                            if p < o <= s:
                                s = o - 1
                    elif d == 2:
                        s = stop_s[p]
                        for o in cells:
                            if p < o <= s and not (o - p) & 15:
                                s = o - 16
                    else:
                        s = stop_w[p]
                        for o in cells:
                            if s <= o < p:
                                s = o + 1
                    if s == p:
                        continue
                    if act:
                        if s == target:
                            path.append((i, d))
                            return True
                        if bounds[s] >= left and not vortex:
                            continue  # the child would be cut by its bound at once
                    elif left == 2 and s not in near and (p >> 4 != cells[a] >> 4) and (p & 15 != cells[a] & 15):
                        # one move will be left for the active robot: this move helps only by stopping it beside
                        # the target or by clearing its row/column
                        continue
                    if left == 2:
                        # the child has one move left: test the finish here instead of a call, a key and a probe
                        cells[i] = s
                        last = finish()
                        cells[i] = p
                        if last is not None:
                            path.append((i, d))
                            path.append(last)
                            return True
                        continue
                    if deeper:
                        cells[i] = s
                        path.append((i, d))
                        if dfs(left - 1, i, d):
                            cells[i] = p
                            return True
                        path.pop()
                        cells[i] = p
            return False

        def run_depth(left: int, last_r: int, last_d: int) -> bool:
            counter[0] = self.nodes
            try:
                return dfs(left, last_r, last_d)
            finally:
                self.nodes = counter[0]

        return run_depth

    def run(self, max_moves: int, progress: ProgressCallback | None, first: int = 1) -> int | None:
        """Iterative deepening up to ``max_moves``; returns the optimum or None. Raises _Budget."""
        if self.solved_now():
            return 0
        search = self.dfs if self.diag else self.tight_dfs()
        for limit in range(max(1, first), max_moves + 1):
            self.limit = limit
            del self.path[:]
            if search(limit, -1, 0):
                return limit
            if progress is not None:
                progress(limit, self.nodes)
        return None


def _fast_module() -> ModuleType | None:
    try:
        from bot.rules.ricochet import _fastsolve  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _fastsolve  # type: ignore[no-any-return]


def accelerator_available() -> bool:
    """True when the optional C accelerator is built and importable."""
    return _fast_module() is not None


@lru_cache(maxsize=512)
def _fast_tables(board: Board, target_cell: int) -> tuple[bytes, bytes, bytes]:
    stops = b"".join(bytes(row) for row in _tables(board).stop)
    return bytes(board.masks), bytes(lower_bounds(board, target_cell)), stops


def _fast_args(board: Board, position: Position) -> tuple[Any, ...]:
    _colours, cells, target_cell, active = _prepare(board, position)
    masks, bounds, stops = _fast_tables(board, target_cell)
    return (masks, bounds, stops, cells, target_cell, active)


def _use_fast(board: Board, diagonal_variant: bool, engine: str) -> ModuleType | None:
    if engine == "python":
        return None
    if diagonal_variant and board.diagonals:
        if engine == "c":
            raise BoardError("c_engine_no_diagonals", "diagonal variant")
        return None
    mod = _fast_module()
    if mod is None and engine == "c":
        raise BoardError("c_engine_not_built", "bot.rules.ricochet._fastsolve")
    return mod


def solve(
    board: Board,
    position: Position,
    *,
    time_budget: float | None = None,
    clock: Callable[[], float] | None = None,
    node_budget: int | None = None,
    max_moves: int = NO_LIMIT,
    diagonal_variant: bool = False,
    progress: ProgressCallback | None = None,
    engine: str = "auto",
) -> SolveResult:
    """An optimal solution (fewest moves, any robot, RR-MIN-0) or an honest lower bound when the budget runs out.

    ``time_budget`` (seconds) needs an injected ``clock`` (e.g. ``time.perf_counter``): the rules never read the
    clock themselves. ``node_budget`` bounds the work deterministically. ``engine``: ``auto`` (C accelerator when
    built and no diagonals are active, else Python), ``python`` or ``c``.
    """
    if time_budget is not None and clock is None:
        raise BoardError("time_budget_needs_clock", time_budget)
    colours = [c for c, _ in position.robots]
    fast = _use_fast(board, diagonal_variant, engine)
    if fast is not None and node_budget is None and time_budget is None and progress is None:
        found = fast.solve(*_fast_args(board, position), max_moves, -1)
        return _fast_result(found, colours, max_moves)
    deadline = None if time_budget is None or clock is None else clock() + time_budget
    search = _Search(board, position, diagonal_variant, clock, deadline, node_budget)
    if fast is not None:
        return _solve_fast_budgeted(fast, board, position, search, max_moves, progress, colours)
    try:
        optimum = search.run(max_moves, progress)
    except _Budget:
        # every depth below the interrupted one completed without a solution
        bound = max(search.limit, search.bound())
        return SolveResult(SolveStatus.BUDGET_EXHAUSTED, None, None, bound, search.nodes, "python")
    if optimum is None:
        return SolveResult(SolveStatus.UNREACHABLE, None, None, max_moves + 1, search.nodes, "python")
    moves = tuple((colours[i], DIRECTIONS[d]) for i, d in search.path)
    return SolveResult(SolveStatus.SOLVED, moves, optimum, optimum, search.nodes, "python")


def _fast_result(found: Any, colours: Sequence[str], max_moves: int) -> SolveResult:
    status, path, nodes, bound = found
    if status == 0:
        moves = tuple((colours[i], DIRECTIONS[d]) for i, d in path)
        return SolveResult(SolveStatus.SOLVED, moves, len(moves), len(moves), nodes, "c")
    if status == 1:
        return SolveResult(SolveStatus.UNREACHABLE, None, None, max_moves + 1, nodes, "c")
    return SolveResult(SolveStatus.BUDGET_EXHAUSTED, None, None, bound, nodes, "c")


def _solve_fast_budgeted(
    fast: ModuleType,
    board: Board,
    position: Position,
    search: _Search,
    max_moves: int,
    progress: ProgressCallback | None,
    colours: Sequence[str],
) -> SolveResult:
    """C engine under a budget: the injected clock and the progress callback are called from inside the search."""
    args = _fast_args(board, position)
    limit = -1 if search.node_budget is None else search.node_budget
    deadline = search.deadline if search.deadline is not None else 0.0
    clock = search.clock if search.deadline is not None else None
    status, path, nodes, depth = fast.solve(*args, max_moves, -1, limit, clock, deadline, progress)
    if status == 0:
        moves = tuple((colours[i], DIRECTIONS[d]) for i, d in path)
        return SolveResult(SolveStatus.SOLVED, moves, len(moves), len(moves), nodes, "c")
    if status == 1:
        return SolveResult(SolveStatus.UNREACHABLE, None, None, max_moves + 1, nodes, "c")
    bound = max(depth, search.bound(), 1)
    return SolveResult(SolveStatus.BUDGET_EXHAUSTED, None, None, bound, nodes, "c")


def exists_solution(
    board: Board,
    position: Position,
    max_moves: int,
    *,
    diagonal_variant: bool = False,
    engine: str = "auto",
) -> bool:
    """Is there a solution of at most ``max_moves`` moves? For the void check (RR-MIN-1) of a minimum ``m``,
    call with ``max_moves = m - 1``."""
    if max_moves < 0:
        return False
    fast = _use_fast(board, diagonal_variant, engine)
    if fast is not None:
        status, _path, _nodes, _bound = fast.solve(*_fast_args(board, position), max_moves, -1)
        return bool(status == 0)
    search = _Search(board, position, diagonal_variant, None, None, None)
    return search.run(max_moves, None) is not None


def void_below_minimum(
    board: Board, position: Position, minimum_moves: int, *, diagonal_variant: bool = False, engine: str = "auto"
) -> bool:
    """RR-MIN-1: True when a solution shorter than ``minimum_moves`` exists (the round would be void)."""
    return exists_solution(board, position, minimum_moves - 1, diagonal_variant=diagonal_variant, engine=engine)


def bfs_solve(
    board: Board, position: Position, *, max_moves: int = NO_LIMIT, node_budget: int | None = None
) -> int | None:
    """Baseline: a plain breadth-first search over whole positions (no bound, no pruning). Used by the benchmark
    and as an independent cross-check in tests. Returns the optimum, or None (unreachable or budget spent)."""
    search = _Search(board, position, False, None, None, None)
    if search.solved_now():
        return 0
    start = tuple(search.cells)
    seen = {start}
    frontier = [start]
    target, active = search.target, search.active
    for depth in range(1, max_moves + 1):
        nxt = []
        for state in frontier:
            search.cells = list(state)
            for i in range(search.n):
                for _d, s in search.moves_from(i):
                    if s == target and i in active:
                        return depth
                    new = (*state[:i], s, *state[i + 1 :])
                    if new not in seen:
                        seen.add(new)
                        nxt.append(new)
            if node_budget is not None and len(seen) > node_budget:
                return None
        frontier = nxt
        if not frontier:
            return None
    return None
