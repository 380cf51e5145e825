"""Issue 16: the faster solver keeps every optimum (RR-MIN-0, RR-MIN-1) — engines compared on seeded random
positions, the pruning and table policies checked against independent baselines."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.rules.ricochet.board import Board, Position
from bot.rules.ricochet.moves import replay
from bot.rules.ricochet.solver import (
    SolveStatus,
    _Search,
    accelerator_available,
    bfs_solve,
    exists_solution,
    solve,
)
from tests.support.ricochet_positions import benchmark_positions, random_positions

needs_c = pytest.mark.skipif(not accelerator_available(), reason="C accelerator not built")
EIGHT_MOVE = "red@2.11,green@0.8,blue@0.2,yellow@15.2>9.14.yellow.square"  # yellow alone needs 8 moves


def _reaches(board: Board, position: Position, moves: tuple[tuple[str, str], ...]) -> bool:
    robots = dict(replay(board, position.robot_map, moves)[-1].robots) if moves else position.robot_map
    t = position.target
    cells = robots.values() if t.colour == "any" else [robots[t.colour]]
    return (t.row, t.col) in cells


BOARDS = {name: board for name, board, _p, _s in benchmark_positions()}
BOARD_A = next(b for n, b in BOARDS.items() if n.startswith("A-"))
BOARD_B = next(b for n, b in BOARDS.items() if n.startswith("B_"))
SAMPLE = [
    *(("A4", BOARD_A, p) for p in random_positions(BOARD_A, 40, 4, 1616)),
    *(("B4", BOARD_B, p) for p in random_positions(BOARD_B, 20, 4, 1617)),
    *(("A5", BOARD_A, p) for p in random_positions(BOARD_A, 10, 5, 1618)),
]


def test_rr_min_0_python_engine_matches_the_plain_bfs_on_seededrandom_positions() -> None:
    """RR-MIN-0: the pruned Python search (corridor, solo upper bound, integer keys) against a plain BFS with no
    pruning at all, on every seeded position the BFS settles within its budget."""
    checked = 0
    for _tag, board, position in SAMPLE:
        baseline = bfs_solve(board, position, max_moves=5, node_budget=15_000)
        if baseline is None:
            continue
        result = solve(board, position, engine="python", max_moves=8)
        assert result.optimal_moves == baseline, position.to_notation()
        assert result.moves is not None and _reaches(board, position, result.moves)
        checked += 1
    assert checked >= 15


@needs_c
def test_rr_min_0_c_and_python_engines_agree_on_seededrandom_positions() -> None:
    """RR-MIN-0: both engines give the same optimum on 70 seeded random positions (4 and 5 robots, two boards), and
    each returned list reaches the target in that many moves."""
    for _tag, board, position in SAMPLE:
        c = solve(board, position, engine="c")
        assert c.status is SolveStatus.SOLVED and c.moves is not None
        assert _reaches(board, position, c.moves)
        if c.optimal_moves is not None and c.optimal_moves > 8:
            continue  # the C result alone is checked here; the slow suite covers long ones in Python
        py = solve(board, position, engine="python")
        assert py.optimal_moves == c.optimal_moves, position.to_notation()
        assert py.moves is not None and _reaches(board, position, py.moves)


@needs_c
def test_rr_min_1_void_checks_of_both_engines_agree_on_seededrandom_positions() -> None:
    """RR-MIN-1: exists_solution(m - 1) agrees between the engines for m = 2..6 (the solo upper bound answers many
    of these without a search)."""
    for _tag, board, position in SAMPLE[:30]:
        for limit in (1, 2, 3, 4, 5):
            assert exists_solution(board, position, limit, engine="c") == exists_solution(
                board, position, limit, engine="python"
            ), (position.to_notation(), limit)


@pytest.mark.parametrize("engine", ["python", "c"])
def test_rr_min_0_the_eight_move_yellow_position_is_solved_without_searching_its_last_depth(engine: str) -> None:
    """RR-MIN-0: yellow alone needs 8 moves; once depths 1-7 fail, the solo breadth-first path is optimal, so depth 8
    (the most expensive) is never searched: well under the 45,081 nodes of the reference engine (commit 24d4ce1)."""
    if engine == "c" and not accelerator_available():
        pytest.skip("C accelerator not built")
    board = Board.parse("1A2A3A4A")
    position = Position.parse(EIGHT_MOVE)
    result = solve(board, position, engine=engine)
    assert result.optimal_moves == 8
    assert result.moves is not None and _reaches(board, position, result.moves)
    assert result.nodes < 15_000


def test_rr_min_0_a_tiny_python_table_evicts_and_still_finds_the_optimum() -> None:
    """RR-MIN-0: the Python table's memory cap evicts its shallow entries instead of clearing; the optimum is the
    same, only the work grows."""
    _name, board, position, spec = next(p for p in benchmark_positions() if p[3]["optimal_moves"] == 9)
    search = _Search(board, position, False, None, None, None)
    search.tt_limit = 500
    assert search.run(60, None) == spec["optimal_moves"]
    assert search.evictions > 0
    assert len(search.tt) <= 500


@needs_c
def test_rr_min_0_the_c_engine_reuses_its_table_and_survives_a_nested_call() -> None:
    """RR-MIN-0: a solve called from inside another solve's progress callback (same thread) gets its own table;
    the outer search goes on with its table intact; repeated calls on one thread give identical results."""
    _name, board, position, spec = next(p for p in benchmark_positions() if p[3]["optimal_moves"] >= 9)
    inner: list[int | None] = []
    small = next(p for p in benchmark_positions() if p[3]["optimal_moves"] == 6)

    def progress(depth: int, nodes: int) -> None:
        inner.append(solve(small[1], small[2], engine="c").optimal_moves)

    outer = solve(board, position, progress=progress, engine="c")
    assert outer.optimal_moves == spec["optimal_moves"]
    assert inner and set(inner) == {6}
    again = [solve(board, position, engine="c") for _ in range(3)]
    assert {(r.optimal_moves, r.nodes) for r in again} == {(spec["optimal_moves"], again[0].nodes)}


@needs_c
def test_rr_min_0_the_c_engine_is_thread_safe_with_per_thread_tables() -> None:
    chosen = [p for p in benchmark_positions() if 6 <= p[3]["optimal_moves"] <= 10][:16]
    results: dict[str, int | None] = {}

    def work(item: tuple[str, Board, Position, dict[str, int]]) -> None:
        results[item[0]] = solve(item[1], item[2], engine="c").optimal_moves

    threads = [threading.Thread(target=work, args=(item,)) for item in chosen]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == {name: spec["optimal_moves"] for name, _b, _p, spec in chosen}


def _reference() -> Any:
    """The solver before its pruning rules: the engine of the reference revision of benchmarks/rr_solver.py, built
    from that commit by benchmarks.rr_revisions (git archive, the C module compiled with setup.py's flags); the test
    is skipped, with the reason, where git, the commit or a C compiler is missing."""
    from benchmarks.rr_revisions import Unavailable, load
    from benchmarks.rr_solver import REFERENCE

    try:
        return load(REFERENCE).solver
    except Unavailable as exc:
        pytest.skip(f"the reference engine (commit {REFERENCE.short}, {REFERENCE.what}) cannot be built here: {exc}")


@pytest.mark.slow
@needs_c
def test_rr_min_0_the_new_c_engine_matches_the_reference_revisions_engine_on_600_seeded_positions() -> None:
    """RR-MIN-0: every pruning rule in the solver keeps the optimum: 600 seeded random positions (three boards,
    4 and 5 robots, every target including the vortex) solved by the new C engine and by the reference engine (the
    solver of the commit before issue 16, built from git)."""
    ref = _reference()
    boards = [BOARD_A, BOARD_B, Board.parse("1C2C3C4C")]
    checked = 0
    for k, board in enumerate(boards):
        for robots, count in ((4, 150), (5, 50)):
            for position in random_positions(board, count, robots, 7000 + 10 * k + robots):
                new = solve(board, position, engine="c")
                old = ref.solve(board, position, engine="c")
                assert new.optimal_moves == old.optimal_moves, position.to_notation()
                assert new.moves is not None and _reaches(board, position, new.moves)
                checked += 1
    assert checked == 600


@pytest.mark.slow
def test_rr_min_0_the_python_engine_matches_a_plain_bfs_on_seeded_positions_up_to_7_moves() -> None:
    """RR-MIN-0: the pruned Python search against the plain BFS (no bound, no pruning) on 80 seeded positions of
    two boards, wherever the BFS settles them within 300k states."""
    checked = 0
    for k, board in enumerate([BOARD_A, Board.parse("1C2C3C4C")]):
        for position in random_positions(board, 40, 4, 8000 + k):
            baseline = bfs_solve(board, position, max_moves=7, node_budget=300_000)
            if baseline is None:
                continue
            result = solve(board, position, engine="python", max_moves=9)
            assert result.optimal_moves == baseline, position.to_notation()
            checked += 1
    assert checked >= 40


def test_rr_min_0_an_equal_board_built_again_reuses_its_per_board_tables():
    """The bot builds a new ``Board`` for every /rr command: an equal board must find the per-board and per-target
    tables already built (identity first, then value), and a different board must not."""
    from bot.rules.ricochet.solver import _board_data

    first = Board.from_json({"quadrants": ["1A", "2A", "3A", "4A"]})
    again = Board.from_json({"quadrants": ["1A", "2A", "3A", "4A"]})
    other = Board.from_json({"quadrants": ["1B", "2A", "3A", "4A"]})
    assert again is not first and _board_data(again) is _board_data(first)
    assert _board_data(other) is not _board_data(first)
    position = Position.parse(EIGHT_MOVE)
    assert solve(first, position).optimal_moves == solve(again, position).optimal_moves == 8
