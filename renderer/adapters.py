"""From the rules engine's objects to the renderer's input: what the command line and the bot both draw from.

``rr_board_data`` turns a Ricochet Robots board, the robots and a replayed solution (``bot.rules.ricochet``) into
``RRBoardData``: walls, targets, robots, the active target, the diagonals of the variant and the path with its
stops. ``steward render rr-board`` uses it today; the bot's rules desk draws a solved position with the same call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.rules.ricochet.board import Board
from bot.rules.ricochet.moves import Step
from renderer.models import MapPlayer, MapTerritory, RiskMapData, RRBoardData, RRDiagonal, RRMove, RRRobot, RRTarget

Cell = tuple[int, int]


def move_stops(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """The cells where a slide bends (diagonal variant) plus where it stops — the renderer's move stops."""
    if len(cells) < 2:
        return (cells[-1],) if cells else ()
    out = []
    for prev, here, nxt in zip(cells, cells[1:], cells[2:], strict=False):
        if (here[0] - prev[0], here[1] - prev[1]) != (nxt[0] - here[0], nxt[1] - here[1]):
            out.append(here)
    out.append(cells[-1])
    return tuple(out)


def rr_board_data(
    board: Board,
    robots: Mapping[str, Sequence[int]],
    steps: Sequence[Step] = (),
    *,
    active_target: Cell | None = None,
    diagonal_variant: bool = False,
    title: str | None = None,
) -> RRBoardData:
    """The board with the robots where they start and the replayed ``steps`` drawn as the numbered path; the
    result is validated like any other renderer input (colours, cells)."""
    drawn = RRBoardData(
        cell_walls=board.cell_walls,
        targets=tuple(RRTarget(t.row, t.col, t.colour, t.symbol) for t in board.targets),
        robots=tuple(RRRobot(str(c), int(v[0]), int(v[1])) for c, v in robots.items()),
        active_target=active_target,
        diagonals=tuple(RRDiagonal(d.row, d.col, d.colour, d.kind) for d in board.diagonals)
        if diagonal_variant
        else (),
        path=tuple(RRMove(s.colour, move_stops(s.path)) for s in steps),
        title=title,
    )
    return RRBoardData.from_json(drawn.to_json())


MAP_COLOURS = ("red", "blue", "yellow", "green", "black", "purple")


def risiko_map_data(
    owners: Sequence[tuple[str, Mapping[str, int]]],
    *,
    title: str | None = None,
    doubled_strip: Sequence[str] = (),
) -> RiskMapData:
    """A final situation (players in table order, each with territory → armies) as the map's input; colours are
    given in table order."""
    players = tuple(MapPlayer(name, MAP_COLOURS[i % len(MAP_COLOURS)]) for i, (name, _) in enumerate(owners))
    territories = tuple(
        MapTerritory(territory, name, armies) for name, held in owners for territory, armies in held.items()
    )
    return RiskMapData(players, territories, title=title, doubled_strip=tuple(doubled_strip))
