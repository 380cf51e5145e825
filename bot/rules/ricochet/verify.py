"""Verifier of a demonstrated move list (RR 4.10, RR-MIN-1, RR-DEMO-1).

A demonstration is valid when the active robot (any robot for the vortex, RR-VORTEX-1) ends on the target,
the count is at least the tournament minimum (RR 4.8) and at most the declaration (RR 4.10). A reached
solution below the minimum proves the round void (RR 4.8). Moves that do not move a robot and an active robot
that reaches the target before the last move are padding, which RR 4.10 forbids: such a list is not valid.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.ricochet.board import VORTEX_COLOUR, Board, Position, validate_position
from bot.rules.ricochet.moves import Step, replay
from bot.rules.ricochet.solver import exists_solution


class VerifyCode(enum.Enum):
    VALID = "valid"
    NOT_REACHED = "not_reached"
    ABOVE_DECLARED = "above_declared"
    BELOW_MINIMUM = "below_minimum"  # reached in fewer moves than the minimum: the round is void (RR 4.8)
    PADDED = "padded"  # a non-move or an early arrival (RR 4.10)


@dataclass(frozen=True, slots=True)
class Verdict:
    reached: bool
    moves: int
    valid: bool
    code: VerifyCode
    minimum_moves: int
    declared: int | None
    first_reached_at: int | None  # 1-based move number of the first arrival on the target
    null_moves: tuple[int, ...]  # 1-based numbers of moves that moved nothing
    void_below_minimum: bool | None  # a solution shorter than the minimum exists (None: not checked)
    steps: tuple[Step, ...]


def _on_target(position: Position, robots: Sequence[tuple[str, tuple[int, int]]]) -> bool:
    t = position.target
    cell = (t.row, t.col)
    if t.colour == VORTEX_COLOUR:
        return any(c == cell for _, c in robots)
    return any(colour == t.colour and c == cell for colour, c in robots)


def verify(
    board: Board,
    position: Position,
    moves: Sequence[Sequence[str]],
    *,
    minimum_moves: int,
    declared: int | None = None,
    check_void: bool = True,
    diagonal_variant: bool = False,
    engine: str = "auto",
) -> Verdict:
    """Replay ``moves`` and judge them. With ``check_void`` the solver also answers whether any solution shorter
    than the minimum exists (the void verdict of RR-MIN-1), even when the demonstration itself is valid."""
    validate_position(board, position)
    steps = tuple(replay(board, position.robot_map, moves, diagonal_variant=diagonal_variant))
    count = len(steps)
    start_reached = _on_target(position, position.robots)
    first = 0 if start_reached else None
    for i, step in enumerate(steps, 1):
        if first is None and _on_target(position, step.robots):
            first = i
    reached = _on_target(position, steps[-1].robots) if steps else start_reached
    nulls = tuple(i for i, s in enumerate(steps, 1) if not s.moved)
    if not reached:
        code = VerifyCode.NOT_REACHED
    elif count < minimum_moves:
        code = VerifyCode.BELOW_MINIMUM
    elif nulls or (first is not None and first < count):
        code = VerifyCode.PADDED
    elif declared is not None and count > declared:
        code = VerifyCode.ABOVE_DECLARED
    else:
        code = VerifyCode.VALID
    void: bool | None = None
    if reached and count < minimum_moves and not nulls and first == count:
        void = True  # the demonstration itself is a shorter solution (RR 4.8)
    elif check_void:
        void = exists_solution(board, position, minimum_moves - 1, diagonal_variant=diagonal_variant, engine=engine)
    return Verdict(
        reached=reached,
        moves=count,
        valid=code is VerifyCode.VALID,
        code=code,
        minimum_moves=minimum_moves,
        declared=declared,
        first_reached_at=first,
        null_moves=nulls,
        void_below_minimum=void,
        steps=steps,
    )
