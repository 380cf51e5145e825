"""What the report use cases return (BOT-RES-1, TOUR-REF-1): a table named as users name it, a report's lines and
state, a player's games, a referee's table note. Plain frozen values, no database; and the map's owners and
scores read back from a stored situation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.db.documents import TableSituation
from bot.db.models import SeatOutcome
from bot.rules.errors import RuleError
from bot.rules.risiko.scoring import parse_situation
from bot.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class TableRef:
    """A table named the way users name it: tournament, table number, round (None = the latest round)."""

    tournament: str
    table: int
    round: int | None = None


@dataclass(frozen=True, slots=True)
class SeatLine:
    registration_id: int
    user_id: int | None
    name: str
    club: str | None
    table_points: float | None
    rank: int | None
    tournament_points: float | None
    outcome: str
    signed: bool
    decided_by: str | None = None


@dataclass(frozen=True, slots=True)
class MapScore:
    """What the engine scored for one player of a situation report, for the map drawn under it (BOT-IMG-1):
    table points, the objective (None when the table had none), the doubled strip and the continents."""

    name: str
    table_points: float
    objective: bool | None
    strip: tuple[str, ...] = ()
    strip_points: int = 0
    continents: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ReportView:
    table_id: int
    tournament_name: str
    game: str
    preset: str
    round_number: int
    table_number: int
    seats: tuple[SeatLine, ...]  # seating order
    kind: str | None  # "points", "situation", "ricochet"; None = nothing reported yet
    reported_by: int | None
    countersigned_by: int | None
    locked: bool
    map_owners: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # a situation report: who holds what
    map_scores: tuple[MapScore, ...] = ()  # … and what the engine scored, player by player

    @property
    def reported(self) -> bool:
        return self.kind is not None

    @property
    def must_sign(self) -> tuple[SeatLine, ...]:
        """Seats whose signature is required: the players who played the game to its end."""
        return tuple(s for s in self.seats if s.outcome == SeatOutcome.PLAYED)

    @property
    def pending(self) -> tuple[SeatLine, ...]:
        return tuple(s for s in self.must_sign if not s.signed)

    @property
    def all_signed(self) -> bool:
        return self.reported and not self.pending

    @property
    def ranking(self) -> tuple[SeatLine, ...]:
        return tuple(sorted(self.seats, key=lambda s: (s.rank if s.rank is not None else 99, s.name)))


@dataclass(frozen=True, slots=True)
class TableNote:
    """The referee's note on a table (FIRK §9: the special rules of a game of three plus the "morto")."""

    tournament_name: str
    round_number: int
    table_number: int
    note: str | None
    special: str | None  # the planner's kind of the table: "dummy", "sit_out", "head_to_head"
    thread_id: int | None


NOTE_MAX = 500


@dataclass(frozen=True, slots=True)
class SignOutcome:
    view: ReportView
    already_signed: bool


@dataclass(frozen=True, slots=True)
class MyGame:
    round_number: int
    table_number: int
    table_id: int
    opponents: tuple[str, ...]
    table_points: float | None
    rank: int | None
    tournament_points: float | None
    signed: bool
    reported: bool
    locked: bool
    pending_names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MyGamesView:
    tournament_name: str
    player_name: str
    games: tuple[MyGame, ...] = field(default_factory=tuple)

    @property
    def to_sign(self) -> tuple[MyGame, ...]:
        return tuple(g for g in self.games if g.reported and not g.signed and not g.locked)


def map_owners(ruleset: Ruleset, situation: TableSituation) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """The territories each player held at the end, read back from the stored situation (for the map image), on the
    board of the table's tournament's ruleset."""
    rules = ruleset.risiko
    doc = situation.input.get("situation")
    if rules is None or doc is None:
        return ()
    try:
        parsed = parse_situation({"players": doc} if isinstance(doc, list) else doc, rules.board,
                                 also_allowed=("preset",))  # fmt: skip
    except RuleError:
        return ()
    return tuple((p.name, tuple(p.territories.items())) for p in parsed.players)


def map_scores(situation: TableSituation) -> tuple[MapScore, ...]:
    """The engine's explanation stored with the situation (``bot.rules.tournament.rescore.score_situation``), player
    by player."""
    out = []
    for entry in situation.input.get("explanation") or ():
        if not isinstance(entry, Mapping):
            continue
        e = entry.get("explanation") or {}
        out.append(
            MapScore(
                name=str(entry.get("name", "")),
                table_points=float(entry.get("table_points") or 0),
                objective=None if e.get("objective_source") is None else bool(e.get("achieved_objective")),
                strip=tuple(str(x) for x in e.get("strip") or ()),
                strip_points=int(e.get("strip_points") or 0),
                continents=tuple((str(c["continent"]), int(c["points"])) for c in e.get("continents") or ()),
            )
        )
    return tuple(out)
