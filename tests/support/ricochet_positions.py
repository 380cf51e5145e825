"""Benchmark positions of boards.json, shared by the solver tests."""

from __future__ import annotations

import random
from typing import Any

from bot.rules.data import load_json
from bot.rules.ricochet.board import QUADRANT_POSITIONS, VORTEX_COLOUR, Board, Position

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


def random_positions(board: Board, count: int, robots: int, seed: int, *, vortex: bool = True) -> list[Position]:
    """Seeded random positions: robots on distinct cells off the central block and off the drawn target (drawn among
    every target of the board, or, with ``vortex=False``, among the coloured ones)."""
    rng = random.Random(seed)
    colours = ("red", "green", "blue", "yellow", "silver")[:robots]
    targets = board.targets if vortex else tuple(t for t in board.targets if t.colour != VORTEX_COLOUR)
    out = []
    for _ in range(count):
        target = rng.choice(targets)
        free = [
            (r, c)
            for r in range(16)
            for c in range(16)
            if (r, c) not in board.central_block and (r, c) != (target.row, target.col)
        ]
        out.append(Position.make(dict(zip(colours, rng.sample(free, robots), strict=True)), list(target)))
    return out
