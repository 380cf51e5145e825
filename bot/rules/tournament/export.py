"""The whole-tournament export ``steward-export/1``: one JSON document with everything a tournament holds — players,
rounds (each with its draw's published request and seed, its tables, reports and signatures), sanctions and appeals,
the standings and the final classification. ``/tournament export`` and ``steward demo`` write it; ``steward draw``,
``standings``, ``season``, ``modulo``, ``print`` and ``verify`` read it, and ``/tournament import`` brings it into
another server or database. The schema is documented in ``docs/export.md``; this module is its one definition
(pydantic, strict: unknown keys refused, every list bounded) and the conversions the command line needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, model_validator

from bot.rules.tournament.documents import validate

EXPORT_SCHEMA = "steward-export/1"
MAX_PLAYERS = 5_000
MAX_ROUNDS = 200
MAX_TABLES = 2_000
MAX_SANCTIONS = 20_000

Text = Annotated[StrictStr, Field(max_length=1000)]
Name = Annotated[StrictStr, Field(min_length=1, max_length=100)]
Short = Annotated[StrictStr, Field(max_length=64)]
Number = StrictInt | StrictFloat
PlayerRef = Annotated[StrictInt, Field(ge=1, le=2**62)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class ExportTournament(_Doc):
    """The tournament itself in ``steward-export/1``: name, game, preset and overrides, format, status, the rounds
    foreseen, and the national publishing details when it publishes."""

    name: Name
    game: Literal["risiko", "ricochet"]
    preset: Short
    overrides: dict[str, Any] = {}
    format: Short = "italian"
    status: Short = "finished"
    created_at: StrictStr | None = None
    rounds_foreseen: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS)] = 0  # tournament.qualifying_rounds (0: not fixed)
    publishing: dict[str, Any] | None = None  # {"organiser", "type", "venue"} for the national ranking


class ExportPlayer(_Doc):
    """A player in ``steward-export/1``, numbered in the document, with the registration's status and, when known,
    the registry fields the national ranking reads (names, national id, birth date, region)."""

    id: PlayerRef
    name: Short
    club: Short | None = None
    team: Short | None = None
    status: Literal["registered", "validated", "waitlisted", "withdrawn", "disqualified"] = "validated"
    family_group: Short | None = None
    previous_rank: Annotated[StrictInt, Field(ge=1)] | None = None
    first_name: Short | None = None
    surname: Short | None = None
    national_id: Annotated[StrictInt, Field(ge=1, le=2**62)] | None = None
    birth_date: StrictStr | None = None  # YYYY-MM-DD
    region: Annotated[StrictStr, Field(max_length=32)] | None = None

    @model_validator(mode="after")
    def _date(self) -> ExportPlayer:
        if self.birth_date is not None:
            try:
                date.fromisoformat(self.birth_date)
            except ValueError:
                raise ValueError(f"birth_date must be YYYY-MM-DD, got {self.birth_date[:20]!r}") from None
        return self


class ExportResult(_Doc):
    """One seat's result on a table's report: table points or rank, the tournament points they gave, how the player's
    game ended, the referee's adjustment and the signature."""

    player: PlayerRef
    table_points: Number | None = None
    rank: Annotated[StrictInt, Field(ge=1, le=10)] | None = None
    tournament_points: Number | None = None
    outcome: Literal["played", "withdrawn", "forfeit", "disqualified"] = "played"
    adjustment: Number = 0.0
    signed_at: StrictStr | None = None
    tiebreak: dict[str, Any] | None = None


class ExportReport(_Doc):
    """A table's report: its kind and input as entered, when it was reported and countersigned, whether it is locked,
    and each seat's result."""

    kind: Short | None = None  # points / situation / ricochet / sit_out; None: nothing reported
    input: dict[str, Any] = {}
    reported_at: StrictStr | None = None
    countersigned_at: StrictStr | None = None
    locked: StrictBool = False
    results: Annotated[list[ExportResult], Field(max_length=10)] = []


class ExportTable(_Doc):
    """A table of a round: its number, the seated players (each once), and its report, whose results name only them."""

    number: Annotated[StrictInt, Field(ge=1, le=MAX_TABLES)]
    seats: Annotated[list[PlayerRef], Field(min_length=1, max_length=10)]
    size: Annotated[StrictInt, Field(ge=1, le=10)] | None = None
    special: Short | None = None
    group: Short | None = None
    note: Text | None = None
    report: ExportReport = ExportReport()

    @model_validator(mode="after")
    def _results_are_seated(self) -> ExportTable:
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"table {self.number}: a player is seated twice")
        unseated = [r.player for r in self.report.results if r.player not in self.seats]
        if unseated:
            raise ValueError(f"table {self.number}: a result for player {unseated[0]}, who is not seated there")
        return self


class ExportRound(_Doc):
    """A round as the tournament played it: number and kind, status, date, the draw's seed and stored document, and
    its tables."""

    number: Annotated[StrictInt, Field(ge=1, le=MAX_ROUNDS)]
    kind: Literal["qualifying", "semifinal", "final"] = "qualifying"
    status: Literal["planned", "drawn", "published", "closed"] = "closed"
    date: StrictStr | None = None  # YYYY-MM-DD: when it was played (its start, else its publication)
    seed: StrictInt | None = None
    draw: dict[str, Any] | None = None  # the round's draw document as stored (request, engine report, ties, changes)
    tables: Annotated[list[ExportTable], Field(max_length=MAX_TABLES)] = []


class ExportAppeal(_Doc):
    """The appeal against a sanction: its state, the reason given, when it was made and decided, and the decision's
    note."""

    state: Short = "none"
    reason: Text | None = None
    appealed_at: StrictStr | None = None
    decided_at: StrictStr | None = None
    note: Text | None = None


class ExportSanction(_Doc):
    """A sanction of the tournament's register, by case number: who, where, the kind with its article and infraction,
    the offence's rung and consequence, and whether it was revoked or appealed."""

    case: Annotated[StrictInt, Field(ge=1)]
    player: PlayerRef
    round: Annotated[StrictInt, Field(ge=1)] | None = None
    table: Annotated[StrictInt, Field(ge=1)] | None = None
    kind: Short
    article: Short | None = None
    infraction: Short | None = None
    offence: Annotated[StrictInt, Field(ge=1)] = 1
    consequence: Short = "recorded"
    points: Number | None = None
    details: Text | None = None
    created_at: StrictStr | None = None
    revoked_at: StrictStr | None = None
    revoke_reason: Text | None = None
    appeal: ExportAppeal = ExportAppeal()


class ExportStanding(_Doc):
    """A row of the standings: rank, player, points, games and table points, deductions and whether the player is
    still in."""

    rank: Annotated[StrictInt, Field(ge=1)]
    player: PlayerRef
    points: Number
    games: Annotated[StrictInt, Field(ge=0)] = 0
    table_points: Number = 0.0
    deductions: Number = 0.0
    standing: Short = "active"


class ExportPlace(_Doc):
    """A place of the final classification (shared on ties; None while open) and the stage that decided it."""

    place: Annotated[StrictInt, Field(ge=1)] | None
    player: PlayerRef
    stage: Short | None = None


class ExportDocument(_Doc):
    """``steward-export/1``: see ``docs/export.md``. Players are numbered 1…n in the document (their ids in it);
    every reference to a player names one of them."""

    schema_: Literal["steward-export/1"] = Field(alias="schema")
    exported_at: StrictStr | None = None
    tournament: ExportTournament
    players: Annotated[list[ExportPlayer], Field(max_length=MAX_PLAYERS)]
    rounds: Annotated[list[ExportRound], Field(max_length=MAX_ROUNDS)] = []
    sanctions: Annotated[list[ExportSanction], Field(max_length=MAX_SANCTIONS)] = []
    standings: Annotated[list[ExportStanding], Field(max_length=MAX_PLAYERS)] = []
    final_classification: Annotated[list[ExportPlace], Field(max_length=MAX_PLAYERS)] | None = None
    audit: dict[str, Any] | None = None  # the audit chain's head, when the tournament keeps one
    signature: StrictStr | None = None

    @model_validator(mode="after")
    def _references(self) -> ExportDocument:
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("players: an id is listed twice")
        known = set(ids)
        numbers = [r.number for r in self.rounds]
        if len(set(numbers)) != len(numbers):
            raise ValueError("rounds: a round number is listed twice")
        for r in self.rounds:
            seen: set[int] = set()
            for t in r.tables:
                for p in t.seats:
                    if p not in known:
                        raise ValueError(f"round {r.number}, table {t.number}: player {p} is not among the players")
                    if p in seen:
                        raise ValueError(f"round {r.number}: player {p} sits at two tables")
                    seen.add(p)
        for s in self.sanctions:
            if s.player not in known:
                raise ValueError(f"sanction {s.case}: player {s.player} is not among the players")
        listed: list[ExportStanding | ExportPlace] = [*self.standings, *(self.final_classification or [])]
        for row in listed:
            if row.player not in known:
                raise ValueError(f"standings: player {row.player} is not among the players")
        return self

    def player(self, pid: int) -> ExportPlayer:
        return next(p for p in self.players if p.id == pid)


def read_export(doc: object) -> ExportDocument:
    """``doc`` as a checked export, or a ``BadDocument`` naming the first bad field."""
    return validate(ExportDocument, doc)


def is_export(doc: object) -> bool:
    """Whether ``doc`` claims to be a ``steward-export/1`` document (its ``schema``); :func:`read_export` checks the
    rest."""
    return isinstance(doc, Mapping) and doc.get("schema") == EXPORT_SCHEMA


def iso(value: datetime | date | None) -> str | None:
    """``value`` in ISO 8601, or None."""
    return None if value is None else value.isoformat()


def standings_document(export: ExportDocument) -> dict[str, Any]:
    """The export as ``steward standings`` reads its own input: every reported game (its kind: qualifying,
    semifinal, final), each seat's points as the bot stored them, the withdrawn and disqualified players and the
    point adjustments — so the command line recomputes the standings and the final classification from the same
    data the bot had."""
    games: list[dict[str, Any]] = []
    deductions: list[dict[str, Any]] = []
    for r in export.rounds:
        for t in r.tables:
            results = {res.player: res for res in t.report.results}
            if not results or any(res.tournament_points is None or res.rank is None for res in results.values()):
                continue
            rows = []
            for p in sorted(results, key=lambda pid: (results[pid].rank or 0, pid)):
                res = results[p]
                status = {"played": "played", "disqualified": "disqualified"}.get(res.outcome, "forfeit")
                row: dict[str, Any] = {"player": p, "tournament_points": float(res.tournament_points or 0.0)}
                row["status"] = status
                if res.table_points is not None:
                    row["table_points"] = float(res.table_points)
                rows.append(row)
                if res.adjustment:
                    deductions.append(
                        {"player": p, "points": -float(res.adjustment), "code": "adjustment", "round": r.number}
                    )
            game: dict[str, Any] = {"round": r.number, "table": t.number, "players": rows}
            if r.kind != "qualifying":
                game["kind"] = r.kind
            engine = (r.draw or {}).get("knockout") or ((r.draw or {}).get("engine") or {}).get("knockout") or {}
            if engine.get("final"):
                game["kind"] = "final"
            games.append(game)
    for s in export.sanctions:
        active = s.revoked_at is None and s.appeal.state != "overturned"
        if active and s.points and s.consequence != "table_points":
            deductions.append(
                {
                    "player": s.player,
                    "points": -float(s.points),
                    "code": "sanction",
                    **({"round": s.round} if s.round is not None else {}),
                }
            )
    overrides = dict(export.tournament.overrides)
    if export.tournament.format != "italian":
        overrides.setdefault("tournament", {})
        overrides["tournament"] = {**overrides["tournament"], "format": export.tournament.format}
    return {
        "preset": export.tournament.preset,
        "games": games,
        "players": [
            p.id
            for p in export.players
            if p.status not in ("waitlisted", "registered")
            or any(p.id in t.seats for r in export.rounds for t in r.tables)
        ],
        "withdrawn": [p.id for p in export.players if p.status == "withdrawn"],
        "disqualified": [p.id for p in export.players if p.status == "disqualified"],
        "deductions": deductions,
        **({"overrides": overrides} if overrides else {}),
    }
