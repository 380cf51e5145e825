"""Standings (BOT-STD-1): cumulative tournament points ("all'italiana", NP-FMT-1), withdrawals and
disqualifications, point deductions, the preset's tie-breakers with an explanation, team standings.

Also the mapping from a table's places to tournament points per preset (the Ricochet Robots places themselves come
from the one ranking, ``bot.rules.ricochet.game.final_ranking``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.rules.outcomes import out_of_play_tier
from bot.rules.ricochet.game import Placement, PlayerStatus
from bot.rules.tournament.model import PlayerId, TournamentError


class EntryStatus(StrEnum):
    """How a player's game at a table ended: played, forfeited (a withdrawal from the game), or disqualified."""

    PLAYED = "played"
    FORFEIT = "forfeit"  # withdrew from / forfeited this game (RR 9.3, UFF "ritiro")
    DISQUALIFIED = "disqualified"


class TieBreaker(StrEnum):
    """Tie-breakers a preset may list, in order, in ``[tournament].tie_breakers``."""

    LAST_GAME_TABLE = "last_game_table"  # FIRK-TIE-2: lower-numbered table in the previous game ranks higher
    FIRST_GAME_TABLE_POINTS = "first_game_table_points"  # FIRK-TIE-2: after game 1, absolute table points
    TABLE_POINTS_TOTAL = "table_points_total"
    # club championships (issue 47): more games won; the best score of a game won; the points before discards
    WINS = "wins"
    BEST_WIN = "best_win"
    TOTAL_WITHOUT_DISCARDS = "total_without_discards"


class Standing(StrEnum):
    """Whether a player is still in the tournament, withdrew, or was disqualified (ranked below everyone still in)."""

    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True, slots=True)
class TableEntry:
    """One player's line at a table: ``order`` is the place (1 = best) after the table's own tie-breaks."""

    player: PlayerId
    order: int
    tournament_points: float
    table_points: float | None = None
    status: EntryStatus = EntryStatus.PLAYED


@dataclass(frozen=True, slots=True)
class GameResult:
    """One table's result in one round: every seated player's line, in any order."""

    round: int
    table: int
    entries: tuple[TableEntry, ...]


@dataclass(frozen=True, slots=True)
class Deduction:
    """Points taken from a player's total; ``code`` says why (e.g. ``withdrawal``, ``disturbance``)."""

    player: PlayerId
    points: float
    code: str
    round: int | None = None


@dataclass(frozen=True, slots=True)
class TieBreakDecision:
    """How one group of players level on points was ordered: the tie-breaker used and each one's value."""

    players: tuple[PlayerId, ...]  # in the resulting order
    tie_breaker: str | None  # None: nothing separated them; they share the rank
    values: tuple[tuple[PlayerId, float | int | None], ...]
    resolved: bool
    note: str | None = None  # what the values were read from, when the code alone does not say (a season's tournament)


@dataclass(frozen=True, slots=True)
class RoundScore:
    """A player's result of one round under discards: ``points`` None = absent (not at any table of the round,
    a late entry's earlier rounds included); ``counted`` False = discarded."""

    round: int
    points: float | None
    counted: bool


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's row of the standings: rank (shared on ties), tournament points after deductions, games and table
    points, the deductions taken, whether still in, and with discards each round's result."""

    rank: int
    player: PlayerId
    points: float
    games: int
    table_points: float
    deductions: float
    standing: Standing
    rounds: tuple[RoundScore, ...] = ()  # with discards: every round held, each counted or discarded

    @property
    def counted(self) -> tuple[int, ...]:
        return tuple(r.round for r in self.rounds if r.counted)

    @property
    def discarded(self) -> tuple[int, ...]:
        return tuple(r.round for r in self.rounds if not r.counted)


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A team's row of the team standings: rank (shared on ties), the sum of its players' points, and its players."""

    rank: int
    team: str
    points: float
    players: tuple[PlayerId, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings: the rows by rank, every tie-breaker decision taken (the explanation), and the team rows when
    teams play."""

    rows: tuple[StandingRow, ...]
    decisions: tuple[TieBreakDecision, ...]
    teams: tuple[TeamRow, ...] = field(default=())


def _round_pts(x: float) -> float:
    return round(x, 6)


def discards_in_force(discards: int, held: int, foreseen: int = 0) -> int:
    """How many results are discarded after ``held`` rounds: the best ``foreseen - discards`` count (the national
    team championship's "best 9 of 12"), so nothing is discarded until more rounds are held than will count; with
    no rounds foreseen (0) the ``discards`` worst go as soon as there are more results than that (our reading,
    docs/readings.md: standings mid-championship rank what will count)."""
    if discards <= 0 or held <= 0:
        return 0
    if foreseen:
        return max(0, min(discards, held - (foreseen - discards)))
    return min(discards, held - 1)


def with_discards(scores: Mapping[int, float], held: Sequence[int], discards: int) -> tuple[RoundScore, ...]:
    """Each held round's score with the ``discards`` worst marked discarded: absences first (the earliest first),
    then the lowest scores (of equal ones, the earliest round). A player's round score is the sum of their tables
    that round (one table a round; :func:`check_results`)."""
    order = sorted(held, key=lambda r: (r in scores, scores.get(r, 0.0), r))
    dropped = set(order[:discards])
    return tuple(RoundScore(r, scores.get(r), r not in dropped) for r in sorted(held))


def best_single_games(results: Sequence[GameResult]) -> tuple[tuple[PlayerId, float, int], ...]:
    """Each player's best single game and games played, as a repechage reads them (issue 47): the game's table
    points (its tournament points where a table has none), every table the player sat at counted; in order of first
    appearance."""
    best: dict[PlayerId, float] = {}
    games: dict[PlayerId, int] = defaultdict(int)
    for res in results:
        for e in res.entries:
            score = e.table_points if e.table_points is not None else e.tournament_points
            best[e.player] = max(best.get(e.player, score), score)
            games[e.player] += 1
    return tuple((p, _round_pts(best[p]), games[p]) for p in best)


def check_results(results: Sequence[GameResult]) -> None:
    """A player plays one table per round, once: a player twice at a table, or at two tables of one round, is a
    typing error the standings must not count twice (``TournamentError`` naming the player and where)."""
    tables: set[tuple[int, int]] = set()
    seated: dict[tuple[int, PlayerId], int] = {}
    for res in results:
        if (res.round, res.table) in tables:
            raise TournamentError("table_twice", f"round {res.round}, table {res.table}")
        tables.add((res.round, res.table))
        at_table: set[PlayerId] = set()
        for e in res.entries:
            if e.player in at_table:
                raise TournamentError("player_twice_at_table", f"{e.player} (round {res.round}, table {res.table})")
            at_table.add(e.player)
            other = seated.get((res.round, e.player))
            if other is not None:
                raise TournamentError(
                    "player_at_two_tables", f"{e.player} (round {res.round}, tables {other} and {res.table})"
                )
            seated[(res.round, e.player)] = res.table


TieValue = float | int | None


@dataclass(frozen=True, slots=True)
class TieBreakLink:
    """One tie-breaker of a chain: its code, the values it gives a run of level players (None: it does not apply to
    them) and whether the lower value ranks higher. ``note`` says what the values were read from, when a code alone
    does not (the season's latest tournament the level players all played)."""

    code: str
    values: Callable[[Sequence[PlayerId]], Mapping[PlayerId, TieValue] | None] | None
    lower_is_better: bool = False
    note: Callable[[Sequence[PlayerId]], str | None] | None = None


def break_ties(
    level: Sequence[PlayerId], chain: Sequence[TieBreakLink]
) -> tuple[list[list[PlayerId]], list[TieBreakDecision]]:
    """Order players level on points by the tie-breakers of ``chain``, in turn: each splits every run it can (a run
    where a player has no value is left whole), and every split is a decision; the runs still level at the end share
    a rank (an unresolved decision). The standings and the season order their ties with this one function."""
    members = list(level)
    if len(members) < 2:
        return [members], []
    runs: list[list[PlayerId]] = [members]
    decisions: list[TieBreakDecision] = []
    for link in chain:
        if link.values is None:
            continue
        new_runs: list[list[PlayerId]] = []
        for run in runs:
            if len(run) == 1:
                new_runs.append(run)
                continue
            vals = link.values(run)
            if vals is None or any(vals.get(p) is None for p in run):
                new_runs.append(run)
                continue
            sign = 1 if link.lower_is_better else -1
            buckets: dict[float, list[PlayerId]] = defaultdict(list)
            for p in run:
                v = vals[p]
                assert v is not None
                buckets[sign * v].append(p)
            split = [buckets[k] for k in sorted(buckets)]
            if len(split) > 1:
                note = link.note(run) if link.note is not None else None
                decisions.append(TieBreakDecision(tuple(p for s in split for p in s), link.code,
                                                  tuple((p, vals[p]) for p in run), True, note))  # fmt: skip
            new_runs.extend(split)
        runs = new_runs
    for run in runs:
        if len(run) > 1:
            decisions.append(TieBreakDecision(tuple(run), None, (), False))
    return runs, decisions


def compute_standings(
    results: Sequence[GameResult],
    *,
    players: Sequence[PlayerId] = (),
    tie_breakers: Sequence[str] = (),
    deductions: Sequence[Deduction] = (),
    withdrawn: Collection[PlayerId] = (),
    disqualified: Collection[PlayerId] = (),
    withdrawal_deduction: float = 0.0,
    teams: Mapping[PlayerId, str] | None = None,
    disqualified_below_withdrawn: bool = False,
    knockout: bool = False,
    discards: int = 0,
    rounds_foreseen: int = 0,
) -> Standings:
    """Cumulative standings. Withdrawn and disqualified players rank after everyone else. RisiKo! (ARB art. 23
    last sentence and art. 25) treats a disqualified player as a withdrawn one: same tier; Ricochet Robots (RR 13.4)
    puts the disqualified below every withdrawal (``disqualified_below_withdrawn``, the preset's
    ``[tournament] disqualified_ranks``). A withdrawal from a game costs ``withdrawal_deduction`` points (FIRK §21,
    FIRK-WD-1: 25) — a withdrawal only, not a disqualification; explicit ``deductions``
    (e.g. FIRK −7 for disturbing a table) are subtracted. Players level on points are ordered by the
    preset's ``tie_breakers``; every decision is returned, unresolved ties share the rank.

    ``knockout`` (NP-FMT-1 "ad eliminazione diretta"): how far a player went comes first — the later the last round
    played, the better; then the place at that last table (the final's winner is the champion); then points.

    ``discards`` (club championships, issue 47): each player's worst results of the rounds held are not counted,
    an absence first (:func:`with_discards`, :func:`discards_in_force` with ``rounds_foreseen``); every row then
    lists its rounds, counted and discarded. Deductions are taken from the counted total.
    """
    check_results(results)
    known = [*players]
    seen = set(known)
    total: dict[PlayerId, float] = defaultdict(float)
    games: dict[PlayerId, int] = defaultdict(int)
    tpoints: dict[PlayerId, float] = defaultdict(float)
    deducted: dict[PlayerId, float] = defaultdict(float)
    last_seen: dict[PlayerId, tuple[int, int, int]] = {}
    first_game_tp: dict[PlayerId, float] = {}
    by_round: dict[PlayerId, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    wins: dict[PlayerId, int] = defaultdict(int)
    best_win: dict[PlayerId, float] = {}
    rounds = sorted({r.round for r in results})
    for res in results:
        for e in res.entries:
            if e.player not in seen:
                seen.add(e.player)
                known.append(e.player)
            total[e.player] += e.tournament_points
            by_round[e.player][res.round] += e.tournament_points
            if e.order == 1 and e.status is EntryStatus.PLAYED:
                wins[e.player] += 1
                score = e.table_points if e.table_points is not None else e.tournament_points
                best_win[e.player] = max(best_win.get(e.player, score), score)
            games[e.player] += 1
            tpoints[e.player] += e.table_points or 0.0
            prev = last_seen.get(e.player)
            if prev is None or prev[0] < res.round:
                last_seen[e.player] = (res.round, res.table, e.order)
            if rounds and res.round == rounds[0] and e.table_points is not None:
                first_game_tp[e.player] = e.table_points
            if e.status is EntryStatus.FORFEIT and withdrawal_deduction:
                deducted[e.player] += withdrawal_deduction
    for d in deductions:
        if d.player not in seen:
            raise TournamentError("deduction_for_unknown_player", d.player)
        deducted[d.player] += d.points
    dropping = discards_in_force(discards, len(rounds), rounds_foreseen)
    scored: dict[PlayerId, tuple[RoundScore, ...]] = {}
    if discards > 0:
        for p in known:
            scored[p] = with_discards(by_round[p], rounds, dropping)
    counted = {p: sum(r.points or 0.0 for r in scored[p] if r.counted) for p in scored}
    whole = {p: _round_pts(total[p] - deducted[p]) for p in known}
    points = {p: _round_pts(counted[p] - deducted[p]) for p in counted} if discards > 0 else whole

    def standing(p: PlayerId) -> Standing:
        if p in disqualified:
            return Standing.DISQUALIFIED
        if p in withdrawn:
            return Standing.WITHDRAWN
        return Standing.ACTIVE

    tier = {
        s: out_of_play_tier(status, disqualified_below_withdrawn=disqualified_below_withdrawn)
        for s, status in ((Standing.ACTIVE, "active"), (Standing.WITHDRAWN, "withdrawn"),
                          (Standing.DISQUALIFIED, "disqualified"))
    }  # fmt: skip
    only_one_round = len(rounds) == 1

    def key_for(tb: str) -> Callable[[PlayerId], float | int | None] | None:
        if tb == TieBreaker.LAST_GAME_TABLE:
            if only_one_round:
                return None
            return lambda p: last_seen[p][1] if p in last_seen else None
        if tb == TieBreaker.FIRST_GAME_TABLE_POINTS:
            if not only_one_round:
                return None
            return lambda p: first_game_tp.get(p)
        if tb == TieBreaker.TABLE_POINTS_TOTAL:
            return lambda p: tpoints[p]
        if tb == TieBreaker.WINS:
            return lambda p: wins[p]
        if tb == TieBreaker.BEST_WIN:
            return lambda p: best_win.get(p, 0.0)
        if tb == TieBreaker.TOTAL_WITHOUT_DISCARDS:
            return lambda p: whole[p]
        raise TournamentError("unknown_tie_breaker", tb)

    # lower table number is better; table points: higher is better
    better_low = {TieBreaker.LAST_GAME_TABLE}

    def group_key(p: PlayerId) -> tuple[float, ...]:
        if knockout:
            last_round, _, place = last_seen.get(p, (0, 0, 1 << 30))
            return (tier[standing(p)], -last_round, place, -points[p])
        return (tier[standing(p)], -points[p])

    def chain_link(tb: str) -> TieBreakLink:
        fn = key_for(tb)
        values = None if fn is None else (lambda run: {p: fn(p) for p in run})
        return TieBreakLink(tb, values, tb in better_low)

    chain = [chain_link(tb) for tb in tie_breakers]
    groups: dict[tuple[float, ...], list[PlayerId]] = defaultdict(list)
    for p in known:
        groups[group_key(p)].append(p)
    ordered: list[list[PlayerId]] = []  # runs of players sharing a rank
    decisions: list[TieBreakDecision] = []
    for gkey in sorted(groups):
        runs, taken = break_ties(groups[gkey], chain)
        ordered.extend(runs)
        decisions.extend(taken)
    rows: list[StandingRow] = []
    position = 1
    for run in ordered:
        for p in run:
            rows.append(
                StandingRow(
                    position,
                    p,
                    points[p],
                    games[p],
                    _round_pts(tpoints[p]),
                    _round_pts(deducted[p]),
                    standing(p),
                    scored.get(p, ()),
                )
            )
        position += len(run)
    team_rows: tuple[TeamRow, ...] = ()
    if teams:
        team_total: dict[str, float] = defaultdict(float)
        members_of: dict[str, list[PlayerId]] = defaultdict(list)
        for p in known:
            team = teams.get(p)
            if team is None:
                continue
            team_total[team] += points[p]
            members_of[team].append(p)
        ranked = sorted(team_total, key=lambda t: -team_total[t])
        out: list[TeamRow] = []
        for i, t in enumerate(ranked):
            rank = i + 1
            if i and _round_pts(team_total[t]) == _round_pts(team_total[ranked[i - 1]]):
                rank = out[-1].rank
            out.append(TeamRow(rank, t, _round_pts(team_total[t]), tuple(members_of[t])))
        team_rows = tuple(out)
    return Standings(tuple(rows), tuple(decisions), team_rows)


def points_by_place(places: Sequence[tuple[PlayerId, int]], table: Sequence[float]) -> dict[PlayerId, float]:
    """Tournament points from a place table (e.g. NP-PTS-1 12/9/6/3); players sharing a place share
    the points of the places they cover, averaged."""
    counts: dict[int, int] = defaultdict(int)
    for _, pl in places:
        counts[pl] += 1
    out: dict[PlayerId, float] = {}
    for p, pl in places:
        span = [table[k - 1] if 0 < k <= len(table) else 0.0 for k in range(pl, pl + counts[pl])]
        out[p] = _round_pts(sum(span) / len(span))
    return out


def ricochet_tournament_points(points_table: Sequence[float], placements: Sequence[Placement]) -> dict[Any, float]:
    """Ricochet Robots: the RR rulebook fixes game points, not tournament points. The preset's ``points_by_place``
    (empty by default) maps the places of ``bot.rules.ricochet.game.final_ranking`` to points; when empty, the tokens
    won count (forfeited, last-of-the-game and disqualified players score 0 for the game, RR 9.3 / 13.3 / 13.4)."""
    table = [float(x) for x in points_table]
    if table:
        return points_by_place([(p.player, p.place) for p in placements], table)
    return {p.player: (float(p.tokens) if p.status is PlayerStatus.ACTIVE else 0.0) for p in placements}
