"""The draw documents' schemas: one pydantic model per document, the one place its
types, sizes and cross-references are checked, used by the bot and by ``steward draw`` alike.

- ``risiko-draw-instance/1`` (``../shared/data/draws``, DRAWS.md) → :class:`InstanceDocument`
- ``steward-tournament/1`` of a qualifying round (the bot's published export) → :class:`ExportDocument`
- ``steward-tournament/1`` of a semifinal or final round → :class:`FinalsDocument`

Every model is strict — ``"444"`` is not a list of table sizes, ``4.5`` is not a size, ``"1"`` is not a number —
refuses unknown keys and bounds every list and value by what a tournament can hold. :func:`validate` turns the
first problem into a :class:`TournamentError` whose value names the field and quotes at most 80 characters of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, model_validator

from bot.rules.tournament.model import PlayerId, TournamentError

INSTANCE_SCHEMA = "risiko-draw-instance/1"
EXPORT_SCHEMA = "steward-tournament/1"

MAX_PLAYERS = 5_000  # far beyond the largest RisiKo! event (about 400 players)
MAX_HISTORY = 50_000  # earlier tables, winners, pairs… of a whole tournament
MAX_SEATS = 10  # no table of any preset seats more
MAX_ROUND = 1_000
QUOTE = 80

Id = Annotated[StrictInt, Field(ge=-(2**63), le=2**63 - 1)] | Annotated[StrictStr, Field(min_length=1, max_length=100)]
Text = Annotated[StrictStr, Field(max_length=200)]
Size = Annotated[StrictInt, Field(ge=1, le=MAX_SEATS)]
RoundNo = Annotated[StrictInt, Field(ge=1, le=MAX_ROUND)]
Seats = Annotated[list[Id], Field(min_length=1, max_length=MAX_SEATS)]
Ids = Annotated[list[Id], Field(max_length=MAX_HISTORY)]
Pair = Annotated[list[Id], Field(min_length=2, max_length=2)]
ClubPair = Annotated[list[Id | None], Field(min_length=2, max_length=2)]  # [player id, club or null]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _twice(ids: Iterable[PlayerId]) -> PlayerId | None:
    counts = Counter(ids)
    return next((pid for pid, n in counts.items() if n > 1), None)


def _mixed(ids: Iterable[PlayerId]) -> PlayerId | None:
    """The first id whose type differs from the first id's: a document numbers its players or names them, never
    both (``"1"`` beside ``1`` is a typo that would silently be another player)."""
    kind: type | None = None
    for pid in ids:
        if kind is None:
            kind = type(pid)
        elif type(pid) is not kind:
            return pid
    return None


def _same(a: Iterable[PlayerId], b: Iterable[PlayerId]) -> bool:
    return Counter(a) == Counter(b)


def _unknown(ids: Iterable[PlayerId], known: set[PlayerId]) -> PlayerId | None:
    return next((pid for pid in ids if pid not in known), None)


# ------------------------------------------------------------------------------- risiko-draw-instance/1


class InstancePlayer(_Doc):
    """A player of a draw instance: an id (all numbers or all names in one document) and the club, if any."""

    id: Id
    club: Text | None = None


class InstanceClub(_Doc):
    """A club of a draw instance and how many of the listed players belong to it (checked against them)."""

    id: Text
    size: Annotated[StrictInt, Field(ge=0, le=MAX_PLAYERS)]


class InstanceTable(_Doc):
    """A round-1 table of a draw instance: its number and size when given, its players, and their finishing order
    when played."""

    table: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)] | None = None
    size: Size | None = None
    players: Seats
    ranking: Annotated[list[Id], Field(max_length=MAX_SEATS)] = []

    @model_validator(mode="after")
    def _consistent(self) -> InstanceTable:
        if _twice(self.players) is not None:
            raise ValueError(f"player {_twice(self.players)!r} sits twice at one table")
        if self.size is not None and self.size != len(self.players):
            raise ValueError(f"size {self.size} but {len(self.players)} players")
        if self.ranking and not _same(self.ranking, self.players):
            raise ValueError("the ranking must list the table's players, each once")
        return self


class InstanceRound(_Doc):
    """Round 1 of a draw instance as played: its tables, its table winners and the players who sat at five-player
    tables."""

    tables: Annotated[list[InstanceTable], Field(max_length=MAX_PLAYERS)] = []
    winners: Ids = []
    five_table_players: Ids = []


class Objective(_Doc):
    """DRAWS.md's statement of what round 2 minimises: the criteria in order, each described in words."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)  # one description per criterion
    lexicographic_order: Annotated[list[Annotated[StrictStr, Field(max_length=40)]], Field(max_length=10)] = []

    @model_validator(mode="after")
    def _descriptions(self) -> Objective:
        for key, value in (self.model_extra or {}).items():
            if not isinstance(value, str) or len(value) > 500:
                raise ValueError(f"objective.{key} must be a description (a string of at most 500 characters)")
        return self


class InstanceDocument(_Doc):
    """A draw instance: players and clubs, round 1 as played, the earlier tablemates, round 2's table sizes."""

    schema_: Literal["risiko-draw-instance/1"] = Field(alias="schema")
    name: Text = ""
    family: Text | None = None
    n: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)] | None = None
    seed: StrictInt | None = None
    generator_seed: StrictInt | None = None
    table_sizes: Annotated[list[Size], Field(min_length=1, max_length=MAX_PLAYERS)]
    clubs: Annotated[list[InstanceClub], Field(max_length=MAX_PLAYERS)] = []
    players: Annotated[list[InstancePlayer], Field(min_length=1, max_length=MAX_PLAYERS)]
    round1: InstanceRound = InstanceRound()
    previous_tablemate_pairs: Annotated[list[Pair], Field(max_length=MAX_HISTORY)] = []
    objective: Objective | None = None  # a description for people (DRAWS.md); the engine's order is fixed

    @model_validator(mode="after")
    def _consistent(self) -> InstanceDocument:
        ids = [p.id for p in self.players]
        if (pid := _twice(ids)) is not None:
            raise ValueError(f"player {pid!r} is listed twice")
        if self.n is not None and self.n != len(ids):
            raise ValueError(f"n is {self.n} but {len(ids)} players are listed")
        if sum(self.table_sizes) != len(ids):
            raise ValueError(f"table_sizes seat {sum(self.table_sizes)} but {len(ids)} players are listed")
        known = set(ids)
        seated = [pid for t in self.round1.tables for pid in t.players]
        referenced = [*seated, *self.round1.winners, *self.round1.five_table_players]
        referenced += [pid for pair in self.previous_tablemate_pairs for pid in pair]
        if (pid := _mixed([*ids, *referenced])) is not None:
            raise ValueError(f"player id {pid!r} is not of the same kind as the others (all numbers or all names)")
        if (pid := _unknown(referenced, known)) is not None:
            raise ValueError(f"player {pid!r} is not among the players")
        if (pid := _twice(seated)) is not None:
            raise ValueError(f"player {pid!r} sits at two round-1 tables")
        counted = Counter(p.club for p in self.players if p.club is not None)
        for club in self.clubs:
            if counted.get(club.id, 0) != club.size:
                raise ValueError(f"club {club.id!r} has size {club.size} but {counted.get(club.id, 0)} players")
        return self


# ------------------------------------------------------------------------ steward-tournament/1 (qualifying)


class ExportPlayer(_Doc):
    """A player of a qualifying round's export: the id, and the name, club and team when known."""

    id: Id
    name: Text | None = None
    club: Text | None = None
    team: Text | None = None


class LegacyTable(_Doc):
    """A table of the older one-round export form (``previous_round``): its players and their finishing order."""

    table: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)] | None = None
    players: Seats
    ranking: Annotated[list[Id], Field(max_length=MAX_SEATS)] = []

    @model_validator(mode="after")
    def _consistent(self) -> LegacyTable:
        if (pid := _twice(self.players)) is not None:
            raise ValueError(f"player {pid!r} sits twice at one table")
        if self.ranking and not _same(self.ranking, self.players):
            raise ValueError("the ranking must list the table's players, each once")
        return self


class LegacyRound(_Doc):
    """The older one-round export form: the previous round's tables, whose first places are the winners."""

    tables: Annotated[list[LegacyTable], Field(max_length=MAX_PLAYERS)]


class ExportDocument(_Doc):
    """A qualifying round's export: what the planner looked at. Earlier tables and winners may name players who
    have since withdrawn (they are history), so only the players of this round must be distinct."""

    schema_: Literal["steward-tournament/1"] = Field(alias="schema")
    preset: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    round: RoundNo = 1
    players: Annotated[list[ExportPlayer], Field(max_length=MAX_PLAYERS)]
    overrides: dict[str, Any] | None = None  # checked by the preset loader, as at /tournament create
    previous_tables: Annotated[list[Seats], Field(max_length=MAX_HISTORY)] = []
    winners: Ids = []
    five_table_players: Ids = []
    previous_round: LegacyRound | None = None  # the older one-round form: winners = each table's first
    family_pairs: Annotated[list[Pair], Field(max_length=MAX_PLAYERS)] = []
    previous_standings: Annotated[list[Id], Field(max_length=MAX_PLAYERS)] = []
    previous_ranks: Annotated[list[Annotated[int, Field(ge=1)]], Field(max_length=MAX_PLAYERS)] = []
    table_sizes: Annotated[list[Size], Field(max_length=MAX_PLAYERS)] = []
    lot: Literal[1, 2] = 1  # how level players are drawn (``cut.lot``): absent in documents published before version 2

    @model_validator(mode="after")
    def _consistent(self) -> ExportDocument:
        ids = [p.id for p in self.players]
        if (pid := _twice(ids)) is not None:
            raise ValueError(f"player {pid!r} is listed twice")
        for table in self.previous_tables:
            if (pid := _twice(table)) is not None:
                raise ValueError(f"player_twice_at_previous_table: {pid!r}")
        if self.table_sizes and sum(self.table_sizes) != len(ids):
            raise ValueError(f"table_sizes seat {sum(self.table_sizes)} but {len(ids)} players are listed")
        history = [pid for t in self.previous_tables for pid in t] + [*self.winners, *self.five_table_players]
        if self.previous_round is not None:
            history += [pid for t in self.previous_round.tables for pid in (*t.players, *t.ranking)]
        everyone = [*ids, *history, *self.previous_standings] + [pid for pair in self.family_pairs for pid in pair]
        if (pid := _mixed(everyone)) is not None:
            raise ValueError(f"player id {pid!r} is not of the same kind as the others (all numbers or all names)")
        known = set(ids)
        for pair in self.family_pairs:
            if (pid := _unknown(pair, known)) is not None:
                raise ValueError(f"family pair names {pid!r}, who is not among the players")
        if (pid := _twice(self.previous_standings)) is not None:
            raise ValueError(f"player {pid!r} is twice in previous_standings")
        if self.previous_ranks and (
            len(self.previous_ranks) != len(self.previous_standings)
            or any(a > b for a, b in zip(self.previous_ranks, self.previous_ranks[1:], strict=False))
        ):
            raise ValueError("previous_ranks must give one rank per previous_standings entry, never decreasing")
        return self


# ---------------------------------------------------------------- steward-tournament/1 (semifinal, final)


class FinalGroup(_Doc):
    """One semifinal group of a final's export: its label, semifinal table numbers, each table's finishing order
    (best first) and its direct finalist."""

    label: Text = "all"
    tables: Annotated[list[Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)]], Field(max_length=MAX_PLAYERS)] = []
    orders: Annotated[list[Seats], Field(max_length=MAX_PLAYERS)] = []
    # each order's places (players sharing a place at the table share the number); absent: 1, 2, 3…
    places: Annotated[list[Annotated[list[Size], Field(max_length=MAX_SEATS)]], Field(max_length=MAX_PLAYERS)] = []
    direct_finalist: Id | None = None
    direct_finalists: Annotated[list[Id], Field(max_length=2)] = []  # two straight to the final (issue 47)

    @property
    def directs(self) -> list[PlayerId]:
        """The group's direct finalists: ``direct_finalists``, or the one ``direct_finalist`` of older documents."""
        if self.direct_finalists:
            return list(self.direct_finalists)
        return [] if self.direct_finalist is None else [self.direct_finalist]

    @model_validator(mode="after")
    def _consistent(self) -> FinalGroup:
        if len(self.orders) != len(self.tables):
            raise ValueError(f"{len(self.tables)} semifinal tables but {len(self.orders)} orders")
        if self.places and (
            len(self.places) != len(self.orders)
            or any(len(p) != len(o) or p != sorted(p) for p, o in zip(self.places, self.orders, strict=False))
        ):
            raise ValueError("places: one list per order, a place per player, never decreasing")
        if (pid := _twice([x for order in self.orders for x in order])) is not None:
            raise ValueError(f"player {pid!r} is in two semifinal orders")
        return self


class RepechageEntry(_Doc):
    """A ranked player the repechage may choose (issue 47): their best single game (its table points) and the
    games they played."""

    player: Id
    best: Annotated[float, Field(allow_inf_nan=False)]
    games: Annotated[StrictInt, Field(ge=0, le=MAX_ROUND)]


class FinalsDocument(_Doc):
    """A semifinal round's export (the ranking, clubs and the number of tables) or a final's (the semifinal
    groups as the services stored them, the standings and who declined)."""

    schema_: Literal["steward-tournament/1"] = Field(alias="schema")
    kind: Literal["semifinal", "final"]
    preset: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    overrides: dict[str, Any] | None = None
    ranking: Annotated[list[Id], Field(max_length=MAX_PLAYERS)] = []
    clubs: Annotated[list[ClubPair], Field(max_length=MAX_PLAYERS)] = []
    tables: Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)] | None = None
    groups: Annotated[list[FinalGroup], Field(max_length=MAX_PLAYERS)] = []
    standings: Annotated[list[Id], Field(max_length=MAX_PLAYERS)] = []
    declined: Annotated[list[Id], Field(max_length=MAX_PLAYERS)] = []
    ranks: Annotated[list[Annotated[StrictInt, Field(ge=1, le=MAX_PLAYERS)]], Field(max_length=MAX_PLAYERS)] = []
    tie_order: Annotated[list[Id], Field(max_length=MAX_PLAYERS)] = []
    seed: StrictInt | None = None  # a final: the semifinals' seed (lots in the replacement chain)
    lot: Literal[1, 2] = 1  # how level players are drawn (``cut.lot``): absent in documents published before version 2
    # a semifinal with a repechage (issue 47): every ranked player it may choose, with their best game and games
    repechage: Annotated[list[RepechageEntry], Field(max_length=MAX_PLAYERS)] = []

    @model_validator(mode="after")
    def _consistent(self) -> FinalsDocument:
        if self.kind == "semifinal":
            if self.tables is None:
                raise ValueError("a semifinal needs 'tables'")
            if not self.ranking:
                raise ValueError("a semifinal needs 'ranking'")
            if self.ranks and len(self.ranks) != len(self.ranking):
                raise ValueError("'ranks' gives the standings rank of each 'ranking' entry: as many of them")
        elif not self.groups:
            raise ValueError("a final needs the semifinal 'groups'")
        elif self.ranks and len(self.ranks) != len(self.standings):
            raise ValueError("'ranks' gives the standings rank of each 'standings' entry: as many of them")
        if any(a > b for a, b in zip(self.ranks, self.ranks[1:], strict=False)):
            raise ValueError("'ranks' must never decrease")
        if any(pair[0] is None or not isinstance(pair[1], str | None) for pair in self.clubs):
            raise ValueError("clubs: each pair is [player id, club name or null]")
        everyone = [
            *self.ranking,
            *self.standings,
            *self.declined,
            *(pair[0] for pair in self.clubs if pair[0] is not None),
        ]
        everyone += [pid for g in self.groups for order in g.orders for pid in order]
        everyone += [p for g in self.groups for p in g.directs]
        everyone += [entry.player for entry in self.repechage]
        if (pid := _mixed(everyone)) is not None:
            raise ValueError(f"player id {pid!r} is not of the same kind as the others (all numbers or all names)")
        for name, ids in (("ranking", self.ranking), ("standings", self.standings)):
            if (pid := _twice(ids)) is not None:
                raise ValueError(f"player {pid!r} is twice in {name}")
        return self


DocT = TypeVar("DocT", bound=BaseModel)

# pydantic's wording for the usual mistakes, in JSON's terms (its own names the model classes)
_PLAIN = {
    "model_type": "must be a JSON object",
    "dict_type": "must be a JSON object",
    "list_type": "must be a JSON array",
    "int_type": "must be an integer",
    "string_type": "must be a string",
    "extra_forbidden": "is not a field of this document",
    "missing": "is missing",
}


class BadDocument(TournamentError):
    """A draw document that does not fit its schema: ``value`` is "where: what (got …)"."""

    def __init__(self, detail: str) -> None:
        super().__init__("bad_document", detail)

    def __str__(self) -> str:
        return f"bad_document: {self.value}"


def validate(model: type[DocT], doc: object) -> DocT:
    """``doc`` as ``model``, or a :class:`BadDocument` naming the first bad field and quoting at most 80
    characters of its value."""
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x).removesuffix("_") for x in first.get("loc", ())) or "document"
        message = _PLAIN.get(first["type"]) or str(first.get("msg", "invalid")).removeprefix("Value error, ")
        got = repr(first.get("input"))
        got = got if len(got) <= QUOTE else got[: QUOTE - 1] + "…"
        detail = (
            f"{where}: {message}"
            if first["type"] in ("missing", "extra_forbidden")
            else f"{where}: {message} (got {got})"
        )
        raise BadDocument(detail) from None
