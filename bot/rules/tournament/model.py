"""Value types shared by the tournament engine: players, draw history, criteria, reports, errors.

Everything here is data: frozen dataclasses and enums, no sentences (the i18n layer words them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.rules.errors import RuleError

PlayerId = int | str
Table = tuple[PlayerId, ...]
Tables = tuple[Table, ...]


class TournamentError(RuleError):
    """A tournament input that does not fit. ``code`` is stable; ``value`` quotes the bad input."""


class Criterion(StrEnum):
    """Draw criteria (counts, smaller is better), compared lexicographically in a round's order.

    ARB art. 5: round 1 minimises same-club encounters; round 2 minimises, in order, repeat
    participation at a 5-player table, round-1 winners together, same-club pairs, round-1 tablemates
    together. FIRK §10 adds family (spouses/siblings) pairs in round 1; NP-TAB-1 puts team pairs (one player per
    team at each table) first; NP/RR later rounds use repeats.
    """

    FAMILY_PAIRS = "family_pairs"
    TEAM_PAIRS = "team_pairs"  # NP-TAB-1: two players of one team at a table
    FIVE_REPEAT = "five_repeat"
    WINNER_PAIRS = "winner_pairs"
    CLUB_PAIRS = "club_pairs"
    REPEAT_PAIRS = "repeat_pairs"


ROUND1_CRITERIA: tuple[Criterion, ...] = (Criterion.CLUB_PAIRS,)
ROUND2_CRITERIA: tuple[Criterion, ...] = (
    Criterion.FIVE_REPEAT,
    Criterion.WINNER_PAIRS,
    Criterion.CLUB_PAIRS,
    Criterion.REPEAT_PAIRS,
)


class Optimality(StrEnum):
    """How much the draw report can honestly claim about optimality."""

    BOUND_MET = "bound_met"  # the DRAWS.md lower bound is reached: provably optimal
    PROVEN_BY_SEARCH = "proven_optimal_by_search"  # an exhaustive branch-and-bound proved it, nothing pinned
    # proven optimal within the procedure the preset follows: for the cinquisti the draw drew (ARB 5 a-b), and with
    # ARB 5 c)-d) for step c's reading (the others placed without the cinquisti's clubs, then the best swap of them)
    OPTIMAL_FOR_CINQUISTI = "optimal_for_cinquisti"
    NOT_PROVEN = "not_proven"  # best found within the budget; no proof


@dataclass(frozen=True, slots=True)
class Player:
    """A registered player: stable id, optional club/group and team (NP-TAB-1)."""

    id: PlayerId
    club: str | None = None
    team: str | None = None


def _pair(a: PlayerId, b: PlayerId) -> frozenset[PlayerId]:
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class DrawContext:
    """Everything a draw may look at besides the table sizes and the randomness.

    ``five_table_players``/``winners``/``previous_pairs`` describe the previous round (ARB art. 5,
    2nd game); ``family_pairs`` are FIRK §10 spouses/siblings.
    """

    players: tuple[Player, ...]
    five_table_players: frozenset[PlayerId] = frozenset()
    winners: frozenset[PlayerId] = frozenset()
    previous_pairs: frozenset[frozenset[PlayerId]] = frozenset()
    family_pairs: frozenset[frozenset[PlayerId]] = frozenset()
    previous_tables: tuple[tuple[PlayerId, ...], ...] = ()  # the previous round's tables, when known

    @staticmethod
    def build(
        players: Iterable[Player],
        *,
        five_table_players: Iterable[PlayerId] = (),
        winners: Iterable[PlayerId] = (),
        previous_pairs: Iterable[Sequence[PlayerId]] = (),
        previous_tables: Iterable[Sequence[PlayerId]] = (),
        family_pairs: Iterable[Sequence[PlayerId]] = (),
    ) -> DrawContext:
        """Build a context; ``previous_tables`` adds every pair of each previous table to the repeats."""
        plist = tuple(players)
        ids = [p.id for p in plist]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise TournamentError("duplicate_player", dup)
        pairs: set[frozenset[PlayerId]] = set()
        for pair in previous_pairs:
            if len(pair) != 2 or pair[0] == pair[1]:
                raise TournamentError("bad_pair", list(pair))
            pairs.add(_pair(pair[0], pair[1]))
        for table in previous_tables:
            t = list(table)
            if len(set(t)) != len(t):
                raise TournamentError("player_twice_at_previous_table", next(x for x in t if t.count(x) > 1))
            for i, a in enumerate(t):
                for b in t[i + 1 :]:
                    pairs.add(_pair(a, b))
        previous_tables = [tuple(t) for t in previous_tables]
        fam: set[frozenset[PlayerId]] = set()
        for pair in family_pairs:
            if len(pair) != 2 or pair[0] == pair[1]:
                raise TournamentError("bad_pair", list(pair))
            fam.add(_pair(pair[0], pair[1]))
        return DrawContext(
            players=plist,
            five_table_players=frozenset(five_table_players),
            winners=frozenset(winners),
            previous_pairs=frozenset(pairs),
            family_pairs=frozenset(fam),
            previous_tables=tuple(tuple(t) for t in previous_tables),
        )

    @property
    def ids(self) -> tuple[PlayerId, ...]:
        return tuple(p.id for p in self.players)

    def club_of(self) -> dict[PlayerId, str | None]:
        return {p.id: p.club for p in self.players}


@dataclass(frozen=True, slots=True)
class DrawReport:
    """What a draw (or a hand-adjusted draw) costs and what can be claimed about it.

    ``criteria`` and ``lower_bound`` are in lexicographic priority order. ``bound_attainable`` is
    False when an exhaustive search proved the DRAWS.md bound cannot be met, None when unknown.
    """

    kind: str
    criteria: Mapping[str, int]
    lower_bound: Mapping[str, int]
    optimality: Optimality
    seed: int | None
    iterations: int
    restarts: int = 0
    search_nodes: int = 0
    bound_attainable: bool | None = None
    notes: tuple[str, ...] = ()
    cinquisti: tuple[PlayerId, ...] = ()  # the players drawn first for the 5-player tables (ARB 5 a-b)
    step_c: Mapping[str, int] = field(default_factory=dict)  # ARB 5 c): step c's criteria (cinquisti's clubs unseen)

    @property
    def bound_met(self) -> bool:
        return tuple(self.criteria.values()) == tuple(self.lower_bound.values())

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "criteria_order": list(self.criteria),
            "criteria": dict(self.criteria),
            "lower_bound": dict(self.lower_bound),
            "bound_met": self.bound_met,
            "bound_attainable": self.bound_attainable,
            "optimality": self.optimality.value,
            "seed": self.seed,
            "iterations": self.iterations,
            "restarts": self.restarts,
            "search_nodes": self.search_nodes,
            "notes": list(self.notes),
            "cinquisti": list(self.cinquisti),
            **({"step_c": dict(self.step_c)} if self.step_c else {}),
        }


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw: tables (table 1 first) and its report."""

    tables: Tables
    report: DrawReport

    def to_json(self) -> dict[str, object]:
        return {"tables": [list(t) for t in self.tables], "report": self.report.to_json()}

    @staticmethod
    def from_json(doc: Mapping[str, Any]) -> Draw:
        """Inverse of ``to_json`` (a stored or published draw read back)."""
        try:
            rep = doc["report"]
            report = DrawReport(
                kind=str(rep["kind"]),
                criteria={str(k): int(v) for k, v in rep["criteria"].items()},
                lower_bound={str(k): int(v) for k, v in rep["lower_bound"].items()},
                optimality=Optimality(rep["optimality"]),
                seed=None if rep["seed"] is None else int(rep["seed"]),
                iterations=int(rep["iterations"]),
                restarts=int(rep.get("restarts", 0)),
                search_nodes=int(rep.get("search_nodes", 0)),
                bound_attainable=rep.get("bound_attainable"),
                notes=tuple(str(x) for x in rep.get("notes", ())),
                cinquisti=tuple(rep.get("cinquisti", ())),
                step_c={str(k): int(v) for k, v in rep.get("step_c", {}).items()},
            )
            tables = tuple(tuple(t) for t in doc["tables"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise TournamentError("bad_draw_document", str(exc)) from None
        return Draw(tables, report)


@dataclass(frozen=True, slots=True)
class DrawBudget:
    """Deterministic effort limits (iteration counts, never the wall clock unless ``clock`` is given).

    ``clock``/``deadline`` let a caller stop early with the best draw so far; the result is then no
    longer a pure function of the seed, so tests and verifiable draws leave them unset.
    """

    iterations: int = 20_000
    work: int = 300_000  # cap on iterations x players: bounds the time when the bound cannot be met
    stall: int = 400
    exact_max_players: int = 64
    exact_nodes: int = 4_000_000
    # the search's nodes cost about players x tables steps each: capped at this many steps (at most ~0.75 s of CPU in
    # C on the reference 2-core machine; the pure-Python fallback visits the same nodes ~100x slower)
    exact_work: int = 180_000_000
    mix_per_player: int = 40  # equal-cost random swaps tried per player after optimising (randomness)
    clock: Callable[[], float] | None = field(default=None, compare=False)
    deadline: float | None = None
