"""``steward season``: a season's ranking across tournaments (NP project points, FIRK annual standings), offline.

Input (CLI.md contract): the preset, the season's tournaments oldest first — each one a ``steward standings``
document without its preset, plus a ``name`` and a ``date`` — and the season-level ``deductions``. Each tournament's
standings come from the same function as ``steward standings`` (``bot.tools.tournament.standings_of``); the season
from the one the bot's ``/season show`` calls (``bot.rules.season.compute_season``).

An extension the contract allows (optional fields, the documented documents unchanged): a club's point scheme
(``"scheme": {"per_game": 50, "events": {"master": [2000, 1000, 1000, 1000, 500, …]}, "one_off": "amichevole"}``),
each tournament's ``event_type``, and ranked ``one_off_games`` (``{"players": [{"player": "anna", "place": 1}, …],
"after": "tournament name"}``; ``after``: the latest tournament when it was played, for the movement).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from datetime import date
from typing import Annotated, Any

from pydantic import AliasChoices, Field, StrictInt, StrictStr, field_validator, model_validator

from bot.tools._common import BadInput, add_io_arguments, error_text, run_tool
from bot.tools._help import command_help
from bot.tools.tournament import (
    PLAYER_ID,
    POINTS,
    StandingsFields,
    _Doc,
    classification_of,
    from_export,
    standings_of,
    tie_break_text,
    tie_breaks_json,
    validated,
)

NAME = Annotated[StrictStr, Field(min_length=1, max_length=100)]


class _SeasonTournament(StandingsFields):
    name: NAME
    date: Annotated[StrictStr, Field(max_length=10)]
    event_type: Annotated[StrictStr, Field(min_length=1, max_length=40)] | None = None  # with a ``scheme``

    @field_validator("date")
    @classmethod
    def _iso_date(cls, value: str) -> str:
        try:
            date.fromisoformat(value)
        except ValueError:
            raise ValueError("a date YYYY-MM-DD") from None
        if len(value) != 10:
            raise ValueError("a date YYYY-MM-DD")
        return value


class _SeasonDeduction(_Doc):
    player: PLAYER_ID
    points: POINTS
    code: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    tournament: NAME | None = None  # the season's tournament it was given at (the movement leaves it out before)


class _OneOffPlayer(_Doc):
    id: PLAYER_ID = Field(validation_alias=AliasChoices("player", "id"))  # "player" as every record; "id" still read
    place: Annotated[StrictInt, Field(ge=1, le=100)]
    table_points: POINTS | None = None


class _OneOffGame(_Doc):
    players: Annotated[list[_OneOffPlayer], Field(min_length=1, max_length=20)]
    after: NAME | None = None  # the season's latest tournament when it was played


class SeasonDocument(_Doc):
    """The ``steward season`` input (docs/cli.md)."""

    preset: Annotated[StrictStr, Field(max_length=64)]
    tournaments: Annotated[list[_SeasonTournament], Field(min_length=1, max_length=200)]
    deductions: Annotated[list[_SeasonDeduction], Field(default_factory=list, max_length=5_000)]
    overrides: dict[str, Any] | None = None
    scheme: dict[str, Any] | None = None  # bot.rules.season.PointScheme.from_data
    one_off_games: Annotated[list[_OneOffGame], Field(default_factory=list, max_length=5_000)]

    @model_validator(mode="after")
    def _one_kind_of_id(self) -> SeasonDocument:
        """The season's players are one list of ids: numbered or named in every tournament alike."""
        ids = [r.id for t in self.tournaments for g in t.games for r in g.players]
        ids += [i for t in self.tournaments for i in (*t.players, *t.withdrawn, *t.disqualified)]
        ids += [d.player for d in self.deductions]
        ids += [p.id for g in self.one_off_games for p in g.players]
        if len({type(i) for i in ids}) > 1:
            raise ValueError("player ids must be all numbers or all names")
        return self


def _exports_as_tournaments(data: Any) -> Any:
    """A season's tournaments may be whole-tournament exports (``steward-export/1``): each becomes the ``steward
    standings`` document it holds, named as the tournament and dated by its first round."""
    from bot.rules.tournament.export import is_export, read_export

    if not isinstance(data, dict) or not isinstance(data.get("tournaments"), list):
        return data
    out = []
    for item in data["tournaments"]:
        if is_export(item):
            export = read_export(item)
            converted = {k: v for k, v in from_export(item).items() if k != "preset"}
            day = next((r.date for r in sorted(export.rounds, key=lambda r: r.number) if r.date), None)
            out.append({**converted, "name": export.tournament.name, "date": day or "2000-01-01"})
        else:
            out.append(item)
    return {**data, "tournaments": out}


def compute_season_document(data: Any) -> dict[str, Any]:
    from bot.rules.ruleset import load_ruleset
    from bot.rules.season import (
        OneOffEntry,
        OneOffGame,
        PointScheme,
        SeasonDeduction,
        SeasonTournament,
        compute_season,
        event_type_key,
    )
    from bot.rules.tournament.model import TournamentError

    doc = validated(SeasonDocument, _exports_as_tournaments(data))
    ruleset = load_ruleset(doc.preset, doc.overrides)
    try:
        scheme = PointScheme.from_data(doc.scheme) if doc.scheme is not None else None
        event_types = [event_type_key(t.event_type) if t.event_type else None for t in doc.tournaments]
    except TournamentError as exc:
        raise BadInput(f"scheme: {error_text(exc)}") from None
    tournaments: list[SeasonTournament] = []
    for k, t in enumerate(doc.tournaments):
        own = load_ruleset(doc.preset, t.overrides) if t.overrides is not None else ruleset
        try:
            results, standings = standings_of(t, own)
            final = classification_of(t, own, results, standings)
        except BadInput as exc:
            raise BadInput(f"tournaments.{k}.{exc}") from None
        except TournamentError as exc:
            raise BadInput(f"tournaments.{k}: {error_text(exc)}") from None
        places = {r.player: r.place for r in final.rows if r.place is not None} if final and final.complete else {}
        tournaments.append(SeasonTournament(t.name, tuple(results), standings, places, event_types[k]))
    deductions = [SeasonDeduction(d.player, d.points, d.code, d.tournament) for d in doc.deductions]
    games = [
        OneOffGame(tuple(OneOffEntry(p.id, p.place, p.table_points) for p in g.players), g.after, f"one_off_games.{k}")
        for k, g in enumerate(doc.one_off_games)
    ]
    try:
        season = compute_season(tournaments, rules=ruleset.season, deductions=deductions, scheme=scheme, games=games)
    except TournamentError as exc:
        raise BadInput(error_text(exc)) from None
    return {
        "preset": ruleset.preset.name,
        "points": "scheme" if scheme is not None else ruleset.season.points,
        "tournaments": [
            {"name": t.name, "date": t.date, "games": len(t.games), "players": len(st.standings.rows)}
            for t, st in zip(doc.tournaments, tournaments, strict=True)
        ],
        "season": [
            {
                "rank": r.rank,
                "player": r.player,
                "points": r.points,
                "tournaments": r.tournaments,
                "games": r.games,
                "by_tournament": r.by_tournament,
                "deductions": r.deductions,
                "dropped": list(r.dropped),
                "first_places": r.first_places,
                "previous_rank": r.previous_rank,
                "by_tournament_rank": {line.tournament: line.rank for line in r.lines},
                "standing": {line.tournament: line.standing for line in r.lines if line.standing != "active"},
                **({"one_off_points": r.one_off_points, "one_off_games": r.one_off_games} if scheme else {}),
            }
            for r in season.rows
        ],
        "tie_breaks": tie_breaks_json(season.decisions),
        "deductions": [d.model_dump(exclude_none=True) for d in doc.deductions],
        **({"scheme": scheme.to_data(), "one_off_games": len(games)} if scheme else {}),
    }


def _number(value: float) -> str:
    return f"{value:g}"


def season_text(result: Mapping[str, Any]) -> str:
    names = [t["name"] for t in result["tournaments"]]
    lines = [f"Season ({result['preset']}, {result['points']} points): " + ", ".join(
        f"{t['name']} {t['date']}" for t in result["tournaments"])]  # fmt: skip
    for r in result["season"]:
        parts = [
            f"{_number(r['by_tournament'][n])}" + ("*" if n in r["dropped"] else "") if n in r["by_tournament"] else "—"
            for n in names
        ]
        extra = f"  (-{_number(r['deductions'])})" if r["deductions"] else ""
        lines.append(f"  {r['rank']:>3}. {r['player']!s:<12} {_number(r['points']):>8}  [{' | '.join(parts)}]{extra}")
    if any(r["dropped"] for r in result["season"]):
        lines.append("  * not counted (best-N season)")
    lines.extend(f"  {tie_break_text(d, 'season.tiebreaker')}" for d in result["tie_breaks"])
    for d in result["deductions"]:
        lines.append(f"  deduction {d['player']}: -{_number(d['points'])} ({d['code']})")
    return "\n".join(lines)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "season", help="a season's ranking across tournaments (tie-breaks explained)", **command_help("season")
    )
    add_io_arguments(p)

    def run(args: argparse.Namespace) -> int:
        return run_tool(args, compute_season_document, season_text)

    p.set_defaults(func=run)
