"""What the rounds use cases return: rounds, tables, seats, draw reports, hand changes (data only)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from bot.db.documents import DrawDocument, EngineReport
from bot.rules.tournament.model import Optimality

SEED_BITS = 31  # short enough to read out loud; the same range as ``steward draw --seed``

# -------------------------------------------------------------------------------------------------- views


@dataclass(frozen=True, slots=True)
class SeatView:
    registration_id: int
    user_id: int | None
    name: str
    club: str | None
    position: int
    team: str | None = None  # NP-TAB-1: shown instead of the club in team events

    @property
    def group(self) -> str | None:
        """What is shown beside the name: the team where the player has one, else the club."""
        return self.team or self.club


@dataclass(frozen=True, slots=True)
class TableView:
    number: int
    seats: tuple[SeatView, ...]
    size: int | None  # seats including a FIRK dummy, when that differs from the players
    thread_id: int | None
    group: str | None = None  # semifinal/final group: "odd"/"even" in a 100+ player event (TOUR-SF-2)
    special: str | None = None  # FIRK-SIZE-1: "dummy" (3 + the "morto"), "sit_out", "head_to_head"
    note: str | None = None  # the referee's note on the table (e.g. the "morto"'s special rules)
    thread_requested_at: datetime | None = None  # when its thread was asked of Discord (a publish's recorded intent)
    thread_pinged: bool = False  # its players were told in the thread (a resumed publish pings only the rest)


@dataclass(frozen=True, slots=True)
class CriterionLine:
    name: str
    value: int
    lower_bound: int


@dataclass(frozen=True, slots=True)
class DrawReportView:
    """What the preview shows: each criterion with its lower bound, optimality, seed, hand changes."""

    kind: str
    criteria: tuple[CriterionLine, ...]
    optimality: str  # bot.rules.tournament.model.Optimality value of the engine's draw
    provably_optimal: bool  # of the tables as they are now (after hand changes)
    seed: int | None
    adjustments: int
    notes: tuple[str, ...]
    history: Mapping[str, int] = field(default_factory=dict)  # what a later round looked back at
    # what proves it: "bound" (every criterion at its lower bound), "search" (an exhaustive search), "cinquisti" (an
    # exhaustive search with the drawn cinquisti at the 5-player tables: ARB 5 a-d), "" (not proven)
    proof: str = ""
    search_nodes: int = 0  # the exact search's steps when it ran (0: it did not)
    # tables seated from the standings (reading 8): each group level across a table boundary, (its shared rank or
    # None for players without standings, the registration ids in the order the seeded lot gave them)
    seat_ties: tuple[tuple[int | None, tuple[int, ...]], ...] = ()

    @property
    def from_standings(self) -> bool:
        """The standings decided every seat (FIRK's later rounds, its last round of 5 or 6): nothing was drawn."""
        return self.kind in ("by_standings", "firk_last_round")


@dataclass(frozen=True, slots=True)
class FinalSeatView:
    name: str
    source: str  # bot.rules.tournament.seeding.FinalSource value
    semifinal_table: int | None
    semifinal_place: int | None
    replaces_table: int | None
    group: str | None


@dataclass(frozen=True, slots=True)
class KnockoutView:
    """NP-FMT-1 as the organizer sees it before and at each draw: the rounds still to play from this one (players
    and table sizes, the last one the final), or — when the field cannot be planned — the nearest sizes that can."""

    players: int
    plan: tuple[tuple[int, tuple[int, ...]], ...] = ()
    below: int | None = None
    above: int | None = None
    final_size: int = 0
    other_finals: tuple[int, ...] = ()  # final sizes that would plan this field (tournament.final_size)

    @property
    def final(self) -> bool:
        return len(self.plan) == 1


@dataclass(frozen=True, slots=True)
class RepechageView:
    """The semifinal seat of the repechage (issue 47) and why: ``reason`` ``best_single_game`` (``points`` of that
    game, ``games`` played) or ``standings`` (nobody below the cut played ``min_games`` games)."""

    name: str
    reason: str
    points: float
    games: int
    min_games: int


@dataclass(frozen=True, slots=True)
class CutView:
    """Players level across the semifinals' qualification cut and how it was decided (``method``: ``lot`` with the
    round's seed, or ``organizer``): the organizer reads it before publishing, everyone in the announcement."""

    rank: int | None
    tied: tuple[str, ...]
    seats: int
    qualified: tuple[str, ...]
    method: str
    seed: int | None
    boundary: str = "cut"  # which line cut the level group (``bot.rules.tournament.cut.BOUNDARIES``)
    order: tuple[str, ...] = ()  # the whole group in the decided order


@dataclass(frozen=True, slots=True)
class RoundView:
    tournament_id: int
    tournament_name: str
    game: str
    round_id: int
    number: int
    kind: str
    status: str
    seed: int | None
    scheduled_start: datetime | None
    published_at: datetime | None
    announcement_message_id: int | None
    tables: tuple[TableView, ...]
    report: DrawReportView | None
    direct_finalists: tuple[str, ...] = ()
    repechage: RepechageView | None = None  # semifinals with a repechage (issue 47): who took its seat, and why
    final_seats: tuple[FinalSeatView, ...] = ()
    declined: tuple[str, ...] = ()
    unfilled: int = 0
    club_pairs: tuple[int, int] | None = None  # semifinals: same-club pairs after / before the band shuffle
    discord_event_id: int | None = None  # the round's Discord scheduled event, when the bot made one
    knockout: KnockoutView | None = None  # NP-FMT-1: the plan from this round on (knockout tournaments)
    cut: CutView | None = None  # semifinals: a tie across the qualification cut and how it was decided
    ties: tuple[CutView, ...] = ()  # every level group a line of the final phase cut through (the cut included)

    def table_of(self, registration_id: int) -> TableView | None:
        for table in self.tables:
            if any(s.registration_id == registration_id for s in table.seats):
                return table
        return None


@dataclass(frozen=True, slots=True)
class ReplacementView:
    """A player replaced at their table by the organizers (ARB 3): the round, the table, who left and who sits."""

    round: RoundView
    table_number: int
    thread_id: int | None
    replaced: str
    replaced_user_id: int | None
    substitute: str
    substitute_user_id: int | None


@dataclass(frozen=True, slots=True)
class DeclineView:
    """A finalist's decline (TOUR-FIN-1): the round it changed (the final, or the semifinals while the final waits
    for results), who declined, and whether the published final must be announced again."""

    round: RoundView
    player: str
    player_user_id: int | None
    republish: bool
    superseded_threads: tuple[int, ...] = ()  # the recomposed final's old threads: told it no longer stands


@dataclass(frozen=True, slots=True)
class AdjustmentView:
    """A hand change (BOT-TAB-2): the round after it and the criteria before → after."""

    round: RoundView
    before: Mapping[str, int]
    after: Mapping[str, int]
    worse: bool
    players: tuple[str, ...]
    tables: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PublishJob:
    """What the cog must do in Discord after the database says "published" (or what is left to retry)."""

    round: RoundView
    channel_id: int | None  # the server's announcement channel, None: the invoking channel
    first_time: bool


@dataclass(frozen=True, slots=True)
class MyTable:
    round: RoundView
    table: TableView
    registration_id: int


def new_seed() -> int:
    """The one place a draw's randomness comes from: the operating system, once; then it is stored."""
    return random.SystemRandom().getrandbits(SEED_BITS)


def report_view(doc: DrawDocument, seed: int | None) -> DrawReportView:
    engine = doc.engine or EngineReport()
    current = dict(doc.current or engine.criteria)
    lines = tuple(
        CriterionLine(c, int(current.get(c, 0)), int(engine.lower_bound.get(c, 0))) for c in engine.criteria_order
    )
    unchanged = current == dict(engine.criteria)
    if all(line.value <= line.lower_bound for line in lines):
        proof = "bound"
    elif unchanged and engine.optimality == Optimality.PROVEN_BY_SEARCH:
        proof = "search"
    elif unchanged and engine.optimality == Optimality.OPTIMAL_FOR_CINQUISTI:
        proof = "cinquisti"
    else:
        proof = ""
    optimal = bool(proof)
    return DrawReportView(
        kind=engine.kind or doc.kind,
        criteria=lines,
        optimality=engine.optimality,
        provably_optimal=optimal,
        proof=proof,
        search_nodes=int(engine.extra.get("search_nodes") or 0),
        seed=seed if seed is not None else doc.seed,
        adjustments=len(doc.adjustments),
        notes=engine.notes,
        history={str(k): int(v) for k, v in (engine.extra.get("history") or {}).items()},
        seat_ties=tuple(
            (None if tie.get("rank") is None else int(tie["rank"]), tuple(int(p) for p in tie.get("order") or ()))
            for tie in engine.extra.get("ties") or ()
        ),
    )
