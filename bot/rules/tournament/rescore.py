"""A table's report scored, and scored again when a sanction changes the table (BOT-RES-1, BOT-SAN-2, RR 13, ARB 9,
13, 23, 25, FIRK punteggio 9).

What was entered stays as it was entered — typed table points or tokens per player (``entries``), or a RisiKo! final
situation (``situation``) — and is scored from it every time: when it is entered, and whenever a sanction recorded,
revoked, annulled or changed on appeal changes the table's result. :func:`rescore` is that second scoring in one call:
the table's stored report, its players, the sanctions in force at the table and the check-ins' forfeits, the ruleset
→ the new result lines (or None: nothing to re-score). The first scoring is :func:`score_entries` /
:func:`score_situation`, the same functions :func:`rescore` calls.

Pure: the service reads the rows, calls one function, writes the lines. A refusal is a :class:`ReportError` whose
``code`` names the report's message (``error.report.<code>``) and ``params`` its fields.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.rules.errors import RuleError, refusal_params
from bot.rules.ricochet.game import PlayerStatus, ranking_from_entries
from bot.rules.risiko.config import RisikoRules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import order_typed_table, tournament_points
from bot.rules.risiko.scoring import PlayerSituation, Status, parse_situation, score_table
from bot.rules.ruleset import Ruleset
from bot.rules.sanctions import Consequence, TableAdjustment, table_adjustment
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.planner import special_table_points
from bot.rules.tournament.standings import ricochet_tournament_points

PLAYED, WITHDRAWN, FORFEIT, DISQUALIFIED = "played", "withdrawn", "forfeit", "disqualified"  # a seat's outcome
RESCORED_KINDS = ("points", "ricochet", "situation")  # the reports scored from what was entered

Entry = tuple[int, str, float]  # (registration id, outcome, table points or tokens as typed)


@dataclass(frozen=True, slots=True)
class Player:
    """A player seated at the table: their registration and display name (a final situation names players so)."""

    registration_id: int
    name: str


@dataclass(frozen=True, slots=True)
class InForce:
    """A sanction in force at the table: whose, its consequence (``bot.rules.sanctions.Consequence``) and points."""

    registration_id: int
    consequence: str
    points: float | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """One player's result at the table: table points, place, tournament points, outcome, the tie-break note."""

    registration_id: int
    table_points: float
    rank: int
    tournament_points: float
    outcome: str
    tiebreak: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StoredReport:
    """A report as entered: its kind (``points``, ``ricochet``, ``situation``; another kind — a table that sat out —
    is not re-scored) and what was entered (``{"entries": [...]}`` or ``{"situation": {...}, ...}``)."""

    kind: str
    input: Mapping[str, Any]


class ReportError(RuleError):
    """A report the rules cannot score: ``code`` is the refusal (``error.report.<code>``), ``params`` its fields."""

    def __init__(self, code: str, value: object, params: Mapping[str, object] | None = None) -> None:
        super().__init__(code, value)
        self.params: dict[str, object] = dict(params or {})


# ------------------------------------------------------------------------------------------- the sanctions in force
def adjustments(sanctions: Iterable[InForce], forfeited: Iterable[int] = ()) -> dict[int, TableAdjustment]:
    """Each player's adjustment at the table: the sanctions in force there, and the game a check-in says the player
    forfeited (RR 13.5 after ten minutes, FIRK's "cannot play", ARB 3's replacement) — whatever was typed for them,
    they did not play it (the last place of the game)."""
    by_player: dict[int, list[tuple[str, float | None]]] = {}
    for s in sanctions:
        by_player.setdefault(s.registration_id, []).append((s.consequence, s.points))
    for rid in forfeited:
        by_player.setdefault(rid, []).append((Consequence.LAST_OF_GAME.value, None))
    return {rid: table_adjustment(items) for rid, items in by_player.items()}


def apply_adjustments(entries: Sequence[Entry], adjusted: Mapping[int, TableAdjustment]) -> list[Entry]:
    """The entries as the sanctions in force leave them (BOT-SAN-2): a forced outcome replaces a played one, table
    points taken come off (never below 0). What was typed stays stored as typed; this runs at every scoring."""
    out = []
    for rid, outcome, value in entries:
        adj = adjusted.get(rid)
        if adj is not None:
            if adj.outcome is not None and outcome == PLAYED:
                outcome, value = adj.outcome, 0.0
            elif adj.table_points_taken and outcome == PLAYED:
                value = max(0.0, value - adj.table_points_taken)
        out.append((rid, outcome, value))
    return out


# ---------------------------------------------------------------------------------------------- typed entries
def special_points(rules: TournamentRules, special: str | None, lines: list[Line]) -> list[Line]:
    """A special table's fixed points (FIRK punteggio 9 head to head: 31 / 15) replace the usual table's."""
    fixed = special_table_points(rules, special, len(lines))
    if fixed is None:
        return lines
    ordered = sorted(lines, key=lambda x: x.rank)
    return [replace(x, tournament_points=p) for x, p in zip(ordered, fixed, strict=True)]


def score_entries(
    ruleset: Ruleset, players: Sequence[Player], entries: Sequence[Entry], special: str | None
) -> tuple[str, list[Line]]:
    """Typed entries (already adjusted by the sanctions) → the report's kind (``points`` for RisiKo!, ``ricochet``)
    and its ranked lines."""
    if ruleset.game == "risiko":
        below = ruleset.tournament.disqualified_below_withdrawn
        return "points", special_points(ruleset.tournament, special, risiko_lines(ruleset, players, entries, below))
    return "ricochet", ricochet_lines(ruleset.tournament.points_by_place, entries)


def risiko_lines(ruleset: Ruleset, players: Sequence[Player], entries: Sequence[Entry], below: bool) -> list[Line]:
    """Table points typed in: order by points (ARB 6), players out of the game after those in play in the preset's
    tiers (``below``: a disqualification below the withdrawals), a tier sharing one place and the average of its
    positions' points (``bot.rules.outcomes.table_places``, ARB 23 and 25); a tie among players in play needs the
    final situation."""
    names = {p.registration_id: p.name for p in players}
    try:
        ordered = order_typed_table(list(entries), disqualified_below_withdrawn=below)
    except RisikoError as exc:
        if exc.code != "tie_needs_situation":
            raise ReportError("engine", exc.value, refusal_params(exc)) from None
        a, b = exc.value if isinstance(exc.value, tuple) else (None, None)
        tied = (str(names.get(a, a)), str(names.get(b, b)))
        raise ReportError("tie_needs_situation", tied, {"names": tied}) from None
    try:
        points = tournament_points(ruleset.preset, [e[2] for e in ordered], places=[e[3] for e in ordered])
    except RisikoError as exc:
        raise ReportError("engine", exc.value, refusal_params(exc)) from None
    lines = []
    for (rid, outcome, value, place), pts in zip(ordered, points, strict=True):
        decided = "points" if outcome == PLAYED else "status"
        lines.append(Line(rid, value, place, pts, outcome, {"decided_by": decided}))
    return lines


def ricochet_lines(points_table: Sequence[float], entries: Sequence[Entry]) -> list[Line]:
    """RR-WIN-1, RR-WD-1: tokens per player; the one RR ranking (``final_ranking``). The report records who left, not
    when: forfeits share their place (RR 9.3 orders them by the moment they left; never by the seat or the line)."""
    status = {PLAYED: PlayerStatus.ACTIVE, DISQUALIFIED: PlayerStatus.DISQUALIFIED}
    rows = [(rid, value, status.get(outcome, PlayerStatus.FORFEIT)) for rid, outcome, value in entries]
    for _, value, st in rows:
        if st is PlayerStatus.ACTIVE and not float(value).is_integer():
            raise ReportError("tokens_whole", value, {"value": str(value)})
    try:
        placements = ranking_from_entries(rows, left_at={})
        pts = ricochet_tournament_points(points_table, placements)
    except (RuleError, TournamentError) as exc:
        raise ReportError("engine", exc.value, refusal_params(exc)) from None
    place = {p.player: p for p in placements}
    return [
        Line(
            rid,
            float(place[rid].tokens) if place[rid].status is PlayerStatus.ACTIVE else 0.0,
            place[rid].place,
            pts[rid],
            outcome,
            {"decided_by": "tokens" if place[rid].status is PlayerStatus.ACTIVE else "status"},
        )
        for rid, outcome, _ in entries
    ]


# ---------------------------------------------------------------------------------------------- final situation
SITUATION_ENGINE_CODES = ("unknown_territory", "territory_owned_twice", "negative_armies")
STATUS_OUTCOME = {Status.ACTIVE: PLAYED, Status.FROZEN: PLAYED, Status.WITHDRAWN: WITHDRAWN,
                  Status.DISQUALIFIED: DISQUALIFIED}  # fmt: skip


def score_situation(
    ruleset: Ruleset,
    players: Sequence[Player],
    document: Any,
    rng: random.Random | None,
    adjusted: Mapping[int, TableAdjustment] | None = None,
) -> tuple[list[Line], dict[str, Any]]:
    """A final situation (the ``steward risiko score`` document, read: a mapping, or a list of its players) scored by
    the engine (table points, ranks, explanation), then tournament points; and what to store with the report (the
    document, the engine's explanation, its method). A player a sanction put out of the game (ARB 25) is scored as
    withdrawn, their territories neutral; one it disqualified as disqualified (the same tier under ARB 23, the
    preset decides: bot.rules.outcomes). Names are the players' display names (any case)."""
    doc = {"players": document} if isinstance(document, list) else document
    by_name = {p.name.casefold(): p for p in players}
    rules = ruleset.risiko
    if rules is None:
        raise ReportError("situation_risiko_only", ruleset.name)
    parsed = _parsed(doc, rules)
    scored: list[PlayerSituation] = []
    player_of: dict[str, Player] = {}
    for p in parsed.players:
        seated = by_name.get(p.name.strip().casefold())
        if seated is None:
            raise ReportError("not_at_this_table", p.name, {"value": p.name[:64]})
        adj = (adjusted or {}).get(seated.registration_id)
        if adj is not None and adj.outcome is not None and p.status in (Status.ACTIVE, Status.FROZEN):
            p = replace(p, status=Status.DISQUALIFIED if adj.outcome == DISQUALIFIED else Status.WITHDRAWN)
        scored.append(replace(p, name=seated.name))
        player_of[seated.name] = seated
    missing = [p.name for p in players if p.name not in player_of]
    if missing:
        raise ReportError("missing_value", missing[0], {"name": missing[0]})
    dice = None
    if parsed.dice:
        dice = {}
        for k, v in parsed.dice.items():
            seated = by_name.get(str(k).strip().casefold())
            if seated is None:
                raise ReportError("not_at_this_table", k, {"value": str(k)[:64]})
            dice[seated.name] = v
    try:
        taken = _table_points_taken(player_of, adjusted)
        score = score_table(scored, rules, dice=dice, rng=rng, penalties=taken or None)
        unresolved = [p.name for p in score.players if p.unresolved and p.status in (Status.ACTIVE, Status.FROZEN)]
        if unresolved:
            raise ReportError("tie_unresolved", unresolved, {"names": tuple(sorted(unresolved))})
        ordered = sorted(score.players, key=lambda x: (x.rank, x.name))  # a shared place shares its points
        pts = tournament_points(ruleset.preset, [float(x.table_points) for x in ordered],
                                places=[x.rank for x in ordered])  # fmt: skip
    except RisikoError as exc:
        raise ReportError("engine", exc.value, refusal_params(exc)) from None
    lines = [
        Line(player_of[x.name].registration_id, float(x.table_points), x.rank, points, STATUS_OUTCOME[x.status],
             {"decided_by": x.decided_by, "unresolved": x.unresolved, "values": dict(x.tiebreak_values)})
        for x, points in zip(ordered, pts, strict=True)
    ]  # fmt: skip
    stored = {"situation": doc, "explanation": [x.serialise() for x in score.players], "method": score.method}
    return lines, stored


def _parsed(doc: Any, rules: RisikoRules) -> Any:
    try:
        return parse_situation(doc, rules.board, also_allowed=("preset",))
    except RisikoError as exc:
        if exc.code in SITUATION_ENGINE_CODES:
            raise ReportError("engine", exc.value, refusal_params(exc)) from None
        raise ReportError("bad_situation", exc.value, refusal_params(exc, limit=60)) from None


def _table_points_taken(
    player_of: Mapping[str, Player], adjusted: Mapping[int, TableAdjustment] | None
) -> dict[str, int]:
    """Player name → the table points ARB 13 penalties take off (the engine ranks after taking them)."""
    out = {}
    for name, p in player_of.items():
        adj = (adjusted or {}).get(p.registration_id)
        if adj is not None and adj.table_points_taken:
            out[name] = round(adj.table_points_taken)
    return out


# ---------------------------------------------------------------------------------------------- the re-scoring
def rescore(
    ruleset: Ruleset,
    report: StoredReport,
    players: Sequence[Player],
    sanctions: Iterable[InForce],
    *,
    forfeited: Iterable[int] = (),
    special: str | None = None,
) -> list[Line] | None:
    """The table's result as the sanctions in force leave it now (one recorded, revoked, annulled or changed after the
    report), scored from what was entered: typed entries adjusted, or the final situation scored again with the
    adjustments; ``special``: the planner's kind of the table (FIRK's head to head). None: nothing to re-score — a
    report of another kind, or a final situation whose tie only the dice decided (the referee corrects it). A typed
    report the adjusted entries cannot rank is refused (:class:`ReportError`), as its entry would be."""
    if report.kind not in RESCORED_KINDS:
        return None
    adjusted = adjustments(sanctions, forfeited)
    if report.kind == "situation":
        try:  # the same document again; a tie the dice decided needs the referee's correction instead
            lines, _ = score_situation(ruleset, players, report.input["situation"], None, adjusted)
        except ReportError:
            return None
        return special_points(ruleset.tournament, special, lines)
    entries = [(int(e.get("player", e.get("registration_id"))), str(e["outcome"]), float(e["value"]))
               for e in report.input["entries"]]  # fmt: skip
    _, lines = score_entries(ruleset, players, apply_adjustments(entries, adjusted), special)
    return lines
