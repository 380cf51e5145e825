"""RR-MIN-0: the per-board and per-target caches of the solver (the C engine's tables built in C, the boards kept
in a bounded least-recently-used cache) never return another board's or another target's data, stay bounded, and
the tables built in C are the tables the Python code builds."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules.ricochet import solver
from bot.rules.ricochet.board import Board, BoardError, Position
from bot.rules.ricochet.moves import replay
from bot.rules.ricochet.solver import accelerator_available, solve
from tests.rules.ricochet._positions import benchmark_positions, random_positions

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
    assert set(data.c_tables) == {p.target for p in POSITIONS}
    assert set(data.c_tables) <= set(BASE.targets)
    foreign = Position.parse("red@0.0,green@0.8,blue@0.2,yellow@15.2>0.5.red.circle")
    with pytest.raises(BoardError) as err:
        solve(BASE, foreign, engine="c")
    assert err.value.code == "target_not_on_board"
    assert foreign.target not in data.c_tables
    missing = Position.parse("red@2.11,green@0.8,blue@0.2>9.14.yellow.square")
    with pytest.raises(BoardError) as err:
        solve(BASE, missing, engine="c")
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
