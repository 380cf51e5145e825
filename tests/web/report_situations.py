"""A typical end of a four-player RisiKo! game, for the report page's tests: every territory held, the armies of a
real final position (many territories with a few armies, some large stacks), four different objectives."""

from __future__ import annotations

from bot.rules.risiko.board import standard_board
from bot.rules.risiko.situation_draft import objective_names

# armies by the territory's place in the board's order: 15 territories at 1, 20 at 2–9, 7 at 10 or more
ARMIES = [1, 3, 1, 2, 12, 1, 4, 2, 1, 7, 1, 3, 15, 1, 2, 5, 1, 9, 2, 1, 11, 3, 1, 6, 2, 1, 18, 4, 1, 2, 8, 1, 10,
          3, 1, 2, 14, 1, 5, 2, 1, 13]  # fmt: skip


def typical_end(seats: int = 4) -> tuple[dict[str, tuple[int, int]], dict[int, str]]:
    """(territory → (seat, armies)) for all 42 territories, and each seat's objective."""
    board = standard_board()
    held: dict[str, tuple[int, int]] = {}
    for i, name in enumerate(board.territories):
        seat = (i * 7 // 3 + i // 5) % seats  # uneven blocks: whole continents rarely, neighbours often shared
        held[name] = (seat, ARMIES[i])
    objectives = dict(enumerate(objective_names()[:seats]))
    return held, objectives


def situation_document(names: list[str]) -> dict[str, object]:
    """The same end as the JSON document ``steward risiko score`` and ``/report situation`` read."""
    held, objectives = typical_end(len(names))
    return {
        "players": [
            {
                "name": name,
                "territories": {t: a for t, (s, a) in held.items() if s == seat},
                "objective": objectives[seat],
            }
            for seat, name in enumerate(names)
        ]
    }


def edits(seats: int = 4) -> list[dict[str, object]]:
    """The page's edits that enter the same end."""
    held, objectives = typical_end(seats)
    ops: list[dict[str, object]] = [{"t": "territory", "name": t, "seat": s, "armies": a} for t, (s, a) in held.items()]
    ops += [{"t": "objective", "seat": s, "name": n} for s, n in objectives.items()]
    return ops
