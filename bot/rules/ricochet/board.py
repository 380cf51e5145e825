r"""The Ricochet Robots board: a 16×16 grid of cells with walls, the central block, targets and diagonals.

Conventions follow ``boards.json`` (bundled as ``bot.rules.data``): cells are ``(row, col)`` with row 0 at the
top (north) and col 0 at the left (west); wall sides are ``N``, ``E``, ``S``, ``W``; quadrants are listed NW,
NE, SE, SW and each is stored in the NW frame, rotated clockwise into place (RR 3: the tiles are joined around
the central tile). Walls are double-stored (a wall between two cells is on both) and the outer edge is walled.

A compact text notation (``to_notation`` / ``Board.parse``) round-trips every board:

* ``1A2A3A4A`` — four quadrant tiles NW, NE, SE, SW (walls, targets and central block come from the tiles);
* ``x:<256 cells>`` — explicit walls, one character per cell row by row: a hex digit of the wall mask
  (N=1, E=2, S=4, W=8) or ``X`` for a cell of the central block; then ``;t:`` and the targets
  ``row.col.colour.symbol`` separated by commas;
* either form may end with ``;d:`` and the diagonal walls ``row.col.colour.kind`` (kind ``/`` or ``\``),
  which count only under the diagonal variant (RR 8.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.rules.errors import RuleError

SIZE = 16
HALF = 8
SIDES = "NESW"
WALL_BIT: Mapping[str, int] = {"N": 1, "E": 2, "S": 4, "W": 8}
OPPOSITE: Mapping[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
DELTA: Mapping[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
_CW: Mapping[str, str] = {"N": "E", "E": "S", "S": "W", "W": "N"}

ROBOT_COLOURS: tuple[str, ...] = ("red", "green", "blue", "yellow", "black", "silver")
TARGET_COLOURS: tuple[str, ...] = ("red", "green", "blue", "yellow", "any")
VORTEX_COLOUR = "any"
SYMBOLS: tuple[str, ...] = ("circle", "triangle", "square", "hexagon", "vortex")
QUADRANT_POSITIONS: tuple[str, ...] = ("NW", "NE", "SE", "SW")
DIAGONAL_KINDS: tuple[str, ...] = ("/", "\\")

Cell = tuple[int, int]


class BoardError(RuleError):
    """A board, position or move that does not fit. ``code`` is stable; ``value`` quotes the bad input."""


class Target(NamedTuple):
    """A target square (RR 4.1): colour ``any`` is the cosmic vortex (RR-VORTEX-1)."""

    row: int
    col: int
    colour: str
    symbol: str


class Diagonal(NamedTuple):
    r"""A coloured diagonal wall across one cell (RR 8.2). ``kind`` ``/`` joins SW–NE corners, ``\`` NW–SE."""

    row: int
    col: int
    colour: str
    kind: str


def _check_cell(row: object, col: object, where: str) -> Cell:
    if (
        not isinstance(row, int)
        or not isinstance(col, int)
        or isinstance(row, bool)
        or isinstance(col, bool)
        or not (0 <= row < SIZE and 0 <= col < SIZE)
    ):
        raise BoardError("cell_out_of_board", f"{where} [{row}, {col}]")
    return (row, col)


def _rotate(row: int, col: int, side: str, position: str) -> tuple[int, int, str]:
    """Place a NW-frame cell/side at ``position`` (clockwise quarter turns about the board centre)."""
    turns = QUADRANT_POSITIONS.index(position)
    for _ in range(turns):
        row, col, side = col, SIZE - 1 - row, _CW[side]
    return row, col, side


def _quadrant_data() -> Mapping[str, Any]:
    from bot.rules.data import load_json

    quadrants: Mapping[str, Any] = load_json("boards.json")["quadrants"]
    return quadrants


def quadrant_names() -> tuple[str, ...]:
    """The 16 tile names of the data (1A … 4D)."""
    return tuple(_quadrant_data().keys())


@dataclass(frozen=True, slots=True)
class Board:
    """An assembled 16×16 board (a value: equal boards compare equal, usable as a dict key).

    ``cell_walls[row][col]`` is a string of the walled sides in ``NESW`` order, double-stored, outer edges
    included, ``NESW`` on central-block cells. ``quadrants`` records the tiles when the board was built from
    them (NW, NE, SE, SW), else ``None``.
    """

    cell_walls: tuple[tuple[str, ...], ...]
    targets: tuple[Target, ...]
    central_block: frozenset[Cell]
    diagonals: tuple[Diagonal, ...] = ()
    quadrants: tuple[str, ...] | None = None
    _masks: tuple[int, ...] = field(default=(), compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.cell_walls) != SIZE or any(len(r) != SIZE for r in self.cell_walls):
            raise BoardError("cell_walls_not_16x16", [len(r) for r in self.cell_walls])
        for cell in self.central_block:
            _check_cell(cell[0], cell[1], "central_block")
        masks: list[int] = []
        for r, line in enumerate(self.cell_walls):
            for c, sides in enumerate(line):
                if not isinstance(sides, str) or any(s not in SIDES for s in sides):
                    raise BoardError("bad_wall_sides", f"[{r}, {c}] {sides!r}")
                masks.append(sum(WALL_BIT[s] for s in set(sides)))
        # Effective masks: tolerate single-stored input and a missing outer edge (the move engine reads these).
        for r in range(SIZE):
            for c in range(SIZE):
                i = r * SIZE + c
                if r == 0 or masks[i - SIZE] & 4:
                    masks[i] |= 1
                if r == SIZE - 1 or masks[i + SIZE] & 1:
                    masks[i] |= 4
                if c == 0 or masks[i - 1] & 2:
                    masks[i] |= 8
                if c == SIZE - 1 or masks[i + 1] & 8:
                    masks[i] |= 2
        for cell in self.central_block:
            masks[cell[0] * SIZE + cell[1]] = 15
        seen: set[tuple[str, str]] = set()
        for t in self.targets:
            _check_cell(t.row, t.col, "target")
            if t.colour not in TARGET_COLOURS:
                raise BoardError("unknown_target_colour", t.colour)
            if t.symbol not in SYMBOLS:
                raise BoardError("unknown_symbol", t.symbol)
            if (t.row, t.col) in self.central_block:
                raise BoardError("target_on_central_block", list(t))
            if (t.colour, t.symbol) in seen:
                raise BoardError("duplicate_target", f"{t.colour} {t.symbol}")
            seen.add((t.colour, t.symbol))
        for d in self.diagonals:
            _check_cell(d.row, d.col, "diagonal")
            if d.colour not in ROBOT_COLOURS:
                raise BoardError("unknown_diagonal_colour", d.colour)
            if d.kind not in DIAGONAL_KINDS:
                raise BoardError("unknown_diagonal_kind", d.kind)
        object.__setattr__(self, "_masks", tuple(masks))

    # -- construction ---------------------------------------------------------------------------------------
    @classmethod
    def from_quadrants(cls, names: Sequence[str], *, diagonals: Iterable[Diagonal] = ()) -> Board:
        """Assemble tiles given NW, NE, SE, SW (the rotation rule of boards.json). Unknown tile → BoardError."""
        names = [str(n).upper() for n in names]
        if len(names) != 4:
            raise BoardError("need_four_quadrants", names)
        data = _quadrant_data()
        masks = [[0] * SIZE for _ in range(SIZE)]
        targets: list[Target] = []
        block: set[Cell] = set()

        def wall(r: int, c: int, side: str) -> None:
            masks[r][c] |= WALL_BIT[side]
            dr, dc = DELTA[side]
            nr, nc = r + dr, c + dc
            if 0 <= nr < SIZE and 0 <= nc < SIZE:
                masks[nr][nc] |= WALL_BIT[OPPOSITE[side]]

        for name, position in zip(names, QUADRANT_POSITIONS, strict=True):
            if name not in data:
                raise BoardError("unknown_tile", name)
            tile = data[name]
            for r, c, side in tile["walls"]:
                wall(*_rotate(r, c, side, position))
            for r, c, colour, symbol in tile["targets"]:
                rr, cc, _ = _rotate(r, c, "N", position)
                targets.append(Target(rr, cc, colour, symbol))
            for r, c in tile["blocked"]:
                rr, cc, _ = _rotate(r, c, "N", position)
                block.add((rr, cc))
        for i in range(SIZE):
            wall(0, i, "N")
            wall(SIZE - 1, i, "S")
            wall(i, 0, "W")
            wall(i, SIZE - 1, "E")
        for r, c in block:
            for side in SIDES:
                wall(r, c, side)
        walls = tuple(tuple(_sides(m) for m in line) for line in masks)
        targets.sort()
        return cls(walls, tuple(targets), frozenset(block), tuple(sorted(diagonals)), tuple(names))

    @classmethod
    def from_cell_walls(
        cls,
        cell_walls: Sequence[Sequence[str]],
        targets: Iterable[Sequence[Any]],
        central_block: Iterable[Sequence[int]] | None = None,
        *,
        diagonals: Iterable[Sequence[Any]] = (),
    ) -> Board:
        """Build from explicit walls (as in boards.json ``cell_walls``); the central block defaults to cells
        walled on all four sides. Walls are normalised (double-stored, outer edge added)."""
        walls = tuple(tuple(str(s) for s in line) for line in cell_walls)
        if central_block is None:
            block = frozenset(
                (r, c) for r, line in enumerate(walls) for c, s in enumerate(line) if set(s) == set(SIDES)
            )
        else:
            block = frozenset(_check_cell(cell[0], cell[1], "central_block") for cell in central_block)
        tgt = tuple(sorted(_target(t) for t in targets))
        diag = tuple(sorted(_diagonal(d) for d in diagonals))
        raw = cls(walls, tgt, block, diag, None)
        # Canonical form: walls double-stored with the outer edge, so equal boards compare equal.
        canonical = tuple(tuple(_sides(raw.masks[r * SIZE + c]) for c in range(SIZE)) for r in range(SIZE))
        return cls(canonical, tgt, block, diag, None)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Board:
        """``{"quadrants": [...]}`` (list or NW/NE/SE/SW mapping) or ``{"cell_walls": ..., "targets": ...}``;
        both may carry ``diagonals`` and the latter ``central_block``."""
        diagonals = [_diagonal(d) for d in obj.get("diagonals", ())]
        quads = obj.get("quadrants")
        if quads is not None:
            if isinstance(quads, Mapping):
                quads = [quads.get(p, "?") for p in QUADRANT_POSITIONS]
            if not isinstance(quads, Sequence) or isinstance(quads, str):
                raise BoardError("quadrants_not_a_list", quads)
            return cls.from_quadrants([str(q) for q in quads], diagonals=diagonals)
        if "cell_walls" not in obj:
            raise BoardError("board_needs_quadrants_or_cell_walls", sorted(obj))
        return cls.from_cell_walls(
            obj["cell_walls"], obj.get("targets", ()), obj.get("central_block"), diagonals=diagonals
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any]
        if self.quadrants is not None:
            out = {"quadrants": list(self.quadrants)}
        else:
            out = {
                "cell_walls": [list(line) for line in self.cell_walls],
                "targets": [list(t) for t in self.targets],
                "central_block": sorted([list(c) for c in self.central_block]),
            }
        if self.diagonals:
            out["diagonals"] = [list(d) for d in self.diagonals]
        return out

    # -- notation -------------------------------------------------------------------------------------------
    def to_notation(self) -> str:
        if self.quadrants is not None:
            text = "".join(self.quadrants)
        else:
            cells = "".join(
                "X" if (r, c) in self.central_block else f"{self._masks[r * SIZE + c]:X}"
                for r in range(SIZE)
                for c in range(SIZE)
            )
            text = f"x:{cells};t:" + ",".join(f"{t.row}.{t.col}.{t.colour}.{t.symbol}" for t in self.targets)
        if self.diagonals:
            text += ";d:" + ",".join(f"{d.row}.{d.col}.{d.colour}.{d.kind}" for d in self.diagonals)
        return text

    @classmethod
    def parse(cls, text: str) -> Board:
        """Inverse of ``to_notation``."""
        parts = text.strip().split(";")
        head, rest = parts[0], parts[1:]
        fields: dict[str, str] = {}
        for part in rest:
            key, sep, value = part.partition(":")
            if not sep or key not in ("t", "d") or key in fields:
                raise BoardError("bad_board_notation", part)
            fields[key] = value
        diagonals = [_diagonal(_split4(s)) for s in fields.get("d", "").split(",") if s]
        if head.startswith("x:"):
            cells = head[2:]
            if len(cells) != SIZE * SIZE:
                raise BoardError("bad_board_notation", f"{len(cells)} cells")
            walls: list[list[str]] = []
            block: list[tuple[int, int]] = []
            for r in range(SIZE):
                line: list[str] = []
                for c in range(SIZE):
                    ch = cells[r * SIZE + c]
                    if ch == "X":
                        block.append((r, c))
                        line.append(SIDES)
                    elif ch in "0123456789ABCDEF":
                        line.append(_sides(int(ch, 16)))
                    else:
                        raise BoardError("bad_board_notation", ch)
                walls.append(line)
            targets = [_split4(s) for s in fields.get("t", "").split(",") if s]
            return cls.from_cell_walls(walls, targets, block, diagonals=diagonals)
        if "t" in fields or len(head) != 8:
            raise BoardError("bad_board_notation", head)
        return cls.from_quadrants([head[i : i + 2] for i in range(0, 8, 2)], diagonals=diagonals)

    # -- queries --------------------------------------------------------------------------------------------
    def has_wall(self, row: int, col: int, side: str) -> bool:
        return bool(self._masks[row * SIZE + col] & WALL_BIT[side])

    def wall_mask(self, row: int, col: int) -> int:
        return self._masks[row * SIZE + col]

    @property
    def masks(self) -> tuple[int, ...]:
        """Flat wall masks, index ``row * 16 + col`` (N=1, E=2, S=4, W=8)."""
        return self._masks

    def target(self, colour: str, symbol: str) -> Target:
        for t in self.targets:
            if t.colour == colour and t.symbol == symbol:
                return t
        raise BoardError("unknown_target", f"{colour} {symbol}")

    def target_at(self, row: int, col: int) -> Target | None:
        for t in self.targets:
            if t.row == row and t.col == col:
                return t
        return None

    def diagonal_at(self, row: int, col: int) -> Diagonal | None:
        for d in self.diagonals:
            if d.row == row and d.col == col:
                return d
        return None

    def with_diagonals(self, diagonals: Iterable[Diagonal]) -> Board:
        return Board(self.cell_walls, self.targets, self.central_block, tuple(sorted(diagonals)), self.quadrants)

    def without_quadrants(self) -> Board:
        """The same board in explicit-walls form (forgets the tile names)."""
        return Board(self.cell_walls, self.targets, self.central_block, self.diagonals, None)


def _sides(mask: int) -> str:
    return "".join(s for s in SIDES if mask & WALL_BIT[s])


def _split4(text: str) -> list[Any]:
    bits = text.split(".")
    if len(bits) != 4:
        raise BoardError("bad_board_notation", text)
    try:
        return [int(bits[0]), int(bits[1]), bits[2], bits[3]]
    except ValueError:
        raise BoardError("bad_board_notation", text) from None


def _target(raw: Sequence[Any]) -> Target:
    if isinstance(raw, str) or len(raw) != 4:
        raise BoardError("bad_target", raw)
    r, c = _check_cell(raw[0], raw[1], "target")
    return Target(r, c, str(raw[2]), str(raw[3]))


def _diagonal(raw: Sequence[Any]) -> Diagonal:
    if isinstance(raw, str) or len(raw) != 4:
        raise BoardError("bad_diagonal", raw)
    r, c = _check_cell(raw[0], raw[1], "diagonal")
    return Diagonal(r, c, str(raw[2]), str(raw[3]))


# -- positions ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Position:
    """Robots on a board and the target of the round. ``robots`` is ``((colour, (row, col)), ...)`` in the
    canonical colour order of ``ROBOT_COLOURS``."""

    robots: tuple[tuple[str, Cell], ...]
    target: Target

    @classmethod
    def make(cls, robots: Mapping[str, Sequence[int]], target: Sequence[Any]) -> Position:
        items: list[tuple[str, Cell]] = []
        for colour, cell in robots.items():
            if colour not in ROBOT_COLOURS:
                raise BoardError("unknown_robot_colour", colour)
            if not isinstance(cell, Sequence) or isinstance(cell, str) or len(cell) != 2:
                raise BoardError("bad_robot_cell", f"{colour} {cell!r:.60}")
            items.append((colour, _check_cell(cell[0], cell[1], colour)))
        items.sort(key=lambda it: ROBOT_COLOURS.index(it[0]))
        return cls(tuple(items), _target(target))

    @property
    def robot_map(self) -> dict[str, Cell]:
        return dict(self.robots)

    def to_notation(self) -> str:
        robots = ",".join(f"{c}@{r}.{k}" for c, (r, k) in self.robots)
        t = self.target
        return f"{robots}>{t.row}.{t.col}.{t.colour}.{t.symbol}"

    @classmethod
    def parse(cls, text: str) -> Position:
        robots_text, sep, target_text = text.strip().partition(">")
        if not sep:
            raise BoardError("bad_position_notation", text)
        robots: dict[str, list[int]] = {}
        for item in robots_text.split(","):
            colour, at, cell = item.partition("@")
            r, dot, c = cell.partition(".")
            if not at or not dot or colour in robots:
                raise BoardError("bad_position_notation", item)
            try:
                robots[colour] = [int(r), int(c)]
            except ValueError:
                raise BoardError("bad_position_notation", item) from None
        return cls.make(robots, _split4(target_text))


def validate_position(board: Board, position: Position) -> None:
    """Reject robots on the central block or sharing a cell, and a target that is not on the board."""
    seen: dict[Cell, str] = {}
    for colour, cell in position.robots:
        if cell in board.central_block:
            raise BoardError("robot_on_central_block", f"{colour} [{cell[0]}, {cell[1]}]")
        if cell in seen:
            raise BoardError("robots_share_cell", f"{seen[cell]} and {colour} at [{cell[0]}, {cell[1]}]")
        seen[cell] = colour
    if position.target not in board.targets:
        raise BoardError("target_not_on_board", list(position.target))


def validate_setup(board: Board, position: Position) -> None:
    """RR 3 / RR-SET-1: at set-up no robot may stand on a target square (nor share a cell or sit on the block)."""
    validate_position(board, position)
    cells = {(t.row, t.col) for t in board.targets}
    for colour, cell in position.robots:
        if cell in cells:
            raise BoardError("robot_on_target_at_setup", f"{colour} [{cell[0]}, {cell[1]}]")


def target_covered(position: Position) -> bool:
    """RR 4.4: the drawn token's square is covered by a robot (marker) at the start of the round: the round is
    void (RR 4.11)."""
    t = position.target
    return any(cell == (t.row, t.col) for _, cell in position.robots)


EXTRA_ROBOT_BY_EDITION: Mapping[int, str | None] = {1: None, 2: "black", 3: "silver", 4: "silver"}
"""RR 2: the fifth robot of each edition (the 1st edition has none)."""
