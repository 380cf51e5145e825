"""Property tests of moves and solver (RR-MOVE-1, RR-MIN-0, RR-MIN-1) on random positions of the data boards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.ricochet.board import DELTA, SIZE, Board, Position
from bot.rules.ricochet.moves import replay
from bot.rules.ricochet.solver import SolveStatus, accelerator_available, bfs_solve, exists_solution, solve

BOARDS = [Board.from_quadrants(q) for q in (["1A", "2A", "3A", "4A"], ["4B", "3B", "2B", "1A"])]
COLOURS = ("red", "green", "blue", "yellow", "silver")
FREE = [(r, c) for r in range(SIZE) for c in range(SIZE) if (r, c) not in BOARDS[0].central_block]


@st.composite
def positions(draw: st.DrawFn, robots: int = 4) -> tuple[Board, Position]:
    board = draw(st.sampled_from(BOARDS))
    cells = draw(st.lists(st.sampled_from(FREE), min_size=robots, max_size=robots, unique=True))
    target = draw(st.sampled_from(board.targets))
    return board, Position.make(dict(zip(COLOURS, cells, strict=False)), list(target))


@settings(max_examples=60, deadline=None)
@given(
    pos=positions(),
    moves=st.lists(st.tuples(st.sampled_from(COLOURS[:4]), st.sampled_from("NESW")), max_size=12),
)
def test_rr_move_1_every_slide_ends_against_an_obstacle_and_robots_never_overlap(
    pos: tuple[Board, Position], moves: list[tuple[str, str]]
) -> None:
    board, position = pos
    for step in replay(board, position.robot_map, moves):
        robots = dict(step.robots)
        assert len(set(robots.values())) == len(robots)
        assert not set(robots.values()) & board.central_block
        r, c = step.stop
        dr, dc = DELTA[step.direction]
        blocked = board.has_wall(r, c, step.direction) or (r + dr, c + dc) in robots.values()
        assert blocked, step
        # the path is contiguous and straight (no diagonals here)
        for (r1, c1), (r2, c2) in zip(step.path, step.path[1:], strict=False):
            assert (r2 - r1, c2 - c1) == (dr, dc)


@settings(max_examples=40, deadline=None)
@given(pos=positions())
def test_rr_min_1_the_void_check_agrees_with_a_plain_bfs_up_to_three_moves(pos: tuple[Board, Position]) -> None:
    board, position = pos
    t = position.target
    if any(cell == (t.row, t.col) for _, cell in position.robots):
        return  # target covered: a void round before any move (RR 4.4)
    bfs = bfs_solve(board, position, max_moves=3)
    for k in (1, 2, 3):
        assert exists_solution(board, position, k, engine="python") == (bfs is not None and bfs <= k)


@settings(max_examples=25, deadline=None)
@given(pos=positions(robots=5))
def test_rr_min_0_a_budgeted_solve_is_either_optimal_and_replayable_or_an_honest_bound(
    pos: tuple[Board, Position],
) -> None:
    board, position = pos
    result = solve(board, position, node_budget=20_000, engine="python")
    if result.status is SolveStatus.SOLVED:
        assert result.moves is not None and result.optimal_moves == len(result.moves)
        steps = replay(board, position.robot_map, result.moves)
        t = position.target
        stand = dict(steps[-1].robots) if steps else position.robot_map
        if t.colour == "any":
            assert (t.row, t.col) in stand.values()
        else:
            assert stand[t.colour] == (t.row, t.col)
        if result.optimal_moves and result.optimal_moves > 1:
            assert not exists_solution(board, position, result.optimal_moves - 1, engine="python")
    else:
        assert result.status is SolveStatus.BUDGET_EXHAUSTED
        assert not exists_solution(board, position, result.lower_bound - 1, engine="python")


@pytest.mark.skipif(not accelerator_available(), reason="C accelerator not built")
@settings(max_examples=40, deadline=None)
@given(pos=positions(robots=5))
def test_rr_min_1_c_and_python_engines_agree_on_random_positions(pos: tuple[Board, Position]) -> None:
    board, position = pos
    for k in (2, 4, 6):
        assert exists_solution(board, position, k, engine="c") == exists_solution(board, position, k, engine="python")
