"""What people read off a Ricochet Robots board, in Italian and English: the one definition of the robots'
letters, the directions and the cells' names, shared by the board image (its letters and axes) and the ``/rr``
parser, so what a referee copies off the image is what the parser reads (BOT-I18N-1, RR-COMP-1).

* **Robots**: the letter the image draws on each robot, in the reader's language — Italian ``R`` rosso, ``B`` blu,
  ``V`` verde, ``G`` giallo, ``N`` nero, ``A`` argento; English ``R`` red, ``G`` green, ``B`` blue, ``Y`` yellow,
  ``K`` black, ``S`` silver — or the colour's name in either language. A letter of the other language is read too
  when it means one robot only (``Y`` is yellow to an Italian reader); ``G`` means giallo to an Italian reader and
  green to an English one: the reader's language decides.
* **Cells**: the column letter ``A``–``P`` (west to east) and the row number ``1``–``16`` (north to south), as
  drawn along the board's edges: ``H11`` is row 10, column 7 of the engine; the older ``row,col`` counted from 0
  (``10,7``) is still read.
* **Directions**: ``N`` ``E`` ``S`` and ``O`` (ovest) in Italian, ``W`` in English (both read in either language),
  the words ``nord`` ``est`` ``sud`` ``ovest`` / ``north`` ``east`` ``south`` ``west``, or the arrows ``↑ → ↓ ←``;
  a move is the robot (letter or colour name) and its direction, together (``VN``) or apart (``R nord``).

``parse_*`` and ``format_*`` are pairs: what ``format_x(value, lang)`` writes, ``parse_x(…, lang)`` reads back as
``value``. Errors are :class:`NotationError` with a code from ``ERROR_CODES`` and the piece not understood.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from bot.rules.errors import RuleError
from bot.rules.ricochet.board import ROBOT_COLOURS, SIZE, SYMBOLS, TARGET_COLOURS, VORTEX_COLOUR, Cell

LANGUAGES: tuple[str, ...] = ("it", "en")

ROBOT_LETTERS: Mapping[str, Mapping[str, str]] = {
    "it": {"red": "R", "green": "V", "blue": "B", "yellow": "G", "black": "N", "silver": "A"},
    "en": {"red": "R", "green": "G", "blue": "B", "yellow": "Y", "black": "K", "silver": "S"},
}
COLOUR_NAMES: Mapping[str, Mapping[str, str]] = {
    "it": {"red": "rosso", "green": "verde", "blue": "blu", "yellow": "giallo", "black": "nero", "silver": "argento"},
    "en": {"red": "red", "green": "green", "blue": "blue", "yellow": "yellow", "black": "black", "silver": "silver"},
}
SYMBOL_NAMES: Mapping[str, Mapping[str, str]] = {
    "it": {"circle": "cerchio", "triangle": "triangolo", "square": "quadrato", "hexagon": "esagono",
           "vortex": "vortice"},
    "en": {"circle": "circle", "triangle": "triangle", "square": "square", "hexagon": "hexagon", "vortex": "vortex"},
}  # fmt: skip
DIRECTION_LETTERS: Mapping[str, Mapping[str, str]] = {
    "it": {"N": "N", "E": "E", "S": "S", "W": "O"},
    "en": {"N": "N", "E": "E", "S": "S", "W": "W"},
}
DIRECTION_NAMES: Mapping[str, Mapping[str, str]] = {
    "it": {"N": "nord", "E": "est", "S": "sud", "W": "ovest"},
    "en": {"N": "north", "E": "east", "S": "south", "W": "west"},
}
ARROWS: Mapping[str, str] = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
COLUMNS = "ABCDEFGHIJKLMNOP"[:SIZE]
MOVES_MAX = 60
"""The most moves ``/rr verify`` reads: as many as its ``declared`` option allows."""

ERROR_CODES: tuple[str, ...] = (
    "robots_unreadable",  # a piece that is not a robot and its cell (value: the piece), or no robot at all
    "robot_unknown",  # a letter or word that names no robot (value: it)
    "robot_twice",  # two entries for one robot (value: the two entries; ``colour``: the robot)
    "cell_unknown",  # a cell off the board (value: the cell as written)
    "moves_unreadable",  # a piece that is not a robot and a direction (value: the piece), or no move at all
    "moves_too_many",  # more than MOVES_MAX moves (value: the count)
    "target_unreadable",  # no colour and symbol, or a cell given twice (value: the text)
    "target_word_unknown",  # a word that is neither a target's colour nor its symbol (value: it)
)


class NotationError(RuleError):
    """Text that the notation cannot read: ``code`` (one of ``ERROR_CODES``), ``value`` the piece not understood,
    ``colour`` the robot concerned when there is one."""

    def __init__(self, code: str, value: object, *, colour: str | None = None) -> None:
        super().__init__(code, value)
        self.colour = colour


class TargetText(NamedTuple):
    """A target as typed: its cell when given (else the board's target of that colour and symbol is meant)."""

    cell: Cell | None
    colour: str
    symbol: str


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {lang!r}")
    return lang


def _readings(lang: str) -> dict[str, str]:
    """Letter or name (lower case) → robot colour: the reader's letters first, then the other language's letters
    that do not clash with them, then the names in both languages."""
    table: dict[str, str] = {}
    for other in (lang, *(x for x in LANGUAGES if x != lang)):
        for colour, letter in ROBOT_LETTERS[other].items():
            table.setdefault(letter.lower(), colour)
    for other in LANGUAGES:
        for colour, name in COLOUR_NAMES[other].items():
            table.setdefault(name, colour)
    return table


READINGS: Mapping[str, Mapping[str, str]] = {lang: _readings(lang) for lang in LANGUAGES}
DIRECTION_READINGS: Mapping[str, str] = {
    **{letter.lower(): d for lang in LANGUAGES for d, letter in DIRECTION_LETTERS[lang].items()},
    **{name: d for lang in LANGUAGES for d, name in DIRECTION_NAMES[lang].items()},
    **{arrow: d for d, arrow in ARROWS.items()},
}
_TARGET_WORDS: Mapping[str, tuple[str, str]] = {
    **{name: ("colour", c) for lang in LANGUAGES for c, name in COLOUR_NAMES[lang].items() if c in TARGET_COLOURS},
    **{name: ("symbol", s) for lang in LANGUAGES for s, name in SYMBOL_NAMES[lang].items() if s in SYMBOLS},
}


# -- names ------------------------------------------------------------------------------------------------------
def robot_letter(colour: str, lang: str) -> str:
    """The letter drawn on the ``colour`` robot for a reader of ``lang``."""
    return ROBOT_LETTERS[_language(lang)][colour]


def colour_name(colour: str, lang: str) -> str:
    """The name of the ``colour`` (a robot's or a target's) in ``lang``: ``rosso`` / ``red``."""
    return COLOUR_NAMES[_language(lang)][colour]


def symbol_name(symbol: str, lang: str) -> str:
    """The name of a target's ``symbol`` in ``lang``: ``cerchio`` / ``circle``."""
    return SYMBOL_NAMES[_language(lang)][symbol]


def direction_letter(direction: str, lang: str) -> str:
    """The letter of ``direction`` (``N`` ``E`` ``S`` ``W``) for a reader of ``lang``: west is ``O`` in Italian."""
    return DIRECTION_LETTERS[_language(lang)][direction]


def column_label(col: int) -> str:
    """The letter drawn above and below column ``col`` (0 = west): ``A`` … ``P``."""
    if not 0 <= col < SIZE:
        raise IndexError(col)
    return COLUMNS[col]


def row_label(row: int) -> str:
    """The number drawn beside row ``row`` (0 = north): ``1`` … ``16``."""
    if not 0 <= row < SIZE:
        raise IndexError(row)
    return str(row + 1)


def cell_name(cell: Sequence[int]) -> str:
    """``(10, 7)`` → ``H11``: the column's letter and the row's number, as the board's edges show them."""
    return column_label(cell[1]) + row_label(cell[0])


# -- cells -------------------------------------------------------------------------------------------------------
_CELL = re.compile(r"(?:(?P<col>[^\W\d_])(?P<row>\d+)|(?P<r>\d+)\s*[,.;/ ]\s*(?P<c>\d+))(?!\d)")


def _cell_of(match: re.Match[str]) -> Cell:
    if match["col"] is not None:
        col, row = COLUMNS.find(match["col"].upper()), int(match["row"]) - 1
    else:
        row, col = int(match["r"]), int(match["c"])
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise NotationError("cell_unknown", match[0])
    return (row, col)


def parse_cell(text: str) -> Cell:
    """``H11`` (column A–P, row 1–16) or ``10,7`` (row, column counted from 0) → ``(10, 7)``."""
    match = _CELL.fullmatch(text.strip())
    if match is None:
        raise NotationError("cell_unknown", text.strip())
    return _cell_of(match)


# -- robots ------------------------------------------------------------------------------------------------------
_SEPARATORS = re.compile(r"[\s,;]*")
_BETWEEN = re.compile(r"\s*[:=@]?\s*")
_LETTERS = re.compile(r"[^\W\d_]+")
_PIECE = re.compile(r"\S+")


def _skip(pattern: re.Pattern[str], text: str, at: int) -> int:
    """Where ``pattern`` (one that may match nothing) ends, from ``at``."""
    found = pattern.match(text, at)
    return found.end() if found else at


def _piece(text: str, at: int) -> str:
    found = _PIECE.match(text, at)
    return found[0] if found else text[at:]


def parse_robots(text: str, lang: str) -> dict[str, Cell]:
    """``RF16 VH11 BP6 GD11`` (Italian) or ``RF16 GH11 BP6 YD11`` (English) → ``{colour: (row, col)}``; each robot
    is its letter or colour name and its cell, ``H11`` or ``row,col`` from 0 (``R15,5``, ``rosso 15,5``)."""
    readings = READINGS[_language(lang)]
    robots: dict[str, Cell] = {}
    written: dict[str, str] = {}
    at = _skip(_SEPARATORS, text, 0)
    while at < len(text):
        letters = _LETTERS.match(text, at)
        if letters is None:
            raise NotationError("robots_unreadable", _piece(text, at))
        run = letters[0]
        entry: tuple[str, re.Match[str]] | None = None
        for k in range(len(run), 0, -1):  # the longest name first: "blu3,4" is blu, "GH11" is G at H11
            colour = readings.get(run[:k].lower())
            if colour is None:
                continue
            cell = _CELL.match(text, _skip(_BETWEEN, text, at + k))
            if cell is not None and (k == len(run) or cell.start() == at + k):
                entry = (colour, cell)
                break
        if entry is None:
            # a robot, or a robot and a column letter, without a cell after it; else the word names no robot
            if any(run[:k].lower() in readings for k in range(max(1, len(run) - 1), len(run) + 1)):
                raise NotationError("robots_unreadable", _piece(text, at))
            raise NotationError("robot_unknown", run)
        colour, cell = entry
        piece = text[at : cell.end()].strip()
        if colour in robots:
            raise NotationError("robot_twice", (written[colour], piece), colour=colour)
        robots[colour], written[colour] = _cell_of(cell), piece
        at = _skip(_SEPARATORS, text, cell.end())
    if not robots:
        raise NotationError("robots_unreadable", text.strip())
    return robots


def format_robots(robots: Mapping[str, Sequence[int]], lang: str) -> str:
    """``{colour: (row, col)}`` → ``RF16 VH11 BP6 GD11``, in the order of ``ROBOT_COLOURS``."""
    ordered = sorted(robots.items(), key=lambda item: ROBOT_COLOURS.index(item[0]))
    return " ".join(robot_letter(colour, lang) + cell_name(cell) for colour, cell in ordered)


# -- moves -------------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"[^\W\d_]+|[↑→↓←]")
_BAD_TOKEN = re.compile(r"[^\s,;]+")


def _direction_after(text: str, at: int) -> tuple[str, int] | None:
    """The direction written at ``at`` (after spaces, ``:`` or ``=``): a letter, a word or an arrow; and its end."""
    token = _TOKEN.match(text, _skip(_BETWEEN, text, at))
    direction = DIRECTION_READINGS.get(token[0].lower()) if token else None
    return (direction, token.end()) if token and direction else None


def _read_moves_at(text: str, at: int, readings: Mapping[str, str]) -> tuple[list[tuple[str, str]], int] | None:
    """The move (or, for the old run of letters ``RNGE``, the moves) written at ``at``, and where it ends."""
    token = _LETTERS.match(text, at)
    if token is None:
        return None
    word = token[0].lower()
    robot = readings.get(word)
    if robot is not None:  # "R nord", "rosso N", "V↑": the robot, then its direction
        after = _direction_after(text, token.end())
        if after is not None:
            return [(robot, after[0])], after[1]
    for k in range(len(word) - 1, 0, -1):  # "VN", "rossoN", "redNorth": the robot and the direction together
        robot, direction = readings.get(word[:k]), DIRECTION_READINGS.get(word[k:])
        if robot is not None and direction is not None:
            return [(robot, direction)], token.end()
    pairs = [(readings.get(word[i]), DIRECTION_READINGS.get(word[i + 1])) for i in range(0, len(word) - 1, 2)]
    if len(word) % 2 == 0 and all(r is not None and d is not None for r, d in pairs):  # "RNGE": moves without spaces
        return [(str(r), str(d)) for r, d in pairs], token.end()
    return None


def _bad_move(text: str, at: int, readings: Mapping[str, str]) -> str:
    """The whole piece not understood: the word, or a robot and the word after it ("R nordd"), never a fragment."""
    token = _LETTERS.match(text, at)
    if token is not None and token[0].lower() in readings:
        following = _BAD_TOKEN.match(text, _skip(_BETWEEN, text, token.end()))
        if following is not None and text[token.end() : following.start()].strip(" :=") == "":
            return text[at : following.end()]
    found = _BAD_TOKEN.match(text, at)
    return found[0] if found else text[at:]


def parse_moves(text: str, lang: str) -> list[tuple[str, str]]:
    """``VN GE BS RO`` (Italian), ``GN YE BS RW`` (English), with arrows ``V↑ G→`` or words ``R nord``, ``rosso
    nord``, ``red north`` → ``[(colour, "N"), …]``: each move is the robot (its letter or colour name) and the
    direction (a letter — ``O`` or ``W`` for west — a word or an arrow, in either language)."""
    readings = READINGS[_language(lang)]
    moves: list[tuple[str, str]] = []
    at = _skip(_SEPARATORS, text, 0)
    while at < len(text):
        read = _read_moves_at(text, at, readings)
        if read is None:
            raise NotationError("moves_unreadable", _bad_move(text, at, readings))
        moves.extend(read[0])
        at = _skip(_SEPARATORS, text, read[1])
    if not moves:
        raise NotationError("moves_unreadable", text.strip())
    if len(moves) > MOVES_MAX:
        raise NotationError("moves_too_many", len(moves))
    return moves


def format_moves(moves: Iterable[Sequence[str]], lang: str, *, arrows: bool = False) -> str:
    """``[("yellow", "N"), ("red", "W")]`` → ``GN RO`` in Italian, ``YN RW`` in English (``G↑ R←`` with arrows)."""
    return " ".join(
        robot_letter(colour, lang) + (ARROWS[direction] if arrows else direction_letter(direction, lang))
        for colour, direction in moves
    )


# -- targets -----------------------------------------------------------------------------------------------------
_TARGET_TOKEN = re.compile(
    r"(?P<cell>[^\W\d_]\d+)(?![^\W_])|(?P<number>\d+)|(?P<word>[^\W\d_]+)|(?P<other>[^\s,;.:/()\[\]])"
)


def parse_target(text: str, lang: str) -> TargetText:
    """``J3 triangolo blu``, ``2,9 blue triangle`` (row,col from 0) or ``blue triangle`` (found on the board);
    ``vortice``/``vortex`` alone is the cosmic vortex. Colour and symbol names are read in either language."""
    _language(lang)
    cells: list[str] = []
    numbers: list[str] = []
    found: dict[str, str] = {}
    for token in _TARGET_TOKEN.finditer(text):
        if token["cell"] is not None:
            cells.append(token["cell"])
        elif token["number"] is not None:
            numbers.append(token["number"])
        else:
            word = token["word"] or token["other"]
            kind = _TARGET_WORDS.get(word.lower())
            if kind is None:
                raise NotationError("target_word_unknown", word)
            if found.setdefault(kind[0], kind[1]) != kind[1]:
                raise NotationError("target_unreadable", text.strip())
    if found.get("symbol") == "vortex":
        found.setdefault("colour", VORTEX_COLOUR)
    if "colour" not in found or "symbol" not in found or len(cells) > 1 or len(numbers) not in (0, 2):
        raise NotationError("target_unreadable", text.strip())
    if cells and numbers:
        raise NotationError("target_unreadable", text.strip())
    cell = parse_cell(cells[0]) if cells else parse_cell(",".join(numbers)) if numbers else None
    return TargetText(cell, found["colour"], found["symbol"])


def format_target(target: TargetText, lang: str) -> str:
    """``J3 triangolo blu`` (Italian puts the colour after the shape), ``J3 blue triangle``; the vortex is ``J3
    vortice`` (it has no colour); without a cell, the words alone."""
    words = [symbol_name(target.symbol, lang)]
    if target.colour != VORTEX_COLOUR:
        words.insert(len(words) if lang == "it" else 0, colour_name(target.colour, lang))
    return " ".join([cell_name(target.cell), *words] if target.cell is not None else words)
