"""Standings use cases (BOT-STD-1): compute with the tournament engine, render, export.

The engine (``bot.rules.tournament.standings.compute_standings``) does the arithmetic: cumulative tournament
points of the qualifying rounds ("all'italiana", NP-FMT-1), withdrawals and disqualifications, the deduction
for a forfeited game (FIRK-WD-1), the preset's tie-breakers with the decisions it took (FIRK-TIE-2) and team
standings where the preset has teams (NP-TAB-1). This service only gathers the rows, maps registrations to
engine player ids and back, and turns the engine's codes into a view the cogs translate.

Other use cases (``bot.services.rounds`` seeding the semifinals, a season's ranking) call
:meth:`StandingsService.compute_in` and :meth:`StandingsService.engine` with their own use case (``uc.about(t)``
for another tournament of theirs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from bot.db.models import Registration, RegistrationStatus, RoundKind, SeatOutcome
from bot.errors import InvalidInput
from bot.rules.errors import refusal_params
from bot.rules.sanctions import Consequence
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.standings import (
    Deduction,
    EntryStatus,
    GameResult,
    Standings,
    TableEntry,
    compute_standings,
)
from bot.services._base import BaseService, UseCase, id_of

OUTCOME_TO_ENTRY = {
    SeatOutcome.PLAYED: EntryStatus.PLAYED,
    SeatOutcome.WITHDRAWN: EntryStatus.FORFEIT,
    SeatOutcome.FORFEIT: EntryStatus.FORFEIT,
    SeatOutcome.DISQUALIFIED: EntryStatus.DISQUALIFIED,
}


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One player's line. ``player_id`` is the registration id (the engine's player id)."""

    rank: int
    player_id: int
    user_id: int | None
    name: str
    club: str | None
    team: str | None
    points: float
    games: int
    table_points: float
    deductions: float
    standing: str  # "active" / "withdrawn" / "disqualified"
    previous_rank: int | None = None  # before the latest reported round (None: not ranked then, or round 1)
    # with discards (a club championship, issue 47): each round held, (round, points or None = absent, counted)
    rounds: tuple[tuple[int, float | None, bool], ...] = ()

    @property
    def counted(self) -> tuple[int, ...]:
        return tuple(r for r, _, kept in self.rounds if kept)

    @property
    def discarded(self) -> tuple[int, ...]:
        return tuple(r for r, _, kept in self.rounds if not kept)


@dataclass(frozen=True, slots=True)
class TieBreakExplanation:
    """How players level on points were ordered: ``tie_breaker`` is a preset code (None = shared rank)."""

    player_ids: tuple[int, ...]
    names: tuple[str, ...]
    tie_breaker: str | None
    values: tuple[tuple[str, float | int | None], ...]  # (name, value) per player
    resolved: bool


@dataclass(frozen=True, slots=True)
class Penalty:
    """Points taken from a player's total, and why: ``code`` ``sanction`` (a case of the referee's desk) or
    ``adjustment`` (a correction on a result)."""

    name: str
    points: float
    code: str
    round_number: int | None


@dataclass(frozen=True, slots=True)
class TeamLine:
    rank: int
    team: str
    points: float
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandingsView:
    tournament_id: int
    tournament_name: str
    preset: str
    game: str
    rounds: int  # rounds with at least one reported table
    lines: tuple[StandingLine, ...]
    explanations: tuple[TieBreakExplanation, ...]
    teams: tuple[TeamLine, ...]
    unconfirmed_tables: int  # reported but not yet countersigned/locked
    tie_breakers: tuple[str, ...] = ()  # the preset's, in order: what orders players level on points
    penalties: tuple[Penalty, ...] = ()  # points taken outside the tables' results (sanctions, adjustments)
    last_round: int | None = None  # the latest round with a reported table
    discards: int = 0  # the preset's: each player's worst N results not counted (issue 47)

    @property
    def with_discards(self) -> bool:
        """Whether lines list their rounds, counted and discarded (then the image and the files show them)."""
        return self.discards > 0

    @property
    def breaks_ties_on_table_points(self) -> bool:
        """Whether the total of table points orders players level on points (then it is worth a column)."""
        return "table_points_total" in self.tie_breakers

    @property
    def player_ids(self) -> tuple[int, ...]:
        """Registration ids in standings order (rank 1 first)."""
        return tuple(line.player_id for line in self.lines)

    def line_of(self, player_id: int) -> StandingLine | None:
        return next((line for line in self.lines if line.player_id == player_id), None)


@dataclass(frozen=True, slots=True)
class EngineStandings:
    """The engine's standings of a tournament and what they were computed from: the tables' results, the
    registrations (by id: the engine's player ids) and the points taken outside the results."""

    results: tuple[GameResult, ...]
    standings: Standings
    registrations: dict[int, Registration]
    deductions: tuple[Deduction, ...]
    unconfirmed_tables: int  # reported but not yet countersigned/locked


class StandingsService(BaseService):
    async def compute(
        self, guild_id: int, tournament_name: str, *, kinds: Sequence[str] = (RoundKind.QUALIFYING,)
    ) -> StandingsView:
        """Standings of a tournament from its reported tables (qualifying rounds by default), each line with its
        rank before the latest round (the movement the standings image shows)."""
        async with self.run(guild_id, tournament=tournament_name) as uc:
            view = await self.compute_in(uc, kinds=kinds)
            if view.last_round is None or view.rounds < 2:
                return view
            before = await self.compute_in(uc, kinds=kinds, before_round=view.last_round)
            ranks = {line.player_id: line.rank for line in before.lines}
            lines = tuple(replace(line, previous_rank=ranks.get(line.player_id)) for line in view.lines)
            return replace(view, lines=lines)

    @staticmethod
    async def _sanction_deductions(uc: UseCase, before_round: int | None) -> list[Deduction]:
        """Standings points of the sanctions in force (FIRK −7 for disturbing a table, −25 for a deliberate
        over-placement, BOT-SAN-2); a revoked or annulled sanction costs nothing."""
        tid = uc.tournament_id
        rounds = {r.id: r.number for r in await uc.rounds.list_rounds(tournament_id=tid)}
        out = []
        # FIRK penalità 4 "a livello annuale": the season's ranking takes those points instead
        to_season = await uc.seasons.given_sanction_ids(tournament_id=tid)
        for s in await uc.sanctions.sanction_list(tournament_id=tid):
            number = rounds.get(s.round_id) if s.round_id is not None else None
            if not s.active or not s.points or s.consequence == Consequence.TABLE_POINTS or s.id in to_season:
                continue
            if before_round is not None and number is not None and number >= before_round:
                continue
            out.append(Deduction(s.registration_id, -s.points, "sanction", number))
        return out

    async def engine(
        self, uc: UseCase, *, kinds: Sequence[str] = (RoundKind.QUALIFYING,), before_round: int | None = None
    ) -> EngineStandings:
        """The engine's standings of the use case's tournament inside its transaction, with the results they were
        computed from (a season counts NP's boards one by one) and the registrations their player ids are."""
        tid = uc.tournament_id
        registrations = {id_of(r): r for r in await uc.registrations.listed(tournament_id=tid)}
        rows = await uc.reports.list_standings_results(tournament_id=tid, kinds=list(kinds))
        rules = uc.rules.tournament
        by_table: dict[tuple[int, int], list[TableEntry]] = defaultdict(list)
        deductions: list[Deduction] = []
        unconfirmed: set[int] = set()
        players: dict[int, None] = {}  # in order of appearance
        for seat in rows:
            result = seat.result
            if before_round is not None and seat.round_number >= before_round:
                continue
            if result.tournament_points is None or result.table_rank is None:
                continue
            if not seat.table_locked:
                unconfirmed.add(seat.table_id)
            pid = result.registration_id
            players.setdefault(pid, None)
            by_table[(seat.round_number, seat.table_number)].append(
                TableEntry(
                    player=pid,
                    order=result.table_rank,
                    tournament_points=result.tournament_points,
                    table_points=result.table_points,
                    status=OUTCOME_TO_ENTRY.get(result.outcome, EntryStatus.PLAYED),
                )
            )
            if result.points_adjustment:
                deductions.append(Deduction(pid, -result.points_adjustment, "adjustment", seat.round_number))
        deductions += await self._sanction_deductions(uc, before_round)
        results = [GameResult(r, tb, tuple(entries)) for (r, tb), entries in sorted(by_table.items())]
        withdrawn = {
            rid for rid, r in registrations.items() if r.status == RegistrationStatus.WITHDRAWN and rid in players
        }
        disqualified = {
            rid for rid, r in registrations.items() if r.status == RegistrationStatus.DISQUALIFIED and rid in players
        }
        teams: dict[int | str, str] | None = None
        if rules.teams:
            teams = {rid: r.team for rid, r in registrations.items() if r.team and rid in players}
        try:
            standings = await self._workers.in_transaction(
                partial(
                    compute_standings,
                    results,
                    players=list(players),
                    deductions=deductions,
                    withdrawn=withdrawn,
                    disqualified=disqualified,
                    teams=teams,
                    **rules.standings_fields(),
                )
            )
        except TournamentError as exc:
            raise InvalidInput("error.standings.engine", **refusal_params(exc, limit=100)) from None
        return EngineStandings(tuple(results), standings, registrations, tuple(deductions), len(unconfirmed))

    async def compute_in(
        self, uc: UseCase, *, kinds: Sequence[str] = (RoundKind.QUALIFYING,), before_round: int | None = None
    ) -> StandingsView:
        """The standings of the use case's tournament inside its transaction (the draw and the finals call this
        inside theirs); ``before_round``: only the rounds numbered below it (the standings a draw of that round is
        made from)."""
        tournament, rules = uc.tournament, uc.rules.tournament
        found = await self.engine(uc, kinds=kinds, before_round=before_round)
        registrations, standings, deductions = found.registrations, found.standings, found.deductions
        rounds = {r.round for r in found.results}

        def name(pid: int | str) -> str:
            reg = registrations.get(int(pid))
            return reg.display_name if reg is not None else str(pid)

        lines = []
        for row in standings.rows:
            reg = registrations.get(int(row.player))
            lines.append(
                StandingLine(
                    rank=row.rank,
                    player_id=int(row.player),
                    user_id=reg.user_id if reg else None,
                    name=name(row.player),
                    club=reg.club if reg else None,
                    team=reg.team if reg else None,
                    points=row.points,
                    games=row.games,
                    table_points=row.table_points,
                    deductions=row.deductions,
                    standing=row.standing.value,
                    rounds=tuple((r.round, r.points, r.counted) for r in row.rounds),
                )
            )
        explanations = tuple(
            TieBreakExplanation(
                player_ids=tuple(int(p) for p in d.players),
                names=tuple(name(p) for p in d.players),
                tie_breaker=d.tie_breaker,
                values=tuple((name(p), v) for p, v in d.values),
                resolved=d.resolved,
            )
            for d in standings.decisions
        )
        team_lines = tuple(
            TeamLine(rank=tr.rank, team=tr.team, points=tr.points, names=tuple(name(p) for p in tr.players))
            for tr in standings.teams
        )
        return StandingsView(
            tournament_id=uc.tournament_id,
            tournament_name=tournament.name,
            preset=tournament.preset,
            game=tournament.game,
            rounds=len(rounds),
            lines=tuple(lines),
            explanations=explanations,
            teams=team_lines,
            unconfirmed_tables=found.unconfirmed_tables,
            tie_breakers=tuple(rules.tie_breakers),
            penalties=tuple(Penalty(name(d.player), d.points, d.code, d.round) for d in deductions if d.points),
            last_round=max(rounds, default=None),
            discards=rules.discards,
        )
