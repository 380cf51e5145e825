"""Plain input data for the renderer: small frozen value types with a JSON parse/serialise pair.

These carry names, numbers and codes only (no wording, no database rows), so the CLI, the demo and the Discord
cogs can all build them. ``X.from_json(obj)`` accepts exactly the shape ``X.to_json()`` writes (plus defaults for
optional fields) and rejects unknown keys with a :class:`RenderInputError` quoting the bad value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.ricochet.board import ROBOT_COLOURS, SYMBOLS, VORTEX_COLOUR
from bot.rules.text import decimals_needed

__all__ = [
    "BOARD_SIZE",
    "BracketData",
    "BracketPlayer",
    "BracketTable",
    "MapPlayer",
    "MapTerritory",
    "RRBoardData",
    "RRDiagonal",
    "RRMove",
    "RRRobot",
    "RRTarget",
    "RenderInputError",
    "RiskMapData",
    "SeatCard",
    "StandingRow",
    "StandingsData",
    "TableCard",
    "TablesData",
    "Words",
    "decimals_needed",
]

BOARD_SIZE = 16
TARGET_COLOURS = (*ROBOT_COLOURS[:4], VORTEX_COLOUR)  # colours and symbols are the RR engine's (defined once)
TARGET_SYMBOLS = SYMBOLS
ARMY_COLOURS = ("red", "blue", "yellow", "green", "black", "purple")


ROUND_KINDS = ("qualifying", "semifinal", "final")


def _plain_number(value: float, decimals: int | None = None) -> str:
    return f"{value:.{decimals_needed([value]) if decimals is None else decimals}f}"


@dataclass(frozen=True, slots=True)
class Words:
    """The words an image is drawn with, given by its caller — the renderer has no catalogue and no language of its
    own. ``labels`` by key (``players``, ``table``, ``robot_letter.red``…; the bot builds them from its catalogue,
    ``bot.present.images.image_words``), numbers and ``YYYY-MM-DD`` dates as the reader writes them."""

    labels: Mapping[str, str]
    numbers: Callable[[float, int | None], str] = _plain_number
    dates: Callable[[str], str] = str

    def number(self, value: float, decimals: int | None = None) -> str:
        """``value`` as the reader writes numbers (``decimals``: exactly that many; None: as many as it needs)."""
        return self.numbers(value, decimals)

    def date(self, iso: str) -> str:
        return self.dates(iso)

    def label(self, key: str) -> str:
        try:
            return self.labels[key]
        except KeyError:
            raise RenderInputError("missing_label", f"no words for the label {key!r}") from None

    def robot_letter(self, colour: str) -> str:
        """The letter on a robot: its colour's initial in the reader's language."""
        return self.label(f"robot_letter.{colour}")


class RenderInputError(ValueError):
    """Renderer input that does not fit the expected shape; ``code`` is stable, the message quotes the value."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# --------------------------------------------------------------------------------------------- parsing helpers


def _obj(value: Any, where: str, required: Sequence[str], optional: Sequence[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RenderInputError("not_an_object", f"{where} must be a JSON object, got {value!r:.60}")
    allowed = set(required) | set(optional)
    for key in required:
        if key not in value:
            raise RenderInputError("missing_field", f"{where}: missing field {key!r}")
    for key in value:
        if key not in allowed:
            raise RenderInputError(
                "unknown_field", f"{where}: unknown field {key!r} (allowed: {', '.join(sorted(allowed))})"
            )
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RenderInputError("not_a_string", f"{where} must be a string, got {value!r:.60}")
    return value


def _opt_str(value: Any, where: str) -> str | None:
    return None if value is None else _str(value, where)


def _int(value: Any, where: str, minimum: int | None = None, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RenderInputError("not_an_integer", f"{where} must be an integer, got {value!r:.60}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise RenderInputError("out_of_range", f"{where} = {value} is outside {minimum}..{maximum}")
    return value


def _opt_int(value: Any, where: str, minimum: int | None = None) -> int | None:
    return None if value is None else _int(value, where, minimum)


NUMBER_LIMIT = 1e12  # points, values: far beyond any game's, small enough to format exactly


def _num(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RenderInputError("not_a_number", f"{where} must be a number, got {value!r:.60}")
    if isinstance(value, int) and abs(value) > NUMBER_LIMIT:
        raise RenderInputError("out_of_range", f"{where} = {str(value)[:40]} is outside ±{NUMBER_LIMIT:.0e}")
    number = float(value)
    if number != number or abs(number) > NUMBER_LIMIT:
        raise RenderInputError("out_of_range", f"{where} = {str(value)[:40]} is outside ±{NUMBER_LIMIT:.0e}")
    return number


def _opt_num(value: Any, where: str) -> float | None:
    return None if value is None else _num(value, where)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise RenderInputError("not_a_boolean", f"{where} must be true or false, got {value!r:.60}")
    return value


def _opt_bool(value: Any, where: str) -> bool | None:
    return None if value is None else _bool(value, where)


LIST_MAX = 2_000  # items of any list in a render document: an image stays far below Pillow's bomb limit


def _list(value: Any, where: str, max_items: int = LIST_MAX) -> Sequence[Any]:
    if not isinstance(value, list | tuple):
        raise RenderInputError("not_a_list", f"{where} must be a list, got {value!r:.60}")
    if len(value) > max_items:
        raise RenderInputError("too_many", f"{where} has {len(value)} items, at most {max_items}")
    return value


TABLES_MAX = 500  # table cards in one image (a 2,000-player round); the bot pages larger ones
SEATS_MAX = 8
ROWS_MAX = 1_000  # standings rows in one image
BRACKET_TABLES_MAX = 16
MAP_NOTES_MAX = 4  # lines under a player's name in the map's legend


def _choice(value: Any, where: str, choices: Sequence[str]) -> str:
    text = _str(value, where)
    if text not in choices:
        raise RenderInputError("unknown_code", f"{where} = {text!r} is not one of {', '.join(choices)}")
    return text


def _cell(value: Any, where: str) -> tuple[int, int]:
    pair = _list(value, where)
    if len(pair) != 2:
        raise RenderInputError("bad_cell", f"{where} must be [row, col], got {value!r:.60}")
    return (_int(pair[0], f"{where}[0]", 0, BOARD_SIZE - 1), _int(pair[1], f"{where}[1]", 0, BOARD_SIZE - 1))


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _num_out(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


# --------------------------------------------------------------------------------------------------- standings

ROUND_RESULTS_MAX = 40  # rounds on one standings line (a club championship has 4-12 evenings)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A round's result on a standings line that lists them (a club championship with discards, issue 47):
    ``points`` None = absent; ``counted`` false = discarded (drawn struck through)."""

    round: int
    points: float | None
    counted: bool = True

    @classmethod
    def from_json(cls, obj: Any, where: str = "round") -> RoundResult:
        o = _obj(obj, where, ("round",), ("points", "counted"))
        return cls(
            round=_int(o["round"], f"{where}.round", 1),
            points=_opt_num(o.get("points"), f"{where}.points"),
            counted=_bool(o.get("counted", True), f"{where}.counted"),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "points": None if self.points is None else _num_out(self.points)}
        if not self.counted:
            out["counted"] = False
        return out


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings (BOT-STD-1): ``previous_rank`` drives the movement arrow (None = new entry);
    ``note`` is a short grey line under the name (the final classification: where the place was decided);
    ``rounds``, when given, are drawn under the line, one small column each, the discarded ones struck through."""

    rank: int
    name: str
    points: float
    games: int
    club: str | None = None
    team: str | None = None
    tiebreak: float | None = None
    previous_rank: int | None = None
    note: str | None = None
    rounds: tuple[RoundResult, ...] = ()

    @classmethod
    def from_json(cls, obj: Any, where: str = "row") -> StandingRow:
        o = _obj(obj, where, ("rank", "name", "points", "games"),
                 ("club", "team", "tiebreak", "previous_rank", "note", "rounds"))  # fmt: skip
        rounds = _list(o.get("rounds", []), f"{where}.rounds", ROUND_RESULTS_MAX)
        return cls(
            rank=_int(o["rank"], f"{where}.rank", 1),
            name=_str(o["name"], f"{where}.name"),
            points=_num(o["points"], f"{where}.points"),
            games=_int(o["games"], f"{where}.games", 0),
            club=_opt_str(o.get("club"), f"{where}.club"),
            team=_opt_str(o.get("team"), f"{where}.team"),
            tiebreak=_opt_num(o.get("tiebreak"), f"{where}.tiebreak"),
            previous_rank=_opt_int(o.get("previous_rank"), f"{where}.previous_rank", 1),
            note=_opt_str(o.get("note"), f"{where}.note"),
            rounds=tuple(RoundResult.from_json(r, f"{where}.rounds[{i}]") for i, r in enumerate(rounds)),
        )

    def to_json(self) -> dict[str, Any]:
        out = _drop_none(
            {
                "rank": self.rank,
                "name": self.name,
                "points": _num_out(self.points),
                "games": self.games,
                "club": self.club,
                "team": self.team,
                "tiebreak": None if self.tiebreak is None else _num_out(self.tiebreak),
                "previous_rank": self.previous_rank,
                "note": self.note,
            }
        )
        if self.rounds:
            out["rounds"] = [r.to_json() for r in self.rounds]
        return out


@dataclass(frozen=True, slots=True)
class StandingsData:
    """Standings after a round. ``date`` is ISO ``YYYY-MM-DD``; ``tiebreak_label`` names the tie-break column
    (a short code-free header such as "PT" for table points; default: the generic locale label); ``legend`` is
    one line under the table saying how players level on points are ordered (the rows come in that order).
    ``title`` replaces "Standings after round N" (the final classification); ``points_label`` names the points
    column (default: the locale's "points")."""

    tournament: str
    round: int
    date: str
    rows: tuple[StandingRow, ...]
    has_teams: bool = False
    tiebreak_label: str | None = None
    legend: str | None = None
    title: str | None = None
    points_label: str | None = None

    @classmethod
    def from_json(cls, obj: Any) -> StandingsData:
        o = _obj(obj, "standings", ("tournament", "round", "date", "rows"),
                 ("has_teams", "tiebreak_label", "legend", "title", "points_label"))  # fmt: skip
        rows = tuple(StandingRow.from_json(r, f"rows[{i}]") for i, r in enumerate(_list(o["rows"], "rows", ROWS_MAX)))
        return cls(
            tournament=_str(o["tournament"], "tournament"),
            round=_int(o["round"], "round", 0),
            date=_iso_date(o["date"], "date"),
            rows=rows,
            has_teams=_bool(o.get("has_teams", False), "has_teams"),
            tiebreak_label=_opt_str(o.get("tiebreak_label"), "tiebreak_label"),
            legend=_opt_str(o.get("legend"), "legend"),
            title=_opt_str(o.get("title"), "title"),
            points_label=_opt_str(o.get("points_label"), "points_label"),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tournament": self.tournament,
            "round": self.round,
            "date": self.date,
            "rows": [r.to_json() for r in self.rows],
            "has_teams": self.has_teams,
        }
        if self.tiebreak_label is not None:
            out["tiebreak_label"] = self.tiebreak_label
        if self.legend is not None:
            out["legend"] = self.legend
        if self.title is not None:
            out["title"] = self.title
        if self.points_label is not None:
            out["points_label"] = self.points_label
        return out


def _iso_date(value: Any, where: str) -> str:
    text = _str(value, where)
    parts = text.split("-")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts) or len(parts[0]) != 4:
        raise RenderInputError("bad_date", f"{where} must be an ISO date YYYY-MM-DD, got {text!r}")
    month, day = int(parts[1]), int(parts[2])
    if not (1 <= month <= 12 and 1 <= day <= 31):
        raise RenderInputError("bad_date", f"{where} must be an ISO date YYYY-MM-DD, got {text!r}")
    return text


# ------------------------------------------------------------------------------------------------------ tables


@dataclass(frozen=True, slots=True)
class SeatCard:
    """A seat of a table card: the player's name and club (players of one club at one table are marked); JSON gives
    either the name alone or ``{"name", "club"}``."""

    name: str
    club: str | None = None

    @classmethod
    def from_json(cls, obj: Any, where: str = "seat") -> SeatCard:
        if isinstance(obj, str):
            return cls(name=obj)
        o = _obj(obj, where, ("name",), ("club",))
        return cls(name=_str(o["name"], f"{where}.name"), club=_opt_str(o.get("club"), f"{where}.club"))

    def to_json(self) -> dict[str, Any]:
        return _drop_none({"name": self.name, "club": self.club})


@dataclass(frozen=True, slots=True)
class TableCard:
    """One table of a round (BOT-TAB-1): seats in seating order."""

    number: int
    seats: tuple[SeatCard, ...]

    @classmethod
    def from_json(cls, obj: Any, where: str = "table") -> TableCard:
        o = _obj(obj, where, ("number", "seats"))
        seats = tuple(
            SeatCard.from_json(s, f"{where}.seats[{i}]") for i, s in enumerate(_list(o["seats"], where, SEATS_MAX))
        )
        if not seats:
            raise RenderInputError("empty_table", f"{where}: table {o['number']!r} has no seats")
        return cls(number=_int(o["number"], f"{where}.number", 1), seats=seats)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seats": [s.to_json() for s in self.seats]}


@dataclass(frozen=True, slots=True)
class TablesData:
    """Table assignments of a round with the draw's published seed and whether the draw is provably optimal.
    ``kind`` names the round: ``qualifying`` (titled with its number), ``semifinal`` or ``final``."""

    tournament: str
    round: int
    date: str
    tables: tuple[TableCard, ...]
    seed: int | None = None
    optimal: bool | None = None
    kind: str = "qualifying"
    optimal_for_cinquisti: bool = False  # the proof holds for the cinquisti drawn first (ARB 5 a-d)

    def __post_init__(self) -> None:
        if self.kind not in ROUND_KINDS:
            raise RenderInputError("bad_kind", f"kind must be one of {', '.join(ROUND_KINDS)}, got {self.kind!r:.40}")

    @classmethod
    def from_json(cls, obj: Any) -> TablesData:
        o = _obj(
            obj,
            "tables_input",
            ("tournament", "round", "date", "tables"),
            ("seed", "optimal", "kind", "optimal_for_cinquisti"),
        )
        tables = tuple(
            TableCard.from_json(t, f"tables[{i}]") for i, t in enumerate(_list(o["tables"], "tables", TABLES_MAX))
        )
        return cls(
            kind=_str(o.get("kind", "qualifying"), "kind"),
            tournament=_str(o["tournament"], "tournament"),
            round=_int(o["round"], "round", 0),
            date=_iso_date(o["date"], "date"),
            tables=tables,
            seed=_opt_int(o.get("seed"), "seed"),
            optimal=_opt_bool(o.get("optimal"), "optimal"),
            optimal_for_cinquisti=bool(_opt_bool(o.get("optimal_for_cinquisti"), "optimal_for_cinquisti")),
        )

    def to_json(self) -> dict[str, Any]:
        return _drop_none(
            {
                "tournament": self.tournament,
                "round": self.round,
                "date": self.date,
                "tables": [t.to_json() for t in self.tables],
                "seed": self.seed,
                "optimal": self.optimal,
                "kind": None if self.kind == "qualifying" else self.kind,
                "optimal_for_cinquisti": True if self.optimal_for_cinquisti else None,
            }
        )


# ----------------------------------------------------------------------------------------------------- bracket


@dataclass(frozen=True, slots=True)
class BracketPlayer:
    """A player in the final phase. ``seed`` = rank in the standings; ``declined`` marks a semifinal winner who
    gave up the final; ``replaces`` names the finalist this player stands in for (TOUR-FIN-1); ``table_points``
    are the player's points at this table and ``place`` their place at it (1 = won) once it is reported."""

    name: str
    club: str | None = None
    seed: int | None = None
    declined: bool = False
    replaces: str | None = None
    table_points: float | None = None
    place: int | None = None

    @classmethod
    def from_json(cls, obj: Any, where: str = "player") -> BracketPlayer:
        if isinstance(obj, str):
            return cls(name=obj)
        o = _obj(obj, where, ("name",), ("club", "seed", "declined", "replaces", "table_points", "place"))
        return cls(
            name=_str(o["name"], f"{where}.name"),
            club=_opt_str(o.get("club"), f"{where}.club"),
            seed=_opt_int(o.get("seed"), f"{where}.seed", 1),
            declined=_bool(o.get("declined", False), f"{where}.declined"),
            replaces=_opt_str(o.get("replaces"), f"{where}.replaces"),
            table_points=_opt_num(o.get("table_points"), f"{where}.table_points"),
            place=_opt_int(o.get("place"), f"{where}.place", 1),
        )

    def to_json(self) -> dict[str, Any]:
        points = None if self.table_points is None else _num_out(self.table_points)
        out = _drop_none(
            {
                "name": self.name,
                "club": self.club,
                "seed": self.seed,
                "replaces": self.replaces,
                "table_points": points,
                "place": self.place,
            }
        )
        if self.declined:
            out["declined"] = True
        return out


@dataclass(frozen=True, slots=True)
class BracketTable:
    """A semifinal or final table; ``winner`` is the index into ``players`` (None while not played)."""

    number: int
    players: tuple[BracketPlayer, ...]
    winner: int | None = None

    @classmethod
    def from_json(cls, obj: Any, where: str = "table") -> BracketTable:
        o = _obj(obj, where, ("number", "players"), ("winner",))
        players = tuple(
            BracketPlayer.from_json(p, f"{where}.players[{i}]")
            for i, p in enumerate(_list(o["players"], where, SEATS_MAX))
        )
        winner = _opt_int(o.get("winner"), f"{where}.winner", 0)
        if winner is not None and winner >= len(players):
            raise RenderInputError("bad_winner", f"{where}.winner = {winner} but the table has {len(players)} players")
        return cls(number=_int(o["number"], f"{where}.number", 1), players=players, winner=winner)

    def to_json(self) -> dict[str, Any]:
        return _drop_none(
            {"number": self.number, "players": [p.to_json() for p in self.players], "winner": self.winner}
        )


@dataclass(frozen=True, slots=True)
class BracketData:
    """Final phase (TOUR-SF-1, TOUR-FIN-1): semifinal tables, players seeded straight into the final, the final."""

    tournament: str
    date: str
    semifinals: tuple[BracketTable, ...]
    final: BracketTable
    direct_finalists: tuple[BracketPlayer, ...] = ()

    @classmethod
    def from_json(cls, obj: Any) -> BracketData:
        o = _obj(obj, "bracket", ("tournament", "date", "semifinals", "final"), ("direct_finalists",))
        return cls(
            tournament=_str(o["tournament"], "tournament"),
            date=_iso_date(o["date"], "date"),
            semifinals=tuple(
                BracketTable.from_json(t, f"semifinals[{i}]")
                for i, t in enumerate(_list(o["semifinals"], "sf", BRACKET_TABLES_MAX))
            ),
            final=BracketTable.from_json(o["final"], "final"),
            direct_finalists=tuple(
                BracketPlayer.from_json(p, f"direct_finalists[{i}]")
                for i, p in enumerate(_list(o.get("direct_finalists", []), "direct_finalists", SEATS_MAX))
            ),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "date": self.date,
            "semifinals": [t.to_json() for t in self.semifinals],
            "final": self.final.to_json(),
            "direct_finalists": [p.to_json() for p in self.direct_finalists],
        }


# ------------------------------------------------------------------------------------------- Ricochet Robots


@dataclass(frozen=True, slots=True)
class RRTarget:
    """A target tile: its cell (row 0 at the top, col 0 at the left), colour and symbol, as the RR engine names them;
    JSON ``[row, col, colour, symbol]``."""

    row: int
    col: int
    colour: str
    symbol: str

    @classmethod
    def from_json(cls, obj: Any, where: str = "target") -> RRTarget:
        t = _list(obj, where)
        if len(t) != 4:
            raise RenderInputError("bad_target", f"{where} must be [row, col, colour, symbol], got {obj!r:.60}")
        row, col = _cell(t[:2], where)
        return cls(
            row, col, _choice(t[2], f"{where} colour", TARGET_COLOURS), _choice(t[3], f"{where}", TARGET_SYMBOLS)
        )

    def to_json(self) -> list[Any]:
        return [self.row, self.col, self.colour, self.symbol]


@dataclass(frozen=True, slots=True)
class RRRobot:
    """A robot at its start: its colour (the RR engine's) and cell (row 0 at the top, col 0 at the left)."""

    colour: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class RRDiagonal:
    r"""A diagonal wall (RR-VAR-2): ``slant`` "/" runs bottom-left to top-right, "\" top-left to bottom-right;
    robots of ``colour`` cross it, the others bounce off."""

    row: int
    col: int
    colour: str
    slant: str

    @classmethod
    def from_json(cls, obj: Any, where: str = "diagonal") -> RRDiagonal:
        d = _list(obj, where)
        if len(d) != 4:
            raise RenderInputError("bad_diagonal", f"{where} must be [row, col, colour, slant], got {obj!r:.60}")
        row, col = _cell(d[:2], where)
        return cls(row, col, _choice(d[2], f"{where} colour", ROBOT_COLOURS), _choice(d[3], f"{where} slant", "/\\"))

    def to_json(self) -> list[Any]:
        return [self.row, self.col, self.colour, self.slant]


@dataclass(frozen=True, slots=True)
class RRMove:
    """One move of a solution path: the robot and the cells where it turns/stops (the last one is where it ends).
    A plain move has one stop; a move deflected by diagonals has one stop per bend."""

    colour: str
    stops: tuple[tuple[int, int], ...]

    @classmethod
    def from_json(cls, obj: Any, where: str = "move") -> RRMove:
        m = _list(obj, where)
        if len(m) != 2:
            raise RenderInputError("bad_move", f"{where} must be [colour, [[row, col], ...]], got {obj!r:.60}")
        stops = tuple(_cell(s, f"{where} stop {i}") for i, s in enumerate(_list(m[1], where)))
        if not stops:
            raise RenderInputError("bad_move", f"{where} has no stops")
        return cls(_choice(m[0], f"{where} colour", ROBOT_COLOURS), stops)

    def to_json(self) -> list[Any]:
        return [self.colour, [list(s) for s in self.stops]]


@dataclass(frozen=True, slots=True)
class RRBoardData:
    """A Ricochet Robots position (RR-COMP-1) with walls as in ``boards.json``: ``cell_walls[row][col]`` = the
    sides ('NESW' subset) with a wall; robots at their start; the active target (row, col); optional path."""

    cell_walls: tuple[tuple[str, ...], ...]
    targets: tuple[RRTarget, ...]
    robots: tuple[RRRobot, ...]
    active_target: tuple[int, int] | None = None
    diagonals: tuple[RRDiagonal, ...] = ()
    path: tuple[RRMove, ...] = ()
    title: str | None = None

    @classmethod
    def from_json(cls, obj: Any) -> RRBoardData:
        o = _obj(obj, "rr_board", ("cell_walls", "targets", "robots"), ("active_target", "diagonals", "path", "title"))
        rows = _list(o["cell_walls"], "cell_walls")
        if len(rows) != BOARD_SIZE:
            raise RenderInputError("bad_board", f"cell_walls must have {BOARD_SIZE} rows, got {len(rows)}")
        walls: list[tuple[str, ...]] = []
        for r, row in enumerate(rows):
            cells = _list(row, f"cell_walls[{r}]")
            if len(cells) != BOARD_SIZE:
                raise RenderInputError("bad_board", f"cell_walls[{r}] must have {BOARD_SIZE} cells, got {len(cells)}")
            for c, sides in enumerate(cells):
                if not isinstance(sides, str) or set(sides) - set("NESW"):
                    raise RenderInputError("bad_walls", f"cell_walls[{r}][{c}] = {sides!r} is not a subset of 'NESW'")
            walls.append(tuple(cells))
        robots_obj = o["robots"]
        if not isinstance(robots_obj, Mapping):
            raise RenderInputError("not_an_object", f"robots must map colour to [row, col], got {robots_obj!r:.60}")
        robots = tuple(
            RRRobot(_choice(k, "robot colour", ROBOT_COLOURS), *_cell(v, f"robots.{k}")) for k, v in robots_obj.items()
        )
        active = o.get("active_target")
        return cls(
            cell_walls=tuple(walls),
            targets=tuple(RRTarget.from_json(t, f"targets[{i}]") for i, t in enumerate(_list(o["targets"], "targets"))),
            robots=robots,
            active_target=None if active is None else _cell(active[:2] if isinstance(active, list) else active, "at"),
            diagonals=tuple(
                RRDiagonal.from_json(d, f"diagonals[{i}]") for i, d in enumerate(_list(o.get("diagonals", []), "d"))
            ),
            path=tuple(RRMove.from_json(m, f"path[{i}]") for i, m in enumerate(_list(o.get("path", []), "path"))),
            title=_opt_str(o.get("title"), "title"),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cell_walls": [list(r) for r in self.cell_walls],
            "targets": [t.to_json() for t in self.targets],
            "robots": {r.colour: [r.row, r.col] for r in self.robots},
        }
        if self.active_target is not None:
            out["active_target"] = list(self.active_target)
        if self.diagonals:
            out["diagonals"] = [d.to_json() for d in self.diagonals]
        if self.path:
            out["path"] = [m.to_json() for m in self.path]
        if self.title is not None:
            out["title"] = self.title
        return out


# ---------------------------------------------------------------------------------------------------- RisiKo!


@dataclass(frozen=True, slots=True)
class MapPlayer:
    """A player on the map; ``colour`` is an army colour code (red, blue, yellow, green, black, purple); ``notes``
    are lines the legend draws under the player's name as given (a report's table points, objective, what scored),
    in the caller's words."""

    name: str
    colour: str
    notes: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, obj: Any, where: str = "player") -> MapPlayer:
        o = _obj(obj, where, ("name", "colour"), ("notes",))
        notes = tuple(_str(x, f"{where}.notes[]") for x in _list(o.get("notes", []), f"{where}.notes", MAP_NOTES_MAX))
        return cls(_str(o["name"], f"{where}.name"), _choice(o["colour"], f"{where}.colour", ARMY_COLOURS), notes)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "colour": self.colour}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True, slots=True)
class MapTerritory:
    """A territory's owner (a player name; None = neutral, e.g. FIRK-DRAFT-1 / RK-WD-1) and armies."""

    name: str
    owner: str | None
    armies: int


@dataclass(frozen=True, slots=True)
class RiskMapData:
    """A RisiKo! situation (RK-MAP-1): owners and armies per territory (names as in ``map.json``), with optional
    highlight sets: the doubled strip (FIRK-SCORE-1) and the objective territories."""

    players: tuple[MapPlayer, ...]
    territories: tuple[MapTerritory, ...]
    title: str | None = None
    doubled_strip: tuple[str, ...] = ()
    objective: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, obj: Any) -> RiskMapData:
        o = _obj(obj, "risiko_map", ("players", "territories"), ("title", "doubled_strip", "objective"))
        players = tuple(MapPlayer.from_json(p, f"players[{i}]") for i, p in enumerate(_list(o["players"], "players")))
        names = {p.name for p in players}
        terr_obj = o["territories"]
        if not isinstance(terr_obj, Mapping):
            raise RenderInputError("not_an_object", "territories must map a territory name to {owner, armies}")
        territories = []
        for name, spec in terr_obj.items():
            t = _obj(spec, f"territories[{name!r}]", ("armies",), ("owner",))
            owner = _opt_str(t.get("owner"), f"territories[{name!r}].owner")
            if owner is not None and owner not in names:
                raise RenderInputError("unknown_owner", f"territories[{name!r}].owner = {owner!r} is not a player")
            territories.append(MapTerritory(name, owner, _int(t["armies"], f"territories[{name!r}].armies", 0)))
        return cls(
            players=players,
            territories=tuple(territories),
            title=_opt_str(o.get("title"), "title"),
            doubled_strip=tuple(_str(x, "doubled_strip[]") for x in _list(o.get("doubled_strip", []), "doubled_strip")),
            objective=tuple(_str(x, "objective[]") for x in _list(o.get("objective", []), "objective")),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": [p.to_json() for p in self.players],
            "territories": {t.name: _drop_none({"owner": t.owner, "armies": t.armies}) for t in self.territories},
        }
        if self.title is not None:
            out["title"] = self.title
        if self.doubled_strip:
            out["doubled_strip"] = list(self.doubled_strip)
        if self.objective:
            out["objective"] = list(self.objective)
        return out
