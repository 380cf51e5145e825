"""Optimal Ricochet Robots solver (plain optimum, RR-MIN-0) and the void check of the minimum-moves rule (RR-MIN-1).

Techniques (the first ones shared by the strong solvers, fogleman/Ricochet and DriftingDroids):

* wall stops precomputed per cell and direction (``_Tables.stop``); robots are obstacles checked by a range test;
* a per-cell lower bound from a robot-free backward search from the target in which a robot may stop anywhere
  along a slide (an admissible relaxation: another robot can stop it at any cell of its robot-free path);
* iterative deepening with a transposition table keyed on the active robot plus the sorted other robots (the
  non-active robots are interchangeable obstacles; for the vortex every robot is active, so the key is the
  sorted tuple of all robots; under the diagonal variant colours matter and the key keeps them in order);
* when the bound equals the moves left (a *tight* node), only the active robot moves, one bound closer each
  time, the others standing still: a single-robot search on its cell with no table;
* with one move to spare, another robot's move must leave a cell the active robot's shortest relaxed paths cross
  (up to each stop) or stop on a blocker cell (just past a stop that is not a wall stop); with two, the same for
  the paths with one extra move, or the same robot reaches a blocker cell next, or it changes the slide of a robot
  that can; else it could only pad a shorter solution;
* two consecutive moves of different robots that do not see each other are searched in one order only (lower
  robot first). The active robot is numbered 0 and every node's moves are searched robot by robot in that
  numbering (only a robot's own moves are reordered, one bound closer first): the commuting rule's order is the
  search's own, so the first optimal sequence in that order is never dropped;
* no immediate reversal and no repeat of a robot's last direction (both are redundant without diagonals);
* an upper bound from a breadth-first search of the active robot alone (the others standing still): once every
  depth below it has failed, that path is optimal and the last, most expensive depth is never searched;
* per-board state (stops, rays, bound, crossed and blocker tables) cached across calls by board identity, then
  value, in least-recently-used caches of ``_BOARDS_MAX`` boards, so a call on a known board pays no table building;
  the C engine's state of a board is made once (``_fastsolve.Prepared``: the wall stops, the targets, and each
  target's tables, built by the C module on its first call, ~0.1 ms instead of ~2 ms in Python), and an unbudgeted
  call on a board seen before is one C call on it (issue 48): ``solve`` finds the board by identity with one dict
  look-up and hands the ``Position`` itself to C, which reads it, numbers the robots, searches and builds the
  ``SolveResult``;
* this engine tests each move on its robot-free ray before computing the slide, and slides from a bit mask of the
  robots (docs/ricochet.md).

The solver is a plain synchronous pure function: the only shared state is caches of per-board tables (an
``lru_cache`` and two small least-recently-used maps of boards under a lock, all thread-safe), time is read only
from an injected ``clock``. An optional C accelerator (``bot.rules.ricochet._fastsolve``) is used when it is built
and the position has no active diagonal; results are cross-checked against this module in the tests.
"""

from __future__ import annotations

import enum
import sys
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, NamedTuple

from bot.rules.ricochet.board import DELTA, SIZE, VORTEX_COLOUR, WALL_BIT, Board, BoardError, Position, Target
from bot.rules.ricochet.moves import DIRECTIONS, slide_path

_N, _E, _S, _W = 0, 1, 2, 3
_REVERSE = (_S, _W, _N, _E)
_DIRS = (_N, _E, _S, _W)
_INF = 255
TT_LIMIT = 4_000_000  # transposition-table entries of the Python search (~110 bytes each, ~450 MB): when full,
# the entries with the fewest moves left are evicted (the deep ones, which save the most work, are kept)
SOLO_AFTER_NODES = 400  # the Python search runs the solo breadth-first search once it has spent this many nodes
NO_LIMIT = 60  # more moves than any position needs (the hardest known positions take 25-30)

ProgressCallback = Callable[[int, int], None]
"""``progress(depth_done, nodes)``: called after each completed iterative-deepening depth."""


class SolveStatus(enum.Enum):
    """How a search ended: an optimal solution found, the budget spent first, or no solution within the search limit."""

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


_CELL_BITS = tuple(1 << (c + 8) for c in range(SIZE * SIZE))
_CELL_BIT = tuple(1 << c for c in range(SIZE * SIZE))  # a robot's bit in a state key (above the active cell)


class _BoardData:
    """Per-board state reused across calls: wall stops, the C engine's stop bytes, bound tables per target."""

    __slots__ = (
        "_below",
        "_bounds",
        "_cell_rays",
        "_corridors",
        "_rays",
        "_toward",
        "_useful",
        "board",
        "prepared",
        "stops",
        "tables",
    )

    def __init__(self, board: Board) -> None:
        self.board = board
        self.tables = _tables(board)
        self.stops = b"".join(bytes(row) for row in self.tables.stop)
        self._bounds: dict[int, tuple[tuple[int, ...], bytes]] = {}
        self._below: dict[int, list[int]] = {}
        self._useful: dict[int, list[tuple[tuple[int, int, int], ...]]] = {}
        self._toward: dict[int, list[tuple[int, ...]]] = {}
        self._cell_rays: list[tuple[int, int, int, int]] = []
        self._corridors: dict[int, Corridors] = {}
        self._rays: tuple[tuple[int, ...], ...] = ()
        self.prepared: Any = None  # the C engine's _fastsolve.Prepared of this board (see _prepared), once made

    def prepare(self, target_cell: int) -> None:
        """Build every table a search for ``target_cell`` reads (a game pays this once per board and target)."""
        self.corridors(target_cell)
        self.below(target_cell)
        self.useful(target_cell)
        self.toward(target_cell)
        self.cell_rays()

    def cell_rays(self) -> list[tuple[int, int, int, int]]:
        """Per cell, the bits of its four robot-free slides (N, E, S, W)."""
        if not self._cell_rays:
            self._cell_rays = list(zip(*self.ray_dirs()[:4], strict=True))
        return self._cell_rays

    def rays(self) -> tuple[int, ...]:
        """Per cell, the bits of its four robot-free slides."""
        return self.ray_dirs()[4]

    def ray_dirs(self) -> tuple[tuple[int, ...], ...]:
        """Per direction (N, E, S, W) and cell, the bits of its robot-free slide; index 4: all four."""
        if not self._rays:
            self._rays = _rays(self.tables.stop)
        return self._rays

    def corridors(self, target_cell: int) -> Corridors:
        """The crossed cells and blocker cells of the active robot's shortest relaxed paths and of those with one
        extra move (see ``_crossed_and_blockers``), and those four with the rays packed for the C engine."""
        got = self._corridors.get(target_cell)
        if got is None:
            bound = self.bounds(target_cell)[0]
            crossed, blockers = _crossed_and_blockers(self.tables.stop, bound)
            crossed1, blockers1 = _crossed_and_blockers(self.tables.stop, bound, (crossed, blockers))
            packed = b"".join(_pack(t) for t in (self.rays(), crossed, blockers, crossed1, blockers1))
            got = self._corridors[target_cell] = Corridors(crossed, blockers, crossed1, blockers1, packed)
        return got

    def useful(self, target_cell: int) -> list[tuple[tuple[int, int, int], ...]]:
        """Per cell, (direction, robot-free ray, wall stop) of each slide whose ray holds a cell one bound closer:
        the only slides a tight path can take from there."""
        got = self._useful.get(target_cell)
        if got is None:
            bound = self.bounds(target_cell)[0]
            rays = self.ray_dirs()
            stop = self.tables.stop
            level = [0] * (_INF + 1)
            for x, bx in enumerate(bound):
                level[bx] |= 1 << x
            got = []
            for c, b in enumerate(bound):
                closer = level[b - 1] if 0 < b < _INF else 0
                got.append(tuple((d, rays[d][c], stop[d][c]) for d in range(4) if rays[d][c] & closer))
            self._useful[target_cell] = got
        return got

    def toward(self, target_cell: int) -> list[tuple[int, ...]]:
        """Per cell, the four directions, the one whose robot-free ray holds the cell of lowest bound first: the
        order the active robot's moves are searched in (a solution is met sooner; any order is exact)."""
        got = self._toward.get(target_cell)
        if got is None:
            bound = self.bounds(target_cell)[0]
            stop = self.tables.stop
            steps = (-SIZE, 1, SIZE, -1)
            got = []
            for c in range(SIZE * SIZE):
                best = []
                for d in range(4):
                    x, low = c, _INF
                    while x != stop[d][c]:
                        x += steps[d]
                        low = min(low, bound[x])
                    best.append((low, d))
                got.append(tuple(d for _, d in sorted(best)))
            self._toward[target_cell] = got
        return got

    def below(self, target_cell: int) -> list[int]:
        """Per number of moves k, the bit mask of the cells whose bound is below k."""
        got = self._below.get(target_cell)
        if got is None:
            table = self.bounds(target_cell)[0]
            level = [0] * (NO_LIMIT + 2)
            for c, b in enumerate(table):
                if b < NO_LIMIT + 1:
                    level[b + 1] |= 1 << c
            got = []
            acc = 0
            for m in level:
                acc |= m
                got.append(acc)
            self._below[target_cell] = got
        return got

    def bounds(self, target_cell: int) -> tuple[tuple[int, ...], bytes]:
        got = self._bounds.get(target_cell)
        if got is None:
            table = lower_bounds(self.board, target_cell)
            got = self._bounds[target_cell] = (table, bytes(table))
        return got


class Corridors(NamedTuple):
    """One target's masks for the pruning (see ``_crossed_and_blockers``): per cell, the cells the active robot's
    shortest relaxed paths cross and the cells whose robot would stop them, the same for paths with one move to
    spare, and all four with the rays packed for the C engine."""

    crossed: tuple[int, ...]
    blockers: tuple[int, ...]
    crossed1: tuple[int, ...]
    blockers1: tuple[int, ...]
    packed: bytes


def _crossed_and_blockers(
    stop: tuple[tuple[int, ...], ...],
    bound: tuple[int, ...],
    spare: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per cell c, two bit masks over the shortest relaxed paths from c (each move a robot-free slide that may stop
    at any cell of its segment, one bound closer each time): ``crossed``, the cells each slide of such a path
    crosses up to and including its stop (another robot there cuts the slide short), and ``blockers``, the cell
    just past each stop that is not the slide's wall stop (a robot there is what stops it).

    A path of the active robot with every move one bound closer (a tight path) that exists with the other robots
    in one place and not in another needs some robot to have left a ``crossed`` cell or entered a ``blockers`` cell
    of its start. The masks of a cell include those of every cell one bound closer on such a path, so the masks of
    the active robot's cell cover every later cell of its tight paths. With ``spare`` (the masks of the shortest
    paths) the same over relaxed paths with at most one move more than the shortest: a stop one bound closer keeps
    the allowance, a stop at the same bound uses it."""
    by_level: dict[int, list[int]] = {}
    for c, b in enumerate(bound):
        if 0 < b < _INF:
            by_level.setdefault(b, []).append(c)
    crossed = [0] * (SIZE * SIZE)
    blockers = [0] * (SIZE * SIZE)
    steps = (-SIZE, 1, SIZE, -1)
    for level in sorted(by_level):
        for c in by_level[level]:
            acc_c = acc_b = 0
            for d in range(4):
                st = stop[d][c]
                step = steps[d]
                seg = 0
                x = c
                while x != st:
                    x += step
                    seg |= 1 << x
                    if bound[x] == level - 1:
                        via_c, via_b = crossed[x], blockers[x]
                    elif spare is not None and bound[x] == level:
                        via_c, via_b = spare[0][x], spare[1][x]
                    else:
                        continue
                    acc_c |= seg | via_c
                    acc_b |= via_b
                    if x != st:
                        acc_b |= 1 << (x + step)
            crossed[c] = acc_c
            blockers[c] = acc_b
    return tuple(crossed), tuple(blockers)


def _rays(stop: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Per direction and cell, a bit mask of the cells of its robot-free slide (start excluded, wall stop
    included); a fifth entry: the four together."""
    steps = (-SIZE, 1, SIZE, -1)
    out: list[list[int]] = [[], [], [], [], []]
    for c in range(SIZE * SIZE):
        every = 0
        for d in range(4):
            acc = 0
            x = c
            while x != stop[d][c]:
                x += steps[d]
                acc |= 1 << x
            out[d].append(acc)
            every |= acc
        out[4].append(every)
    return tuple(tuple(t) for t in out)


def _pack(masks: tuple[int, ...]) -> bytes:
    """256-bit masks as 4 native-endian 64-bit words each (the C engine's ``uint64_t[256][4]``)."""
    word = (1 << 64) - 1
    return b"".join(((m >> (64 * w)) & word).to_bytes(8, sys.byteorder) for m in masks for w in range(4))


_BOARDS: OrderedDict[int, tuple[Board, _BoardData]] = OrderedDict()  # by id(board): the entry holds the board, so
# the id cannot be reused by another board while the entry exists
_BOARDS_BY_VALUE: OrderedDict[Board, _BoardData] = OrderedDict()
_BOARDS_MAX = 64  # boards kept (least recently used dropped first); each holds at most one table set per target
_BOARDS_LOCK = threading.Lock()


def _board_data(board: Board) -> _BoardData:
    """The cached state of ``board``: looked up by identity first (hashing a board costs microseconds; a board
    object reused across calls, as in a game, is found at once), then by value — the bot builds a new but equal
    ``Board`` for every ``/rr`` command, which must not rebuild the per-target tables (and is then found by identity
    too). A ``Board`` is a frozen value (its walls, targets and block are tuples and frozensets), so an entry never
    goes stale; both maps are least-recently-used caches of ``_BOARDS_MAX`` boards, updated under a lock (a hit by
    identity refreshes the identity map only: refreshing the value map would hash the board). ``solve``'s per-call
    path reads the identity map without the lock (one dict look-up) and refreshes nothing."""
    with _BOARDS_LOCK:
        hit = _BOARDS.get(id(board))
        if hit is not None and hit[0] is board:
            _BOARDS.move_to_end(id(board))
            return hit[1]
        data = _BOARDS_BY_VALUE.get(board)
        if data is None:
            data = _BoardData(board)
            _BOARDS_BY_VALUE[board] = data
            if len(_BOARDS_BY_VALUE) > _BOARDS_MAX:
                _BOARDS_BY_VALUE.popitem(last=False)
        else:
            _BOARDS_BY_VALUE.move_to_end(board)
        _BOARDS[id(board)] = (board, data)
        _BOARDS.move_to_end(id(board))
        if len(_BOARDS) > _BOARDS_MAX:
            _BOARDS.popitem(last=False)
        return data


def _prepared(fast: ModuleType, data: _BoardData) -> Any:
    """The C engine's state of the board of ``data``, made once: its wall stops and targets, and each target's
    tables (the bound table, then the rays and the corridor masks), built by the C module on the first call for that
    target and kept. Its ``solve(position, max_moves)`` is the whole of an unbudgeted solve in one C call: it reads
    the position, numbers the robots, searches and returns the finished ``SolveResult`` (or None for what it leaves
    to the general path: a target that is not the board's, no robot of the target's colour)."""
    if data.prepared is None:
        data.prepared = fast.Prepared(
            data.stops, data.board.targets, VORTEX_COLOUR, SolveResult, SolveStatus.SOLVED, SolveStatus.UNREACHABLE
        )
    return data.prepared


def _c_tables(fast: ModuleType, board: Board, target: Target) -> tuple[_BoardData, bytes]:
    """The board's cached state and the C engine's tables for ``target`` (kept by the board's ``Prepared``). Raises
    when the target is not one of the board's, so a table exists only for a real target of the board."""
    if target not in board.targets:
        raise BoardError("target_not_on_board", list(target))
    data = _board_data(board)
    return data, _prepared(fast, data).table(target.row * SIZE + target.col)


def _prepare(board: Board, position: Position) -> tuple[list[str], list[int], int, list[int]]:
    colours = [c for c, _ in position.robots]
    cells = [r * SIZE + c for _, (r, c) in position.robots]
    t = position.target
    if position.target not in board.targets:
        raise BoardError("target_not_on_board", list(t))
    target_cell = t.row * SIZE + t.col
    if t.colour == VORTEX_COLOUR:
        return colours, cells, target_cell, list(range(len(colours)))
    if t.colour not in colours:
        raise BoardError("active_robot_missing", t.colour)
    # The active robot is numbered 0: both engines search a node's moves robot by robot in this numbering, which is
    # also the order of commuting moves (a lower robot first), so its moves come first and the argument that keeps
    # every optimum (docs/ricochet.md) holds. Moves name robots by colour, so the numbering is internal.
    k = colours.index(t.colour)
    order = [k, *(i for i in range(len(colours)) if i != k)]
    return [colours[i] for i in order], [cells[i] for i in order], target_cell, [0]


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
        data = _board_data(board)
        self.tables = data.tables
        if self.diag:  # colours cross their own diagonals: one bound table per colour
            self.bounds = [lower_bounds(board, self.target, c, True) for c in self.colours]
        else:
            shared = data.bounds(self.target)[0]
            self.bounds = [shared] * len(self.colours)
        self.data = data
        self.vortex = position.target.colour == VORTEX_COLOUR
        self.clock = clock
        self.deadline = deadline
        self.node_budget = node_budget
        self.nodes = 0
        self.tt: dict[Any, int] = {}  # int keys in tight_dfs, tuples in the diagonal search
        self.tt_limit = TT_LIMIT
        self.evictions = 0
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
        """The same search as ``dfs`` without diagonals, written as one closure over local tables (several times
        as fast in CPython: no attribute look-ups or helper calls per node, moves generated inline; a robot never
        blocks itself because every range test excludes its own cell). A state
        is one integer: the active robot's cell plus a bit per other robot's cell (for the vortex a bit per
        robot), updated per move, so the table key needs no sorting."""
        stop_n, stop_e, stop_s, stop_w = self.tables.stop
        cells = self.cells
        target = self.target
        active = self.active
        is_active = [i in active for i in range(self.n)]
        order = range(self.n)  # robot by robot (the active one is robot 0): the order of commuting moves too
        tt = self.tt
        path = self.path
        vortex = self.vortex
        a = -1 if vortex else active[0]
        bounds = self.bounds[0] if vortex else self.bounds[a]
        bit = _CELL_BITS
        tick = self.tick
        counter = [0]
        tr, tc = divmod(target, SIZE)
        near = {r * SIZE + c for r, c in ((tr - 1, tc), (tr + 1, tc), (tr, tc - 1), (tr, tc + 1))}
        limit = self.tt_limit
        crossed, blockers, crossed1, blockers1, _packed = self.data.corridors(target)
        ray_dirs = self.data.ray_dirs()
        rays = ray_dirs[4]
        cell_rays = self.data.cell_rays()
        cell_bit = _CELL_BIT
        near_mask = sum(1 << c for c in near if 0 <= c < SIZE * SIZE)
        below = self.data.below(target)
        useful = self.data.useful(target)
        toward = self.data.toward(target)

        def finish() -> tuple[int, int] | None:
            """A one-move finish from the current cells: only a slide along the target's row or column can end
            on it, so each active robot needs one slide computed, not four."""
            for i in active:
                d = finish_one(i)
                if d >= 0:
                    return (i, d)
            return None

        def finish_one(i: int) -> int:
            """The direction of a one-move finish of robot ``i``, or -1."""
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
                return -1
            return d if s == target else -1

        def tight(i: int, p: int, left: int, failed: set[int], occ: int) -> bool:
            """A tight node (bound == moves left): robot ``i`` on ``p``, whose bound is the moves left, must finish
            with every move its own, each one bound closer, the others (``occ``, their bits) standing still. So the
            state is its cell alone: ``failed`` holds the cells already shown to fail in this sub-search. No table,
            no key; only the slides whose robot-free ray holds a cell one bound closer are tried, and a reversal or
            repeat can never be one bound closer, so no last-move rule is needed."""
            if p in failed:
                return False
            counter[0] += 1
            closer = left - 1
            for d, r, st in useful[p]:
                m = occ & r  # the robots on the ray: the nearest one stops the slide
                if not m:
                    s = st
                elif d == 0:
                    s = m.bit_length() + 15
                elif d == 1:
                    s = (m & -m).bit_length() - 2
                elif d == 2:
                    s = (m & -m).bit_length() - 17
                else:
                    s = m.bit_length()
                if bounds[s] != closer:
                    continue
                path.append((i, d))
                if not closer or tight(i, s, closer, failed, occ):
                    return True
                path.pop()
            failed.add(p)
            return False

        def useless_for_others(i: int, p: int, s: int, left: int) -> bool:
            """Vortex, one spare move: robot ``i``'s move p -> s leaves no crossed cell and reaches no blocker cell
            of every other robot
            that could finish with one move to spare."""
            for f, c in enumerate(cells):
                if f != i and bounds[c] == left - 1 and ((crossed[c] >> p) & 1 or (blockers[c] >> s) & 1):
                    return False
            return True

        def evict() -> None:
            """Memory cap: drop the entries with the fewest moves left (cheap to search again) until at most half
            the table is left; the deep entries, which save the most work, stay."""
            counts = Counter(tt.values())
            dropped, threshold = 0, -1
            for left in sorted(counts):
                dropped += counts[left]
                threshold = left
                if dropped * 2 >= len(tt):
                    break
            for key in [k for k, v in tt.items() if v <= threshold]:
                del tt[key]
            self.evictions += 1

        def dfs(left: int, last_r: int, last_d: int, last_from: int, key: int) -> bool:
            counter[0] += 1
            if not counter[0] & 1023:
                self.nodes = counter[0]
                tick()
            if vortex:
                h = min([bounds[c] for c in cells])
                if h > left:
                    return False
                occ = key >> 8
                ca = -1
            else:
                ca = cells[a]
                h = bounds[ca]  # never above left: the parent skips active moves the bound would cut
                occ = (key >> 8) | cell_bit[ca]
            if h == left:
                counter[0] -= 1  # counted by tight()
                for i in active:  # a plain loop: no generator frame per node
                    c = cells[i]
                    if bounds[c] == left and tight(i, c, left, set(), occ ^ cell_bit[c]):
                        return True
                return False
            seen = tt.get(key)
            if seen is not None:
                if seen >= left:
                    return False
            elif len(tt) >= limit:
                evict()
            tt[key] = left
            last_ray = seen_last = 0
            if last_r >= 0:
                last_ray = ray_dirs[last_d][last_from]
                seen_last = cell_bit[last_from] | cell_bit[cells[last_r]]
            commute_mask = last_ray | seen_last
            spare_one = h == left - 1 and not vortex
            two_spare = h == left - 2 and not vortex
            helpers = None  # two spare moves: the other robots that can next leave a crossed or reach a blocker cell
            if not vortex:
                wide_c = crossed1[ca]
                wide_b = blockers1[ca]
                reach = below[left]
                crossing = crossed[ca]
                blocking = blockers[ca]
            for i in order:
                p = cells[i]
                act = is_active[i]
                # Pre-tests on the robot-free ray of a move (its stop lies on it), before the slide is computed:
                # each only drops moves that a rule below drops after the slide as well.
                # a lower robot than the last one commutes with that move unless its ray meets it
                meet = commute_mask if i < last_r and not (last_ray >> p) & 1 else -1
                if act:
                    need = -1 if vortex else reach  # the stop must be closer than the moves left
                elif vortex:
                    need = -1
                elif left == 2:
                    need = -1 if p >> 4 == ca >> 4 or p & 15 == ca & 15 else near_mask
                elif spare_one and not (crossing >> p) & 1:
                    need = blocking  # one spare move: the stop must be a blocker's cell
                else:
                    need = -1
                skip = (last_d, _REVERSE[last_d]) if i == last_r else ()  # no repeat, no reversal
                ray = cell_rays[p]
                for d in toward[p] if act else _DIRS:
                    if d in skip:
                        continue
                    r = ray[d]
                    if not r & meet or not r & need:
                        continue  # also a wall right there (an empty ray)
                    m = occ & r  # the robots on the ray: the nearest one stops the slide
                    if d == 0:
                        s = m.bit_length() + 15 if m else stop_n[p]
                    elif d == 1:
                        s = (m & -m).bit_length() - 2 if m else stop_e[p]
                    elif d == 2:
                        s = (m & -m).bit_length() - 17 if m else stop_s[p]
                    else:
                        s = m.bit_length() if m else stop_w[p]
                    if s == p:
                        continue
                    if i < last_r and not (r & seen_last or (last_ray >> p) & 1 or (last_ray >> s) & 1):
                        # the last move (a higher robot) and this one do not see each other (neither's start or
                        # stop on the other's robot-free slide): the same state in either order; the lower robot
                        # first is the order searched
                        continue
                    if act:
                        if s == target:
                            path.append((i, d))
                            return True
                        if bounds[s] >= left and not vortex:
                            continue  # the child would be cut by its bound at once
                    elif left == 2 and s not in near and (p >> 4 != ca >> 4) and (p & 15 != ca & 15):
                        # one move will be left for the active robot: this move helps only by stopping it beside
                        # the target or by clearing its row/column
                        continue
                    elif spare_one and not (crossing >> p) & 1 and not (blocking >> s) & 1:
                        # one spare move: every other move left is the active robot's, each one bound closer; this
                        # move neither leaves a cell such a slide crosses nor stops where it would stop one, so it
                        # would only pad a solution the active robot has alone
                        continue
                    if vortex and h == left - 1 and bounds[s] >= left and useless_for_others(i, p, s, left):
                        continue  # the same for the vortex: i cannot finish after it, nor help another robot
                    # Two spare moves: after this move of a non-active robot at most one move is not the active
                    # robot's one bound closer. It matters only if it leaves a crossed cell or enters a blocker
                    # cell of the active robot's paths with at most one extra move (the active robot can then
                    # follow alone), or the same robot can next stop on a blocker cell of the shortest paths, or
                    # it changes the slide of another robot that can next leave a crossed cell or stop on a
                    # blocker cell. Else it could only pad a shorter solution.
                    if two_spare and not act and not ((wide_c >> p) & 1 or (wide_b >> s) & 1 or rays[s] & blocking):
                        if helpers is None:
                            helpers = [
                                (j, rays[u])
                                for j, u in enumerate(cells)
                                if j != a and ((crossing >> u) & 1 or rays[u] & blocking)
                            ]
                        for j, ru in helpers:
                            if j != i and ((ru >> p) & 1 or (ru >> s) & 1):
                                break
                        else:
                            continue
                    cells[i] = s
                    if left == 2:
                        # the child has one move left: test the finish here instead of a call, a key and a probe
                        last = finish()
                        cells[i] = p
                        if last is not None:
                            path.append((i, d))
                            path.append(last)
                            return True
                        continue
                    path.append((i, d))
                    child = key + s - p if i == a else key ^ bit[p] ^ bit[s]
                    if not vortex and (bounds[s] if i == a else h) == left - 1:
                        # a tight child: straight to the single-robot search (no frame, key or probe for it)
                        if tight(a, cells[a], left - 1, set(), child >> 8):
                            cells[i] = p
                            return True
                    else:
                        seen = tt.get(child)
                        if seen is not None and seen >= left - 1:
                            counter[0] += 1  # a table hit, settled here without a call
                        elif dfs(left - 1, i, d, p, child):
                            cells[i] = p
                            return True
                    path.pop()
                    cells[i] = p
            return False

        def run_depth(left: int, last_r: int, last_d: int) -> bool:
            if left == 1:
                last = finish()
                if last is not None:
                    path.append(last)
                return last is not None
            counter[0] = self.nodes
            key = 0
            for i, c in enumerate(cells):
                key += c if i == a else bit[c]
            try:
                return dfs(left, last_r, last_d, 0, key)
            finally:
                self.nodes = counter[0]

        return run_depth

    def solo(self, max_moves: int) -> list[tuple[int, int]] | None:
        """Breadth-first search of each active robot alone, the others standing still: a shortest such solution
        within ``max_moves``, or None. An upper bound of the optimum (exact when no other robot needs to move)."""
        cells = self.cells
        best: list[tuple[int, int]] | None = None
        for i in self.active:
            start = cells[i]
            came: dict[int, tuple[int, int]] = {start: (-1, -1)}
            frontier = [start]
            depth = 0
            found = -1
            while frontier and found < 0 and depth < max_moves and (best is None or depth + 1 < len(best)):
                depth += 1
                nxt = []
                for c in frontier:
                    cells[i] = c
                    for d, s in self.moves_from(i):
                        if s not in came:
                            came[s] = (c, d)
                            if s == self.target:
                                found = s
                            nxt.append(s)
                frontier = nxt
            cells[i] = start
            if found >= 0:
                moves: list[tuple[int, int]] = []
                c = found
                while c != start:
                    c, d = came[c]
                    moves.append((i, d))
                best = moves[::-1]
        return best

    def run(self, max_moves: int, progress: ProgressCallback | None, first: int = 1) -> int | None:
        """Iterative deepening up to ``max_moves``; returns the optimum or None. Raises _Budget.

        Once the search has spent ``SOLO_AFTER_NODES`` nodes, the solo breadth-first search gives an upper bound:
        when every depth below it has failed, its path is optimal and that last depth is not searched."""
        if self.solved_now():
            return 0
        search = self.dfs if self.diag else self.tight_dfs()
        solo: list[tuple[int, int]] | None = None
        solo_done = self.diag
        for limit in range(max(1, first), max_moves + 1):
            self.limit = limit
            del self.path[:]
            if not solo_done and self.nodes >= SOLO_AFTER_NODES:
                solo, solo_done = self.solo(max_moves), True
            if solo is not None and len(solo) <= limit:  # every shorter depth failed: the solo path is optimal
                self.path.extend(solo)
                return len(solo)
            if search(limit, -1, 0):
                return limit
            if progress is not None:
                progress(limit, self.nodes)
        return None


_FAST: list[ModuleType | None] = []  # the C accelerator module (or None), looked up once


def _fast_module() -> ModuleType | None:
    if not _FAST:
        try:
            from bot.rules.ricochet import _fastsolve  # type: ignore[attr-defined]
        except ImportError:
            _FAST.append(None)
        else:
            _FAST.append(_fastsolve)
    return _FAST[0]


def accelerator_available() -> bool:
    """True when the optional C accelerator is built and importable."""
    return _fast_module() is not None


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
    if time_budget is None and node_budget is None and progress is None and engine != "python":
        # the per-call path: a board seen before (by identity) whose C state is made, one C call for the rest
        hit = _BOARDS.get(id(board))
        if hit is not None and hit[0] is board and hit[1].prepared is not None and not diagonal_variant:
            result: SolveResult | None = hit[1].prepared.solve(position, max_moves)
            if result is not None:
                return result
    if time_budget is not None and clock is None:
        raise BoardError("time_budget_needs_clock", time_budget)
    fast = _use_fast(board, diagonal_variant, engine)
    deadline = None if time_budget is None or clock is None else clock() + time_budget
    if fast is not None:
        return _solve_fast(fast, board, position, max_moves, node_budget, clock, deadline, progress)
    search = _Search(board, position, diagonal_variant, clock, deadline, node_budget)
    try:
        optimum = search.run(max_moves, progress)
    except _Budget:
        # every depth below the interrupted one completed without a solution
        bound = max(search.limit, search.bound())
        return SolveResult(SolveStatus.BUDGET_EXHAUSTED, None, None, bound, search.nodes, "python")
    if optimum is None:
        return SolveResult(SolveStatus.UNREACHABLE, None, None, max_moves + 1, search.nodes, "python")
    moves = tuple((search.colours[i], DIRECTIONS[d]) for i, d in search.path)
    return SolveResult(SolveStatus.SOLVED, moves, optimum, optimum, search.nodes, "python")


def _solve_fast(
    fast: ModuleType,
    board: Board,
    position: Position,
    max_moves: int,
    node_budget: int | None,
    clock: Callable[[], float] | None,
    deadline: float | None,
    progress: ProgressCallback | None,
) -> SolveResult:
    """The C engine; under a budget the injected clock and the progress callback are called from inside it. Without
    one the whole call is one C function on the board's ``Prepared`` state (see ``_prepared``); the board is then
    found by identity by the next call's per-call path in ``solve``."""
    data, tables = _c_tables(fast, board, position.target)
    if node_budget is None and deadline is None and progress is None:
        done: SolveResult | None = data.prepared.solve(position, max_moves)
        if done is not None:
            return done
        # what the C call leaves to this path (no robot of the target's colour, ...): _prepare raises it
    colours, cells, target_cell, active = _prepare(board, position)
    view = memoryview(tables)
    limit = -1 if node_budget is None else node_budget
    timer = clock if deadline is not None else None
    status, path, nodes, depth = fast.solve(
        view[: SIZE * SIZE],
        data.stops,
        view[SIZE * SIZE :],
        cells,
        target_cell,
        active,
        max_moves,
        limit,
        timer,
        deadline or 0.0,
        progress,
    )
    if status == 0:
        moves = tuple((colours[i], DIRECTIONS[d]) for i, d in path)
        return SolveResult(SolveStatus.SOLVED, moves, len(moves), len(moves), nodes, "c")
    if status == 1:
        return SolveResult(SolveStatus.UNREACHABLE, None, None, max_moves + 1, nodes, "c")
    t = position.target
    bound = max(
        depth, min(tables[r * SIZE + c] for colour, (r, c) in position.robots if t.colour in (colour, VORTEX_COLOUR)), 1
    )
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
    if engine != "python" and not diagonal_variant:  # the per-call path of solve()
        hit = _BOARDS.get(id(board))
        if hit is not None and hit[0] is board and hit[1].prepared is not None:
            result: SolveResult | None = hit[1].prepared.solve(position, max_moves)
            if result is not None:
                return result.status is SolveStatus.SOLVED
    fast = _use_fast(board, diagonal_variant, engine)
    if fast is not None:
        return _solve_fast(fast, board, position, max_moves, None, None, None, None).status is SolveStatus.SOLVED
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
