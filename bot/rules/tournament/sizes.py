"""Table sizes per format: ARB/UFF fours-and-fives, FIRK, NP teams and knockout, Ricochet Robots tables.

The numbers (4, 5, the FIRK dummy totals, the knockout final size ...) come from the preset's
``[tournament]`` table; the defaults below only document the shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.tournament.model import TournamentError

INF_ROUNDS = 1 << 30


def standard_sizes(n: int, *, table: int = 4, large: int = 5, large_first: bool = False) -> tuple[int, ...]:
    """TOUR-SIZE-1 / ARB art. 5: tables of ``table``, with the fewest tables of ``large`` (n mod 4 of them).

    The large tables are the last ones (the cinquisti sit at the last tables) unless ``large_first``.
    """
    if large != table + 1:
        raise TournamentError("large_must_be_table_plus_one", {"table": table, "large": large})
    tables, extra = divmod(n, table)
    if n < table or extra > tables:
        raise TournamentError("too_few_players_for_tables", n)
    sizes = [table] * (tables - extra) + [large] * extra
    return tuple(sorted(sizes, reverse=True) if large_first else sizes)


def short_sizes(n: int, *, table: int = 4, minimum: int = 3) -> tuple[int, ...]:
    """NP-TAB-1 team events (our reading, ``tournament.short_tables``): tables of ``table``; when the field is not a
    multiple of it the last tables play one short (the table a team's missing player would have sat at plays with
    three), never below ``minimum`` players. 23 → 4, 4, 4, 4, 4, 3; 22 → 4, 4, 4, 4, 3, 3."""
    tables = -(-n // table)
    short = tables * table - n
    if n < minimum or short > tables or (short and table - 1 < minimum):
        raise TournamentError("too_few_players_for_tables", n)
    return tuple([table] * (tables - short) + [table - 1] * short)


def team_overflow(teams: Sequence[str | None], tables: int) -> dict[str, int]:
    """NP-TAB-1: the teams with more players than there are tables (one of them would sit with a teammate)."""
    counts: dict[str, int] = {}
    for team in teams:
        if team is not None:
            counts[team] = counts.get(team, 0) + 1
    return {team: k for team, k in sorted(counts.items()) if k > tables}


@dataclass(frozen=True, slots=True)
class FirkTables:
    """FIRK §9 numbers (the preset's ``[tournament]`` table): sizes, dummy totals, the last round's special cases."""

    table_size: int = 4
    large_table_size: int = 5
    dummy_totals: tuple[int, ...] = (3, 7, 11)
    sit_out_total: int = 5
    sit_out_points_if_fifth: float = 15.0
    sit_out_points_else: float = 1.0
    head_to_head_total: int = 6
    head_to_head_winner_points: float = 31.0
    head_to_head_loser_points: float = 15.0


@dataclass(frozen=True, slots=True)
class FirkPlan:
    """FIRK §9 table plan: sizes (table 1 first), which tables play with a dummy, special last-round cases."""

    sizes: tuple[int, ...]
    dummy_tables: tuple[int, ...] = ()  # 1-based table numbers playing 3 + a "dummy"
    sit_out: bool = False  # last round with 5 present: the 5th of the standings sits out
    head_to_head: bool = False  # last round with 6 present: the 5th and 6th play head to head


def firk_sizes(n: int, *, round_no: int, last_round: bool, cfg: FirkTables) -> FirkPlan:
    """FIRK-SIZE-1 (FIRK §9): table 1 always of 4 except in round 1; 3 + dummy only at the preset totals."""
    table = cfg.table_size
    large = cfg.large_table_size
    dummy_totals = set(cfg.dummy_totals)
    if last_round and n == cfg.sit_out_total:
        return FirkPlan((table,), sit_out=True)
    if last_round and n == cfg.head_to_head_total:
        return FirkPlan((table, 2), head_to_head=True)
    if n in dummy_totals:
        return FirkPlan((table,) * (n // table) + (table - 1,), dummy_tables=((n // table) + 1,))
    if round_no == 1:
        # Only in round 1 may table 1 hold 5: the 5-player tables come first (seeded from the top).
        return FirkPlan(standard_sizes(n, table=table, large=large, large_first=True))
    rest = n - table
    if rest < 0:
        raise TournamentError("firk_sizes_impossible", n)
    if rest == 0:
        return FirkPlan((table,))
    tables, extra = divmod(rest, table)
    if extra > tables:
        raise TournamentError("firk_sizes_impossible", n)
    return FirkPlan((table, *standard_sizes(rest, table=table, large=large)))


def rr_sizes(n: int, table_size: int, *, minimum: int) -> tuple[int, ...]:
    """Ricochet Robots tables: the organizer's size at most, as even as possible, never below ``minimum`` (RR 6.4)."""
    if table_size < minimum:
        raise TournamentError("table_size_below_minimum", table_size)
    if n < minimum:
        raise TournamentError("too_few_players_for_tables", n)
    tables = -(-n // table_size)
    q, r = divmod(n, tables)
    if q < minimum:
        raise TournamentError("too_few_players_for_tables", n)
    return tuple([q + 1] * r + [q] * (tables - r))


@dataclass(frozen=True, slots=True)
class KnockoutRound:
    """One round of a knockout plan (NP-FMT-1): the players who play it and its table sizes."""

    players: int
    sizes: tuple[int, ...]


def knockout_plan(n: int, *, final_size: int, allowed_sizes: Sequence[int]) -> tuple[KnockoutRound, ...]:
    """NP-FMT-1: rounds of a knockout where each table's winner goes on and every round's table count
    is a multiple of the final's size (e.g. 100 → 20 tables of 5 → 5 tables of 4 → final of 5).

    Prefers the plan with the fewest rounds, then the most even tables. Raises when none exists, naming the
    nearest workable field sizes below and above and the other final sizes (of the allowed tables) that would work
    for ``n`` (64 players: not to a final of 5, but 16 × 4 → 4 × 4 → a final of 4).
    """
    result = _knockout_plan(n, final_size, allowed_sizes)
    if result is None:
        below, above = nearest_knockout_fields(n, final_size=final_size, allowed_sizes=allowed_sizes)
        finals = [s for s in sorted(set(allowed_sizes)) if s != final_size and _knockout_plan(n, s, allowed_sizes)]
        raise TournamentError(
            "no_knockout_plan",
            {"players": n, "final_size": final_size, "below": below, "above": above, "other_finals": finals},
        )
    return result


def _knockout_plan(n: int, final_size: int, allowed_sizes: Sequence[int]) -> tuple[KnockoutRound, ...] | None:
    allowed = sorted(set(int(s) for s in allowed_sizes))
    if final_size not in allowed:
        allowed = sorted({*allowed, final_size})

    def plan(m: int, depth: int) -> list[KnockoutRound] | None:
        if m == final_size:
            return [KnockoutRound(m, (m,))]
        if depth > 12 or m < final_size:
            return None
        best: list[KnockoutRound] | None = None
        best_key = (INF_ROUNDS, INF_ROUNDS)
        lo, hi = allowed[0], allowed[-1]
        for tables in range(final_size, m // lo + 1, final_size):
            if not lo * tables <= m <= hi * tables:
                continue
            q, r = divmod(m, tables)
            if q not in allowed or (r and q + 1 not in allowed):
                continue
            rest = plan(tables, depth + 1)
            if rest is None:
                continue
            cand = [KnockoutRound(m, tuple([q + 1] * r + [q] * (tables - r))), *rest]
            key = (len(cand), sum(1 for k in cand if len(set(k.sizes)) > 1))
            if key < best_key:
                best, best_key = cand, key
        return best

    result = plan(n, 0)
    return None if result is None else tuple(result)


def nearest_knockout_fields(
    n: int, *, final_size: int, allowed_sizes: Sequence[int], reach: int = 400
) -> tuple[int | None, int | None]:
    """NP-FMT-1: the nearest field sizes below and above ``n`` that a knockout can be planned for (what the organizer
    is told when ``n`` cannot: "37 players cannot — 25 or 80 can"); None when there is none within ``reach``."""

    def workable(m: int) -> bool:
        return _knockout_plan(m, final_size, allowed_sizes) is not None

    below = next((m for m in range(n - 1, max(final_size, n - reach) - 1, -1) if workable(m)), None)
    above = next((m for m in range(n + 1, n + reach + 1) if workable(m)), None)
    return below, above


@dataclass(frozen=True, slots=True)
class FirkLastRoundPoints:
    """FIRK §9 special last-round cases: points for the sitting-out 5th or the head-to-head pair."""

    player: object
    points: float


def firk_sit_out_points(player: object, *, overall_rank: int, cfg: FirkTables, shared: int = 1) -> FirkLastRoundPoints:
    """FIRK-SIZE-1: five present in the last round -> the 5th sits out with 15 points if 5th overall, else 1.

    ``shared``: how many players of the general classification share ``overall_rank`` (level players; 1 = nobody
    else). Level players hold the places ``overall_rank`` … ``overall_rank + shared - 1`` together, so the sitter is
    "5th" when the 5th place lies among them (our reading: a rank shared at 4th covers the 5th place too)."""
    if shared < 1:
        raise TournamentError("shared_rank_count", shared)
    fifth = overall_rank <= cfg.sit_out_total < overall_rank + shared
    return FirkLastRoundPoints(player, cfg.sit_out_points_if_fifth if fifth else cfg.sit_out_points_else)


def firk_head_to_head_points(winner: object, loser: object, *, cfg: FirkTables) -> tuple[FirkLastRoundPoints, ...]:
    """FIRK-SIZE-1 (FIRK punteggio 9): six present in the last round -> the 5th and 6th play head to head: 31, 15."""
    return (
        FirkLastRoundPoints(winner, cfg.head_to_head_winner_points),
        FirkLastRoundPoints(loser, cfg.head_to_head_loser_points),
    )
