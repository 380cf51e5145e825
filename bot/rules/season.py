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

A season may instead use the club's own scheme ("giocatore dell'anno", :class:`PointScheme`): points by event type
and final place plus points for every game played, its values the club's, not a rulebook's; and ranked one-off games
(:class:`OneOffGame`, "amichevoli classificate") recorded into the season without a tournament around them.
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
    event_type: str | None = None  # with a PointScheme: whose points by place it gives (None: no place points)


@dataclass(frozen=True, slots=True)
class SeasonDeduction:
    """Points taken off a player's season total (FIRK penalità 4 at annual level: 7). ``tournament``: the season's
    tournament it was given at (its evening), so the ranking before that tournament does not count it; None = it
    counts in every ranking."""

    player: PlayerId
    points: float
    code: str
    tournament: str | None = None


EVENT_TYPE_MAX = 32  # characters of an event type's name ("master", "open", "amichevole")
SCHEME_EVENTS_MAX = 20  # event types of one scheme
SCHEME_PLACES_MAX = 256  # places one event type scores
SCHEME_POINTS_MAX = 1_000_000.0  # a place's, or a game's, points
GAME_PLAYERS = (2, 10)  # a one-off game's players: at least two, at most ten (Ricochet Robots' larger tables)


@dataclass(frozen=True, slots=True)
class PointScheme:
    """A club's own season points ("giocatore dell'anno"): the points of each final place by event type, plus
    ``per_game`` for every game played. The values are the club's, not a rulebook's.

    ``events``: (event type, points of places 1, 2, 3, …), one pair per type, types as :func:`event_type_key`
    writes them. A place past the list scores 0; players sharing a place share the points of the places they cover,
    averaged (as NP's 12 / 9 / 6 / 3). The club example — a Master won 2000, a finalist 1000, a semifinalist 500 — is
    ``("master", (2000, 1000, 1000, 1000, 500, … twelve times))``: the final classification's place 1, places 2–4
    (the rest of the final table), places 5–16 (the semifinal tables).

    A *game* is one table a player sat at that has a result: in a tournament every round — qualifying rounds,
    semifinals and the final — and each ranked one-off game. A table not yet reported counts nothing; a table
    reported and not yet countersigned counts (the ranking says how many are unconfirmed).

    ``one_off``: the event type whose places score a one-off game (None: a one-off game gives ``per_game`` only).
    """

    per_game: float = 0.0
    events: tuple[tuple[str, tuple[float, ...]], ...] = ()
    one_off: str | None = None

    def places(self, event_type: str | None) -> tuple[float, ...] | None:
        """The points by place of ``event_type`` (None: the scheme has no such type)."""
        return next((table for name, table in self.events if name == event_type), None)

    @property
    def event_types(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.events)

    def validated(self) -> PointScheme:
        """This scheme, or a :class:`TournamentError`: ``scheme_per_game``, ``event_type_invalid``,
        ``scheme_event_twice``, ``scheme_too_many_events``, ``scheme_places`` or ``scheme_one_off_unknown``."""
        if not _fair_points(self.per_game):
            raise TournamentError("scheme_per_game", self.per_game)
        if len(self.events) > SCHEME_EVENTS_MAX:
            raise TournamentError("scheme_too_many_events", len(self.events))
        seen: set[str] = set()
        for name, table in self.events:
            if event_type_key(name) != name:
                raise TournamentError("event_type_invalid", name)
            if name in seen:
                raise TournamentError("scheme_event_twice", name)
            seen.add(name)
            if not table or len(table) > SCHEME_PLACES_MAX or not all(_fair_points(x) for x in table):
                raise TournamentError("scheme_places", name)
        if self.one_off is not None and self.one_off not in seen:
            raise TournamentError("scheme_one_off_unknown", self.one_off)
        return self

    def with_event(self, event_type: str, table: Sequence[float] | None) -> PointScheme:
        """The scheme with ``event_type``'s points by place set to ``table`` (None: the type removed, and with it
        the one-off games' type if it was that one); validated."""
        name = event_type_key(event_type)
        kept = tuple((n, t) for n, t in self.events if n != name)
        if table is None:
            one_off = None if self.one_off == name else self.one_off
            return replace(self, events=kept, one_off=one_off).validated()
        events = tuple((n, t) if n != name else (n, tuple(float(x) for x in table)) for n, t in self.events)
        if name not in self.event_types:
            events = (*kept, (name, tuple(float(x) for x in table)))
        return replace(self, events=events).validated()

    def to_data(self) -> dict[str, object]:
        """The scheme as JSON data (the season's ``scheme`` column, ``steward season``'s ``scheme``)."""
        return {"per_game": self.per_game, "events": {name: list(table) for name, table in self.events},
                "one_off": self.one_off}  # fmt: skip

    @staticmethod
    def from_data(data: Mapping[str, object]) -> PointScheme:
        """A scheme from :meth:`to_data`'s shape: ``{"per_game": 50, "events": {"master": [2000, 1000, …]},
        "one_off": "amichevole"}``; validated (a :class:`TournamentError` with a code otherwise)."""
        unknown = sorted(set(data) - {"per_game", "events", "one_off"})
        if unknown:
            raise TournamentError("scheme_unknown_field", unknown[0])
        per_game = data.get("per_game", 0.0)
        events = data.get("events", {})
        one_off = data.get("one_off")
        if not isinstance(per_game, int | float) or isinstance(per_game, bool):
            raise TournamentError("scheme_per_game", per_game)
        if not isinstance(events, Mapping):
            raise TournamentError("scheme_places", events)
        if one_off is not None and not isinstance(one_off, str):
            raise TournamentError("scheme_one_off_unknown", one_off)
        pairs: list[tuple[str, tuple[float, ...]]] = []
        for name, table in events.items():
            if not isinstance(name, str):
                raise TournamentError("event_type_invalid", name)
            if not isinstance(table, list | tuple) or not all(
                isinstance(x, int | float) and not isinstance(x, bool) for x in table
            ):
                raise TournamentError("scheme_places", name)
            pairs.append((event_type_key(name), tuple(float(x) for x in table)))
        return PointScheme(
            float(per_game), tuple(pairs), event_type_key(one_off) if one_off is not None else None
        ).validated()


def _fair_points(x: float) -> bool:
    return x == x and 0.0 <= x <= SCHEME_POINTS_MAX  # not NaN, not negative, not absurd


def event_type_key(text: str) -> str:
    """An event type as a scheme stores it: trimmed, lower case, inner spaces single; 1–32 letters, digits, spaces,
    ``-`` or ``_`` (``"Master"`` and ``" master "`` are one type); a :class:`TournamentError` otherwise."""
    key = " ".join(text.split()).casefold()
    if not 1 <= len(key) <= EVENT_TYPE_MAX or not all(c.isalnum() or c in " -_" for c in key):
        raise TournamentError("event_type_invalid", text[: EVENT_TYPE_MAX + 8])
    return key


def parse_place_points(text: str) -> tuple[float, ...]:
    """Points by place as people type them: items separated by ``,`` or ``;``, each a number (a ``.`` for
    decimals) or a number repeated, ``500x12`` (also ``500×12``, ``500*12``): ``"2000, 1000x3, 500x12"`` is the
    Master's 16 places. A :class:`TournamentError` ``places_invalid`` names the first item that is neither."""
    out: list[float] = []
    for raw in text.replace(";", ",").split(","):
        item = "".join(raw.split()).lower().replace("×", "x").replace("*", "x")
        if not item:
            continue
        value, _, times = item.partition("x")
        try:
            points, count = float(value), int(times) if times else 1
        except ValueError:
            raise TournamentError("places_invalid", raw.strip()[:20]) from None
        if not _fair_points(points) or not 1 <= count <= SCHEME_PLACES_MAX or len(out) + count > SCHEME_PLACES_MAX:
            raise TournamentError("places_invalid", raw.strip()[:20])
        out += [points] * count
    if not out:
        raise TournamentError("places_invalid", text[:20])
    return tuple(out)


def parse_finish_order(text: str) -> tuple[tuple[str, int], ...]:
    """A one-off game's players as people type them, in finish order: names separated by ``,``; players sharing a
    place joined by ``=`` (``"Anna, Bruno = Carla, Dario"``: Anna 1st, Bruno and Carla 2nd, Dario 4th). Each name
    with its place; a :class:`TournamentError` ``order_empty_name`` for an empty name."""
    out: list[tuple[str, int]] = []
    for group in text.split(","):
        names = [" ".join(n.split()) for n in group.split("=")]
        if not any(names) and not group.strip():
            continue
        if not all(names):
            raise TournamentError("order_empty_name", group.strip()[:40])
        place = len(out) + 1
        out += [(n, place) for n in names]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class OneOffEntry:
    """A player of a one-off game: their place (1 = won; players sharing a place share it) and, optionally, their
    table points (the table-points tie-breaker reads them)."""

    player: PlayerId
    place: int
    table_points: float | None = None


@dataclass(frozen=True, slots=True)
class OneOffGame:
    """A ranked one-off game ("amichevole classificata"): one table recorded into the season with no tournament
    around it. It gives each player the scheme's ``per_game`` and, when the scheme names a ``one_off`` event type,
    that type's points by the place. ``tournament``: the season's latest tournament when it was recorded (the
    ranking before that tournament leaves it out, as a season deduction's); None = before any."""

    entries: tuple[OneOffEntry, ...]
    tournament: str | None = None
    label: str = ""  # how the game is named in errors ("#3")

    def validated(self) -> OneOffGame:
        """This game, or a :class:`TournamentError`: ``game_players`` (not 2–10 players), ``game_player_twice``,
        ``game_places`` (the places are not a ranking: 1, 2, 2, 4 is one, 1, 3 is not)."""
        players = [e.player for e in self.entries]
        if not GAME_PLAYERS[0] <= len(players) <= GAME_PLAYERS[1]:
            raise TournamentError("game_players", len(players))
        twice = next((p for p in players if players.count(p) > 1), None)
        if twice is not None:
            raise TournamentError("game_player_twice", twice)
        places = sorted(e.place for e in self.entries)
        if any(place != 1 + sum(1 for q in places if q < place) for place in places):
            raise TournamentError("game_places", self.label or places)
        if any(e.table_points is not None and e.table_points != e.table_points for e in self.entries):
            raise TournamentError("game_table_points", self.label)
        return self


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
    """A player's row in the season ranking: rank, points (counted lines less deductions), totals, the line of every
    tournament played, and the rank before the latest tournament (the image's movement)."""

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
    one_off_points: float = 0.0  # the ranked one-off games' points (counted whole: best-N drops tournaments only)
    one_off_games: int = 0

    @property
    def by_tournament(self) -> dict[str, float]:
        return {line.tournament: line.points for line in self.lines}

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(line.tournament for line in self.lines if not line.counted)


@dataclass(frozen=True, slots=True)
class Season:
    """A season's ranking: the tournaments in season order, the rows by rank, and every tie-breaker decision taken
    (as the tournament standings explain theirs)."""

    tournaments: tuple[str, ...]
    rows: tuple[SeasonRow, ...]
    decisions: tuple[TieBreakDecision, ...]


def _round_pts(x: float) -> float:
    return round(x, 6)


def _tournament_lines(
    t: SeasonTournament, rules: SeasonRules, scheme: PointScheme | None = None
) -> dict[PlayerId, TournamentLine]:
    """Each player's line for tournament ``t``: NP's project points board by board (the final table order, 12 / 9 /
    6 / 3 and the preset's value past the 4th), or the points of the general classification (its deductions, FIRK
    §21's −25 for a withdrawal included), or — with a club's ``scheme`` — the points of their place for the
    tournament's event type plus ``per_game`` for each of its tables they sat at; a withdrawn or disqualified
    player's as the preset reads them."""
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
    if scheme is not None:
        table = scheme.places(t.event_type) or ()
        ranked = [(row.player, final.get(row.player, row.rank)) for row in t.standings.rows]
        by_place = points_by_place(ranked, table) if table else {}
    for row in t.standings.rows:
        if scheme is not None:
            points = by_place.get(row.player, 0.0) + scheme.per_game * games[row.player]
        else:
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


@dataclass(frozen=True, slots=True)
class _OneOff:
    """A player's one-off games, summed."""

    points: float = 0.0
    games: int = 0
    first_places: int = 0
    table_points: float = 0.0


def _one_off_totals(games: Sequence[OneOffGame], scheme: PointScheme | None) -> dict[PlayerId, _OneOff]:
    """Each player's points from the one-off ``games``: ``per_game`` each, and the one-off event type's points by
    place (players sharing a place share the places they cover, averaged)."""
    out: dict[PlayerId, _OneOff] = {}
    if scheme is None:
        return out
    table = scheme.places(scheme.one_off) or ()
    for game in games:
        by_place = points_by_place([(e.player, e.place) for e in game.entries], table) if table else {}
        for e in game.entries:
            mine = out.get(e.player, _OneOff())
            out[e.player] = _OneOff(
                mine.points + scheme.per_game + by_place.get(e.player, 0.0), mine.games + 1,
                mine.first_places + int(e.place == 1), mine.table_points + (e.table_points or 0.0),
            )  # fmt: skip
    return out


def _rank_rows(
    players: Sequence[PlayerId],
    lines: Mapping[PlayerId, tuple[TournamentLine, ...]],
    deducted: Mapping[PlayerId, float],
    order: Sequence[str],
    rules: SeasonRules,
    one_off: Mapping[PlayerId, _OneOff] | None = None,
) -> tuple[list[SeasonRow], list[TieBreakDecision]]:
    position = {name: i for i, name in enumerate(order)}
    extra = one_off or {}
    none = _OneOff()

    def total(p: PlayerId) -> float:
        counted = sum(line.points for line in lines[p] if line.counted) + extra.get(p, none).points
        return _round_pts(counted - deducted.get(p, 0.0))

    def wins(p: PlayerId) -> int:
        return sum(x.first_places for x in lines[p]) + extra.get(p, none).first_places

    def table_points(p: PlayerId) -> float:
        return _round_pts(sum(x.table_points for x in lines[p]) + extra.get(p, none).table_points)

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
            SeasonTieBreaker.FIRST_PLACES, lambda run: {p: wins(p) for p in run}
        ),
        SeasonTieBreaker.LATEST_TOURNAMENT_RANK: TieBreakLink(
            SeasonTieBreaker.LATEST_TOURNAMENT_RANK, latest_rank, lower_is_better=True, note=latest_common
        ),
        SeasonTieBreaker.TABLE_POINTS_TOTAL: TieBreakLink(
            SeasonTieBreaker.TABLE_POINTS_TOTAL, lambda run: {p: table_points(p) for p in run}
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
                friendly = extra.get(p, none)
                rows.append(
                    SeasonRow(
                        rank=rank, player=p, points=points[p], tournaments=len(mine),
                        games=sum(x.games for x in mine) + friendly.games, lines=mine,
                        deductions=_round_pts(deducted.get(p, 0.0)), first_places=wins(p),
                        table_points=table_points(p), one_off_points=_round_pts(friendly.points),
                        one_off_games=friendly.games,
                    )
                )  # fmt: skip
            rank += len(run)
    return rows, decisions


def _season(
    tournaments: Sequence[SeasonTournament],
    rules: SeasonRules,
    deductions: Sequence[SeasonDeduction],
    known: Sequence[PlayerId] = (),
    scheme: PointScheme | None = None,
    games: Sequence[OneOffGame] = (),
) -> tuple[list[SeasonRow], list[TieBreakDecision]]:
    players: list[PlayerId] = list(dict.fromkeys(known))
    lines: dict[PlayerId, list[TournamentLine]] = {p: [] for p in players}
    for t in tournaments:
        for p, line in _tournament_lines(t, rules, scheme).items():
            if p not in lines:
                players.append(p)
                lines[p] = []
            lines[p].append(line)
    one_off = _one_off_totals(games, scheme)
    for p in one_off:
        if p not in lines:
            players.append(p)
            lines[p] = []
    deducted: dict[PlayerId, float] = defaultdict(float)
    for d in deductions:
        if d.player in lines:  # compute_season refuses a player of no tournament; before the latest: not yet one
            deducted[d.player] += d.points
    counted = {p: _counted(lines[p], rules.counted_tournaments) for p in players}
    return _rank_rows(players, counted, deducted, [t.name for t in tournaments], rules, one_off)


def compute_season(
    tournaments: Sequence[SeasonTournament],
    *,
    rules: SeasonRules,
    deductions: Sequence[SeasonDeduction] = (),
    players: Sequence[PlayerId] = (),
    scheme: PointScheme | None = None,
    games: Sequence[OneOffGame] = (),
) -> Season:
    """The season's ranking after ``tournaments`` (oldest first): each player's points are their counted
    tournaments' points minus their season ``deductions``; players level on points are ordered by the preset's
    ``tie_breakers`` with every decision returned (unresolved ties share the rank); everyone is ranked in one tier
    (leaving one tournament does not leave the season, our reading). ``players``: also ranked without a game (a
    season deduction can reach someone who played no board yet). With two tournaments or more, each row has its
    rank before the latest tournament (the deductions given at it, and the one-off games recorded since, left out).

    ``scheme``: the club's :class:`PointScheme` instead of the preset's points — each tournament gives the points of
    the player's place (its final classification, else its standings) for the tournament's ``event_type``, plus
    ``per_game`` per table; the ranked one-off ``games`` add theirs (they need a scheme). The preset still says who
    counts after a withdrawal or a disqualification, the best-N tournaments and the tie-breakers (the one-off games'
    wins and table points count for ``first_places`` and ``table_points_total``)."""
    names = [t.name for t in tournaments]
    if len(set(names)) != len(names):
        raise TournamentError("tournament_twice", next(n for n in names if names.count(n) > 1))
    unknown = [d.tournament for d in deductions if d.tournament is not None and d.tournament not in names]
    if unknown:
        raise TournamentError("deduction_for_unknown_tournament", unknown[0])
    if scheme is not None:
        scheme.validated()
        typed = next((t for t in tournaments if t.event_type is not None and scheme.places(t.event_type) is None), None)
        if typed is not None:
            raise TournamentError("unknown_event_type", typed.event_type)
    elif games:
        raise TournamentError("games_need_scheme", len(games))
    for game in games:
        game.validated()
        if game.tournament is not None and game.tournament not in names:
            raise TournamentError("game_for_unknown_tournament", game.tournament)
    rows, decisions = _season(tournaments, rules, deductions, players, scheme, games)
    ranked = {row.player for row in rows}
    stranger = next((d.player for d in deductions if d.player not in ranked), None)
    if stranger is not None:
        raise TournamentError("deduction_for_unknown_player", stranger)
    if len(tournaments) >= 2:
        latest = names[-1]
        before, _ = _season(tournaments[:-1], rules, [d for d in deductions if d.tournament != latest], (), scheme,
                            [g for g in games if g.tournament != latest])  # fmt: skip
        ranks = {row.player: row.rank for row in before}
        rows = [replace(row, previous_rank=ranks.get(row.player)) for row in rows]
    return Season(tuple(names), tuple(rows), tuple(decisions))
