"""Benchmark positions of boards.json, shared by the solver tests."""

from __future__ import annotations

from typing import Any

from bot.rules.data import load_json
from bot.rules.ricochet.board import QUADRANT_POSITIONS, Board, Position

DATA = load_json("boards.json")


def board_of(quadrants: dict[str, str]) -> Board:
    return Board.from_quadrants([quadrants[p] for p in QUADRANT_POSITIONS])


def benchmark_positions() -> list[tuple[str, Board, Position, dict[str, Any]]]:
    out = []
    for name, spec in DATA["boards"].items():
        board = board_of(spec["quadrants"])
        for key in ("benchmark_positions", "benchmark_positions_5robots"):
            for i, p in enumerate(spec[key]):
                out.append((f"{name}-{key[-7:]}-{i}", board, Position.make(p["robots"], p["target"]), p))
    return out


def hard_positions() -> list[tuple[str, Board, Position, dict[str, Any]]]:
    return [
        (f"hard-{p['optimal_moves']}", board_of(p["quadrants"]), Position.make(p["robots"], p["target"]), p)
        for p in DATA["known_hard_positions"]
    ]
