"""The draw optimiser on player indices: greedy construction, swap local search, exact branch-and-bound.

The lexicographic criteria (DRAWS.md, ARB art. 5) are folded into one integer cost: criterion k of K
weighs ``B ** (K - 1 - k)`` with ``B`` larger than any count, so comparing weighted sums is exactly
comparing the criteria vectors lexicographically. Pair criteria become a symmetric pair-cost matrix;
"sat at a 5-player table again" becomes a per-player seat cost on the large tables.

Everything is deterministic given the ``random.Random`` passed in and the iteration budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

INF = 1 << 62


@dataclass(slots=True)
class Problem:
    """A draw problem on indices ``0..n-1`` (mutable scratch object, private to the engine)."""

    n: int
    sizes: list[int]  # table capacities, table 0 first
    big: list[int]  # 1 when the seat cost applies at this table (a 5-player table)
    cost: list[list[int]]  # symmetric weighted pair costs, zero diagonal
    rest: list[list[int]]  # the part of ``cost`` not covered by the clique ``groups`` (for the exact bound)
    seat: list[int]  # weighted cost of sitting at a big table
    cls: list[int]  # swap class: players only swap with players of the same class
    pinned_table: list[int]  # -1, or the table a player starts at (cinquisti: one per 5-player table)
    allowed: list[frozenset[int] | None]  # tables a player may sit at in the exact search (None: any)
    unique: list[bool]  # at most one player of this player's class per table (cinquisti, NP teams)
    groups: list[tuple[int, list[int]]]  # (weight, members) clique groups for the exact bound
    group_repeat: list[bool]  # True for the previous round's tables (repeat-pair cliques)


@dataclass(slots=True)
class SearchResult:
    assignment: list[int]  # table index of each player
    cost: int
    iterations: int
    restarts: int
    nodes: int = 0
    proven: bool = False


def _assignment_cost(p: Problem, pos: Sequence[int]) -> int:
    total = 0
    c = p.cost
    for i in range(p.n):
        row = c[i]
        pi = pos[i]
        total += p.seat[i] * p.big[pi]
        for j in range(i + 1, p.n):
            if pos[j] == pi:
                total += row[j]
    return total


def _construct(p: Problem, rng: random.Random) -> list[int]:
    """Greedy: pinned players first, then a random order, each to a cheapest table with room (random ties)."""
    n, t_count = p.n, len(p.sizes)
    pos = [-1] * n
    free = list(p.sizes)
    members: list[list[int]] = [[] for _ in range(t_count)]
    for i in range(n):
        t = p.pinned_table[i]
        if t >= 0:
            pos[i] = t
            free[t] -= 1
            members[t].append(i)
    order = [i for i in range(n) if pos[i] < 0]
    rng.shuffle(order)
    for i in order:
        row = p.cost[i]
        best = INF
        choice: list[int] = []
        for t in range(t_count):
            if free[t] <= 0:
                continue
            d = p.seat[i] * p.big[t]
            for x in members[t]:
                d += row[x]
            if d < best:
                best = d
                choice = [t]
            elif d == best:
                choice.append(t)
        t = choice[rng.randrange(len(choice))] if len(choice) > 1 else choice[0]
        pos[i] = t
        free[t] -= 1
        members[t].append(i)
    return pos


def local_search(
    p: Problem,
    rng: random.Random,
    *,
    target: int,
    iterations: int,
    stall: int,
    initial: Callable[[random.Random], list[int]] | None = None,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Swap local search with plateau moves, random kicks and restarts; stops at ``target`` cost."""
    n, t_count = p.n, len(p.sizes)
    c, seat, big, cls = p.cost, p.seat, p.big, p.cls
    make = initial if initial is not None else (lambda r: _construct(p, r))
    best_pos: list[int] = []
    best_cost = INF
    used = 0
    restarts = -1
    while used < iterations and best_cost > target:
        restarts += 1
        pos = make(rng)
        tables: list[list[int]] = [[] for _ in range(t_count)]
        for i in range(n):
            tables[pos[i]].append(i)
        contrib = [seat[i] * big[pos[i]] + sum(c[i][x] for x in tables[pos[i]]) for i in range(n)]
        cost = _assignment_cost(p, pos)
        if cost < best_cost:
            best_cost, best_pos = cost, list(pos)
        since = 0
        while used < iterations and best_cost > target and since < stall:
            used += 1
            since += 1
            if stop is not None and used % 64 == 0 and stop():
                used = iterations
                break
            hot = [i for i in range(n) if contrib[i] > 0]
            if not hot:
                break
            i = hot[rng.randrange(len(hot))]
            a = pos[i]
            row_i = c[i]
            ci = cls[i]
            seat_i = seat[i]
            si = [sum(row_i[x] for x in tables[t]) + seat_i * big[t] for t in range(t_count)]
            cur_i = si[a]
            col_a = [sum(col) for col in zip(*(c[x] for x in tables[a]), strict=True)]
            big_a = big[a]
            best_d = INF
            cands: list[int] = []
            for j in range(n):
                b = pos[j]
                if b == a or cls[j] != ci:
                    continue
                d = si[b] - cur_i - 2 * row_i[j] + col_a[j] + seat[j] * big_a - contrib[j]
                if d < best_d:
                    best_d = d
                    cands = [j]
                elif d == best_d:
                    cands.append(j)
            if not cands:
                continue
            if best_d > 0:
                # a kick: occasionally take the least bad swap to leave a local minimum
                if rng.random() >= 0.05:
                    continue
            elif best_d == 0 and rng.random() >= 0.5:
                continue
            j = cands[rng.randrange(len(cands))] if len(cands) > 1 else cands[0]
            b = pos[j]
            tables[a].remove(i)
            tables[b].remove(j)
            tables[a].append(j)
            tables[b].append(i)
            pos[i], pos[j] = b, a
            cost += best_d
            for t in (a, b):
                for x in tables[t]:
                    rx = c[x]
                    contrib[x] = seat[x] * big[t] + sum(rx[y] for y in tables[t])
            if cost < best_cost:
                best_cost, best_pos = cost, list(pos)
                since = 0
    return SearchResult(best_pos, best_cost, used, max(restarts, 0))


def spread_increments(count: int, room: list[int], cnt: list[int], allowed: Sequence[bool]) -> list[int]:
    """The pairs each of ``count`` more members of a group adds, spread as evenly as the seats ``room`` allow at the
    ``allowed`` tables, ``cnt`` members already at each (greedy, first table among equals; both lists updated). The
    search's bounds and the draw's lower bound both spread with it; the C search has the same loop."""
    out: list[int] = []
    for _ in range(count):
        bt = -1
        bk = INF
        for t in range(len(room)):
            if room[t] > 0 and cnt[t] < bk and allowed[t]:
                bk = cnt[t]
                bt = t
        if bt < 0:
            break
        out.append(bk)
        cnt[bt] += 1
        room[bt] -= 1
    return out


def mix(p: Problem, pos: list[int], rng: random.Random, *, attempts: int) -> list[int]:
    """A random walk over equal-cost swaps: keeps the cost, spreads the choice among optimal draws."""
    n, t_count = p.n, len(p.sizes)
    if n < 2 or t_count < 2:
        return pos
    c, seat, big, cls = p.cost, p.seat, p.big, p.cls
    pos = list(pos)
    tables: list[list[int]] = [[] for _ in range(t_count)]
    for i in range(n):
        tables[pos[i]].append(i)
    for _ in range(attempts):
        i = rng.randrange(n)
        j = rng.randrange(n)
        a, b = pos[i], pos[j]
        if a == b or cls[i] != cls[j]:
            continue
        ri, rj = c[i], c[j]
        d = (
            sum(ri[x] for x in tables[b])
            - ri[j]
            - sum(ri[x] for x in tables[a])
            + sum(rj[x] for x in tables[a])
            - rj[i]
            - sum(rj[x] for x in tables[b])
            + (seat[i] - seat[j]) * (big[b] - big[a])
        )
        if d == 0:
            tables[a].remove(i)
            tables[b].remove(j)
            tables[a].append(j)
            tables[b].append(i)
            pos[i], pos[j] = b, a
    return pos


_FAST: list[ModuleType | None] = []


def _fast_module() -> ModuleType | None:
    """The optional C accelerator (``setup.py`` builds it; a failed build leaves the pure-Python search)."""
    if not _FAST:
        try:
            from bot.rules.tournament import _drawsearch  # type: ignore[attr-defined]

            _FAST.append(_drawsearch)
        except ImportError:
            _FAST.append(None)
    return _FAST[0]


def accelerator_available() -> bool:
    return _fast_module() is not None


def _fits_in_c(p: Problem, incumbent_cost: int) -> bool:
    """C counts in 64 bits: every cost the search can add up must stay below 2^61; sizes within its arrays."""
    if (
        p.n > 128
        or len(p.sizes) > 64
        or len(p.groups) > 256
        or max(p.cls, default=0) >= 128
        or min(p.cls, default=0) < 0
    ):
        return False
    total = sum(sum(row) for row in p.cost) + sum(p.seat) + incumbent_cost
    return total < (1 << 61)


def exact_search(
    p: Problem, incumbent: list[int], incumbent_cost: int, *, node_limit: int, engine: str = "auto"
) -> SearchResult:
    """Branch-and-bound over table assignments; ``proven`` when the whole tree was searched.

    Players are placed in an order that puts the most constrained first; equal empty tables are
    interchangeable (only the first one is tried). The bound adds, to the partial cost, the larger of
    two valid relaxations of the two parts of the cost: (a) for each clique group (club, winners), the
    cheapest even spread of its unplaced members over the room left, and (b) for the other pair costs
    (repeats, families) and the seat cost, each unplaced player's cheapest table against the players
    already placed.
    """
    n, t_count = p.n, len(p.sizes)
    c, seat, big = p.cost, p.seat, p.big
    weight_of = [0] * n
    for i in range(n):
        weight_of[i] = sum(c[i]) + seat[i]
    first = [i for i in range(n) if p.unique[i] or p.allowed[i] is not None]
    first_set = set(first)
    order = first + sorted((i for i in range(n) if i not in first_set), key=lambda i: (-weight_of[i], i))
    fast = _fast_module() if engine in ("auto", "c") else None
    if engine == "c" and fast is None:
        raise RuntimeError("the C draw search is not built")
    if fast is not None and _fits_in_c(p, incumbent_cost):
        t_count_ = len(p.sizes)
        allowed_flat = [
            1 if (p.allowed[i] is None or t in p.allowed[i]) else 0  # type: ignore[operator]
            for i in range(n)
            for t in range(t_count_)
        ]
        pos_c, cost_c, nodes_c, proven_c = fast.exact(
            n, p.sizes, p.big, [x for row in p.cost for x in row], [x for row in p.rest for x in row], p.seat, p.cls,
            allowed_flat, [1 if u else 0 for u in p.unique], [w for w, _ in p.groups], [m for _, m in p.groups],
            [1 if r else 0 for r in p.group_repeat], order, list(incumbent), incumbent_cost, node_limit, len(first), 1,
        )  # fmt: skip
        return SearchResult(list(pos_c), int(cost_c), 0, 0, nodes=int(nodes_c), proven=bool(proven_c))
    class_at: list[set[int]] = [set() for _ in range(t_count)]
    pos = [-1] * n
    free = list(p.sizes)
    members: list[list[int]] = [[] for _ in range(t_count)]
    group_of: list[list[int]] = [[] for _ in range(n)]
    group_w = [w for w, _ in p.groups]
    counts = [[0] * t_count for _ in p.groups]
    remaining = [len(m) for _, m in p.groups]
    # per group, the tables (the 5-player ones) with a free seat and none of its members, kept up to date
    open_tables = sum(1 for x in p.sizes if x > 0)
    open_big = sum(1 for t, x in enumerate(p.sizes) if x > 0 and big[t])
    n_groups = len(p.groups)
    zr = [open_tables] * n_groups
    zrb = [open_big] * n_groups
    # While the best cost is below the smallest seat cost, a player with a seat cost can never sit at a
    # big table in a better draw: forbid it (ARB 5 criterion 1 dominates every pair criterion).
    seat_min = min((x for x in seat if x > 0), default=INF)
    free_left = [sum(1 for i in m if seat[i] == 0) for _, m in p.groups]  # unplaced members without seat cost
    for g, (_, m) in enumerate(p.groups):
        for i in m:
            group_of[i].append(g)

    best_cost = incumbent_cost
    best_pos = list(incumbent)
    nodes = 0
    aborted = False

    anywhere = [True] * t_count

    def spread(g: int, room: list[int]) -> int:
        """Fewest pairs when group ``g``'s unplaced members fill ``room`` as evenly as possible."""
        return sum(spread_increments(remaining[g], room, counts[g][:], anywhere))

    big_tables = [t for t in range(t_count) if big[t]]
    repeat_groups = [g for g in range(len(group_w)) if p.group_repeat[g]]
    loose_player = [seat[i] == 0 and not any(p.group_repeat[g] for g in group_of[i]) for i in range(n)]
    loose_left = sum(loose_player)

    def group_bound() -> int:
        """Clubs/winners spread anywhere, plus the larger of two bounds on repeat pairs: (a) each previous
        table spread anywhere; (b) when repeat 5-seats are forbidden, the previous tables whose members all
        sat at a 5-table spread over the small tables, plus the pigeonhole at each big table among the
        others (disjoint sets of pairs, so the two parts add up)."""
        forbid = best_cost < seat_min
        total = 0
        rep_a = 0
        for g, w in enumerate(group_w):
            if remaining[g] == 0:
                continue
            no_big = forbid and free_left[g] == 0
            if remaining[g] <= (zr[g] - zrb[g] if no_big else zr[g]):
                continue  # one member per table with room and none of the group: the spread is 0
            room = free[:]
            if no_big:
                for t in big_tables:
                    room[t] = 0
            v = spread(g, room) * w
            if p.group_repeat[g]:
                rep_a += v
            else:
                total += v
        if not forbid or not big_tables or not repeat_groups:
            return total + rep_a
        rep_b = 0
        for g in repeat_groups:
            if remaining[g] and free_left[g] == 0:
                room = free[:]
                for t in big_tables:
                    room[t] = 0
                rep_b += spread(g, room) * group_w[g]
        for t in big_tables:
            f = free[t]
            if f == 0:
                continue
            k = {g: counts[g][t] for g in repeat_groups if free_left[g] > 0}
            elig = {g: free_left[g] for g in k}
            loose = loose_left
            add = 0
            w = 0
            for _ in range(f):
                if loose > 0:
                    loose -= 1
                    continue
                if not k:
                    break
                g = min(k, key=lambda x: k[x])
                add += k[g]
                w = group_w[g]
                k[g] += 1
                elig[g] -= 1
                if elig[g] == 0:
                    del k[g]
            rep_b += add * w
        return total + max(rep_a, rep_b)

    # families of clique groups (same weight and kind): an escaped player lowers at most ``mult`` groups of each
    fam_key: dict[tuple[int, bool], int] = {}
    family = [fam_key.setdefault((w, p.group_repeat[g]), len(fam_key)) for g, w in enumerate(group_w)]
    mult = [0] * len(fam_key)
    for i in range(n):
        per: dict[int, int] = {}
        for g in group_of[i]:
            per[family[g]] = per.get(family[g], 0) + 1
        for f_, k_ in per.items():
            mult[f_] = max(mult[f_], k_)
    zero_left = sum(1 for i in range(n) if seat[i] == 0)

    small = [not b for b in big]
    only_big = [bool(b) for b in big]

    def tight_bound(partial: int) -> int:
        """When one more 5-seat repeat than the fewest possible cannot improve on the best draw (ARB 5 criterion 1
        dominates), the seats are nearly decided: with Z players free of it and F seats left at 5-player tables,
        either Z <= F and every one of them sits at a 5-player table with exactly F - Z others, or Z > F and F of
        them fill those seats, the other Z - F at small tables. Each group spreads its seat-cost members over the
        small tables and the others over the 5-player tables; the |F - Z| players on the wrong side ("escapes")
        lower each family of groups by at most |F - Z| times the groups one player belongs to."""
        if not big_tables or seat_min >= INF:
            return 0
        f_big = 0
        for t in big_tables:
            f_big += free[t]
        fill = max(0, f_big - zero_left)
        if partial + (fill + 1) * seat_min < best_cost:
            return 0
        # the players on the wrong side of the split: seat-cost players at 5-player tables (Z <= F), or players
        # free of it at the small tables (Z > F); each lowers each family of groups by at most its multiplicity
        escapes = fill if zero_left <= f_big else zero_left - f_big
        cut_seat = zero_left <= f_big
        total = 0
        fam_incs: list[list[int]] = [[] for _ in mult]
        for g, w in enumerate(group_w):
            if remaining[g] == 0:
                continue
            zs = free_left[g]
            ss = remaining[g] - zs
            if ss <= zr[g] - zrb[g] and zs <= zrb[g]:
                continue  # every increment 0 (and a 0 never changes the sum of the largest ones below)
            room = free[:]
            cnt = counts[g][:]
            incs_s = spread_increments(ss, room, cnt, small)  # seat-cost members: the small tables
            room = [room[t] if big[t] else 0 for t in range(t_count)]
            incs_z = spread_increments(zs, room, cnt, only_big)  # the others: the 5-player tables
            total += (sum(incs_s) + sum(incs_z)) * w
            if escapes:
                fam_incs[family[g]].extend(x * w for x in (incs_s if cut_seat else incs_z))
        if escapes:
            for f_, incs in enumerate(fam_incs):
                if incs:
                    incs.sort(reverse=True)
                    total -= sum(incs[: escapes * mult[f_]])
        return total

    rc = p.rest
    # what each player would add at each table, from the pair costs and from ``rest``: kept up to date as players sit
    # down (a new list per placement, the old one put back on the way up), so the bounds read a sum instead of adding
    tc: list[list[int]] = [[0] * n for _ in range(t_count)]
    trc: list[list[int]] = [[0] * n for _ in range(t_count)]

    def seat_fill(depth: int) -> int:
        """The big tables' free seats are filled by unplaced players: at least their smallest seat costs."""
        f = sum(free[t] for t in big_tables)
        if f == 0:
            return 0
        return sum(sorted(seat[order[idx]] for idx in range(depth, n))[:f])

    def player_bound(depth: int, with_seat: bool = True) -> int:
        total = 0
        for idx in range(depth, n):
            i = order[idx]
            m = INF
            for t in range(t_count):
                if free[t] <= 0:
                    continue
                d = (seat[i] * big[t] if with_seat else 0) + trc[t][i]
                if d < m:
                    m = d
                    if m == 0:
                        break
            total += m
        return total

    cls, unique, allowed_at = p.cls, p.unique, p.allowed

    def half_pair_bound2(depth: int) -> int:
        """Twice a bound on the cost to come: each unplaced player's cheapest table, its placed tablemates counted in
        full and half of the cheapest tablemates it could still get among the unplaced (each such pair is counted by
        both its players); the larger of that with each player's seat cost in its choice, and without it plus the
        cheapest filling of the big tables' free seats. Strong late in the tree, when few fresh tablemates are left."""
        need = max(free) - 1
        forbid = best_cost < seat_min
        rest_ids = order[depth:]
        total = total0 = 0
        for i in rest_ids:
            row = c[i]
            small = sorted(row[j] for j in rest_ids if j != i)[:need] if need > 0 else []
            prefix = [0]
            for v in small:
                prefix.append(prefix[-1] + v)
            ns = len(small)
            al = allowed_at[i]
            m = m0 = INF
            for t in range(t_count):
                if free[t] <= 0 or (al is not None and t not in al):
                    continue
                if unique[i] and cls[i] in class_at[t]:
                    continue
                if big[t] and seat[i] and forbid:
                    continue
                d = tc[t][i]
                v0 = 2 * d + prefix[min(free[t] - 1, ns)]
                v = v0 + 2 * seat[i] * big[t]
                if v < m:
                    m = v
                if v0 < m0:
                    m0 = v0
            if m >= INF:
                return INF
            total += m
            total0 += m0
        return max(total, total0 + 2 * seat_fill(depth))

    def dfs(depth: int, partial: int) -> None:
        nonlocal best_cost, best_pos, nodes, aborted, loose_left, zero_left
        if aborted:
            return
        nodes += 1
        if nodes > node_limit:
            aborted = True
            return
        if depth == n:
            if partial < best_cost:
                best_cost = partial
                best_pos = list(pos)
            return
        gb = group_bound()
        pb = player_bound(depth)
        if partial + gb + pb >= best_cost:
            return
        pb = max(pb, player_bound(depth, with_seat=False) + seat_fill(depth))
        if partial + gb + pb >= best_cost:
            return
        if partial + tight_bound(partial) + pb >= best_cost:
            return
        h2 = half_pair_bound2(depth)
        if h2 >= INF or partial + (h2 + 1) // 2 >= best_cost:
            return
        picked = depth
        if depth >= n_first:
            picked = _fail_first(depth, partial)
            order[depth], order[picked] = order[picked], order[depth]
        i = order[depth]
        uniq = p.unique[i]
        ci = p.cls[i]
        for d, t in sorted(placements(i)):
            if partial + d >= best_cost:
                break
            pos[i] = t
            free[t] -= 1
            members[t].append(i)
            tc_t, trc_t = tc[t], trc[t]
            tc[t] = [a + b for a, b in zip(tc_t, c[i], strict=True)]
            trc[t] = [a + b for a, b in zip(trc_t, rc[i], strict=True)]
            if uniq:
                class_at[t].add(ci)
            bt = big[t]
            for g in group_of[i]:
                if counts[g][t] == 0:
                    zr[g] -= 1
                    zrb[g] -= bt
                counts[g][t] += 1
                remaining[g] -= 1
                if seat[i] == 0:
                    free_left[g] -= 1
            if free[t] == 0:  # full now: no longer a table with room for any group
                for g in range(n_groups):
                    if counts[g][t] == 0:
                        zr[g] -= 1
                        zrb[g] -= bt
            if loose_player[i]:
                loose_left -= 1
            if seat[i] == 0:
                zero_left -= 1
            dfs(depth + 1, partial + d)
            if seat[i] == 0:
                zero_left += 1
            for g in group_of[i]:
                counts[g][t] -= 1
                if counts[g][t] == 0 and free[t] > 0:
                    zr[g] += 1
                    zrb[g] += bt
                remaining[g] += 1
                if seat[i] == 0:
                    free_left[g] += 1
            if free[t] == 0:  # room again: every group with no member there counts it
                for g in range(n_groups):
                    if counts[g][t] == 0:
                        zr[g] += 1
                        zrb[g] += bt
            if loose_player[i]:
                loose_left += 1
            if uniq:
                class_at[t].discard(ci)
            tc[t], trc[t] = tc_t, trc_t
            members[t].pop()
            free[t] += 1
            pos[i] = -1
            if aborted:
                break
        if picked != depth:
            order[depth], order[picked] = order[picked], order[depth]

    def placements(j: int) -> list[tuple[int, int]]:
        """The tables player ``j`` may take now, each with what it adds: (cost, table). Equal empty tables count once;
        while the best draw has no 5-seat repeat, a 5-player table is closed to anyone it would repeat."""
        aj = allowed_at[j]
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for t in range(t_count):
            if free[t] <= 0 or (aj is not None and t not in aj) or (unique[j] and cls[j] in class_at[t]):
                continue
            if big[t] and seat[j] and best_cost < seat_min:
                continue
            if not members[t]:
                key = (p.sizes[t], big[t])
                if key in seen:
                    continue
                seen.add(key)
            out.append((seat[j] * big[t] + tc[t][j], t))
        return out

    def _fail_first(depth: int, partial: int) -> int:
        """The unplaced player to place next: the fewest placements that could still improve on the best draw, then
        the dearest cheapest placement, then the first in the current order (as the C search)."""
        slack = best_cost - partial
        best_v = 1 << 30
        best_m = -1
        picked = depth
        for jdx in range(depth, n):
            options = placements(order[jdx])
            viable = sum(1 for d, _ in options if d < slack)
            m1 = min((d for d, _ in options), default=INF)
            if viable < best_v or (viable == best_v and m1 > best_m):
                best_v, best_m, picked = viable, m1, jdx
        return picked

    n_first = len(first)
    dfs(0, 0)
    return SearchResult(best_pos, best_cost, 0, 0, nodes=nodes, proven=not aborted)
