"""Verifier of a demonstrated move list (RR 4.10, RR-MIN-1, RR-DEMO-1).

A demonstration is valid when the active robot (any robot for the vortex, RR-VORTEX-1) ends on the target,
the count is at least the tournament minimum (RR 4.8) and at most the declaration (RR 4.10). A reached
solution below the minimum proves the round void (RR 4.8). RR 4.10 forbids useless or redundant moves made to reach
the minimum; reading 1 (docs/readings.md): a move that leaves every robot in place, a move after which the robots
stand exactly as earlier in the demonstration (an out-and-back of another robot, a loop of the active robot), and an
active robot that reaches the target before the last move are padding — the list is not valid, and ``code`` with
``null_moves`` / ``repeated_positions`` / ``first_reached_at`` say which moves.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.ricochet.board import VORTEX_COLOUR, Board, Position, validate_position
from bot.rules.ricochet.moves import Step, replay
from bot.rules.ricochet.solver import exists_solution


class VerifyCode(enum.Enum):
    """A demonstration's verdict as a code: valid, or the first reason it is not (the comments name the article)."""

    VALID = "valid"
    NOT_REACHED = "not_reached"
    ABOVE_DECLARED = "above_declared"
    BELOW_MINIMUM = "below_minimum"  # reached in fewer moves than the minimum: the round is void (RR 4.8)
    PADDED = "padded"  # the active robot reached the target before the last move (RR 4.10)
    PADDED_NO_MOVE = "padding_no_move"  # a move that leaves every robot where it was (RR 4.10)
    PADDED_REPEATED_POSITION = "padding_repeated_position"  # the robots come back to a position already seen


@dataclass(frozen=True, slots=True)
class Verdict:
    """A demonstration replayed (RR 4.10): whether and when the target was first reached, the moves counted against
    the minimum and the declaration, the padding found (moves that moved nothing, positions repeated), whether a
    solution below the minimum exists, and every step."""

    reached: bool
    moves: int
    valid: bool
    code: VerifyCode
    minimum_moves: int
    declared: int | None
    first_reached_at: int | None  # 1-based move number of the first arrival on the target
    null_moves: tuple[int, ...]  # 1-based numbers of moves that moved nothing
    repeated_positions: tuple[tuple[int, int], ...]  # (move number, earlier move number it returns to; 0 = start)
    void_below_minimum: bool | None  # a solution shorter than the minimum exists (None: not checked)
    steps: tuple[Step, ...]


def _on_target(position: Position, robots: Sequence[tuple[str, tuple[int, int]]]) -> bool:
    t = position.target
    cell = (t.row, t.col)
    if t.colour == VORTEX_COLOUR:
        return any(c == cell for _, c in robots)
    return any(colour == t.colour and c == cell for colour, c in robots)


def _repeated_positions(position: Position, steps: Sequence[Step]) -> tuple[tuple[int, int], ...]:
    """RR 4.10 reading 1: moves after which every robot stands where it stood earlier in the demonstration (an
    out-and-back of another robot, a loop of the active robot): ``(move, earlier move)``, 0 being the start.
    A move that moves nothing is reported as a null move instead."""
    seen: dict[frozenset[tuple[str, tuple[int, int]]], int] = {frozenset(position.robots): 0}
    out: list[tuple[int, int]] = []
    for i, step in enumerate(steps, 1):
        key = frozenset(step.robots)
        if key in seen and step.moved:
            out.append((i, seen[key]))
        seen.setdefault(key, i)
    return tuple(out)


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
    repeats = _repeated_positions(position, steps)
    if not reached:
        code = VerifyCode.NOT_REACHED
    elif count < minimum_moves:
        code = VerifyCode.BELOW_MINIMUM
    elif nulls:
        code = VerifyCode.PADDED_NO_MOVE
    elif repeats:
        code = VerifyCode.PADDED_REPEATED_POSITION
    elif first is not None and first < count:
        code = VerifyCode.PADDED
    elif declared is not None and count > declared:
        code = VerifyCode.ABOVE_DECLARED
    else:
        code = VerifyCode.VALID
    void: bool | None = None
    if reached and count < minimum_moves and not nulls and not repeats and first == count:
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
        repeated_positions=repeats,
        void_below_minimum=void,
        steps=steps,
    )
