"""Robot moves (RR 4.5–4.7, 8.2): slide until an obstacle; replay a declared move list.

Obstacles (RR 4.6): the board edge, the central block, walls and other robots. Targets and robot markers are
not obstacles (RR-MOVE-2). Diagonal walls are ignored unless the diagonal variant is on (RR 8); then a robot
crosses a diagonal of its own colour and is deflected by 90° by any other, and the whole slide is one move
(RR-VAR-2). A diagonal on the cell a robot starts from does not act on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.rules.ricochet.board import DELTA, SIZE, WALL_BIT, Board, BoardError, Cell

DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")

# Deflection by a diagonal: '/' joins the SW and NE corners, '\' the NW and SE corners.
_DEFLECT: Mapping[str, Mapping[str, str]] = {
    "/": {"N": "E", "E": "N", "S": "W", "W": "S"},
    "\\": {"N": "W", "W": "N", "S": "E", "E": "S"},
}


@dataclass(frozen=True, slots=True)
class Step:
    """One replayed move: which robot, which way, where it started and stopped, the cells it crossed
    (start and stop included, in order; bends appear under the diagonal variant) and every robot after it."""

    colour: str
    direction: str
    start: Cell
    stop: Cell
    path: tuple[Cell, ...]
    robots: tuple[tuple[str, Cell], ...]

    @property
    def moved(self) -> bool:
        return self.start != self.stop


def slide_path(
    board: Board,
    robots: Mapping[str, Cell],
    colour: str,
    direction: str,
    *,
    diagonal_variant: bool = False,
) -> tuple[Cell, ...]:
    """Cells the robot ``colour`` passes through moving ``direction`` (start first, stop last)."""
    if colour not in robots:
        raise BoardError("robot_not_on_board", colour)
    if direction not in DELTA:
        raise BoardError("unknown_direction", direction)
    occupied = {cell for c, cell in robots.items() if c != colour}
    masks = board.masks
    diagonals = {(d.row, d.col): d for d in board.diagonals} if diagonal_variant else {}
    r, c = robots[colour]
    path: list[Cell] = [(r, c)]
    seen: set[tuple[int, int, str]] = set()
    d = direction
    while True:
        if masks[r * SIZE + c] & WALL_BIT[d]:
            break
        dr, dc = DELTA[d]
        nr, nc = r + dr, c + dc
        if (nr, nc) in occupied:
            break
        r, c = nr, nc
        path.append((r, c))
        diag = diagonals.get((r, c))
        if diag is not None and diag.colour != colour:
            d = _DEFLECT[diag.kind][d]
        if (r, c, d) in seen:  # a closed loop of diagonals: cannot happen on real boards; stop here
            break
        seen.add((r, c, d))
    return tuple(path)


def slide(
    board: Board,
    robots: Mapping[str, Cell],
    colour: str,
    direction: str,
    *,
    diagonal_variant: bool = False,
) -> Cell:
    """Where robot ``colour`` stops moving ``direction`` (RR-MOVE-1)."""
    return slide_path(board, robots, colour, direction, diagonal_variant=diagonal_variant)[-1]


def replay(
    board: Board,
    robots: Mapping[str, Sequence[int]],
    moves: Sequence[Sequence[str]],
    *,
    diagonal_variant: bool = False,
) -> list[Step]:
    """Play ``moves`` (``[colour, direction]`` pairs) from ``robots``; one ``Step`` per move, in order."""
    state: dict[str, Cell] = {}
    for colour, cell in robots.items():
        if not isinstance(cell, Sequence) or isinstance(cell, str) or len(cell) != 2:
            raise BoardError("bad_robot_cell", f"{colour} {cell!r:.60}")
        state[colour] = (int(cell[0]), int(cell[1]))
    steps: list[Step] = []
    for i, move in enumerate(moves):
        if not isinstance(move, Sequence) or isinstance(move, str) or len(move) != 2:
            raise BoardError("bad_move", f"#{i + 1} {move!r:.60}")
        colour, direction = str(move[0]), str(move[1]).upper()
        if colour not in state:
            raise BoardError("robot_not_on_board", f"#{i + 1} {colour}")
        if direction not in DELTA:
            raise BoardError("unknown_direction", f"#{i + 1} {move[1]}")
        path = slide_path(board, state, colour, direction, diagonal_variant=diagonal_variant)
        start = state[colour]
        state[colour] = path[-1]
        steps.append(Step(colour, direction, start, path[-1], path, tuple(sorted(state.items()))))
    return steps
