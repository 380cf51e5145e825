"""A season: one ranking across an ordered list of tournaments of one preset (NP-PTS-1, FIRK-SEED-1, FIRK-PEN-1).

Two rulebooks reach beyond one tournament. NP's *Punteggio valido per il progetto "La nostra passione"* gives every
board of the project's tournaments 12 / 9 / 6 / 3 project points by the final table order, and the project keeps
one ranking (``points = "project"``). FIRK keeps an annual ranking: round 1 of a tournament follows the previous
one's final standings (§6) and its −7 penalty reaches "any ranking in progress, also at annual level" (penalità 4);
each tournament's general classification carries into it (``points = "standings"``).

The preset's ``[season]`` table says how (:class:`SeasonRules`); every value no rulebook fixes is marked
``# our default`` there and listed in docs/readings.md. :func:`compute_season` is the one computation the bot
(``/season show``, ``/season export``) and ``steward season`` call: per tournament each player's season points,
season deductions taken off, the preset's tie-breakers explained as the tournament standings explain theirs
(``bot.rules.tournament.standings.break_ties``), and each player's rank before the latest tournament (the image's
movement).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.rules.presets import Preset, PresetFieldError
from bot.rules.presets.reader import TableReader
from bot.rules.tournament.model import PlayerId, TournamentError
from bot.rules.tournament.standings import (
    GameResult,
    Standing,
    Standings,
    TieBreakDecision,
    TieBreakLink,
    TieValue,
    break_ties,
    points_by_place,
)

# What a tournament gives the season: NP's project points board by board, or the general classification's points.
SEASON_POINTS = ("project", "standings")
# The points of a tournament a player withdrew from, or was disqualified from: counted as that tournament gives
# them, or none (the line stays, with 0).
OUT_OF_PLAY_POINTS = ("counted", "zero")
# A player's place in a tournament (the latest-tournament tie-break, the season's lines): its final classification
# when it has one (the final phase decides: the champion is 1st), or its qualifying standings.
TOURNAMENT_PLACES = ("classification", "standings")


class SeasonTieBreaker:
    """Tie-breakers a preset may list, in order, in ``[season].tie_breakers``."""

    FIRST_PLACES = "first_places"  # more boards won across the season ranks higher
    LATEST_TOURNAMENT_RANK = "latest_tournament_rank"  # the better place in the latest tournament all of them played
    TABLE_POINTS_TOTAL = "table_points_total"  # more table points across the season ranks higher


SEASON_TIE_BREAKERS = (
    SeasonTieBreaker.FIRST_PLACES,
    SeasonTieBreaker.LATEST_TOURNAMENT_RANK,
    SeasonTieBreaker.TABLE_POINTS_TOTAL,
)


@dataclass(frozen=True, slots=True)
class SeasonRules:
    """The preset's ``[season]`` table, validated into a frozen value."""

    points: str = "standings"
    points_by_place: tuple[float, ...] = ()  # "project": a board's points by place (NP 12/9/6/3 and a 5th seat)
    counted_tournaments: int = 0  # 0: every tournament's points count; N: the best N of each player
    tie_breakers: tuple[str, ...] = ()
    withdrawn_points: str = "counted"
    disqualified_points: str = "counted"
    place: str = "classification"  # a tournament's place: its final classification, or its standings

    @property
    def project(self) -> bool:
        return self.points == "project"

    @staticmethod
    def from_preset(preset: Preset) -> SeasonRules:
        """The ``[season]`` table of ``preset`` (a preset without one: each tournament's standings, summed whole)."""
        table = preset.data.get("season", {})
        if not isinstance(table, Mapping):
            raise PresetFieldError("season", table, "{…}")
        r = TableReader(table, "season")
        rules = SeasonRules(
            points=r.choice("points", "standings", SEASON_POINTS),
            points_by_place=r.numbers("points_by_place", []),
            counted_tournaments=r.integer("counted_tournaments", 0),
            tie_breakers=r.choices("tie_breakers", [], SEASON_TIE_BREAKERS),
            withdrawn_points=r.choice("withdrawn_points", "counted", OUT_OF_PLAY_POINTS),
            disqualified_points=r.choice("disqualified_points", "counted", OUT_OF_PLAY_POINTS),
            place=r.choice("place", "classification", TOURNAMENT_PLACES),
        )
        unknown = sorted(set(table) - r.consumed)
        if unknown:
            raise r.bad(unknown[0], table[unknown[0]], ", ".join(sorted(r.consumed)))
        if rules.project and not rules.points_by_place:
            raise r.bad("points_by_place", [], '[12, 9, 6, 3, …] (season.points = "project")')
        if any(x < 0 for x in rules.points_by_place):
            raise r.bad("points_by_place", list(rules.points_by_place), "[≥ 0, …]")
        return rules


@dataclass(frozen=True, slots=True)
class SeasonTournament:
    """One tournament of the season: its name (unique in the season), its tables' results, its general
    classification (``compute_standings`` with the tournament's own preset fields) and, once its final phase is
    played, each player's place in its final classification (``bot.rules.tournament.classification``)."""

    name: str
    results: tuple[GameResult, ...]
    standings: Standings
    places: Mapping[PlayerId, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeasonDeduction:
    """Points taken off a player's season total (FIRK penalità 4 at annual level: 7). ``tournament``: the season's
    tournament it was given at (its evening), so the ranking before that tournament does not count it; None = it
    counts in every ranking."""

    player: PlayerId
    points: float
    code: str
    tournament: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentLine:
    """A player's line for one tournament: the season points it gives, their place in it, how they left it."""

    tournament: str
    points: float
    rank: int
    standing: str  # "active" / "withdrawn" / "disqualified"
    games: int
    first_places: int
    table_points: float
    counted: bool = True  # False: a best-N season drops it


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int
    player: PlayerId
    points: float  # the counted lines' points minus ``deductions``
    tournaments: int
    games: int
    lines: tuple[TournamentLine, ...]  # the tournaments the player played, in season order
    deductions: float
    first_places: int
    table_points: float
    previous_rank: int | None = None  # before the season's latest tournament (None: not ranked then)

    @property
    def by_tournament(self) -> dict[str, float]:
        return {line.tournament: line.points for line in self.lines}

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(line.tournament for line in self.lines if not line.counted)


@dataclass(frozen=True, slots=True)
class Season:
    tournaments: tuple[str, ...]
    rows: tuple[SeasonRow, ...]
    decisions: tuple[TieBreakDecision, ...]


def _round_pts(x: float) -> float:
    return round(x, 6)


def _tournament_lines(t: SeasonTournament, rules: SeasonRules) -> dict[PlayerId, TournamentLine]:
    """Each player's line for tournament ``t``: NP's project points board by board (the final table order, 12 / 9 /
    6 / 3 and the preset's value past the 4th), or the points of the general classification (its deductions, FIRK
    §21's −25 for a withdrawal included); a withdrawn or disqualified player's as the preset reads them."""
    games: dict[PlayerId, int] = defaultdict(int)
    wins: dict[PlayerId, int] = defaultdict(int)
    table_points: dict[PlayerId, float] = defaultdict(float)
    project: dict[PlayerId, float] = defaultdict(float)
    for res in t.results:
        board = points_by_place([(e.player, e.order) for e in res.entries], rules.points_by_place)
        for e in res.entries:
            games[e.player] += 1
            wins[e.player] += int(e.order == 1)
            table_points[e.player] += e.table_points or 0.0
            project[e.player] += board[e.player]
    out: dict[PlayerId, TournamentLine] = {}
    final = t.places if rules.place == "classification" else {}
    for row in t.standings.rows:
        points = project[row.player] if rules.project else row.points
        if (row.standing is Standing.WITHDRAWN and rules.withdrawn_points == "zero") or (
            row.standing is Standing.DISQUALIFIED and rules.disqualified_points == "zero"
        ):
            points = 0.0
        out[row.player] = TournamentLine(
            t.name, _round_pts(points), final.get(row.player, row.rank), row.standing.value, games[row.player],
            wins[row.player],
            _round_pts(table_points[row.player]),
        )  # fmt: skip
    return out


def _counted(lines: Sequence[TournamentLine], best: int) -> tuple[TournamentLine, ...]:
    """``lines`` with the ones a best-``best`` season drops marked (the lowest; of two equal, the later)."""
    if best <= 0 or len(lines) <= best:
        return tuple(lines)
    keep = set(sorted(range(len(lines)), key=lambda i: (-lines[i].points, i))[:best])
    return tuple(line if i in keep else replace(line, counted=False) for i, line in enumerate(lines))


def _rank_rows(
    players: Sequence[PlayerId],
    lines: Mapping[PlayerId, tuple[TournamentLine, ...]],
    deducted: Mapping[PlayerId, float],
    order: Sequence[str],
    rules: SeasonRules,
) -> tuple[list[SeasonRow], list[TieBreakDecision]]:
    position = {name: i for i, name in enumerate(order)}

    def total(p: PlayerId) -> float:
        return _round_pts(sum(line.points for line in lines[p] if line.counted) - deducted.get(p, 0.0))

    def latest_common(run: Sequence[PlayerId]) -> str | None:
        shared = set.intersection(*({line.tournament for line in lines[p]} for p in run))
        return max(shared, key=lambda name: position[name]) if shared else None

    def latest_rank(run: Sequence[PlayerId]) -> Mapping[PlayerId, TieValue] | None:
        name = latest_common(run)
        if name is None:
            return None
        return {p: next(line.rank for line in lines[p] if line.tournament == name) for p in run}

    links = {
        SeasonTieBreaker.FIRST_PLACES: TieBreakLink(
            SeasonTieBreaker.FIRST_PLACES, lambda run: {p: sum(x.first_places for x in lines[p]) for p in run}
        ),
        SeasonTieBreaker.LATEST_TOURNAMENT_RANK: TieBreakLink(
            SeasonTieBreaker.LATEST_TOURNAMENT_RANK, latest_rank, lower_is_better=True, note=latest_common
        ),
        SeasonTieBreaker.TABLE_POINTS_TOTAL: TieBreakLink(
            SeasonTieBreaker.TABLE_POINTS_TOTAL,
            lambda run: {p: _round_pts(sum(x.table_points for x in lines[p])) for p in run},
        ),
    }
    chain = [links[code] for code in rules.tie_breakers]
    points = {p: total(p) for p in players}
    groups: dict[float, list[PlayerId]] = defaultdict(list)
    for p in players:
        groups[-points[p]].append(p)
    rows: list[SeasonRow] = []
    decisions: list[TieBreakDecision] = []
    rank = 1
    for key in sorted(groups):
        runs, taken = break_ties(groups[key], chain)
        decisions += taken
        for run in runs:
            for p in run:
                mine = lines[p]
                rows.append(
                    SeasonRow(
                        rank=rank, player=p, points=points[p], tournaments=len(mine),
                        games=sum(x.games for x in mine), lines=mine, deductions=_round_pts(deducted.get(p, 0.0)),
                        first_places=sum(x.first_places for x in mine),
                        table_points=_round_pts(sum(x.table_points for x in mine)),
                    )
                )  # fmt: skip
            rank += len(run)
    return rows, decisions


def _season(
    tournaments: Sequence[SeasonTournament],
    rules: SeasonRules,
    deductions: Sequence[SeasonDeduction],
    known: Sequence[PlayerId] = (),
) -> tuple[list[SeasonRow], list[TieBreakDecision]]:
    players: list[PlayerId] = list(dict.fromkeys(known))
    lines: dict[PlayerId, list[TournamentLine]] = {p: [] for p in players}
    for t in tournaments:
        for p, line in _tournament_lines(t, rules).items():
            if p not in lines:
                players.append(p)
                lines[p] = []
            lines[p].append(line)
    deducted: dict[PlayerId, float] = defaultdict(float)
    for d in deductions:
        if d.player in lines:  # compute_season refuses a player of no tournament; before the latest: not yet one
            deducted[d.player] += d.points
    counted = {p: _counted(lines[p], rules.counted_tournaments) for p in players}
    return _rank_rows(players, counted, deducted, [t.name for t in tournaments], rules)


def compute_season(
    tournaments: Sequence[SeasonTournament],
    *,
    rules: SeasonRules,
    deductions: Sequence[SeasonDeduction] = (),
    players: Sequence[PlayerId] = (),
) -> Season:
    """The season's ranking after ``tournaments`` (oldest first): each player's points are their counted
    tournaments' points minus their season ``deductions``; players level on points are ordered by the preset's
    ``tie_breakers`` with every decision returned (unresolved ties share the rank); everyone is ranked in one tier
    (leaving one tournament does not leave the season, our reading). ``players``: also ranked without a game (a
    season deduction can reach someone who played no board yet). With two tournaments or more, each row has its
    rank before the latest tournament (the deductions given at it left out)."""
    names = [t.name for t in tournaments]
    if len(set(names)) != len(names):
        raise TournamentError("tournament_twice", next(n for n in names if names.count(n) > 1))
    unknown = [d.tournament for d in deductions if d.tournament is not None and d.tournament not in names]
    if unknown:
        raise TournamentError("deduction_for_unknown_tournament", unknown[0])
    rows, decisions = _season(tournaments, rules, deductions, players)
    ranked = {row.player for row in rows}
    stranger = next((d.player for d in deductions if d.player not in ranked), None)
    if stranger is not None:
        raise TournamentError("deduction_for_unknown_player", stranger)
    if len(tournaments) >= 2:
        latest = names[-1]
        before, _ = _season(tournaments[:-1], rules, [d for d in deductions if d.tournament != latest])
        ranks = {row.player: row.rank for row in before}
        rows = [replace(row, previous_rank=ranks.get(row.player)) for row in rows]
    return Season(tuple(names), tuple(rows), tuple(decisions))
