"""The one draw planner: round kind → table sizes → special cases → draw (BOT-TAB-1, TOUR-*, FIRK-SIZE-1).

The bot and ``steward draw`` call the same :func:`plan_draw` on the same :class:`DrawRequest`. The services build the
request from the database and publish it as the round's export (``DrawRequest.to_json``, schema
``steward-tournament/1``); ``steward draw --seed <the round's seed>`` parses that document (``from_json``) and calls
``plan_draw`` again — so the published draw is reproducible by construction, for every preset and round.

Readings this module applies (docs/readings.md):

* FIRK §9 / punteggio 9, last round (FIRK-SIZE-1): with 5 present, the four best *of the standings* play table 1
  and the 5th sits out (a one-seat ``sit_out`` table, scored 15 if 5th overall else 1); with 6 present the 5th and
  6th *of the standings* play head to head (a two-seat ``head_to_head`` table, 31 / 15) — never a random pair.
* FIRK §6, §8, §9 (reading 8, ``tournament.later_round_tables = "standings"``): round 1 is seeded from the previous
  tournament's standings, table 1 at the top; from round 2 the tables are seated from the standings before the
  round the same way (table 1 = the best four, always of four), so the lower-numbered table is the harder game
  FIRK §8's tie-break rewards and the leader never sits at table 2. Level players a table boundary cuts through are
  ordered by a lot drawn with the round's seed.
* With ``later_round_tables = "criteria"`` (FIRK overridden) the draw's criteria form the tables and they are then
  numbered by strength (reading 4): the mean standings position of the players before the round (lower =
  stronger), table 1 always a table of four (FIRK §9).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.cut import LOT_VERSION, CutTie, canonical, resolve_ties
from bot.rules.tournament.documents import EXPORT_SCHEMA, ExportDocument, FinalsDocument, validate
from bot.rules.tournament.draw import draw_tables, evaluate
from bot.rules.tournament.model import Criterion, DrawContext, Optimality, Player, PlayerId, TournamentError
from bot.rules.tournament.seeding import compose_final, firk_round1, semifinals, split_odd_even
from bot.rules.tournament.sizes import (
    firk_sit_out_points,
    firk_sizes,
    rr_sizes,
    short_sizes,
    standard_sizes,
    team_overflow,
)

SCHEMA = EXPORT_SCHEMA
SIT_OUT = "sit_out"
HEAD_TO_HEAD = "head_to_head"
DUMMY = "dummy"


@dataclass(frozen=True, slots=True)
class DrawRequest:
    """Everything a qualifying round's draw looks at, as data (the bot's inputs = the published export)."""

    preset: str
    round_no: int
    players: tuple[Player, ...]
    overrides: Mapping[str, Any] = field(default_factory=dict)
    names: Mapping[PlayerId, str] = field(default_factory=dict)  # for people reading the export; not used to draw
    previous_tables: tuple[tuple[PlayerId, ...], ...] = ()  # every earlier qualifying table (repeat pairs)
    winners: tuple[PlayerId, ...] = ()  # every earlier table's winner, all rounds (TOUR-R2-1)
    five_table_players: tuple[PlayerId, ...] = ()  # every earlier 5-player-table player, all rounds
    family_pairs: tuple[tuple[PlayerId, PlayerId], ...] = ()  # FIRK-FAM-1
    ranking: tuple[PlayerId, ...] = ()  # best first: round 1 the previous tournament, later the standings so far
    ranks: tuple[int, ...] = ()  # each ``ranking`` entry's standings rank (level players share one); empty = 1, 2, …
    table_sizes: tuple[int, ...] = ()  # fixed sizes (a hand-made document); empty = the preset decides
    lot: int = LOT_VERSION  # how level players are drawn (``cut.lot``); 1 for documents published before version 2

    @property
    def rules(self) -> TournamentRules:
        return load_ruleset(self.preset, self.overrides or None).tournament

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "schema": SCHEMA,
            "preset": self.preset,
            "round": self.round_no,
            "players": [
                {"id": p.id, "name": self.names.get(p.id), "club": p.club, "team": p.team} for p in self.players
            ],
        }
        if self.overrides:
            doc["overrides"] = dict(self.overrides)
        if self.previous_tables:
            doc["previous_tables"] = [list(t) for t in self.previous_tables]
            doc["winners"] = list(self.winners)
            doc["five_table_players"] = list(self.five_table_players)
        if self.family_pairs:
            doc["family_pairs"] = [list(p) for p in self.family_pairs]
        if self.ranking:
            doc["previous_standings"] = list(self.ranking)
        if self.ranks:
            doc["previous_ranks"] = list(self.ranks)
        if self.table_sizes:
            doc["table_sizes"] = list(self.table_sizes)
        if self.lot != 1:
            doc["lot"] = self.lot
        return doc

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> DrawRequest:
        """Parse an export, checked by its schema (``documents.ExportDocument``); also the older single
        ``previous_round`` form (winners = each table's first)."""
        checked = validate(ExportDocument, doc)
        overrides = dict(checked.overrides or {})
        rules = load_ruleset(checked.preset, overrides or None).tournament
        players = tuple(Player(p.id, p.club, p.team) for p in checked.players)
        names = {p.id: p.name for p in checked.players if p.name is not None}
        tables = [tuple(t) for t in checked.previous_tables]
        winners = list(checked.winners)
        five = list(checked.five_table_players)
        if checked.previous_round is not None:
            last = [tuple(t.players) for t in checked.previous_round.tables]
            winners += [t.ranking[0] for t in checked.previous_round.tables if t.ranking]
            tables += last
            five += [x for t in last if len(t) >= rules.large_table_size for x in t]
        return DrawRequest(
            preset=checked.preset,
            round_no=checked.round,
            players=players,
            overrides=overrides,
            names=names,
            previous_tables=tuple(tables),
            winners=tuple(winners),
            five_table_players=tuple(five),
            family_pairs=tuple((a, b) for a, b in checked.family_pairs),
            ranking=tuple(checked.previous_standings),
            ranks=tuple(checked.previous_ranks),
            table_sizes=tuple(checked.table_sizes),
            lot=checked.lot,
        )


@dataclass(frozen=True, slots=True)
class PlannedDraw:
    """Tables (table 1 first), the report, and the tables that are special: number → ``dummy`` / ``sit_out`` /
    ``head_to_head``."""

    tables: tuple[tuple[PlayerId, ...], ...]
    report: dict[str, Any]
    special: Mapping[int, str] = field(default_factory=dict)

    @property
    def dummy_tables(self) -> tuple[int, ...]:
        return tuple(n for n, kind in self.special.items() if kind == DUMMY)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tables": [list(t) for t in self.tables], "report": self.report}
        if self.special:
            out["special_tables"] = {str(n): kind for n, kind in sorted(self.special.items())}
        return out


def special_table_points(
    rules: TournamentRules, kind: str | None, players: int, *, overall_rank: int | None = None, shared: int = 1
) -> tuple[float, ...] | None:
    """Tournament points of a special table in finishing order, or None when the preset's usual table applies. The
    bot's report, its draw (the sit-out is scored with the draw) and ``steward risiko points`` / ``steward
    standings`` all ask this one function.

    FIRK punteggio 9 (reading 3): the last round's head-to-head between the 5th and 6th gives the winner 31 and
    the loser 15 — fixed points, not the gap formula of an ordinary table; FIRK §9 with five present: the 5th sits
    out with 15 points if 5th in the standings (``overall_rank``, which ``shared`` players hold level: the 5th place
    within their places counts), else 1."""
    if kind == HEAD_TO_HEAD and players == 2:
        return (rules.firk.head_to_head_winner_points, rules.firk.head_to_head_loser_points)
    if kind == SIT_OUT and players == 1:
        if overall_rank is None or overall_rank < 1:
            raise TournamentError("sit_out_needs_overall_rank", overall_rank)
        return (firk_sit_out_points(None, overall_rank=overall_rank, cfg=rules.firk, shared=shared).points,)
    if kind in (HEAD_TO_HEAD, SIT_OUT):
        raise TournamentError("special_table_size", f"{kind}: {players} players")
    return None


def criteria(request: DrawRequest, rules: TournamentRules) -> tuple[Criterion, ...]:
    """The draw's criteria for the request's round, most important first: the preset's, with the team pairs first
    when teams play (NP-TAB-1, never in a knockout) and the family pairs first in round 1 when the preset separates
    families."""
    crit = rules.criteria_for_round(request.round_no)
    if rules.knockout:  # NP-FMT-1: the plan fixes the tables; teams play no part in a knockout (our reading)
        crit = tuple(c for c in crit if c is not Criterion.TEAM_PAIRS) or (Criterion.CLUB_PAIRS,)
    elif rules.teams and Criterion.TEAM_PAIRS not in crit:  # NP-TAB-1 is a rule, not a preference: always first
        crit = (Criterion.TEAM_PAIRS, *crit)
    if (
        request.round_no == 1
        and rules.family_separation
        and request.family_pairs
        and Criterion.FAMILY_PAIRS not in crit
    ):
        crit = (Criterion.FAMILY_PAIRS, *crit)
    return crit


def context(request: DrawRequest, rules: TournamentRules, players: Sequence[Player] | None = None) -> DrawContext:
    """What the draw knows of the players: their clubs, the earlier tables and their winners and 5-player-table
    players, and the family pairs when the preset separates families."""
    return DrawContext.build(
        request.players if players is None else players,
        five_table_players=request.five_table_players,
        winners=request.winners,
        previous_tables=request.previous_tables,
        family_pairs=request.family_pairs if rules.family_separation else (),
    )


def history_of(request: DrawRequest, ctx: DrawContext) -> dict[str, int]:
    """What the draw looked back at (TOUR-R2-1 from round 3 on): the earlier rounds, their tables, the
    distinct earlier tablemate pairs, table winners and 5-player-table players among those present."""
    ids = set(ctx.ids)
    return {
        "rounds": max(request.round_no - 1, 0),
        "tables": len(request.previous_tables),
        "pairs": sum(1 for pair in ctx.previous_pairs if pair <= ids),
        "winners": len(ctx.winners & ids),
        "five_table_players": len(ctx.five_table_players & ids),
    }


def is_last_round(request: DrawRequest, rules: TournamentRules) -> bool:
    """Whether the request draws the last of the preset's qualifying rounds (never when the number is not fixed)."""
    return rules.qualifying_rounds > 0 and request.round_no >= rules.qualifying_rounds


def plan_draw(request: DrawRequest, seed: int) -> PlannedDraw:
    """The draw of one qualifying round with ``random.Random(seed)``: a pure function (run it off the event loop)."""
    rules = request.rules
    rng = random.Random(seed)
    ctx = context(request, rules)
    crit = criteria(request, rules)
    if rules.seeded_round1 and request.round_no == 1:
        return _firk_round1(request, rules, ctx, crit, seed)
    special: dict[int, str] = {}
    knockout: dict[str, Any] = {}
    if request.table_sizes:
        sizes: tuple[int, ...] = request.table_sizes
    elif rules.knockout:
        plan_ahead = rules.knockout_plan(len(ctx.players))
        sizes = plan_ahead[0].sizes
        knockout = {
            "plan": [{"players": k.players, "tables": list(k.sizes)} for k in plan_ahead],
            "final": len(plan_ahead) == 1,
            "final_size": rules.final_size,
        }
    elif rules.game == "ricochet":
        sizes = rr_sizes(len(ctx.players), rules.table_size, minimum=rules.min_table_size)
    elif rules.seeded_round1:
        plan = firk_sizes(len(ctx.players), round_no=request.round_no, last_round=is_last_round(request, rules),
                          cfg=rules.firk)  # fmt: skip
        if plan.sit_out or plan.head_to_head:
            return _firk_last_round(request, rules, ctx, crit, seed, head_to_head=plan.head_to_head)
        sizes = plan.sizes
        special = {n: DUMMY for n in plan.dummy_tables}
    elif rules.short_tables:
        sizes = short_sizes(len(ctx.players), table=rules.table_size, minimum=rules.min_table_size)
    else:
        sizes = standard_sizes(
            len(ctx.players), table=rules.table_size, large=rules.large_table_size, large_first=rules.large_tables_first
        )
    if request.round_no > 1 and rules.later_round_tables == "standings" and not rules.knockout:
        return _by_standings(request, ctx, crit, seed, sizes, special)
    if rules.team_tables:
        _check_teams(ctx, sizes)
    draw = draw_tables(
        ctx,
        sizes,
        crit,
        rng=rng,
        seed=seed,
        cinquisti=rules.cinquisti,
        kind=f"round{request.round_no}",
        cinquisti_clubs_in_step_c=rules.cinquisti_clubs_in_step_c,
    )
    tables = tuple(tuple(t) for t in draw.tables)
    report: dict[str, Any] = draw.report.to_json()
    if request.previous_tables:
        report["history"] = history_of(request, ctx)
    if knockout:
        report["knockout"] = knockout
    if rules.seeded_round1 and request.round_no > 1 and request.ranking:
        tables, special = _number_by_strength(tables, special, request.ranking, rules.table_size)
        report["notes"] = [*draw.report.notes, "numbered_by_strength"]
    return PlannedDraw(tables, report, special)


def _check_teams(ctx: DrawContext, sizes: Sequence[int]) -> None:
    """NP-TAB-1: every player has a team and no team has more players than there are tables — otherwise two
    teammates would have to share a table, which the rulebook does not allow (refused, with the counts)."""
    missing = [p.id for p in ctx.players if not p.team]
    if missing:
        raise TournamentError("player_without_team", missing[0])
    over = team_overflow([p.team for p in ctx.players], len(sizes))
    if over:
        raise TournamentError("team_larger_than_tables", {"teams": over, "tables": len(sizes)})


def _firk_round1(
    request: DrawRequest, rules: TournamentRules, ctx: DrawContext, crit: tuple[Criterion, ...], seed: int
) -> PlannedDraw:
    """FIRK-SEED-1 (FIRK §6), FIRK-FAM-1 (§10): table 1 = the top of the previous tournament's classification,
    newcomers after everyone ranked. Players level there (a shared rank; the newcomers are one group) whom a table
    boundary cuts through are ordered as in round 2 (:func:`standings_order`: a lot drawn with the round's seed), never
    by the order of a list. §10 then moves "the lower-ranked" of a family pair, swapping with the nearest-ranked player:
    the order inside a table decides that, so with a family pair present every level group is ordered by the same lot
    (reported as ``family_ties``). Documents published before lot version 2 replay as drawn then (list order)."""
    present = set(ctx.ids)
    ties: list[SeatTie] = []
    family_ties: list[SeatTie] = []
    if request.lot == 1:
        known = [p for p in request.ranking if p in present]
        order = known + [p for p in ctx.ids if p not in set(known)]
    else:
        plan = firk_sizes(len(ctx.ids), round_no=1, last_round=False, cfg=rules.firk)
        family = any(a in present and b in present for a, b in request.family_pairs)
        order, found = standings_order(request, ctx.ids, (1,) * len(ctx.ids) if family else plan.sizes, seed)
        boundaries = set(itertools.accumulate(plan.sizes))
        for tie in found:
            start = order.index(tie.order[0])
            across = any(start < b < start + len(tie.order) for b in boundaries)
            (ties if across else family_ties).append(tie)
    seeding = firk_round1(order, family_pairs=list(request.family_pairs), cfg=rules.firk)
    values = evaluate(seeding.tables, ctx, crit)
    met = all(v == 0 for v in values.values())
    report: dict[str, Any] = {
        "kind": "firk_seeded",
        "criteria_order": [c.value for c in crit],
        "criteria": values,
        "lower_bound": {c.value: 0 for c in crit},
        "bound_met": met,
        "optimality": Optimality.BOUND_MET.value if met else Optimality.NOT_PROVEN.value,
        "seed": seed,
        "notes": [f"family_move:{m.player}:{m.from_table}->{m.to_table}:{m.swapped_with}" for m in seeding.moves]
        + [f"unresolved_family:{a}:{b}" for a, b in seeding.unresolved_family_pairs],
    }
    if ties:
        report["ties"] = [tie.to_json() for tie in ties]
    if family_ties:
        report["family_ties"] = [tie.to_json() for tie in family_ties]
    tables = tuple(tuple(t) for t in seeding.tables)
    return PlannedDraw(tables, report, {n: DUMMY for n in seeding.plan.dummy_tables})


def _firk_last_round(
    request: DrawRequest,
    rules: TournamentRules,
    ctx: DrawContext,
    crit: tuple[Criterion, ...],
    seed: int,
    *,
    head_to_head: bool,
) -> PlannedDraw:
    """FIRK §9 / punteggio 9 with 5 or 6 present: the four best of the standings at table 1; the 5th sits out (5
    present) or the 5th and 6th play head to head (6 present). Needs the standings of every present player."""
    present = set(ctx.ids)
    missing = present - set(request.ranking)
    if missing:
        raise TournamentError("standings_needed_for_last_round", sorted(map(str, missing)))
    top = rules.table_size
    order, ties = standings_order(request, ctx.ids, (top,), seed)
    tables = (tuple(order[:top]), tuple(order[top:]))
    special = {2: HEAD_TO_HEAD if head_to_head else SIT_OUT}
    values = evaluate(tables[:1] if not head_to_head else tables, ctx, crit)
    report = {
        "kind": "firk_last_round",
        "criteria_order": [c.value for c in crit],
        "criteria": values,
        "lower_bound": {c.value: 0 for c in crit},
        "bound_met": all(v == 0 for v in values.values()),
        "optimality": Optimality.NOT_PROVEN.value,  # no choice is left: the standings decide every seat
        "seed": seed,
        "notes": [HEAD_TO_HEAD if head_to_head else f"{SIT_OUT}:{order[top]}"],
    }
    if ties:
        report["ties"] = [tie.to_json() for tie in ties]
    return PlannedDraw(tables, report, special)


@dataclass(frozen=True, slots=True)
class SeatTie:
    """Players level in the standings across a table boundary when tables are seated by rank: the lot drawn with
    the round's seed (``cut.lot``) put ``tied`` (standings order) in ``order``."""

    rank: int | None  # None: players with no standings yet (newcomers), placed after everyone ranked
    tied: tuple[PlayerId, ...]
    order: tuple[PlayerId, ...]
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "tied": list(self.tied), "order": list(self.order), "method": "lot",
                "seed": self.seed}  # fmt: skip


def standings_order(
    request: DrawRequest, present: Sequence[PlayerId], sizes: Sequence[int], seed: int
) -> tuple[list[PlayerId], list[SeatTie]]:
    """The present players best first by the standings before the round, to be cut into tables of ``sizes`` in
    turn. Players without standings (newcomers) come last. A group level in the standings (same rank: the preset's
    tie-breakers could not part them) that a table boundary cuts through is ordered by a lot drawn with the round's
    seed (:func:`bot.rules.tournament.cut.resolve_ties`) — never by the program's list order; a level group inside one
    table is put in the canonical order (it decides nothing)."""
    here = set(present)
    ranks = dict(zip(request.ranking, request.ranks, strict=True)) if request.ranks else {
        p: i for i, p in enumerate(request.ranking, start=1)}  # fmt: skip
    known = [p for p in request.ranking if p in here]
    newcomers = [p for p in present if p not in ranks]
    if request.lot != 1:  # the standings' own order of level players is list order: start from the canonical one
        known = sorted(known, key=lambda p: (ranks[p], canonical(p)))
        newcomers = sorted(newcomers, key=canonical)
    order: list[PlayerId] = known + newcomers
    rank_at: list[int | None] = [ranks[p] for p in known] + [None] * len(newcomers)
    lines = {b: "table" for b in itertools.accumulate(sizes)}
    order, found = resolve_ties(order, rank_at, lines, seed=seed, version=request.lot)
    return order, [SeatTie(t.rank, t.tied, t.order, seed) for t in found]


def _by_standings(
    request: DrawRequest,
    ctx: DrawContext,
    crit: tuple[Criterion, ...],
    seed: int,
    sizes: Sequence[int],
    special: Mapping[int, str],
) -> PlannedDraw:
    """Reading 8 (FIRK §6, §8, §9; ``tournament.later_round_tables = "standings"``): from round 2 the tables are
    seated straight from the standings before the round — the best ``sizes[0]`` at table 1 (always of four: FIRK
    §9), the next at table 2… — so a lower number is the harder game FIRK §8's tie-break assumes and the leader
    always plays table 1. The criteria are reported, not optimised: the standings leave no choice."""
    order, ties = standings_order(request, ctx.ids, sizes, seed)
    tables: list[tuple[PlayerId, ...]] = []
    at = 0
    for size in sizes:
        tables.append(tuple(order[at : at + size]))
        at += size
    values = evaluate(tables, ctx, crit)
    report: dict[str, Any] = {
        "kind": "by_standings",
        "criteria_order": [c.value for c in crit],
        "criteria": values,
        "lower_bound": {c.value: 0 for c in crit},
        "bound_met": all(v == 0 for v in values.values()),
        "optimality": Optimality.NOT_PROVEN.value,  # no choice is left: the standings decide every seat
        "seed": seed,
        "notes": ["seated_by_standings"],
    }
    if ties:
        report["ties"] = [tie.to_json() for tie in ties]
    if request.previous_tables:
        report["history"] = history_of(request, ctx)
    return PlannedDraw(tuple(tables), report, dict(special))


def _number_by_strength(
    tables: tuple[tuple[PlayerId, ...], ...], special: Mapping[int, str], ranking: Sequence[PlayerId], four: int
) -> tuple[tuple[tuple[PlayerId, ...], ...], dict[int, str]]:
    """Reading 4 (FIRK punteggio 8–9): strongest table first by the players' mean standings position; table 1 is
    always a table of ``four``. Players absent from the standings (newcomers) count as last."""
    position = {p: i for i, p in enumerate(ranking)}
    worst = len(ranking)

    def strength(t: tuple[PlayerId, ...]) -> tuple[float, int]:
        return (sum(position.get(p, worst) for p in t) / len(t), min(position.get(p, worst) for p in t))

    kinds = {tables[n - 1]: kind for n, kind in special.items()}
    order = sorted(tables, key=strength)
    first = next((t for t in order if len(t) == four), order[0])
    order.remove(first)
    renumbered = (first, *order)
    return renumbered, {i: kinds[t] for i, t in enumerate(renumbered, start=1) if t in kinds}


# ------------------------------------------------------------------------------------------- semifinals, final


@dataclass(frozen=True, slots=True)
class FinalsRequest:
    """The inputs of a semifinal or final draw (TOUR-SF-1/2, TOUR-FIN-1), published as the round's export.

    Semifinals: ``ranking`` (the standings after the qualifying rounds, active players), the players' clubs, the
    number of semifinal tables and the direct finalists who declined before them (``declined``: the field still
    counts them for the 100-player threshold, the bands and halves are built without them). Final: the semifinal
    groups with each table's finishing order, the direct finalists, the standings after the qualifying rounds
    (recoveries) and the players who declined."""

    kind: str  # "semifinal" or "final"
    preset: str
    overrides: Mapping[str, Any] = field(default_factory=dict)
    ranking: tuple[PlayerId, ...] = ()
    clubs: Mapping[PlayerId, str | None] = field(default_factory=dict)
    tables: int = 0
    # final: {"label", "tables": [numbers], "orders": [[ids]], "places": [[place per id]], "direct_finalist"}
    groups: tuple[Mapping[str, Any], ...] = ()
    declined: tuple[PlayerId, ...] = ()
    ranks: tuple[int, ...] = ()  # the standings rank of each ``ranking`` entry (level players share one)
    tie_order: tuple[PlayerId, ...] = ()  # the organizer's order of level players (best first) where a line cuts them
    seed: int | None = None  # final: the semifinals' published seed (lots in the replacement chain)
    lot: int = LOT_VERSION  # how level players are drawn (``cut.lot``); 1 for documents published before version 2
    # semifinals with a repechage (issue 47): (player, best single game's table points, games played) of every
    # ranked player, the ones the repechage may choose from
    repechage: tuple[tuple[PlayerId, float, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"schema": SCHEMA, "kind": self.kind, "preset": self.preset}
        if self.overrides:
            doc["overrides"] = dict(self.overrides)
        if self.kind == "semifinal":
            doc["ranking"] = list(self.ranking)
            doc["clubs"] = [[p, self.clubs.get(p)] for p in self.ranking]
            if self.declined:
                doc["declined"] = list(self.declined)
            if self.ranks:
                doc["ranks"] = list(self.ranks)
            if self.tie_order:
                doc["tie_order"] = list(self.tie_order)
            if self.repechage:
                doc["repechage"] = [{"player": p, "best": best, "games": n} for p, best, n in self.repechage]
            doc["tables"] = self.tables
        else:
            doc["groups"] = [dict(g) for g in self.groups]
            doc["standings"] = list(self.ranking)
            doc["declined"] = list(self.declined)
            if self.ranks:
                doc["ranks"] = list(self.ranks)
            if self.tie_order:
                doc["tie_order"] = list(self.tie_order)
            if self.seed is not None:
                doc["seed"] = self.seed
        if self.lot != 1:
            doc["lot"] = self.lot
        return doc

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> FinalsRequest:
        """Parse a semifinal or final export, checked by its schema (``documents.FinalsDocument``)."""
        checked = validate(FinalsDocument, doc)
        overrides = dict(checked.overrides or {})
        if checked.kind == "semifinal":
            clubs: dict[PlayerId, str | None] = {}
            for pid, club in checked.clubs:
                assert pid is not None  # the schema refuses a pair without a player
                clubs[pid] = None if club is None else str(club)
            return FinalsRequest("semifinal", checked.preset, overrides, tuple(checked.ranking), clubs,
                                 checked.tables or 0, declined=tuple(checked.declined), ranks=tuple(checked.ranks),
                                 tie_order=tuple(checked.tie_order), lot=checked.lot,
                                 repechage=tuple((e.player, e.best, e.games) for e in checked.repechage))  # fmt: skip
        return FinalsRequest(
            "final",
            checked.preset,
            overrides,
            ranking=tuple(checked.standings),
            groups=tuple(g.model_dump(exclude_defaults=True) for g in checked.groups),
            declined=tuple(checked.declined),
            ranks=tuple(checked.ranks),
            tie_order=tuple(checked.tie_order),
            seed=checked.seed,
            lot=checked.lot,
        )


def odd_even_halves(rules: TournamentRules, field: int) -> bool:
    """TOUR-SF-2: a field of ``odd_even_threshold`` players or more (ARB 5: 100) plays two parallel tournaments. The
    field is every ranked player, declines included: a decline moves the others up (ARB 5 ranks "net of" qualified
    players who withdrew), it does not turn 100 players into 99."""
    return bool(rules.odd_even_threshold) and field >= rules.odd_even_threshold


def semifinal_tables_after_direct_decline(rules: TournamentRules, field: int, tables: int) -> int:
    """TOUR-FIN-1, a direct finalist declining before the semifinals: four semifinals instead of three (ARB 5). With
    odd and even halves the ranking is taken net of the decline (TOUR-SF-2), so each half keeps its direct finalist
    — the next player moves up — and the number of semifinals stays (docs/readings.md). Two direct finalists (a
    club championship, issue 47): one declining leaves one, beside three semifinals (our reading, as ARB 5)."""
    return tables if odd_even_halves(rules, field) else min(4, tables + 1)


def semifinal_places(rules: TournamentRules, field: int, tables: int) -> int:
    """How many of the ranking (net of declines) the semifinals take: the tables' seats, the direct finalist with
    three tables (TOUR-SF-1; a club championship's one or two, issue 47), twice that in odd and even halves
    (TOUR-SF-2). A repechage's seat is among them: the standings fill one fewer (:func:`plan_semifinals`)."""
    per_half = tables * rules.table_size + rules.direct_for(tables)
    return 2 * per_half if odd_even_halves(rules, field) else per_half


def semifinal_lines(rules: TournamentRules, field: int, tables: int) -> dict[int, str]:
    """Where the semifinals draw lines through the ranking (net of declines), as :func:`cut.resolve_ties` takes them:
    the qualification cut; with three tables the direct seat in the final and the bands' edges (TOUR-SF-1: ranks
    2–4 | 5–7 …; with four tables 1–4 | 5–8 …); in odd and even halves (TOUR-SF-2) between every two places of the
    top, since the halves alternate."""
    places = semifinal_places(rules, field, tables)
    lines: dict[int, str] = {places: "cut"}
    if odd_even_halves(rules, field):
        for b in range(1, places):
            lines[b] = "half"
        return lines
    direct = rules.direct_for(tables)
    if direct:
        lines[direct] = "direct"
    for k in range(1, rules.table_size):
        lines.setdefault(direct + k * tables, "band")
    return lines


def plan_semifinals(
    request: FinalsRequest, seed: int
) -> tuple[tuple[tuple[PlayerId, ...], ...], list[dict[str, Any]], list[CutTie]]:
    """TOUR-SF-1 bands (club separation within bands), TOUR-SF-2 odd/even halves at 100+ players: the tables, per
    group its label, table numbers, direct finalists, bands and same-club pairs after / before the shuffle, and how
    every level group a line cuts through (the cut, the direct seat, a band's edge, the halves) was decided
    (:mod:`bot.rules.tournament.cut`).

    With a repechage (``tournament.repechage``, issue 47) the standings fill every seat but the last, which goes to
    the best single game among the ranked players below the cut who played ``repechage_min_games`` games or more
    (:func:`repechage_pick`); the group says who and why (``"repechage"``)."""
    rules = load_ruleset(request.preset, request.overrides or None).tournament
    rng = random.Random(seed)
    declined = set(request.declined)
    ranking = [p for p in request.ranking if p not in declined]
    ranks = (
        [r for p, r in zip(request.ranking, request.ranks, strict=True) if p not in declined] if request.ranks else []
    )
    halves_apply = odd_even_halves(rules, len(request.ranking))
    repechage = rules.repechage == "best_single_game"
    if repechage and halves_apply:
        raise TournamentError("repechage_with_odd_even_halves", len(request.ranking))
    seats = semifinal_places(rules, len(request.ranking), request.tables)
    ties: list[CutTie] = []
    if request.ranks:
        if request.lot != 1:  # level players' list order decides nothing: start from the canonical order
            pairs = sorted(zip(ranking, ranks, strict=True), key=lambda x: (x[1], canonical(x[0])))
            ranking, ranks = [p for p, _ in pairs], [r for _, r in pairs]
            lines = semifinal_lines(rules, len(request.ranking), request.tables)
        else:  # documents published before: the cut alone was decided
            lines = {seats: "cut"}
        if repechage:  # the standings' last seat is one earlier; the last one is the repechage's
            lines = {b: kind for b, kind in lines.items() if b != seats}
            lines[seats - 1] = "cut"
        lines = {b: kind for b, kind in lines.items() if 0 < b < len(ranking)}
        ranking, ties = resolve_ties(ranking, ranks, lines, seed=seed, order=request.tie_order,
                                     reading=rules.cut_tie, version=request.lot)  # fmt: skip
    elif request.tie_order:
        raise TournamentError("cut_tie_order_without_tie", list(request.tie_order)[:8])
    rescued: dict[str, Any] | None = None
    if repechage:
        rank_of = dict(zip(ranking, ranks, strict=True)) if request.ranks else {p: i for i, p in enumerate(ranking, 1)}
        qualified, below = ranking[: seats - 1], ranking[seats - 1 :]
        pick, tie = repechage_pick(below, rank_of, request.repechage, min_games=rules.repechage_min_games,
                                   seed=seed, order=request.tie_order, reading=rules.cut_tie)  # fmt: skip
        if tie is not None:
            ties.append(tie)
        if pick is not None:
            rescued = pick
            ranking = [*qualified, pick["player"], *(p for p in below if p != pick["player"])]
    halves: list[tuple[str, list[PlayerId]]] = [("all", ranking)]
    if halves_apply:
        split = split_odd_even(ranking, tables=request.tables, table_size=rules.table_size)
        halves = [("odd", list(split.odd)), ("even", list(split.even))]
    groups: list[dict[str, Any]] = []
    all_tables: list[tuple[PlayerId, ...]] = []
    for label, order in halves:
        plan = semifinals(order, dict(request.clubs), tables=request.tables, table_size=rules.table_size, rng=rng,
                          direct=rules.direct_for(request.tables))  # fmt: skip
        first = len(all_tables) + 1
        all_tables += [tuple(x) for x in plan.tables]
        group: dict[str, Any] = {
            "label": label,
            "tables": list(range(first, len(all_tables) + 1)),
            "direct_finalist": plan.direct_finalist,
            "bands": [list(b) for b in plan.bands],
            "club_pairs": plan.club_pairs,
            "club_pairs_plain": plan.club_pairs_plain,
        }
        if len(plan.direct_finalists) > 1:
            group["direct_finalists"] = list(plan.direct_finalists)
        if rescued is not None:
            group["repechage"] = rescued
        groups.append(group)
    return tuple(all_tables), groups, ties


def repechage_pick(
    below: Sequence[PlayerId],
    rank_of: Mapping[PlayerId, int],
    games: Sequence[tuple[PlayerId, float, int]],
    *,
    min_games: int,
    seed: int,
    order: Sequence[PlayerId] = (),
    reading: str = "lot",
) -> tuple[dict[str, Any] | None, CutTie | None]:
    """The repechage's semifinal seat (issue 47, the clubs' "ripescaggio"): among ``below`` (the ranked players the
    standings did not qualify, best first) who played ``min_games`` games or more, the best single game (its table
    points); of equal best games, the better standings rank; players level on both are ordered by the organizer's
    ``order`` or a lot with the semifinals' ``seed`` (:func:`cut.resolve_ties`, line ``repechage``). Nobody eligible:
    the seat goes to the next of the standings (``reason`` ``standings``; our reading, docs/readings.md). Returns
    ``{"player", "reason", "points", "games"}`` (None when nobody is left) and the tie it settled."""
    known = {p: (best, n) for p, best, n in games}
    eligible = [p for p in below if p in known and known[p][1] >= min_games]
    if not eligible:
        if not below:
            return None, None
        nxt = below[0]
        best, n = known.get(nxt, (0.0, 0))
        return {"player": nxt, "reason": "standings", "points": best, "games": n}, None
    unranked = len(rank_of) + len(below) + 1
    key = {p: (-known[p][0], rank_of.get(p, unranked)) for p in eligible}
    ordered = sorted(eligible, key=lambda p: (key[p], canonical(p)))
    level = [p for p in ordered if key[p] == key[ordered[0]]]
    tie: CutTie | None = None
    if len(level) > 1:
        decided, found = resolve_ties(level, [1] * len(level), {1: "repechage"}, seed=seed,
                                      order=[p for p in order if str(p) in {str(x) for x in level}],
                                      reading=reading)  # fmt: skip
        rank = rank_of.get(level[0])
        if found:
            t = found[0]
            tie = CutTie(rank, t.tied, t.seats, t.qualified, t.method, t.seed, "repechage", t.order)
        chosen = decided[0]
    else:
        chosen = ordered[0]
    best, n = known[chosen]
    return {"player": chosen, "reason": "best_single_game", "points": best, "games": n}, tie


def plan_final(
    request: FinalsRequest,
) -> tuple[tuple[tuple[PlayerId, ...], ...], list[dict[str, Any]], list[CutTie]]:
    """TOUR-FIN-1: each group's final from the semifinal orders with the replacement chain for declines; the level
    players the chain had to order (shared places at a semifinal, recoveries level in the standings), settled by the
    organizer's order or a lot drawn with the semifinals' seed."""
    rules = load_ruleset(request.preset, request.overrides or None).tournament
    tables: list[tuple[PlayerId, ...]] = []
    groups: list[dict[str, Any]] = []
    ties: list[CutTie] = []
    named = {str(p) for p in request.tie_order}
    for group in request.groups:
        numbers = [int(n) for n in group.get("tables", [])]
        orders = [list(o) for o in group.get("orders", [])]
        members = {str(p) for o in orders for p in o}
        comp = compose_final(
            orders,
            list(request.ranking),
            direct_finalist=group.get("direct_finalist"),
            direct_finalists=list(group.get("direct_finalists") or ()),
            declined=list(request.declined),
            ranks=list(request.ranks),
            places=[list(x) for x in group.get("places", [])],
            seed=request.seed or 0,
            tie_order=[p for p in request.tie_order if str(p) in members],
            reading=rules.cut_tie,
            version=request.lot,
        )
        named -= {str(p) for t in comp.ties for p in t.tied if t.method == "organizer"}
        ties += comp.ties
        tables.append(tuple(comp.players))
        groups.append(
            {
                "label": group.get("label", "all"),
                "tables": [len(tables)],
                "semifinal_tables": numbers,
                "seats": [
                    {
                        "player": s.player,
                        "source": s.source.value,
                        "semifinal_table": numbers[s.semifinal_table - 1] if s.semifinal_table else None,
                        "semifinal_place": s.semifinal_place,
                        "replaces_table": numbers[s.replaces_table - 1] if s.replaces_table else None,
                    }
                    for s in comp.seats
                ],
                "unfilled": comp.unfilled,
            }
        )
    if named:
        raise TournamentError("cut_tie_order_without_tie", [p for p in request.tie_order if str(p) in named][:8])
    return tuple(tables), groups, ties
