"""Board assembly, notation and moves (RR-COMP-1, RR-MOVE-1, RR-MOVE-2, RR-VORTEX-1, RR-VAR-1, RR-VAR-2)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.data import load_json
from bot.rules.ricochet.board import (
    QUADRANT_POSITIONS,
    ROBOT_COLOURS,
    SIZE,
    Board,
    BoardError,
    Diagonal,
    Position,
    Target,
    quadrant_names,
    target_covered,
    validate_position,
    validate_setup,
)
from bot.rules.ricochet.moves import replay, slide, slide_path

DATA = load_json("boards.json")
BOARDS = DATA["boards"]


def _quads(spec: dict[str, str]) -> list[str]:
    return [spec[p] for p in QUADRANT_POSITIONS]


def _reached(robots: dict[str, tuple[int, int]], target: list[Any]) -> bool:
    cell = (target[0], target[1])
    if target[2] == "any":
        return cell in robots.values()
    return robots.get(target[2]) == cell


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_rr_comp_1_the_three_assembled_boards_come_out_cell_for_cell_identical(name: str) -> None:
    spec = BOARDS[name]
    built = Board.from_quadrants(_quads(spec["quadrants"]))
    given_board = Board.from_cell_walls(spec["cell_walls"], spec["targets"], spec["central_block"])
    assert built.cell_walls == given_board.cell_walls
    assert built.targets == given_board.targets
    assert built.central_block == given_board.central_block == {(7, 7), (7, 8), (8, 7), (8, 8)}
    assert built.without_quadrants() == given_board


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_rr_comp_1_every_board_has_16_coloured_targets_and_the_vortex(name: str) -> None:
    board = Board.from_quadrants(_quads(BOARDS[name]["quadrants"]))
    assert len(board.targets) == 17
    assert sum(t.colour == "any" for t in board.targets) == 1
    assert {t.colour for t in board.targets} == {"red", "green", "blue", "yellow", "any"}


def test_rr_comp_1_walls_are_double_stored_and_the_outer_edge_is_walled_on_every_tile_combination() -> None:
    names = quadrant_names()
    assert len(names) == 16
    for letter in "ABCD":
        board = Board.from_quadrants([f"1{letter}", f"2{letter}", f"3{letter}", f"4{letter}"])
        for r in range(SIZE):
            for c in range(SIZE):
                if c + 1 < SIZE:
                    assert board.has_wall(r, c, "E") == board.has_wall(r, c + 1, "W")
                if r + 1 < SIZE:
                    assert board.has_wall(r, c, "S") == board.has_wall(r + 1, c, "N")
            assert board.has_wall(r, 0, "W") and board.has_wall(r, SIZE - 1, "E")
            assert board.has_wall(0, r, "N") and board.has_wall(SIZE - 1, r, "S")


def test_rr_comp_1_an_unknown_tile_is_rejected_with_its_name() -> None:
    with pytest.raises(BoardError) as err:
        Board.from_quadrants(["1A", "2A", "3A", "9Z"])
    assert err.value.code == "unknown_tile" and "9Z" in str(err.value)


def _all_positions() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, spec in BOARDS.items():
        for key in ("benchmark_positions", "benchmark_positions_5robots"):
            out.extend((name, p) for p in spec[key])
    return out


@pytest.mark.parametrize(("name", "pos"), _all_positions())
def test_rr_move_1_every_example_solution_replays_to_the_target(name: str, pos: dict[str, Any]) -> None:
    if not pos["example_solution"]:
        pytest.skip("no example solution in the data")
    board = Board.from_quadrants(_quads(BOARDS[name]["quadrants"]))
    steps = replay(board, pos["robots"], pos["example_solution"])
    assert len(steps) == pos["optimal_moves"]
    assert _reached(dict(steps[-1].robots), pos["target"])


def test_rr_move_1_the_hard_positions_example_solutions_replay_to_the_target() -> None:
    for pos in DATA["known_hard_positions"]:
        board = Board.from_quadrants(_quads(pos["quadrants"]))
        steps = replay(board, pos["robots"], pos["example_solution"])
        assert len(steps) == pos["optimal_moves"]
        assert _reached(dict(steps[-1].robots), pos["target"])


def test_rr_move_1_a_robot_stops_before_another_robot_and_at_the_edge() -> None:
    board = _empty_board([])
    robots = {"red": (4, 10), "blue": (4, 14)}
    assert slide(board, robots, "red", "E") == (4, 13)
    assert slide(board, robots, "blue", "E") == (4, 15)
    assert slide(board, robots, "blue", "W") == (4, 11)


def test_rr_move_1_the_central_block_stops_a_robot() -> None:
    board = _empty_board([]).__class__.from_cell_walls(
        [["NESW" if (r, c) in {(7, 7), (7, 8), (8, 7), (8, 8)} else "" for c in range(SIZE)] for r in range(SIZE)],
        [],
    )
    assert board.central_block == {(7, 7), (7, 8), (8, 7), (8, 8)}
    assert slide(board, {"red": (0, 7)}, "red", "S") == (6, 7)
    assert slide(board, {"red": (8, 15)}, "red", "W") == (8, 9)


def test_rr_move_2_targets_are_not_obstacles() -> None:
    board = _empty_board([])
    assert board.target_at(3, 3) is not None
    assert slide_path(board, {"red": (3, 0)}, "red", "E") == tuple((3, c) for c in range(SIZE))


def test_a_real_target_square_stops_a_robot_only_through_its_walls() -> None:
    board = Board.from_quadrants(["1A", "2A", "3A", "4A"])
    t = board.target("blue", "triangle")
    assert board.wall_mask(t.row, t.col) != 0


def test_replay_rejects_a_robot_that_is_not_on_the_board() -> None:
    board = Board.from_quadrants(["1A", "2A", "3A", "4A"])
    with pytest.raises(BoardError) as err:
        replay(board, {"red": (0, 0)}, [["silver", "N"]])
    assert err.value.code == "robot_not_on_board"


def test_rr_set_1_robots_on_the_central_block_or_sharing_a_cell_are_rejected() -> None:
    board = Board.from_quadrants(["1A", "2A", "3A", "4A"])
    target = list(board.targets[0])
    with pytest.raises(BoardError, match="robot_on_central_block"):
        validate_position(board, Position.make({"red": (7, 8)}, target))
    with pytest.raises(BoardError, match="robots_share_cell"):
        validate_position(board, Position.make({"red": (0, 0), "blue": (0, 0)}, target))


# -- diagonal variant (RR-VAR-2): own fixtures, the D tiles' diagonals are not in the data --------------------
def _empty_board(diagonals: list[Diagonal]) -> Board:
    walls = [["" for _ in range(SIZE)] for _ in range(SIZE)]
    for i in range(SIZE):
        walls[0][i] += "N"
        walls[SIZE - 1][i] += "S"
        walls[i][0] += "W"
        walls[i][SIZE - 1] += "E"
    norm = [["".join(s for s in "NESW" if s in cell) for cell in line] for line in walls]
    return Board.from_cell_walls(norm, [[3, 3, "red", "circle"]], [], diagonals=[list(d) for d in diagonals])


def test_rr_var_2_a_robot_is_deflected_90_degrees_by_a_diagonal_of_another_colour_and_keeps_going() -> None:
    board = _empty_board([Diagonal(5, 10, "green", "/")])
    path = slide_path(board, {"red": (5, 0)}, "red", "E", diagonal_variant=True)
    assert (5, 10) in path and path[-1] == (0, 10)  # moving east, '/' sends it north to the edge


def test_rr_var_2_a_robot_crosses_a_diagonal_of_its_own_colour() -> None:
    board = _empty_board([Diagonal(5, 10, "red", "/")])
    assert slide(board, {"red": (5, 0)}, "red", "E", diagonal_variant=True) == (5, 15)


def test_rr_var_2_without_the_variant_diagonals_are_ignored() -> None:
    board = _empty_board([Diagonal(5, 10, "green", "\\")])
    assert slide(board, {"red": (5, 0)}, "red", "E") == (5, 15)
    assert slide(board, {"red": (5, 0)}, "red", "E", diagonal_variant=True) == (15, 10)


def test_rr_var_2_two_deflections_are_still_one_move() -> None:
    board = _empty_board([Diagonal(5, 10, "green", "\\"), Diagonal(12, 10, "blue", "/")])
    steps = replay(board, {"red": (5, 0)}, [["red", "E"]], diagonal_variant=True)
    assert len(steps) == 1 and steps[0].stop == (12, 0)


def test_rr_var_2_a_robot_in_the_way_after_a_deflection_stops_the_slide() -> None:
    board = _empty_board([Diagonal(5, 10, "green", "/")])
    assert slide(board, {"red": (5, 0), "blue": (2, 10)}, "red", "E", diagonal_variant=True) == (3, 10)


# -- notation round trips ------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    tiles=st.tuples(*[st.sampled_from("ABCD") for _ in range(4)]),
    order=st.permutations([1, 2, 3, 4]),
    explicit=st.booleans(),
    diags=st.lists(
        st.builds(
            Diagonal,
            st.integers(0, 15),
            st.integers(0, 15),
            st.sampled_from(ROBOT_COLOURS),
            st.sampled_from(["/", "\\"]),
        ),
        max_size=4,
        unique_by=lambda d: (d.row, d.col),
    ),
)
def test_board_notation_round_trips(
    tiles: tuple[str, ...], order: list[int], explicit: bool, diags: list[Diagonal]
) -> None:
    board = Board.from_quadrants([f"{n}{t}" for n, t in zip(order, tiles, strict=True)], diagonals=diags)
    if explicit:
        board = board.without_quadrants()
    assert Board.parse(board.to_notation()) == board
    assert Board.from_json(board.to_json()) == board


@settings(max_examples=60, deadline=None)
@given(
    cells=st.lists(st.tuples(st.integers(0, 15), st.integers(0, 15)), min_size=1, max_size=6, unique=True),
    target=st.sampled_from(Board.from_quadrants(["1A", "2A", "3A", "4A"]).targets),
)
def test_position_notation_round_trips(cells: list[tuple[int, int]], target: Target) -> None:
    robots = dict(zip(ROBOT_COLOURS, cells, strict=False))
    pos = Position.make(robots, list(target))
    assert Position.parse(pos.to_notation()) == pos
    assert pos.robot_map == robots


def test_rr_set_1_at_set_up_no_robot_may_stand_on_a_target_square() -> None:
    board = Board.from_quadrants(["1A", "2A", "3A", "4A"])
    t = board.targets[0]
    with pytest.raises(BoardError, match="robot_on_target_at_setup"):
        validate_setup(board, Position.make({"red": (t.row, t.col)}, list(board.targets[1])))
    validate_setup(board, Position.make({"red": (0, 0)}, list(t)))


def test_rr_void_1_a_target_covered_by_a_robot_is_detected() -> None:
    board = Board.from_quadrants(["1A", "2A", "3A", "4A"])
    t = board.target("blue", "triangle")
    assert target_covered(Position.make({"red": (t.row, t.col)}, list(t)))
    assert not target_covered(Position.make({"red": (0, 0)}, list(t)))


@pytest.mark.parametrize(("edition", "colour", "ok"), [(2, "black", True), (3, "silver", True), (2, "silver", False)])
def test_rr_comp_1_the_fifth_robot_must_belong_to_the_edition(edition: int, colour: str, ok: bool) -> None:
    from bot.rules.ricochet.config import RicochetRules

    if ok:
        rules = RicochetRules(edition=edition, extra_robot_variant=True, extra_robot_colour=colour)
        assert rules.robot_colours[-1] == colour and len(rules.robot_colours) == 5
    else:
        with pytest.raises(BoardError, match="extra_robot_not_in_edition"):
            RicochetRules(edition=edition, extra_robot_variant=True, extra_robot_colour=colour)
