"""Seeded tables: semifinal bands, the 100+ odd/even split, the final's replacement chain, FIRK round 1.

ARB art. 5 ("3a partita", "4a partita"), TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1; FIRK §6, §9, §10.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.rules.tournament.cut import LOT_VERSION, CutTie, canonical, resolve_ties
from bot.rules.tournament.model import PlayerId, Tables, TournamentError
from bot.rules.tournament.sizes import FirkPlan, FirkTables, firk_sizes


def _club_pairs(tables: Sequence[Sequence[PlayerId]], clubs: Mapping[PlayerId, str | None]) -> int:
    n = 0
    for t in tables:
        for i, a in enumerate(t):
            ca = clubs.get(a)
            if ca is None:
                continue
            n += sum(1 for b in t[i + 1 :] if clubs.get(b) == ca)
    return n


@dataclass(frozen=True, slots=True)
class SemifinalPlan:
    """Semifinal tables (band 1 player first at each table), the direct finalist, the bands used.

    ``club_pairs_plain`` is the same-club count of the plain seeding (band k's i-th player at table i);
    ``club_pairs`` the count after the redistribution inside the bands (ARB art. 5, 3rd game).
    """

    tables: Tables
    direct_finalist: PlayerId | None
    bands: Tables
    club_pairs: int
    club_pairs_plain: int
    direct_finalists: tuple[PlayerId, ...] = ()  # every player straight to the final (the first is direct_finalist)


def semifinals(
    ranking: Sequence[PlayerId],
    clubs: Mapping[PlayerId, str | None],
    *,
    tables: int,
    table_size: int,
    rng: random.Random,
    direct: int | None = None,
) -> SemifinalPlan:
    """TOUR-SF-1: one player of each band per semifinal table; with 3 tables rank 1 goes to the final.

    Bands are ``tables`` consecutive ranks (1-4, 5-8, 9-12, 13-16 with four tables; 2-4, 5-7, 8-10,
    11-13 with three). Band 1's i-th player sits at table i; the other bands are placed by the
    permutation with the fewest same-club pairs, chosen at random among the best (``rng``).

    ``direct``: how many of the top go straight to the final (default: one with three tables, ARB 5); a club
    championship sends two to the final beside two semifinals (issue 47: ranks 3-4 | 5-6 | 7-8 | 9-10).
    """
    if direct is None:
        direct = 1 if tables == 3 else 0
    if tables not in (2, 3, 4) or not 0 <= direct <= 2:
        raise TournamentError("semifinal_tables_must_be_3_or_4", tables)
    directs = tuple(ranking[:direct])
    pool = list(ranking[direct:])
    need = tables * table_size
    if len(pool) < need:
        raise TournamentError("too_few_ranked_players", {"need": need + direct, "have": len(ranking)})
    bands = [pool[k * tables : (k + 1) * tables] for k in range(table_size)]
    plain = tuple(tuple(bands[k][i] for k in range(table_size)) for i in range(tables))
    best: list[tuple[tuple[PlayerId, ...], ...]] = []
    best_pairs = 1 << 30
    perms = list(itertools.permutations(range(tables)))
    for combo in itertools.product(perms, repeat=table_size - 1):
        cand = tuple((bands[0][i], *(bands[k + 1][combo[k][i]] for k in range(table_size - 1))) for i in range(tables))
        pairs = _club_pairs(cand, clubs)
        if pairs < best_pairs:
            best_pairs, best = pairs, [cand]
        elif pairs == best_pairs:
            best.append(cand)
    chosen = best[rng.randrange(len(best))]
    return SemifinalPlan(
        tables=chosen,
        direct_finalist=directs[0] if directs else None,
        bands=tuple(tuple(b) for b in bands),
        club_pairs=best_pairs,
        club_pairs_plain=_club_pairs(plain, clubs),
        direct_finalists=directs,
    )


@dataclass(frozen=True, slots=True)
class OddEvenSplit:
    """TOUR-SF-2: the two parallel tournaments ("dispari" and "pari") of a 100+ player event."""

    odd: tuple[PlayerId, ...]
    even: tuple[PlayerId, ...]


def split_odd_even(
    ranking: Sequence[PlayerId], *, tables: int, table_size: int, withdrawn: Collection[PlayerId] = ()
) -> OddEvenSplit:
    """Split the standings, net of withdrawn qualifiers, into odd and even positions (ARB art. 5).

    Two quartets of semifinals: odd 1st-31st, even 2nd-32nd. Two trios: odd 1st, 3rd-25th (the 1st is
    the odd final's direct finalist), even 2nd, 4th-26th. Each half is a ranking ready for ``semifinals``.
    """
    if tables not in (3, 4):
        raise TournamentError("semifinal_tables_must_be_3_or_4", tables)
    net = [p for p in ranking if p not in set(withdrawn)]
    per_half = tables * table_size + (1 if tables == 3 else 0)  # ARB 5's halves: three tables send one direct
    need = 2 * per_half
    if len(net) < need:
        raise TournamentError("too_few_ranked_players", {"need": need, "have": len(net)})
    top = net[:need]
    return OddEvenSplit(odd=tuple(top[0::2]), even=tuple(top[1::2]))


class FinalSource(StrEnum):
    """How a finalist got the seat (TOUR-FIN-1)."""

    WINNER = "semifinal_winner"
    DIRECT = "direct_finalist"
    SAME_TABLE = "same_table_replacement"
    OTHER_TABLE = "other_table_recovery"
    DIRECT_REPLACEMENT = "direct_finalist_replacement"


@dataclass(frozen=True, slots=True)
class FinalSeat:
    """A seat at the final (TOUR-FIN-1) and how the player earned it: the semifinal table and place it came from and,
    for a recovery, the semifinal table whose seat it fills."""

    player: PlayerId
    source: FinalSource
    semifinal_table: int | None  # 1-based, None for the direct finalist
    semifinal_place: int | None  # 1-based place at that semifinal
    replaces_table: int | None = None  # for recoveries: the semifinal table whose seat is filled


@dataclass(frozen=True, slots=True)
class FinalComposition:
    """The final as composed: its seats in order, how many nobody could take, and the ties the replacement chain had
    to order."""

    seats: tuple[FinalSeat, ...]
    unfilled: int  # seats nobody could take
    ties: tuple[CutTie, ...] = ()  # level players the chain had to order (shared places, recoveries)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(s.player for s in self.seats)


def compose_final(
    semifinal_orders: Sequence[Sequence[PlayerId]],
    standings_after_two: Sequence[PlayerId],
    *,
    direct_finalist: PlayerId | None = None,
    declined: Collection[PlayerId] = (),
    ranks: Sequence[int] = (),
    direct_finalists: Sequence[PlayerId] = (),
    places: Sequence[Sequence[int]] = (),
    seed: int = 0,
    tie_order: Sequence[PlayerId] = (),
    reading: str = "lot",
    version: int = LOT_VERSION,
) -> FinalComposition:
    """TOUR-FIN-1 (ARB art. 5, 4th game): winners plus the direct finalist, with the replacement chain.

    A declining winner gives the seat to the 2nd of the same table, then the 3rd, the 4th. If a whole
    table declines, the seat goes to the best 2nd of the other semifinals (ranked by the standings after
    the first two games, not by semifinal results), then the best 3rd, then the best 4th. A direct
    finalist who declines after the semifinals began is replaced the same way from all semifinals
    (declining before them means four semifinals are played: see ``semifinals``). ``direct_finalists``: every player
    straight to the final when there are more than one (a club championship's two, issue 47); each one declining is
    replaced the same way, in their order.

    ``ranks`` gives each ``standings_after_two`` entry its rank (level players share one; empty: every position its
    own rank, as documents published before ranks were sent). ``places`` gives each semifinal table's place per
    player of its order (empty: 1, 2, 3…). Players sharing a place at a table are ordered by the standings after the
    first two games (ARB 5's measure for recoveries); players the chain must choose between who are also level there
    are ordered by ``tie_order`` (the organizer's) or by a lot drawn with ``seed`` (``reading`` as the preset's
    ``tournament.cut_tie``) — never by the order of a list — and each such decision is returned in ``ties``.
    """
    rank_of = dict(zip(standings_after_two, ranks, strict=True)) if ranks else {
        p: i for i, p in enumerate(standings_after_two, start=1)}  # fmt: skip
    unranked = len(standings_after_two) + 1
    no = set(declined)
    ties: list[CutTie] = []
    used: set[str] = set()

    def settle(level: Sequence[PlayerId], kind: str, seats: int) -> list[PlayerId]:
        """Players level on every measure the rulebook gives, in the decided order (the tie recorded)."""
        tied = sorted(level, key=canonical)
        rank = rank_of.get(tied[0])
        order, found = resolve_ties(tied, [0] * len(tied), {seats: kind}, seed=seed,
                                    order=[p for p in tie_order if str(p) in {str(x) for x in tied}],
                                    reading=reading, version=version)  # fmt: skip
        for tie in found:
            ties.append(CutTie(rank, tie.tied, tie.seats, tie.qualified, tie.method, tie.seed, kind, tie.order))
            used.update(str(p) for p in tie.tied)
        return order

    def in_order(table: Sequence[PlayerId], table_places: Sequence[int]) -> list[tuple[int, PlayerId]]:
        """A semifinal table's (place, player), best first: by place, then the standings after two games; players
        level on both are settled only if the chain has to choose between them (see ``recover``)."""
        return sorted(zip(table_places, table, strict=True), key=lambda x: (x[0], rank_of.get(x[1], unranked)))

    tables = [in_order(order, places[t] if t < len(places) and places[t] else range(1, len(order) + 1))
              for t, order in enumerate(semifinal_orders)]  # fmt: skip
    seats: list[FinalSeat] = []
    taken: set[PlayerId] = set()
    empty_tables: list[int] = []

    def best(cands: Sequence[tuple[int, PlayerId]], kind: str) -> tuple[int, PlayerId]:
        """The best of candidates ``(place, player)`` already sorted by place and rank; level ones settled."""
        head = cands[0]
        level = [c for c in cands if c[0] == head[0] and rank_of.get(c[1], unranked) == rank_of.get(head[1], unranked)]
        if len(level) == 1:
            return head
        chosen = settle([p for _, p in level], kind, 1)[0]
        return next(c for c in level if c[1] == chosen)

    directs = list(direct_finalists) or ([] if direct_finalist is None else [direct_finalist])
    for direct in directs:
        if direct not in no:
            seats.append(FinalSeat(direct, FinalSource.DIRECT, None, None))
            taken.add(direct)
    for t, order in enumerate(tables, start=1):
        cands = [(place, p) for place, p in order if p not in no]
        if cands:
            place, p = best(cands, "place")
            first = order[0][0]
            src = FinalSource.WINNER if place == first else FinalSource.SAME_TABLE
            seats.append(FinalSeat(p, src, t, place))
            taken.add(p)
        else:
            empty_tables.append(t)

    def recover(exclude_table: int | None) -> FinalSeat | None:
        """The best 2nd of the other tables by the standings after two games, then the best 3rd, the best 4th."""
        by_place: dict[int, list[tuple[int, int, PlayerId]]] = {}
        for t, order in enumerate(tables, start=1):
            if t == exclude_table:
                continue
            for place, p in order:
                if p not in no and p not in taken:
                    by_place.setdefault(place, []).append((rank_of.get(p, unranked), t, p))
        for place in sorted(by_place):
            cands = sorted(by_place[place], key=lambda c: c[0])
            level = [c for c in cands if c[0] == cands[0][0]]
            if len(level) > 1:
                chosen = settle([p for _, _, p in level], "chain", 1)[0]
                pick = next(c for c in level if c[2] == chosen)
            else:
                pick = cands[0]
            return FinalSeat(pick[2], FinalSource.OTHER_TABLE, pick[1], place)
        return None

    unfilled = 0
    for t in empty_tables:
        seat = recover(t)
        if seat is None:
            unfilled += 1
            continue
        seats.append(FinalSeat(seat.player, seat.source, seat.semifinal_table, seat.semifinal_place, t))
        taken.add(seat.player)
    for direct in directs:
        if direct not in no:
            continue
        seat = recover(None)
        if seat is None:
            unfilled += 1
        else:
            seats.append(
                FinalSeat(seat.player, FinalSource.DIRECT_REPLACEMENT, seat.semifinal_table, seat.semifinal_place)
            )
            taken.add(seat.player)
    stray = [p for p in tie_order if str(p) not in used]
    if stray:
        raise TournamentError("cut_tie_order_without_tie", stray[:8])
    return FinalComposition(tuple(seats), unfilled, tuple(ties))


@dataclass(frozen=True, slots=True)
class FamilyMove:
    """FIRK §10: ``player`` moved from ``from_table`` to ``to_table`` (1-based), swapping with ``swapped_with``."""

    player: PlayerId
    from_table: int
    to_table: int
    swapped_with: PlayerId


@dataclass(frozen=True, slots=True)
class FirkSeeding:
    """FIRK's round 1 (FIRK-SEED-1, FIRK-FAM-1): the tables by the previous standings, their plan (FIRK §9), the
    moves that split families, and the pairs no move could split."""

    tables: Tables
    plan: FirkPlan
    moves: tuple[FamilyMove, ...]
    unresolved_family_pairs: tuple[tuple[PlayerId, PlayerId], ...]


def firk_round1(
    previous_standings: Sequence[PlayerId],
    *,
    family_pairs: Collection[tuple[PlayerId, PlayerId]] = (),
    cfg: FirkTables,
) -> FirkSeeding:
    """FIRK-SEED-1 and FIRK-FAM-1: round-1 tables follow the previous standings (table 1 = the top);
    then spouses/siblings at one table are split by moving the lower-ranked one to the next table
    down (at the last table, the higher-ranked one moves up), swapping with the nearest-ranked player
    there whose move creates no new family pair. Pairs that cannot be split are reported.

    ``previous_standings`` lists every present player, best first (newcomers appended by the caller).
    """
    order = list(previous_standings)
    if len(set(order)) != len(order):
        raise TournamentError("duplicate_player", order)
    plan = firk_sizes(len(order), round_no=1, last_round=False, cfg=cfg)
    rank = {p: i for i, p in enumerate(order)}
    tables: list[list[PlayerId]] = []
    k = 0
    for s in plan.sizes:
        tables.append(order[k : k + s])
        k += s
    fam = {frozenset(p) for p in family_pairs if p[0] in rank and p[1] in rank}

    def conflicts(table: Sequence[PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
        out = []
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if frozenset((a, b)) in fam:
                    out.append((a, b) if rank[a] < rank[b] else (b, a))
        return out

    moves: list[FamilyMove] = []
    for _ in range(len(order) * 2):
        changed = False
        for t in range(len(tables)):
            pairs = conflicts(tables[t])
            if not pairs:
                continue
            high, low = pairs[0]
            if t + 1 < len(tables):
                mover, target = low, t + 1
                candidates = sorted(tables[target], key=lambda p: rank[p])  # nearest-ranked first
            elif t > 0:
                mover, target = high, t - 1
                candidates = sorted(tables[target], key=lambda p: -rank[p])
            else:
                continue
            for other in candidates:
                new_src = [other if p == mover else p for p in tables[t]]
                new_dst = [mover if p == other else p for p in tables[target]]
                if len(conflicts(new_src)) < len(pairs) and not conflicts(new_dst):
                    tables[t] = sorted(new_src, key=lambda p: rank[p])
                    tables[target] = sorted(new_dst, key=lambda p: rank[p])
                    moves.append(FamilyMove(mover, t + 1, target + 1, other))
                    changed = True
                    break
        if not changed:
            break
    unresolved = tuple(pair for table in tables for pair in conflicts(table))
    return FirkSeeding(tuple(tuple(t) for t in tables), plan, tuple(moves), unresolved)
