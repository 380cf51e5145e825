"""Solver and void check (RR-MIN-0, RR-MIN-1, RR-MOVE-1, RR-VORTEX-1, RR-VAR-1, RR-VAR-2)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.rules.ricochet.board import SIZE, Board, Diagonal, Position
from bot.rules.ricochet.moves import replay
from bot.rules.ricochet.solver import (
    SolveStatus,
    accelerator_available,
    bfs_solve,
    exists_solution,
    lower_bounds,
    solve,
    void_below_minimum,
)
from tests.support.ricochet_positions import benchmark_positions, hard_positions

FAST_LIMIT = 8  # pure-Python positions up to this optimum run in the default suite; the rest are @slow
ALL = benchmark_positions()
FAST = [p for p in ALL if p[3]["optimal_moves"] <= FAST_LIMIT]
SLOW = [p for p in ALL if p[3]["optimal_moves"] > FAST_LIMIT]
HARD = hard_positions()


def _reaches(board: Board, position: Position, moves: Any) -> bool:
    steps = replay(board, position.robot_map, moves)
    t = position.target
    robots = dict(steps[-1].robots)
    if t.colour == "any":
        return (t.row, t.col) in robots.values()
    return robots[t.colour] == (t.row, t.col)


def _check(board: Board, position: Position, spec: dict[str, Any], engine: str) -> None:
    result = solve(board, position, engine=engine)
    assert result.status is SolveStatus.SOLVED
    assert result.optimal_moves == spec["optimal_moves"]
    assert result.moves is not None and len(result.moves) == spec["optimal_moves"]
    assert _reaches(board, position, result.moves)


@pytest.mark.parametrize(("name", "board", "position", "spec"), FAST, ids=[p[0] for p in FAST])
def test_rr_min_0_the_python_solver_finds_the_plain_optimum_of_each_benchmark_position(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    _check(board, position, spec, "python")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "board", "position", "spec"), SLOW, ids=[p[0] for p in SLOW])
def test_rr_min_0_the_python_solver_finds_the_optimum_of_the_longer_benchmark_positions(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    # the 16-move 5-robot position takes about 4-5 minutes here (beyond the reference engine of commit 24d4ce1)
    _check(board, position, spec, "python")


needs_c = pytest.mark.skipif(not accelerator_available(), reason="C accelerator not built")


@needs_c
@pytest.mark.parametrize(("name", "board", "position", "spec"), ALL, ids=[p[0] for p in ALL])
def test_rr_min_0_the_c_accelerator_agrees_with_every_benchmark_optimum(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    if spec["optimal_moves"] > 12:
        pytest.skip("covered by the slow test")
    _check(board, position, spec, "c")


@needs_c
@pytest.mark.parametrize(("name", "board", "position", "spec"), FAST, ids=[p[0] for p in FAST])
def test_rr_min_1_c_and_python_void_checks_agree(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    for limit in (1, 2, 3, 4, 5):
        assert exists_solution(board, position, limit, engine="c") == exists_solution(
            board, position, limit, engine="python"
        )


@pytest.mark.slow
@pytest.mark.parametrize(("name", "board", "position", "spec"), HARD, ids=[p[0] for p in HARD])
def test_rr_min_0_the_24_and_25_move_positions_are_solved_exactly(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    _check(board, position, spec, "auto")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "board", "position", "spec"), HARD, ids=[p[0] for p in HARD])
def test_rr_min_0_the_python_engine_solves_the_24_and_25_move_positions_exactly(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    """RR-MIN-0 in pure Python (about 45-80 s and ~420 MB each with the pruning rules; unfinished before)."""
    _check(board, position, spec, "python")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "board", "position", "spec"), ALL, ids=[p[0] for p in ALL])
def test_rr_min_0_the_auto_engine_agrees_with_every_benchmark_optimum(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    _check(board, position, spec, "auto")


@pytest.mark.parametrize(("name", "board", "position", "spec"), FAST[::4], ids=[p[0] for p in FAST[::4]])
def test_rr_min_1_a_solution_exists_within_the_optimum_and_not_one_move_less(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    n = spec["optimal_moves"]
    assert exists_solution(board, position, n, engine="python")
    assert not exists_solution(board, position, n - 1, engine="python")
    assert void_below_minimum(board, position, 5, engine="python") == (n < 5)


@pytest.mark.parametrize(("name", "board", "position", "spec"), FAST[::7], ids=[p[0] for p in FAST[::7]])
def test_the_plain_bfs_baseline_agrees_with_the_solver(
    name: str, board: Board, position: Position, spec: dict[str, Any]
) -> None:
    if spec["optimal_moves"] > 6:
        pytest.skip("BFS baseline too slow beyond 6 moves for the default suite")
    assert bfs_solve(board, position) == spec["optimal_moves"]


def test_rr_vortex_1_any_robot_may_reach_the_vortex_including_silver() -> None:
    vortex = [p for p in FAST if p[2].target.colour == "any"]
    assert vortex, "the data has vortex positions"
    for _name, board, position, spec in vortex:
        _check(board, position, spec, "python")
    # the silver robot alone next to the vortex: one move
    board = vortex[0][1]
    t = vortex[0][2].target
    far = {"red": (0, 0), "green": (0, 15), "blue": (15, 0), "yellow": (15, 15)}
    for r in range(SIZE):
        pos = Position.make({**far, "silver": (r, t.col)}, list(t))
        if (r, t.col) in far.values() or (r, t.col) in board.central_block or r == t.row:
            continue
        res = solve(board, pos, engine="python")
        steps = replay(board, pos.robot_map, res.moves or ())
        assert (t.row, t.col) in dict(steps[-1].robots).values()
        break


def test_rr_var_1_silver_is_never_active_for_a_coloured_target() -> None:
    board = ALL[0][1]
    t = board.target("blue", "triangle")
    # silver stands one slide away from the blue target; blue is far: silver reaching it does not count
    pos = Position.make({"blue": (15, 15), "silver": (t.row, 15)}, list(t))
    res = solve(board, pos, engine="python")
    assert res.moves is not None
    assert res.moves[-1][0] == "blue"


def test_a_budget_that_runs_out_gives_an_honest_lower_bound() -> None:
    _name, board, position, spec = next(p for p in ALL if p[3]["optimal_moves"] >= 12)
    result = solve(board, position, node_budget=2000, engine="python")
    assert result.status is SolveStatus.BUDGET_EXHAUSTED
    assert result.moves is None and result.optimal_moves is None
    assert 1 <= result.lower_bound <= spec["optimal_moves"]


def test_a_time_budget_needs_an_injected_clock() -> None:
    _name, board, position, _spec = ALL[0]
    with pytest.raises(ValueError, match="time_budget_needs_clock"):
        solve(board, position, time_budget=1.0)
    ticks = iter(range(10**9))
    result = solve(board, position, time_budget=5.0, clock=lambda: float(next(ticks)), engine="python")
    assert result.status in (SolveStatus.SOLVED, SolveStatus.BUDGET_EXHAUSTED)


def test_the_progress_callback_reports_each_completed_depth() -> None:
    _name, board, position, spec = next(p for p in FAST if p[3]["optimal_moves"] >= 5)
    seen: list[int] = []
    solve(board, position, progress=lambda depth, nodes: seen.append(depth), engine="python")
    assert seen == list(range(1, spec["optimal_moves"]))


def test_the_lower_bound_never_exceeds_the_true_optimum() -> None:
    for _name, board, position, spec in FAST:
        t = position.target
        bounds = lower_bounds(board, t.row * SIZE + t.col)
        cells = [c for col, c in position.robots if t.colour in (col, "any")]
        assert min(bounds[r * SIZE + c] for r, c in cells) <= spec["optimal_moves"]


def test_the_solver_is_thread_safe_when_run_concurrently() -> None:
    chosen = FAST[:12]
    results: dict[str, int | None] = {}

    def work(item: tuple[str, Board, Position, dict[str, Any]]) -> None:
        results[item[0]] = solve(item[1], item[2], engine="python").optimal_moves

    threads = [threading.Thread(target=work, args=(item,)) for item in chosen]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == {name: spec["optimal_moves"] for name, _b, _p, spec in chosen}


def _open_board(diagonals: list[Diagonal], target: list[Any]) -> Board:
    walls = [["" for _ in range(SIZE)] for _ in range(SIZE)]
    walls[target[0]][target[1]] = "E"  # an L-less stop: the target cell is walled on its east side
    return Board.from_cell_walls(walls, [target], [], diagonals=[list(d) for d in diagonals])


def test_rr_var_2_the_solver_uses_a_deflecting_diagonal_when_the_variant_is_on() -> None:
    # open board, target (0, 4) walled east; a green '/' at (9, 4) turns red (moving E) north onto it
    target = [0, 4, "red", "circle"]
    board = _open_board([Diagonal(9, 4, "green", "/")], target)
    pos = Position.make({"red": (9, 0)}, target)
    with_variant = solve(board, pos, diagonal_variant=True, engine="python")
    without = solve(board, pos, diagonal_variant=False, engine="python")
    assert with_variant.optimal_moves == 1
    assert without.optimal_moves is not None and without.optimal_moves > 1
    assert replay(board, pos.robot_map, with_variant.moves or (), diagonal_variant=True)[-1].stop == (0, 4)


def test_rr_var_2_a_robot_crosses_its_own_colour_so_the_shortcut_is_gone() -> None:
    target = [0, 4, "red", "circle"]
    board = _open_board([Diagonal(9, 4, "red", "/")], target)
    pos = Position.make({"red": (9, 0)}, target)
    result = solve(board, pos, diagonal_variant=True, engine="python")
    assert result.optimal_moves is not None and result.optimal_moves > 1
    assert _reaches_diag(board, pos, result.moves)


def _reaches_diag(board: Board, position: Position, moves: Any) -> bool:
    steps = replay(board, position.robot_map, moves, diagonal_variant=True)
    t = position.target
    return dict(steps[-1].robots)[t.colour] == (t.row, t.col)


@needs_c
def test_the_c_engine_honours_the_injected_clock_and_reports_progress() -> None:
    _name, board, position, spec = HARD[0]  # 25 moves: far beyond a few clock ticks
    ticks = iter(range(10**9))
    result = solve(board, position, time_budget=3.0, clock=lambda: float(next(ticks)), engine="c")
    assert result.status is SolveStatus.BUDGET_EXHAUSTED and result.engine == "c"
    assert 1 <= result.lower_bound <= spec["optimal_moves"] and result.nodes < 5_000_000
    _name, board, position, spec = next(p for p in ALL if p[3]["optimal_moves"] >= 12)
    seen: list[int] = []
    solved = solve(board, position, progress=lambda depth, nodes: seen.append(depth), engine="c")
    assert solved.optimal_moves == spec["optimal_moves"]
    assert seen == list(range(1, spec["optimal_moves"]))
    capped = solve(board, position, node_budget=500, engine="c")
    assert capped.status is SolveStatus.BUDGET_EXHAUSTED and capped.nodes <= 501


@needs_c
def test_an_exception_of_the_progress_callback_propagates_from_the_c_engine() -> None:
    _name, board, position, _spec = next(p for p in ALL if p[3]["optimal_moves"] >= 6)

    def boom(depth: int, nodes: int) -> None:
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        solve(board, position, progress=boom, engine="c")
