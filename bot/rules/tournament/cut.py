"""A tie across a qualification cut (TOUR-SF-1, TOUR-FIN-1): who takes the last seats when players share the rank.

The standings apply the preset's tie-breakers first; players still level *share the rank*. When such a group spans
the last qualifying place (four of them level at 15th for two seats left), something has to decide. The program's
own list order must not (it is nobody's rule), so:

* the organizer's explicit order, when given (``/finals semifinals tie_order:``), decides;
* otherwise a lot drawn with a generator seeded from the round's published seed decides — the same seed replays it
  with ``steward draw`` on the round's export. The lot is our reading where the rulebook has no tie-break (UFF/ARB
  leave level players level); docs/readings.md lists it and the field ``tournament.cut_tie`` switches to requiring
  the organizer's order.

Rules return the decision as data (:class:`CutTie`); the bot says it to the organizer before anything is published.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.tournament.model import PlayerId, TournamentError

CUT_TIE_READINGS = ("lot", "organizer")  # the preset field's values; the first is the default


@dataclass(frozen=True, slots=True)
class CutTie:
    """The group level at the cut: ``tied`` in standings order, ``seats`` of them qualify (``qualified``, in the
    order decided), ``rank`` their shared rank, ``method`` ``lot`` or ``organizer`` (``seed`` for a lot)."""

    rank: int
    tied: tuple[PlayerId, ...]
    seats: int
    qualified: tuple[PlayerId, ...]
    method: str
    seed: int | None

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "tied": list(self.tied), "seats": self.seats, "qualified": list(self.qualified),
                "method": self.method, "seed": self.seed}  # fmt: skip


def lot(tied: Sequence[PlayerId], seed: int) -> list[PlayerId]:
    """The tied players in the order a seeded lot gives them (its own generator: the draw's stays untouched)."""
    order = list(tied)
    random.Random(f"cut-tie:{seed}").shuffle(order)
    return order


def resolve_cut(
    ranking: Sequence[PlayerId],
    ranks: Sequence[int],
    places: int,
    *,
    seed: int,
    order: Sequence[PlayerId] = (),
    reading: str = "lot",
) -> tuple[list[PlayerId], CutTie | None]:
    """``ranking`` (best first, ``ranks`` its standings ranks) with the group level across the ``places``-th place
    put in the order that decides who qualifies; the decision, or None when no group spans the cut.

    ``order`` (the organizer's): every tied player, best first — it decides whatever the reading. Without it the
    reading decides: ``lot`` draws one with ``seed``; ``organizer`` refuses (``cut_tie_needs_order``) naming the
    tied players."""
    if len(ranks) != len(ranking):
        raise TournamentError("ranks_do_not_match_ranking", {"ranking": len(ranking), "ranks": len(ranks)})
    if not 0 < places < len(ranking) or ranks[places - 1] != ranks[places]:
        if order:
            raise TournamentError("cut_tie_order_without_tie", list(order)[:8])
        return list(ranking), None
    rank = ranks[places - 1]
    first = ranks.index(rank)
    last = len(ranks) - ranks[::-1].index(rank)
    tied = list(ranking[first:last])
    seats = places - first
    if order:
        if sorted(map(str, order)) != sorted(map(str, tied)) or len(set(order)) != len(tied):
            raise TournamentError("cut_tie_order_must_name_the_tied", {"tied": tied})
        by_key = {str(p): p for p in tied}
        decided, method, used = [by_key[str(p)] for p in order], "organizer", None
    elif reading == "organizer":
        raise TournamentError("cut_tie_needs_order", {"rank": rank, "tied": tied, "seats": seats})
    else:
        decided, method, used = lot(tied, seed), "lot", seed
    out = [*ranking[:first], *decided, *ranking[last:]]
    return out, CutTie(rank, tuple(tied), seats, tuple(decided[:seats]), method, used)
