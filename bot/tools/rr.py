"""``steward rr solve|verify|board`` — the Ricochet Robots engine offline (shapes fixed in ../shared/spec/CLI.md).

``solve``: ``{"board": {"quadrants": [...]} | {"cell_walls": ..., "targets": ...}, "robots": {...},
"target": [row, col, colour, symbol], "minimum_moves": 5}`` → ``optimal_moves``, ``solution``,
``void_below_minimum`` (+ ``status``, ``lower_bound``, ``nodes``, ``engine``). Optional input fields:
``time_budget`` (seconds, default 120), ``diagonal_variant``, ``engine`` (auto/python/c).
``verify``: the same plus ``"moves": [["blue", "N"], ...]`` (and optional ``declared``) → ``reached``,
``moves``, ``valid``, ``void_below_minimum``, ``code``, ``stops``.
``board``: ``{"board": ..., "robots"?: ..., "target"?: ...}`` → the board as text (JSON: notation and walls).
A JSON array of inputs gives an array of outputs in the same order. Bad input: exit 2, one line.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.ricochet.board import (
    SIZE,
    VORTEX_COLOUR,
    Board,
    BoardError,
    Position,
    Target,
    target_covered,
    validate_position,
)
from bot.rules.ricochet.config import RicochetRules
from bot.rules.ricochet.notation import ROBOT_LETTERS
from bot.rules.ricochet.solver import SolveStatus, exists_solution, solve
from bot.rules.ricochet.verify import VerifyCode, verify
from bot.tools._common import BadInput, add_io_arguments, check_keys, run_tool, words
from bot.tools._help import command_help

DEFAULT_TIME_BUDGET = 120.0
PRESET = RicochetRules.from_preset()  # defaults of the RR tournament rules (minimum moves RR 4.8, variants RR 8)
_COMMON = ("board", "robots", "target")
_OPTIONAL = ("minimum_moves", "diagonal_variant", "engine", "time_budget")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("rr", help="Ricochet Robots engine: solve, verify, board")
    sub = parser.add_subparsers(dest="rr_command", metavar="ACTION")
    for name, helptext, compute, text in (
        ("solve", "optimal solution and the void check (RR-MIN-1)", _solve_one, _solve_text),
        ("verify", "judge a demonstrated move list (RR-DEMO-1)", _verify_one, _verify_text),
        ("board", "print a board as text", _board_one, _board_text_result),
    ):
        p = sub.add_parser(name, help=helptext, **command_help(f"rr {name}"))
        add_io_arguments(p)
        p.set_defaults(func=_runner(compute, text))
    parser.set_defaults(func=lambda a: (parser.print_help(), 2)[1])


def _runner(
    compute: Callable[[Mapping[str, Any]], dict[str, Any]], text: Callable[[dict[str, Any]], str]
) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        def many(data: Any) -> Any:
            if isinstance(data, list):
                return [compute(_obj(item, f"input[{i}]")) for i, item in enumerate(data)]
            return compute(_obj(data, "input"))

        def many_text(result: Any) -> str:
            if isinstance(result, list):
                return "\n\n".join(text(r) for r in result)
            return text(result)

        return run_tool(args, many, many_text)

    return run


def _obj(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise BadInput(f"{where} must be a JSON object, got {type(data).__name__}")
    return data


# -- parsing -------------------------------------------------------------------------------------------------
def _board(data: Mapping[str, Any]) -> Board:
    raw = data["board"]
    check_keys(raw, optional=("quadrants", "cell_walls", "targets", "central_block", "diagonals"), where="board")
    return Board.from_json(raw)


def parse_target(board: Board, raw: Any) -> Target:
    """A target as ``rr solve`` takes it: ``[row, col, colour, symbol]`` or ``[colour, symbol]`` (looked up)."""
    if isinstance(raw, list) and len(raw) == 2:
        return board.target(str(raw[0]), str(raw[1]))
    if not isinstance(raw, list) or len(raw) != 4:
        raise BadInput(f"target must be [row, col, colour, symbol] or [colour, symbol], got {raw!r}")
    return Target(*Position.make({}, raw).target)


def _position(board: Board, data: Mapping[str, Any]) -> Position:
    robots = data["robots"]
    if not isinstance(robots, Mapping) or not robots:
        raise BadInput(f"robots must be an object of colour: [row, col], got {robots!r}")
    target = parse_target(board, data["target"])
    position = Position.make(robots, list(target))
    validate_position(board, position)
    return position


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise BadInput(f"{key} must be true or false, got {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        raise BadInput(f"{key} must be a non-negative integer, got {value!r}")
    return value


def _engine(data: Mapping[str, Any]) -> str:
    engine = data.get("engine", "auto")
    if engine not in ("auto", "python", "c"):
        raise BadInput(f"engine must be auto, python or c, got {engine!r}")
    return str(engine)


# -- solve ---------------------------------------------------------------------------------------------------
def _solve_one(data: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(data, required=_COMMON, optional=_OPTIONAL, where="input")
    board = _board(data)
    position = _position(board, data)
    minimum = _int(data, "minimum_moves", PRESET.minimum_moves) or 0
    diag = _flag(data, "diagonal_variant", PRESET.diagonal_variant)
    engine = _engine(data)
    budget = data.get("time_budget", DEFAULT_TIME_BUDGET)
    if not isinstance(budget, int | float) or isinstance(budget, bool) or budget <= 0:
        raise BadInput(f"time_budget must be a positive number of seconds, got {budget!r}")
    result = solve(
        board,
        position,
        time_budget=float(budget),
        clock=time.perf_counter,
        diagonal_variant=diag,
        engine=engine,
    )
    if result.status is SolveStatus.SOLVED:
        assert result.optimal_moves is not None
        void = result.optimal_moves < minimum
    else:
        void = exists_solution(board, position, minimum - 1, diagonal_variant=diag, engine=engine)
    return {
        "optimal_moves": result.optimal_moves,
        "solution": [list(m) for m in result.moves] if result.moves is not None else None,
        "void_below_minimum": void,
        "minimum_moves": minimum,
        "target_covered": target_covered(position),
        "status": result.status.value,
        "lower_bound": result.lower_bound,
        "nodes": result.nodes,
        "engine": result.engine,
    }


def _solve_text(r: dict[str, Any]) -> str:
    if r["status"] == "solved":
        moves = " ".join(f"{c}-{d}" for c, d in r["solution"])
        head = f"optimal: {r['optimal_moves']} moves  {moves}"
    elif r["status"] == "budget_exhausted":
        head = f"at least {r['lower_bound']} moves (time budget exhausted)"
    else:
        head = f"no solution within {r['lower_bound'] - 1} moves"
    void = "yes" if r["void_below_minimum"] else "no"
    return f"{head}\nshorter than the minimum ({r['minimum_moves']}): {void}"


# -- verify --------------------------------------------------------------------------------------------------
def _verify_one(data: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(data, required=(*_COMMON, "moves"), optional=(*_OPTIONAL, "declared", "check_void"), where="input")
    board = _board(data)
    position = _position(board, data)
    moves = data["moves"]
    if not isinstance(moves, list):
        raise BadInput(f"moves must be a list of [colour, direction], got {moves!r}")
    minimum = _int(data, "minimum_moves", PRESET.minimum_moves) or 0
    verdict = verify(
        board,
        position,
        moves,
        minimum_moves=minimum,
        declared=_int(data, "declared", None),
        check_void=_flag(data, "check_void", True),
        diagonal_variant=_flag(data, "diagonal_variant", PRESET.diagonal_variant),
        engine=_engine(data),
    )
    return {
        "reached": verdict.reached,
        "moves": verdict.moves,
        "valid": verdict.valid,
        "void_below_minimum": verdict.void_below_minimum,
        "code": verdict.code.value,
        "proves_void": verdict.code is VerifyCode.BELOW_MINIMUM,
        "minimum_moves": minimum,
        "declared": verdict.declared,
        "first_reached_at": verdict.first_reached_at,
        "null_moves": list(verdict.null_moves),
        "repeated_positions": [list(x) for x in verdict.repeated_positions],
        "stops": [
            {"robot": s.colour, "direction": s.direction, "from": list(s.start), "to": list(s.stop)}
            for s in verdict.steps
        ],
    }


def _verify_text(r: dict[str, Any]) -> str:
    lines = [f"{i}. {s['robot']} {s['direction']}: {s['from']} -> {s['to']}" for i, s in enumerate(r["stops"], 1)]
    lines.append(f"reached: {'yes' if r['reached'] else 'no'} in {r['moves']} moves; {words(r['code'])}")
    if r["void_below_minimum"] is not None:
        lines.append(
            f"a solution shorter than {r['minimum_moves']} exists: {'yes' if r['void_below_minimum'] else 'no'}"
        )
    return "\n".join(lines)


# -- board ---------------------------------------------------------------------------------------------------
_ROBOT_CHAR = ROBOT_LETTERS["en"]  # the letters of the English board image
_TARGET_CHAR = {"red": "r", "green": "g", "blue": "b", "yellow": "y", VORTEX_COLOUR: "*"}


def board_text(board: Board, robots: Mapping[str, tuple[int, int]] | None = None, target: Target | None = None) -> str:
    """ASCII drawing: ``#`` central block, lowercase target colour, ``*`` vortex, uppercase robots, ``@`` the
    round's target, ``/`` ``\\`` diagonals; ``|`` and ``---`` are walls."""
    at: dict[tuple[int, int], str] = {}
    for d in board.diagonals:
        at[(d.row, d.col)] = d.kind
    for t in board.targets:
        at[(t.row, t.col)] = _TARGET_CHAR[t.colour]
    if target is not None:
        at[(target.row, target.col)] = "@"
    for cell in board.central_block:
        at[cell] = "#"
    for colour, cell in (robots or {}).items():
        at[cell] = _ROBOT_CHAR[colour]
    lines = ["+" + "+".join("---" for _ in range(SIZE)) + "+"]
    for r in range(SIZE):
        row = "|"
        below = "+"
        for c in range(SIZE):
            row += f" {at.get((r, c), '.')} " + ("|" if board.has_wall(r, c, "E") else " ")
            below += ("---" if board.has_wall(r, c, "S") else "   ") + "+"
        lines.append(row)
        lines.append(below)
    return "\n".join(lines)


def robot_cells(board: Board, raw: Any, target: Target | None) -> dict[str, tuple[int, int]]:
    """The robots of a document, checked as ``steward rr solve|verify`` check a position:
    ``Position.make`` (a known colour, ``[row, col]`` of two JSON integers on the board — ``null``, ``1.5``,
    ``true``, ``"5"``, ``[1]`` or ``10**11`` are refused, never coerced) and ``validate_position`` (not on the
    central block, no two on one cell). Without a target the board's first one stands in for it; a board with no
    target at all checks the robots alone. The one check of ``rr board`` and ``render rr-board``."""
    if not isinstance(raw, Mapping):
        raise BadInput(f"robots must map colour to [row, col], got {raw!r:.60}")
    anchor = target if target is not None else next(iter(board.targets), None)
    position = Position.make(raw, list(anchor) if anchor is not None else [0, 0, "any", "vortex"])
    try:
        validate_position(board, position)
    except BoardError as exc:
        # no target anywhere: the stand-in is not on the board, and the robots, checked before it, passed
        if exc.code != "target_not_on_board" or anchor is not None:
            raise
    return position.robot_map


def _board_one(data: Mapping[str, Any]) -> dict[str, Any]:
    # the solve/verify shapes are accepted too (their extra fields are ignored here), so one file serves all three
    optional = ("robots", "target", "moves", "declared", "check_void", *_OPTIONAL)
    check_keys(data, required=("board",), optional=optional, where="input")
    board = _board(data)
    robots: dict[str, tuple[int, int]] | None = None
    target: Target | None = None
    if "target" in data:
        target = parse_target(board, data["target"])
    if "robots" in data:
        robots = robot_cells(board, data["robots"], target)
    out = board.to_json()
    if board.quadrants is not None:
        out.update(board.without_quadrants().to_json())
        out["quadrants"] = list(board.quadrants)
    out["notation"] = board.to_notation()
    if robots is not None and target is not None:
        out["position"] = Position.make(robots, list(target)).to_notation()
    out["text"] = board_text(board, robots, target)
    return out


def _board_text_result(r: dict[str, Any]) -> str:
    return f"{r['notation'] if len(r['notation']) < 60 else 'explicit walls'}\n{r['text']}"


__all__ = ["BoardError", "board_text", "register"]
