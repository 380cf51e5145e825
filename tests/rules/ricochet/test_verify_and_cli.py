"""Verifier (RR-DEMO-1, RR-MIN-1) and the ``steward rr`` CLI contracts of CLI.md (exit 2 on bad input)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.rules.ricochet.board import Board, Position
from bot.rules.ricochet.verify import VerifyCode, verify

BOARD = Board.from_quadrants(["1A", "2A", "3A", "4A"])
ROBOTS = {"red": [15, 5], "green": [10, 7], "blue": [5, 15], "yellow": [10, 3]}
TARGET = [2, 9, "blue", "triangle"]
SOLUTION = [
    ["blue", "N"], ["blue", "W"], ["red", "E"], ["red", "N"], ["blue", "E"], ["blue", "S"],
    ["green", "W"], ["green", "N"], ["yellow", "N"], ["blue", "W"], ["blue", "N"], ["blue", "E"],
]  # fmt: skip
POS = Position.make(ROBOTS, TARGET)


def test_rr_demo_1_the_example_solution_is_valid_under_the_minimum() -> None:
    v = verify(BOARD, POS, SOLUTION, minimum_moves=5, declared=12)
    assert v.reached and v.moves == 12 and v.valid and v.code is VerifyCode.VALID
    assert v.void_below_minimum is False
    assert len(v.steps) == 12 and v.steps[-1].stop == (2, 9)


def test_rr_demo_1_more_moves_than_declared_is_not_valid() -> None:
    v = verify(BOARD, POS, SOLUTION, minimum_moves=5, declared=11, check_void=False)
    assert v.reached and not v.valid and v.code is VerifyCode.ABOVE_DECLARED


def test_rr_demo_1_a_list_that_does_not_reach_the_target_is_not_valid() -> None:
    v = verify(BOARD, POS, SOLUTION[:-1], minimum_moves=5, check_void=False)
    assert not v.reached and not v.valid and v.code is VerifyCode.NOT_REACHED


def test_rr_min_1_a_demonstration_below_the_minimum_proves_the_round_void() -> None:
    # benchmark position with a 1-move optimum (vortex of board B)
    board = Board.from_quadrants(["4B", "3B", "2B", "1A"])
    pos = Position.make({"red": [0, 2], "green": [1, 5], "blue": [5, 3], "yellow": [12, 15]}, [7, 3, "any", "vortex"])
    v = verify(board, pos, [["blue", "S"]], minimum_moves=5, check_void=False)
    assert v.reached and not v.valid and v.code is VerifyCode.BELOW_MINIMUM and v.void_below_minimum is True


def test_rr_min_1_padding_with_a_move_that_moves_nothing_is_refused() -> None:
    padded = [["blue", "S"], ["blue", "S"], *SOLUTION]  # blue at (5, 15) going S: stops somewhere, then nothing
    v = verify(BOARD, POS, padded, minimum_moves=5, check_void=False)
    assert v.null_moves == (2,) and v.code is VerifyCode.PADDED_NO_MOVE
    assert not v.valid


def test_rr_min_1_the_void_verdict_comes_from_the_solver_when_a_shorter_solution_exists() -> None:
    board = Board.from_quadrants(["4B", "3B", "2B", "1A"])
    pos = Position.make({"red": [0, 2], "green": [1, 5], "blue": [5, 3], "yellow": [12, 15]}, [7, 3, "any", "vortex"])
    longer = [["blue", "N"], ["green", "W"], ["green", "S"]]
    v = verify(board, pos, longer, minimum_moves=2)
    assert v.reached and v.valid and v.void_below_minimum is True


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, data: Any) -> tuple[int, Any, str]:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(data))
    code = main(["rr", command, "--input", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_cli_rr_solve_gives_the_contract_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = {
        "board": {"quadrants": ["1A", "2A", "3A", "4A"]},
        "robots": {"red": [0, 0], "green": [5, 4], "blue": [9, 4], "yellow": [14, 0]},
        "target": [10, 4, "green", "square"],
        "minimum_moves": 5,
    }
    code, out, _ = _run(capsys, tmp_path, "solve", data)
    assert code == 0
    assert {"optimal_moves", "solution", "void_below_minimum"} <= set(out)
    assert out["optimal_moves"] == len(out["solution"])
    assert out["void_below_minimum"] == (out["optimal_moves"] < 5)


def test_cli_rr_solve_accepts_an_array_and_answers_in_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one = {"board": {"quadrants": ["4B", "3B", "2B", "1A"]}, "target": [7, 3, "any", "vortex"]}
    items = [
        {**one, "robots": {"red": [0, 2], "green": [1, 5], "blue": [5, 3], "yellow": [12, 15]}},
        {**one, "robots": {"red": [0, 2], "green": [1, 5], "blue": [5, 4], "yellow": [12, 15]}},
    ]
    code, out, _ = _run(capsys, tmp_path, "solve", items)
    assert code == 0 and isinstance(out, list) and len(out) == 2
    assert out[0]["optimal_moves"] == 1 and out[0]["void_below_minimum"] is True


def test_cli_rr_verify_gives_the_contract_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = {"board": {"quadrants": ["1A", "2A", "3A", "4A"]}, "robots": ROBOTS, "target": TARGET, "moves": SOLUTION}
    code, out, _ = _run(capsys, tmp_path, "verify", {**data, "minimum_moves": 5})
    assert code == 0
    assert out["reached"] is True and out["moves"] == 12 and out["valid"] is True
    assert out["void_below_minimum"] is False and len(out["stops"]) == 12
    assert out["proves_void"] is False


def test_cli_rr_verify_a_list_under_the_minimum_proves_the_round_void(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = {
        "board": {"quadrants": ["4B", "3B", "2B", "1A"]},
        "robots": {"red": [0, 2], "green": [1, 5], "blue": [5, 3], "yellow": [12, 15]},
        "target": [7, 3, "any", "vortex"],
        "moves": [["blue", "S"]],
        "minimum_moves": 5,
    }
    code, out, _ = _run(capsys, tmp_path, "verify", data)
    assert code == 0 and out["reached"] is True and out["moves"] == 1
    assert out["valid"] is False and out["proves_void"] is True and out["void_below_minimum"] is True


def test_cli_rr_board_prints_the_board_and_its_notation(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, tmp_path, "board", {"board": {"quadrants": ["1A", "2A", "3A", "4A"]}})
    assert code == 0 and out["notation"] == "1A2A3A4A"
    assert len(out["cell_walls"]) == 16 and out["text"].count("\n") == 32
    assert Board.parse(out["notation"]) == BOARD


@pytest.mark.parametrize(
    ("command", "data", "needle"),
    [
        ("solve", {"board": {"quadrants": ["1A", "2A", "3A", "5Q"]}, "robots": ROBOTS, "target": TARGET}, "5Q"),
        (
            "solve",
            {"board": {"quadrants": ["1A", "2A", "3A", "4A"]}, "robots": {"red": [7, 8]}, "target": TARGET},
            "red",
        ),
        (
            "solve",
            {
                "board": {"quadrants": ["1A", "2A", "3A", "4A"]},
                "robots": {"red": [1, 1], "blue": [1, 1]},
                "target": TARGET,
            },
            "[1, 1]",
        ),
        (
            "verify",
            {
                "board": {"quadrants": ["1A", "2A", "3A", "4A"]},
                "robots": ROBOTS,
                "target": TARGET,
                "moves": [["silver", "N"]],
            },
            "silver",
        ),
        (
            "solve",
            {"board": {"quadrants": ["1A", "2A", "3A", "4A"]}, "robots": ROBOTS, "target": TARGET, "typo": 1},
            "typo",
        ),
        ("board", {"board": {"quadrants": ["1A"]}}, "1A"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line_naming_the_bad_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, data: Any, needle: str
) -> None:
    code, out, err = _run(capsys, tmp_path, command, data)
    assert code == 2 and out is None
    assert err.count("\n") == 1 and needle in err


# A position whose optimum is 3 moves (blue E, N, W); the tournament minimum is 5 (RR 4.8).
THREE = Position.make({"red": [13, 12], "green": [10, 9], "blue": [15, 9], "yellow": [15, 0]}, [6, 3, "blue", "square"])
THREE_SOLUTION = [["blue", "E"], ["blue", "N"], ["blue", "W"]]


@pytest.mark.parametrize(
    ("padding", "repeats"),
    [
        ([["green", "E"], ["green", "W"]], ((2, 0),)),  # out-and-back of another robot
        ([["blue", "N"], ["blue", "S"]], ((2, 0),)),  # the active robot goes and comes back
    ],
)
def test_rr_min_1_rr_4_10_padding_back_to_a_position_already_seen_is_not_valid(padding, repeats) -> None:
    """RR 4.10 reading 1: moves that bring every robot back where it was, made to reach the minimum, are padding."""
    v = verify(BOARD, THREE, [*padding, *THREE_SOLUTION], minimum_moves=5)
    assert v.reached and v.moves == 5 and not v.valid
    assert v.code is VerifyCode.PADDED_REPEATED_POSITION and v.repeated_positions == repeats
    assert v.void_below_minimum is True  # for the referee: a 3-move solution exists (void only if demonstrated)


def test_rr_min_1_steward_rr_verify_reports_the_padding_with_the_move_numbers(tmp_path: Path, capsys) -> None:
    doc = {
        "board": {"quadrants": ["1A", "2A", "3A", "4A"]},
        "robots": {"red": [13, 12], "green": [10, 9], "blue": [15, 9], "yellow": [15, 0]},
        "target": [6, 3, "blue", "square"],
        "minimum_moves": 5,
        "moves": [["green", "E"], ["green", "W"], *THREE_SOLUTION],
    }
    path = tmp_path / "verify.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["rr", "verify", "--input", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and out["code"] == "padding_repeated_position"
    assert out["repeated_positions"] == [[2, 0]] and out["void_below_minimum"] is True
