"""RR-MIN-0: the per-board and per-target caches of the solver (the C engine's tables built in C, the boards kept
in a bounded least-recently-used cache) never return another board's or another target's data, stay bounded, and
the tables built in C are the tables the Python code builds; issue 48: the per-call path (a known board's C state,
the position handed straight to C) answers exactly what the general path answers."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.ricochet import solver
from bot.rules.ricochet.board import Board, BoardError, Position
from bot.rules.ricochet.moves import replay
from bot.rules.ricochet.solver import accelerator_available, solve
from tests.support.ricochet_positions import benchmark_positions, random_positions

needs_c = pytest.mark.skipif(not accelerator_available(), reason="C accelerator not built")
ENGINES = ["python", pytest.param("c", marks=needs_c)]


def _walled(board: Board, row: int, col: int) -> Board:
    """``board`` with one more wall, east of (row, col): the same targets, other optima."""
    walls = [list(line) for line in board.cell_walls]
    walls[row][col] += "E"
    walls[row][col + 1] += "W"
    return dataclasses.replace(board, cell_walls=tuple(tuple(line) for line in walls))


def _forget_everything() -> None:
    solver._BOARDS.clear()
    solver._BOARDS_BY_VALUE.clear()
    solver._tables.cache_clear()
    solver.lower_bounds.cache_clear()


def _reaches(board: Board, position: Position, moves: tuple[tuple[str, str], ...]) -> bool:
    robots = dict(replay(board, position.robot_map, moves)[-1].robots) if moves else position.robot_map
    t = position.target
    cells = robots.values() if t.colour == "any" else [robots[t.colour]]
    return (t.row, t.col) in cells


BASE = Board.parse("1A2A3A4A")
# the same targets, different walls: a wall east of (9, 13), beside the yellow square target (9, 14), and more
OTHER = _walled(_walled(BASE, 9, 12), 2, 5)
POSITIONS = random_positions(BASE, 24, 4, 2024)


@needs_c
def test_the_c_engines_tables_are_the_tables_the_python_code_builds() -> None:
    """The bound table and the five corridor tables of every target of four boards, built in C, byte for byte equal
    to the Python construction (solver.lower_bounds and _crossed_and_blockers, packed)."""
    fast = solver._fast_module()
    boards = {name[:2]: b for name, b, _p, _s in benchmark_positions()}
    boards.update(base=BASE, other=OTHER, c=Board.parse("1C2C3C4C"))
    assert len(boards) == 5
    for board in boards.values():
        data = solver._BoardData(board)
        for target in board.targets:
            cell = target.row * 16 + target.col
            python_built = data.bounds(cell)[1] + data.corridors(cell).packed
            assert fast.tables(data.stops, cell) == python_built, target


# the optima within 9 moves (None: more) of POSITIONS on each board, from both engines with empty caches
EXPECTED = {
    "base": [None, 1, 7, 6, 4, 7, 7, 5, 4, 9, None, 1, 1, 3, 7, 6, 4, 7, 6, 5, 4, 7, 6, None],
    "other": [8, 1, 7, 6, 4, 7, 7, 5, 4, 9, None, 1, 1, 3, 7, 6, 4, 7, 6, 5, None, 7, 6, None],
}


@pytest.mark.parametrize("engine", ENGINES)
def test_boards_and_targets_in_alternation_get_their_own_optima(engine: str) -> None:
    """Two boards with the same targets and different walls, equal boards built again, and many targets, in
    alternation: every answer is the recorded optimum of its own board (a cache keyed by target alone, or by a
    board's id after the board is gone, would hand one board's tables to the other)."""
    _forget_everything()
    for round_ in range(2):
        for k, position in enumerate(POSITIONS):
            for tag, quadrants in (("base", BASE), ("other", OTHER)):
                # a fresh but equal object in the second round (found by value), the cached one in the first
                board = dataclasses.replace(quadrants) if round_ else quadrants
                got = solve(board, position, engine=engine, max_moves=9)
                assert got.optimal_moves == EXPECTED[tag][k], (tag, position.to_notation(), round_)
                if got.moves is not None:
                    assert _reaches(board, position, got.moves)
                data = solver._board_data(board)
                assert data.board == board
                if engine == "c":  # the cached tables are this board's and this target's, as built afresh
                    fast = solver._fast_module()
                    cell = position.target.row * 16 + position.target.col
                    assert solver._c_tables(fast, board, position.target)[1] == fast.tables(data.stops, cell)


@needs_c
def test_a_freed_boards_id_reused_by_another_board_is_not_mistaken_for_it() -> None:
    """Boards built and dropped in a loop reuse each other's ids: each must still get its own tables."""
    position = Position.parse("red@2.11,green@0.8,blue@0.2,yellow@15.2>9.14.yellow.square")
    want = {}
    for flip in (0, 1):
        _forget_everything()
        want[flip] = solve(OTHER if flip else BASE, position, engine="c").optimal_moves
    assert want[0] != want[1]
    for k in range(40):
        board = _walled(_walled(BASE, 9, 12), 2, 5) if k % 2 else Board.parse("1A2A3A4A")
        assert solve(board, position, engine="c").optimal_moves == want[k % 2], k
        del board


def test_the_board_cache_is_bounded_and_keeps_the_most_recently_used() -> None:
    """More distinct boards than the cache holds: both maps stay at _BOARDS_MAX entries, the least recently used
    board is dropped first, and a board used again in between (as a new but equal object, as the bot builds one
    per command, so both the identity and the value map see it) stays."""
    _forget_everything()
    limit = solver._BOARDS_MAX
    boards = [_walled(BASE, row % 16, 1 + row // 16) for row in range(limit + 12)]
    assert len(set(boards)) == len(boards)
    kept = solver._board_data(boards[0])
    for k, board in enumerate(boards[1:], start=1):
        solver._board_data(board)
        if k % 8 == 0:
            assert solver._board_data(dataclasses.replace(boards[0])) is kept  # used again: the most recent
        assert len(solver._BOARDS) <= limit and len(solver._BOARDS_BY_VALUE) <= limit
    assert len(solver._BOARDS) == limit and len(solver._BOARDS_BY_VALUE) == limit
    assert boards[0] in solver._BOARDS_BY_VALUE and solver._board_data(boards[0]) is kept
    assert boards[1] not in solver._BOARDS_BY_VALUE  # the least recently used went first
    assert boards[-1] in solver._BOARDS_BY_VALUE


@needs_c
def test_the_c_tables_of_a_board_are_kept_per_target_and_only_for_its_targets() -> None:
    """The per-target tables of a board are at most one per target of the board; a target that is not on the board
    is refused before anything is built, and a missing active robot is refused as before."""
    _forget_everything()
    for position in POSITIONS:
        solve(BASE, position, engine="c")
    data = solver._board_data(BASE)
    built = set(data.prepared.built())
    assert built == {p.target.row * 16 + p.target.col for p in POSITIONS}
    assert built <= {t.row * 16 + t.col for t in BASE.targets}
    foreign = Position.parse("red@0.0,green@0.8,blue@0.2,yellow@15.2>0.5.red.circle")
    for engine in ("c", "auto"):  # the board is known: the per-call path leaves the refusal to the general path
        with pytest.raises(BoardError) as err:
            solve(BASE, foreign, engine=engine)
        assert err.value.code == "target_not_on_board"
        with pytest.raises(BoardError) as err:
            solver.exists_solution(BASE, foreign, 3, engine=engine)
        assert err.value.code == "target_not_on_board"
    assert 5 not in data.prepared.built()
    # a target of another colour on one of the board's target cells is not the board's target either
    t = BASE.targets[0]
    other = next(c for c in ("red", "green", "blue", "yellow") if c != t.colour)
    wrong = Position.parse(f"red@0.0,green@0.8,blue@0.2,yellow@15.2>{t.row}.{t.col}.{other}.{t.symbol}")
    with pytest.raises(BoardError) as err:
        solve(BASE, wrong, engine="c")
    assert err.value.code == "target_not_on_board"
    missing = Position.parse("red@2.11,green@0.8,blue@0.2>9.14.yellow.square")
    with pytest.raises(BoardError) as err:
        solve(BASE, missing, engine="c")
    assert err.value.code == "active_robot_missing"
    with pytest.raises(BoardError) as err:
        solver.exists_solution(BASE, missing, 4, engine="c")
    assert err.value.code == "active_robot_missing"


@needs_c
def test_budgeted_and_unbudgeted_c_calls_give_the_same_answers() -> None:
    """The unbudgeted path (one C call that numbers the robots and builds the moves) and the budgeted path (the
    robots numbered in Python) return the same moves, including for the vortex."""
    board = benchmark_positions()[0][1]
    for position in random_positions(board, 30, 4, 77):
        plain = solve(board, position, engine="c")
        budgeted = solve(board, position, engine="c", node_budget=10**9)
        assert (plain.status, plain.moves, plain.nodes) == (budgeted.status, budgeted.moves, budgeted.nodes)


def _general(board: Board, position: Position, max_moves: int) -> solver.SolveResult:
    """The general path's answer: a node budget no search reaches keeps the call off the per-call path."""
    return solve(board, position, engine="c", max_moves=max_moves, node_budget=10**12)


@needs_c
def test_the_per_call_path_answers_exactly_what_the_general_path_answers() -> None:
    """Issue 48 (Ricochet Robots per call): a call on a known board is one C call on the board's prepared state, the
    position read in C and the result built there. On seeded positions of two boards (4 and 5 robots, every target,
    the vortex included), a robot already on the target, and limits that leave positions unreachable, its results
    equal the general path's field for field (status, moves, optimum, lower bound, nodes, engine), and so do
    ``exists_solution``'s; the results it builds are ordinary ``SolveResult`` values (equal, hashable, frozen)."""
    _forget_everything()
    board_b = benchmark_positions()[-1][1]
    cases = [
        *((BASE, p) for p in random_positions(BASE, 40, 4, 4848)),
        *((board_b, p) for p in random_positions(board_b, 15, 5, 4851)),
    ]
    t = next(t for t in BASE.targets if t.colour == "red")
    on_target = Position.make({"red": (t.row, t.col), "green": (0, 8), "blue": (0, 2)}, list(t))
    cases.append((BASE, on_target))  # solved in 0 moves
    assert any(p.target.colour == "any" for _b, p in cases)
    assert _general(BASE, on_target, 60).optimal_moves == 0
    checked = 0
    for board, position in cases:
        solve(board, position, engine="c")  # the board becomes known (its C state made)
        for limit in (60, 3):
            general = _general(board, position, limit)
            fast = solve(board, position, engine="c", max_moves=limit)
            auto = solve(board, position, max_moves=limit)
            assert fast == general == auto, (position.to_notation(), limit)
            assert type(fast) is solver.SolveResult and hash(fast) == hash(general)
            assert solver.exists_solution(board, position, limit, engine="c") == (
                general.status is solver.SolveStatus.SOLVED
            )
            checked += 1
    assert checked == 2 * len(cases)
    result = solve(BASE, cases[0][1], engine="c")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.nodes = 0  # type: ignore[misc]
    assert dataclasses.replace(result, engine="x").engine == "x"


@needs_c
def test_the_per_call_path_is_taken_only_for_an_unbudgeted_call_on_a_known_board() -> None:
    """Issue 48: the per-call path serves a board seen before by identity (a new but equal board object is found by
    value, then by identity from its next call on); a budget, a progress callback, the Python engine or the diagonal
    variant take the general path."""
    _forget_everything()
    position = Position.parse("red@2.11,green@0.8,blue@0.2,yellow@15.2>9.14.yellow.square")
    board = Board.parse("1A2A3A4A")
    solve(board, position, engine="c")
    data = solver._board_data(board)
    calls: list[str] = []

    class Spy:
        def __init__(self, real: object) -> None:
            self.real = real

        def __getattr__(self, name: str) -> object:
            calls.append(name)
            return getattr(self.real, name)

    data.prepared = Spy(data.prepared)
    try:
        assert solve(board, position, engine="c").optimal_moves == 8
        assert calls == ["solve"]
        again = Board.parse("1A2A3A4A")  # equal, not the same object: the same C state, found by value
        assert solver._board_data(again) is data
        calls.clear()
        solve(again, position, engine="c")
        assert calls == ["solve"]
        for kwargs in (
            {"engine": "c", "node_budget": 10**9},
            {"engine": "c", "progress": lambda depth, nodes: None},
            {"engine": "python", "max_moves": 3},
            {"diagonal_variant": True, "max_moves": 3},  # no diagonals on this board: C, by the general path
        ):
            calls.clear()
            solve(board, position, **kwargs)  # type: ignore[arg-type]
            assert calls[:1] in ([], ["table"]), kwargs  # the general path asks for the target's tables first
    finally:
        data.prepared = data.prepared.real


@needs_c
def test_a_board_s_c_state_builds_a_target_s_tables_once_and_can_forget_them() -> None:
    """Issue 48: the board's C state (``Prepared``) builds a target's tables on its first solve, keeps them (the
    same bytes object after), and ``forget`` drops them, the next solve building them again (the benchmark's cold
    target), with the same answer."""
    _forget_everything()
    position = POSITIONS[2]
    cell = position.target.row * 16 + position.target.col
    first = solve(BASE, position, engine="c")
    prepared = solver._board_data(BASE).prepared
    table = prepared.table(cell)
    assert prepared.table(cell) is table and prepared.built() == (cell,)
    prepared.forget(cell)
    assert prepared.built() == ()
    assert solve(BASE, position, engine="c") == first
    assert prepared.built() == (cell,) and prepared.table(cell) == table and prepared.table(cell) is not table


@needs_c
def test_the_per_call_path_gives_the_answers_of_the_engine_before_it() -> None:
    """Issue 48: the per-call path changed how a call reaches the C search, not the search: on seeded positions of
    three boards (4 and 5 robots, the vortex included) and under a move limit, every answer (status, moves, optimum,
    lower bound, nodes) equals the one of the engine before issue 48 (benchmarks/rr_solver.py's BEFORE_THIN_CALL,
    built from its git commit); skipped, with the reason, where git, that commit or a C compiler is missing."""
    from benchmarks.rr_revisions import Unavailable, load
    from benchmarks.rr_solver import BEFORE_THIN_CALL

    try:
        before = load(BEFORE_THIN_CALL).solver
    except Unavailable as exc:
        pytest.skip(f"the engine of {BEFORE_THIN_CALL.short} cannot be built here: {exc}")
    board_b = benchmark_positions()[-1][1]
    cases = [
        *((BASE, p) for p in random_positions(BASE, 60, 4, 4860)),
        *((OTHER, p) for p in random_positions(OTHER, 20, 4, 4861)),
        *((board_b, p) for p in random_positions(board_b, 15, 5, 4851)),
    ]
    assert any(p.target.colour == "any" for _b, p in cases)
    for board, position in cases:
        for limit in (60, 4):
            now = solve(board, position, engine="c", max_moves=limit)
            then = before.solve(board, position, engine="c", max_moves=limit)  # its own SolveResult class
            fields = ("moves", "optimal_moves", "lower_bound", "nodes", "engine")
            assert now.status.value == then.status.value, (position.to_notation(), limit)
            assert [getattr(now, f) for f in fields] == [getattr(then, f) for f in fields], position.to_notation()
