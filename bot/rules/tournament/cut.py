"""Players level where a line is drawn through the standings (TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1, FIRK-SEED-1): who
takes a seat when players share the rank.

The standings apply the preset's tie-breakers first; players still level *share the rank*. Wherever a line is drawn
through the ranking — the qualification cut (four of them level at 15th for two seats left), the direct seat in the
final (two level at 1st with three semifinals), the edge of a band (ranks 4 and 5 level), the odd/even halves of a
100+ field, a table boundary when tables are seated by rank, a final seat recovered from the semifinals' 2nds —
something has to decide. The program's own list order must not (it is nobody's rule), so for every level group such a
line cuts through:

* the organizer's explicit order, when given (``/finals semifinals tie_order:``), decides;
* otherwise a lot drawn with a generator seeded from the round's published seed decides — the same seed replays it
  with ``steward draw`` on the round's export. The lot is our reading where the rulebook has no tie-break (UFF/ARB
  leave level players level); docs/readings.md lists it and the field ``tournament.cut_tie`` switches to requiring
  the organizer's order.

The lot depends on who is level and on the seed, never on the order they were listed in (lot version 2: the group is
put in a canonical order — numbers by value, names by text — before it is shuffled). Documents published before that
carry no ``lot`` key and replay with version 1, which shuffled the group as listed.

Rules return each decision as data (:class:`CutTie`); the bot says them to the organizer before anything is published.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.tournament.model import PlayerId, TournamentError

CUT_TIE_READINGS = ("lot", "organizer")  # the preset field's values; the first is the default
LOT_VERSION = 2  # the lot written into new documents (a document without ``lot`` is version 1)
# Where a line crosses a level group, most significant first: the qualification cut, the direct seat in the final,
# the odd/even halves (TOUR-SF-2), a band's edge (TOUR-SF-1), a table boundary (tables seated by rank), a final seat
# recovered from the semifinals (TOUR-FIN-1), a place shared at a semifinal table, the repechage's seat (issue 47).
BOUNDARIES = ("cut", "direct", "half", "band", "table", "chain", "place", "repechage")


def canonical(player: PlayerId) -> tuple[int, int, str]:
    """A player id's place in the canonical order: numbers by value, then names by text."""
    return (0, player, "") if isinstance(player, int) else (1, 0, str(player))


@dataclass(frozen=True, slots=True)
class CutTie:
    """A level group a line cuts through: ``tied`` in standings order, ``seats`` of them above the line
    (``qualified``, in the order decided), ``rank`` their shared rank, ``method`` ``lot`` or ``organizer`` (``seed``
    for a lot), ``boundary`` which line (:data:`BOUNDARIES`), ``order`` the whole group as decided."""

    rank: int | None
    tied: tuple[PlayerId, ...]
    seats: int
    qualified: tuple[PlayerId, ...]
    method: str
    seed: int | None
    boundary: str = "cut"
    order: tuple[PlayerId, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "tied": list(self.tied), "seats": self.seats, "qualified": list(self.qualified),
                "method": self.method, "seed": self.seed, "boundary": self.boundary,
                "order": list(self.order or self.qualified)}  # fmt: skip


def lot(
    tied: Sequence[PlayerId], seed: int, *, boundary: str = "cut", rank: int | None = None, version: int = LOT_VERSION
) -> list[PlayerId]:
    """The tied players in the order a seeded lot gives them (its own generator: the draw's stays untouched). Version
    2 shuffles the canonical order with a generator salted by the line and the rank, so the result depends on who is
    level and the seed only, and two groups of one size are not shuffled alike; version 1 (documents published before)
    shuffled the group as listed."""
    if version == 1:
        order = list(tied)
        random.Random(f"cut-tie:{seed}").shuffle(order)
        return order
    order = sorted(tied, key=canonical)
    random.Random(f"tie:{seed}:{boundary}:{rank}").shuffle(order)
    return order


def level_groups(ranks: Sequence[int | None]) -> list[tuple[int, int]]:
    """The runs ``[start, end)`` of equal ranks (two or more players) in a ranking's ranks."""
    out: list[tuple[int, int]] = []
    start = 0
    while start < len(ranks):
        end = start + 1
        while end < len(ranks) and ranks[end] == ranks[start]:
            end += 1
        if end - start > 1:
            out.append((start, end))
        start = end
    return out


def resolve_ties(
    ranking: Sequence[PlayerId],
    ranks: Sequence[int | None],
    lines: Mapping[int, str],
    *,
    seed: int,
    order: Sequence[PlayerId] = (),
    reading: str = "lot",
    version: int = LOT_VERSION,
) -> tuple[list[PlayerId], list[CutTie]]:
    """``ranking`` (best first, ``ranks`` its ranks; players level share one) with every level group that one of
    ``lines`` cuts through put in the order that decides it, and the decisions. ``lines`` maps a line — how many
    players stand above it — to its kind (:data:`BOUNDARIES`); a group is cut when a line falls strictly inside it.

    ``order`` (the organizer's): players best first. Each cut group whose members it names takes their order from it,
    and it must name all of them; naming a player of no cut group is refused (``cut_tie_order_without_tie``). Groups it
    does not name follow the reading: ``lot`` draws one with ``seed``; ``organizer`` refuses
    (``cut_tie_needs_order``), naming every such group (``groups``; the first also as ``rank`` and ``tied``)."""
    if len(ranks) != len(ranking):
        raise TournamentError("ranks_do_not_match_ranking", {"ranking": len(ranking), "ranks": len(ranks)})
    out = list(ranking)
    ties: list[CutTie] = []
    named = {str(p): i for i, p in enumerate(order)}
    if len(named) != len(order):
        raise TournamentError("cut_tie_order_must_name_the_tied", {"tied": list(order)})
    used: set[str] = set()
    unnamed: list[dict[str, Any]] = []  # groups the organizer must order under the "organizer" reading
    significance = {kind: i for i, kind in enumerate(BOUNDARIES)}
    for start, end in level_groups(ranks):
        inside = sorted(b for b in lines if start < b < end)
        if not inside:
            continue
        kind = min((lines[b] for b in inside), key=lambda k: significance.get(k, len(BOUNDARIES)))
        tied = out[start:end]
        rank = ranks[start]
        mentioned = [p for p in tied if str(p) in named]
        if mentioned:
            if len(mentioned) != len(tied):
                raise TournamentError("cut_tie_order_must_name_the_tied", {"tied": tied})
            decided, method, used_seed = sorted(tied, key=lambda p: named[str(p)]), "organizer", None
            used.update(str(p) for p in tied)
        elif reading == "organizer":
            unnamed.append({"rank": rank, "tied": tied, "seats": inside[0] - start, "boundary": kind})
            continue
        else:
            decided = lot(tied, seed, boundary=kind, rank=rank, version=version)
            method, used_seed = "lot", seed
        out[start:end] = decided
        seats = inside[0] - start
        ties.append(CutTie(rank, tuple(tied), seats, tuple(decided[:seats]), method, used_seed, kind, tuple(decided)))
    if unnamed:
        raise TournamentError("cut_tie_needs_order", {**unnamed[0], "groups": unnamed})
    stray = [p for p in order if str(p) not in used]
    if stray:
        raise TournamentError("cut_tie_order_without_tie", list(stray)[:8])
    return out, ties


def resolve_cut(
    ranking: Sequence[PlayerId],
    ranks: Sequence[int],
    places: int,
    *,
    seed: int,
    order: Sequence[PlayerId] = (),
    reading: str = "lot",
    version: int = LOT_VERSION,
) -> tuple[list[PlayerId], CutTie | None]:
    """The qualification cut alone: ``ranking`` with the group level across the ``places``-th place put in the order
    that decides who qualifies, and the decision, or None when no group spans the cut (:func:`resolve_ties` with one
    line)."""
    lines = {places: "cut"} if 0 < places < len(ranking) else {}
    out, ties = resolve_ties(ranking, ranks, lines, seed=seed, order=order, reading=reading, version=version)
    return out, (ties[0] if ties else None)
