"""Table draws: round 1, the piloted round-2 draw, team and knockout draws, and hand adjustments.

ARB art. 5 (risiko-regolamento-arbitrale-formazione-tavoli): tables of 4, 5-player tables only as
needed; the "cinquisti" (one random player per 5-player table, on the last tables) are drawn first;
round 1 then minimises same-club encounters; round 2 minimises, in order, a second 5-player table,
round-1 winners together, same-club pairs and round-1 tablemates together. FIRK §10 puts
spouses/siblings first in round 1 (see ``seeding.firk_round1``); NP-TAB-1 puts ``team_pairs`` first.

A draw is a pure function of (context, table sizes, criteria, rng, budget): the same seed gives the
same tables. The report states every criterion's value, the DRAWS.md lower bound and what can be
claimed: ``bound_met``, ``proven_optimal_by_search`` (exhaustive branch-and-bound) or ``not_proven``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from math import comb

from bot.rules.tournament._search import INF, Problem, exact_search, local_search, mix, spread_increments
from bot.rules.tournament.model import (
    ROUND1_CRITERIA,
    ROUND2_CRITERIA,
    Criterion,
    Draw,
    DrawBudget,
    DrawContext,
    DrawReport,
    Optimality,
    PlayerId,
    Tables,
    TournamentError,
)

FIVE = 5  # a "5-player table" (ARB art. 5) is a table of this size; sizes themselves come from the preset


def _pairs_at(table: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
    t = list(table)
    return [(a, b) for i, a in enumerate(t) for b in t[i + 1 :]]


def evaluate(
    tables: Sequence[Sequence[PlayerId]],
    context: DrawContext,
    criteria: Sequence[Criterion] = ROUND2_CRITERIA,
) -> dict[str, int]:
    """Count each criterion on ``tables`` (criteria order kept). Used by draws, hand changes and the CLI."""
    club = context.club_of()
    team = {p.id: p.team for p in context.players}
    out: dict[str, int] = {}
    for crit in criteria:
        n = 0
        if crit is Criterion.FIVE_REPEAT:
            n = sum(1 for t in tables if len(t) >= FIVE for x in t if x in context.five_table_players)
        else:
            for t in tables:
                for a, b in _pairs_at(t):
                    if crit is Criterion.WINNER_PAIRS:
                        n += a in context.winners and b in context.winners
                    elif crit is Criterion.CLUB_PAIRS:
                        n += club.get(a) is not None and club.get(a) == club.get(b)
                    elif crit is Criterion.TEAM_PAIRS:
                        n += team.get(a) is not None and team.get(a) == team.get(b)
                    elif crit is Criterion.REPEAT_PAIRS:
                        n += frozenset((a, b)) in context.previous_pairs
                    elif crit is Criterion.FAMILY_PAIRS:
                        n += frozenset((a, b)) in context.family_pairs
        out[crit.value] = n
    return out


def _spread_pairs(size: int, tables: int) -> int:
    """Fewest pairs when ``size`` members are spread as evenly as possible over ``tables`` (DRAWS.md)."""
    if tables <= 0:
        return comb(size, 2)
    q, r = divmod(size, tables)
    return r * comb(q + 1, 2) + (tables - r) * comb(q, 2)


def _clique_groups(context: DrawContext, crit: Criterion) -> list[list[PlayerId]]:
    """The groups whose members' pairs ``crit`` counts: each club, each team, the winners, or (repeats) each earlier
    table whose pairs no earlier group already holds (so no pair is counted twice)."""
    ids = set(context.ids)
    if crit is Criterion.WINNER_PAIRS:
        return [[p for p in context.ids if p in context.winners]]
    if crit in (Criterion.CLUB_PAIRS, Criterion.TEAM_PAIRS):
        by: dict[str, list[PlayerId]] = defaultdict(list)
        for pl in context.players:
            key = pl.club if crit is Criterion.CLUB_PAIRS else pl.team
            if key is not None:
                by[key].append(pl.id)
        return list(by.values())
    if crit is Criterion.REPEAT_PAIRS:
        covered: set[frozenset[PlayerId]] = set()
        out: list[list[PlayerId]] = []
        for table in context.previous_tables:
            members = [x for x in table if x in ids]
            inner = {frozenset((a, b)) for a, b in _pairs_at(members)}
            if len(members) > 1 and not inner & covered:
                out.append(members)
                covered |= inner
        return out
    return []


def _spread_given_fewest_five_repeats(context: DrawContext, sizes: Sequence[int], crit: Criterion) -> int:
    """A bound on ``crit`` among the draws with the fewest 5-seat repeats (ARB 5 criterion 1, ranked first): with
    Z players who never sat at a 5-player table and F seats at 5-player tables, either Z <= F and all of them sit at
    one with exactly F - Z others, or Z > F and F of them fill those seats, the other Z - F at small tables. Each
    group spreads its members who sat at one over the small tables and the others over the 5-player tables; the
    |F - Z| players on the wrong side lower the count by at most their number of increments (times the groups one
    player can belong to). This counts the repeats the history makes unavoidable in small fields."""
    groups = _clique_groups(context, crit)
    if not groups:
        return 0
    ids = set(context.ids)
    five = context.five_table_players & ids
    is_big = [s >= FIVE for s in sizes]
    f_big, zero = sum(s for s in sizes if s >= FIVE), len(ids) - len(five)
    if f_big == 0:
        return 0
    cut_seat = zero <= f_big
    escapes = f_big - zero if cut_seat else zero - f_big
    per_player = Counter(p for g in groups for p in g)
    mult = max(per_player.values(), default=1)
    total = 0
    cuts: list[int] = []
    for g in groups:
        zs = sum(1 for p in g if p not in five)
        left, at = list(sizes), [0] * len(sizes)
        incs_s = spread_increments(len(g) - zs, left, at, [not b for b in is_big])  # seat-cost members: small
        incs_z = spread_increments(zs, left, at, is_big)  # the others: the 5-player tables
        total += sum(incs_s) + sum(incs_z)
        cuts += incs_s if cut_seat else incs_z
    cuts.sort(reverse=True)
    return total - sum(cuts[: escapes * mult])


def lower_bound(
    context: DrawContext, sizes: Sequence[int], criteria: Sequence[Criterion] = ROUND2_CRITERIA
) -> dict[str, int]:
    """A lexicographic lower bound per criterion: the DRAWS.md bound (each club, the winners, each earlier table
    spread evenly; the 5-seat repeats the seats force) and, for the criteria ranked after the 5-seat repeats, the
    larger bound that holds when those are at their fewest (``_spread_given_fewest_five_repeats``: a draw that is not
    at the fewest is worse whatever follows, so the vector stays a lower bound of every draw)."""
    ids = set(context.ids)
    t = len(sizes)
    out: dict[str, int] = {}
    for crit in criteria:
        if crit is Criterion.FIVE_REPEAT:
            small_seats = sum(s for s in sizes if s < FIVE)
            out[crit.value] = max(0, len(context.five_table_players & ids) - small_seats)
        elif crit is Criterion.WINNER_PAIRS:
            out[crit.value] = _spread_pairs(len(context.winners & ids), t)
        elif crit is Criterion.CLUB_PAIRS:
            sizes_by_club = Counter(p.club for p in context.players if p.club is not None)
            out[crit.value] = sum(_spread_pairs(s, t) for s in sizes_by_club.values())
        elif crit is Criterion.TEAM_PAIRS:
            sizes_by_team = Counter(p.team for p in context.players if p.team is not None)
            out[crit.value] = sum(_spread_pairs(s, t) for s in sizes_by_team.values())
        elif crit is Criterion.REPEAT_PAIRS:
            out[crit.value] = sum(_spread_pairs(len(g), t) for g in _clique_groups(context, crit))
        else:
            out[crit.value] = 0
    if Criterion.FIVE_REPEAT in criteria:
        for crit in criteria[list(criteria).index(Criterion.FIVE_REPEAT) + 1 :]:
            if crit is not Criterion.FAMILY_PAIRS:
                out[crit.value] = max(out[crit.value], _spread_given_fewest_five_repeats(context, sizes, crit))
    return out


@dataclass(frozen=True, slots=True)
class _Built:
    problem: Problem
    weights: dict[Criterion, int]


def _build(
    context: DrawContext,
    sizes: Sequence[int],
    criteria: Sequence[Criterion],
    *,
    classes: Sequence[int] | None = None,
    unique: Sequence[bool] | None = None,
    pinned: dict[int, int] | None = None,
    allowed: dict[int, frozenset[int]] | None = None,
) -> _Built:
    ids = context.ids
    n = len(ids)
    index = {pid: i for i, pid in enumerate(ids)}
    total_pairs = sum(comb(s, 2) for s in sizes)
    base = total_pairs + n + 1
    k = len(criteria)
    weights = {crit: base ** (k - 1 - j) for j, crit in enumerate(criteria)}
    cost = [[0] * n for _ in range(n)]
    rest = [[0] * n for _ in range(n)]  # the non-clique part of ``cost`` (repeats, families)
    seat = [0] * n
    groups: list[tuple[int, list[int]]] = []
    group_repeat: list[bool] = []

    def add_clique(members: list[int], w: int, repeat: bool = False) -> None:
        for x, a in enumerate(members):
            ra = cost[a]
            for b in members[x + 1 :]:
                ra[b] += w
                cost[b][a] += w
        if len(members) > 1:
            groups.append((w, members))
            group_repeat.append(repeat)

    def add_pairs(pairs: frozenset[frozenset[PlayerId]], w: int, cliques: Sequence[Sequence[PlayerId]] = ()) -> None:
        # previous tables are cliques of repeat pairs: bound them like clubs in the exact search
        covered: set[frozenset[PlayerId]] = set()
        for table in cliques:
            members = [index[x] for x in table if x in index]
            inner = {frozenset((a, b)) for a, b in _pairs_at(table) if a in index and b in index}
            if len(members) > 1 and inner <= pairs and not inner & covered:
                add_clique(members, w, repeat=True)
                covered |= inner
        for pair in pairs - covered:
            a_id, b_id = tuple(pair)
            if a_id in index and b_id in index:
                a, b = index[a_id], index[b_id]
                cost[a][b] += w
                cost[b][a] += w
                rest[a][b] += w
                rest[b][a] += w

    for crit, w in weights.items():
        if crit is Criterion.FIVE_REPEAT:
            for pid in context.five_table_players:
                if pid in index:
                    seat[index[pid]] += w
        elif crit is Criterion.WINNER_PAIRS:
            add_clique([index[p] for p in ids if p in context.winners], w)
        elif crit is Criterion.CLUB_PAIRS:
            by_club: dict[str, list[int]] = defaultdict(list)
            for i, pl in enumerate(context.players):
                if pl.club is not None:
                    by_club[pl.club].append(i)
            for members in by_club.values():
                add_clique(members, w)
        elif crit is Criterion.TEAM_PAIRS:
            by_team: dict[str, list[int]] = defaultdict(list)
            for i, pl in enumerate(context.players):
                if pl.team is not None:
                    by_team[pl.team].append(i)
            for members in by_team.values():
                add_clique(members, w)
        elif crit is Criterion.REPEAT_PAIRS:
            add_pairs(context.previous_pairs, w, context.previous_tables)
        elif crit is Criterion.FAMILY_PAIRS:
            add_pairs(context.family_pairs, w)
    pinned_table = [-1] * n
    for i, t in (pinned or {}).items():
        pinned_table[i] = t
    allowed_list: list[frozenset[int] | None] = [None] * n
    for i, ts in (allowed or {}).items():
        allowed_list[i] = ts
    problem = Problem(
        n=n,
        sizes=list(sizes),
        big=[1 if s >= FIVE else 0 for s in sizes],
        cost=cost,
        rest=rest,
        seat=seat,
        cls=list(classes) if classes is not None else [0] * n,
        pinned_table=pinned_table,
        allowed=allowed_list,
        unique=list(unique) if unique is not None else [False] * n,
        groups=groups,
        group_repeat=group_repeat,
    )
    return _Built(problem, weights)


def _weighted(values: dict[str, int], weights: dict[Criterion, int]) -> int:
    return sum(values[c.value] * w for c, w in weights.items())


def _check_sizes(context: DrawContext, sizes: Sequence[int]) -> None:
    if any(s < 1 for s in sizes):
        raise TournamentError("bad_table_size", list(sizes))
    if sum(sizes) != len(context.players):
        raise TournamentError("sizes_do_not_match_players", {"seats": sum(sizes), "players": len(context.players)})


def _stopper(budget: DrawBudget) -> Callable[[], bool] | None:
    clock, deadline = budget.clock, budget.deadline
    if clock is None or deadline is None:
        return None
    return lambda: clock() >= deadline


def _optimise(
    context: DrawContext,
    sizes: Sequence[int],
    criteria: Sequence[Criterion],
    built: _Built,
    rng: random.Random,
    budget: DrawBudget,
    *,
    kind: str,
    seed: int | None,
    initial: Callable[[random.Random], list[int]] | None = None,
    notes: tuple[str, ...] = (),
) -> Draw:
    p = built.problem
    bound = lower_bound(context, sizes, criteria)
    target = _weighted(bound, built.weights)
    result = local_search(
        p,
        rng,
        target=target,
        # small fields: a short heuristic run, then the exact search settles (or improves) it
        iterations=(
            min(budget.iterations, max(budget.stall, budget.work // max(p.n, 1)))
            if p.n > budget.exact_max_players
            else min(budget.iterations, 10 * budget.stall)
        ),
        stall=budget.stall,
        initial=initial,
        stop=_stopper(budget),
    )
    assignment, cost = result.assignment, result.cost
    optimality = Optimality.BOUND_MET if cost <= target else Optimality.NOT_PROVEN
    attainable: bool | None = True if cost <= target else None
    nodes = 0
    if cost > target and p.n <= budget.exact_max_players:
        limit = min(budget.exact_nodes, budget.exact_work // max(p.n * len(p.sizes), 1))
        exact = exact_search(p, assignment, cost, node_limit=limit)
        nodes = exact.nodes
        if exact.cost < cost:
            assignment, cost = exact.assignment, exact.cost
        if cost <= target:
            optimality, attainable = Optimality.BOUND_MET, True
        elif exact.proven:
            # a proof over the whole problem, or only for the players the procedure pinned (the drawn cinquisti)
            pinned = any(t >= 0 for t in p.pinned_table)
            optimality = Optimality.OPTIMAL_FOR_CINQUISTI if pinned else Optimality.PROVEN_BY_SEARCH
            attainable = None if pinned else False
    assignment = mix(p, assignment, rng, attempts=budget.mix_per_player * p.n)
    tables = _to_tables(context, sizes, assignment)
    values = evaluate(tables, context, criteria)
    assert _weighted(values, built.weights) == cost, "internal cost mismatch"
    report = DrawReport(
        kind=kind,
        criteria=values,
        lower_bound=bound,
        optimality=optimality,
        seed=seed,
        iterations=result.iterations,
        restarts=result.restarts,
        search_nodes=nodes,
        bound_attainable=attainable,
        notes=notes,
    )
    return Draw(tables, report)


def _to_tables(context: DrawContext, sizes: Sequence[int], assignment: Sequence[int]) -> Tables:
    ids = context.ids
    seats: list[list[PlayerId]] = [[] for _ in sizes]
    for i, t in enumerate(assignment):
        seats[t].append(ids[i])
    return tuple(tuple(t) for t in seats)


def _cinquisti(
    context: DrawContext, sizes: Sequence[int], rng: random.Random, *, avoid: frozenset[PlayerId]
) -> dict[int, int]:
    """ARB art. 5 a-b: draw one player per 5-player table (those not at one last round first)."""
    big = [t for t, s in enumerate(sizes) if s >= FIVE]
    if not big or all(s >= FIVE for s in sizes):
        return {}
    ids = context.ids
    pool = [i for i, pid in enumerate(ids) if pid not in avoid]
    if len(pool) < len(big):
        pool = list(range(len(ids)))
    chosen = rng.sample(pool, len(big))
    return dict(zip(chosen, big, strict=True))


def draw_tables(
    context: DrawContext,
    sizes: Sequence[int],
    criteria: Sequence[Criterion],
    *,
    rng: random.Random,
    seed: int | None = None,
    budget: DrawBudget | None = None,
    cinquisti: bool = True,
    kind: str = "draw",
    cinquisti_clubs_in_step_c: bool = True,
) -> Draw:
    """A piloted draw for any lexicographic ``criteria`` list over fixed table ``sizes`` (table 1 first).

    ARB art. 5 c)-d), reading 9: with ``cinquisti_clubs_in_step_c=False`` (the rulebook) the other players are
    distributed without looking at the cinquisti's clubs (step c), and only then are the cinquisti swapped among
    the 5-player tables considering their clubs (step d). ``True`` optimises everyone together (the option)."""
    _check_sizes(context, sizes)
    budget = budget or DrawBudget()
    pins = _cinquisti(context, sizes, rng, avoid=context.five_table_players) if cinquisti else {}
    drawn = tuple(context.ids[i] for i in sorted(pins))
    if pins and not cinquisti_clubs_in_step_c:
        return _draw_steps_c_d(context, sizes, criteria, pins, rng, budget, kind=kind, seed=seed, cinquisti=drawn)
    _, built = procedure_problem(context, sizes, criteria, pins, step_c_blind=False)
    notes = ("cinquisti_drawn",) if pins else ()
    draw = _optimise(context, sizes, criteria, built, rng, budget, kind=kind, seed=seed, notes=notes)
    return Draw(draw.tables, replace(draw.report, cinquisti=drawn))


def procedure_problem(
    context: DrawContext,
    sizes: Sequence[int],
    criteria: Sequence[Criterion],
    pins: dict[int, int],
    *,
    step_c_blind: bool,
) -> tuple[DrawContext, _Built]:
    """The optimisation problem the procedure solves once the cinquisti are drawn (``pins``: player index → the
    5-player table drawn for them; ARB 5 a-b): the cinquisti stay at 5-player tables, one per table, and may swap
    among them; with ``step_c_blind`` (ARB 5 c) the others are placed without the cinquisti's clubs. The draw and
    the offline certificates (``scripts/certify_draws.py``) build it with this one function."""
    n = len(context.players)
    ctx = context
    if pins and step_c_blind:
        ids = context.ids
        cinq = {ids[i] for i in pins}
        ctx = replace(context, players=tuple(replace(p, club=None) if p.id in cinq else p for p in context.players))
    big_tables = frozenset(t for t, s in enumerate(sizes) if s >= FIVE)
    built = _build(
        ctx,
        sizes,
        criteria,
        classes=[1 if i in pins else 0 for i in range(n)],
        unique=[i in pins for i in range(n)],
        pinned=pins,
        allowed={i: big_tables for i in pins},
    )
    return ctx, built


def _draw_steps_c_d(
    context: DrawContext,
    sizes: Sequence[int],
    criteria: Sequence[Criterion],
    pins: dict[int, int],
    rng: random.Random,
    budget: DrawBudget,
    *,
    kind: str,
    seed: int | None,
    cinquisti: tuple[PlayerId, ...],
) -> Draw:
    """ARB art. 5 c) then d): step c ignores the cinquisti's clubs; step d swaps the cinquisti among themselves."""
    ids = context.ids
    cinq = {ids[i] for i in pins}
    blind, built = procedure_problem(context, sizes, criteria, pins, step_c_blind=True)
    step_c = _optimise(blind, sizes, criteria, built, rng, budget, kind=kind, seed=seed, notes=("cinquisti_drawn",))
    base = [[p for p in t if p not in cinq] for t in step_c.tables]
    where = {p: next(k for k, t in enumerate(step_c.tables) if p in t) for p in cinq}
    order = sorted(cinq, key=str)
    perms = list(itertools.permutations(sorted(where[p] for p in order)))
    rng.shuffle(perms)  # among equally good swaps the choice stays random (seeded)

    def tables_for(perm: tuple[int, ...]) -> Tables:
        out = [list(t) for t in base]
        for p, t in zip(order, perm, strict=True):
            out[t].append(p)
        return tuple(tuple(t) for t in out)

    def key(perm: tuple[int, ...]) -> tuple[int, ...]:
        values = evaluate(tables_for(perm), context, criteria)
        return tuple(values[c.value] for c in criteria)

    tables = tables_for(min(perms, key=key))
    values = evaluate(tables, context, criteria)
    bound = lower_bound(context, sizes, criteria)
    met = tuple(values.values()) == tuple(bound.values())
    # step c proven optimal (for these cinquisti, on its reading) and step d tried every swap: the procedure's optimum
    step_c_proven = step_c.report.optimality is not Optimality.NOT_PROVEN
    if met:
        optimality = Optimality.BOUND_MET
    elif step_c_proven:
        optimality = Optimality.OPTIMAL_FOR_CINQUISTI
    else:
        optimality = Optimality.NOT_PROVEN
    report = DrawReport(
        kind=kind,
        criteria=values,
        lower_bound=bound,
        optimality=optimality,
        seed=seed,
        iterations=step_c.report.iterations,
        restarts=step_c.report.restarts,
        search_nodes=step_c.report.search_nodes,
        bound_attainable=True if met else None,
        notes=("cinquisti_drawn", "arb5_steps_c_d"),
        cinquisti=cinquisti,
        step_c=dict(step_c.report.criteria),
    )
    return Draw(tables, report)


def draw_round1(
    context: DrawContext,
    sizes: Sequence[int],
    *,
    rng: random.Random,
    seed: int | None = None,
    budget: DrawBudget | None = None,
    cinquisti: bool = True,
) -> Draw:
    """ARB art. 5, 1st game (TOUR-R1-1): random draw, cinquisti first, then fewest same-club pairs."""
    criteria = ROUND1_CRITERIA
    if context.family_pairs:
        criteria = (Criterion.FAMILY_PAIRS, *criteria)
    return draw_tables(context, sizes, criteria, rng=rng, seed=seed, budget=budget, cinquisti=cinquisti, kind="round1")


def draw_round2(
    context: DrawContext,
    sizes: Sequence[int],
    *,
    rng: random.Random,
    seed: int | None = None,
    budget: DrawBudget | None = None,
    cinquisti: bool = True,
) -> Draw:
    """ARB art. 5, 2nd game (TOUR-R2-1): the four lexicographic criteria of DRAWS.md."""
    return draw_tables(
        context, sizes, ROUND2_CRITERIA, rng=rng, seed=seed, budget=budget, cinquisti=cinquisti, kind="round2"
    )


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A hand change to a draw (BOT-TAB-2) and what it costs on every criterion."""

    tables: Tables
    before: dict[str, int]
    after: dict[str, int]

    @property
    def delta(self) -> dict[str, int]:
        return {k: self.after[k] - self.before[k] for k in self.after}

    @property
    def worse(self) -> bool:
        """True when the change is lexicographically worse than the draw it started from."""
        return tuple(self.after.values()) > tuple(self.before.values())


def _locate(tables: Sequence[Sequence[PlayerId]], player: PlayerId) -> int:
    for t, table in enumerate(tables):
        if player in table:
            return t
    raise TournamentError("player_not_seated", player)


def swap_players(
    tables: Sequence[Sequence[PlayerId]],
    a: PlayerId,
    b: PlayerId,
    context: DrawContext,
    criteria: Sequence[Criterion] = ROUND2_CRITERIA,
) -> Adjustment:
    """Swap two seated players and re-evaluate the criteria."""
    ta, tb = _locate(tables, a), _locate(tables, b)
    new = [list(t) for t in tables]
    ia, ib = new[ta].index(a), new[tb].index(b)
    new[ta][ia], new[tb][ib] = b, a
    out = tuple(tuple(t) for t in new)
    return Adjustment(out, evaluate(tables, context, criteria), evaluate(out, context, criteria))


def move_player(
    tables: Sequence[Sequence[PlayerId]],
    player: PlayerId,
    to_table: int,
    context: DrawContext,
    criteria: Sequence[Criterion] = ROUND2_CRITERIA,
) -> Adjustment:
    """Move one player to table ``to_table`` (1-based), changing both table sizes; re-evaluate."""
    if not 1 <= to_table <= len(tables):
        raise TournamentError("no_such_table", to_table)
    frm = _locate(tables, player)
    new = [list(t) for t in tables]
    new[frm].remove(player)
    new[to_table - 1].append(player)
    out = tuple(tuple(t) for t in new)
    return Adjustment(out, evaluate(tables, context, criteria), evaluate(out, context, criteria))


def random_tables(ids: Sequence[PlayerId], sizes: Sequence[int], rng: random.Random) -> Tables:
    """A pure random draw (the benchmark baseline): shuffle, then cut into ``sizes``."""
    order = list(ids)
    rng.shuffle(order)
    out: list[tuple[PlayerId, ...]] = []
    k = 0
    for s in sizes:
        out.append(tuple(order[k : k + s]))
        k += s
    return tuple(out)


__all__ = [
    "INF",
    "Adjustment",
    "draw_round1",
    "draw_round2",
    "draw_tables",
    "evaluate",
    "lower_bound",
    "move_player",
    "random_tables",
    "swap_players",
]
