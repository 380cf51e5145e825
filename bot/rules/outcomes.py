"""Where a player out of the game ranks: one decision for a table's ranking and the tournament's standings.

ARB art. 23 (last sentence) and art. 25 treat a player disqualified from a game as one who withdrew: the same tier,
below everyone still in play. RR 13.4 puts the disqualified player last of the game, below every withdrawal or
forfeit. The preset's ``[tournament] disqualified_ranks`` says which (``with_withdrawn`` / ``below_withdrawn``);
every ranking that places players out of the game — the engine's final situation, typed table points, the Ricochet
Robots table and the standings — asks :func:`out_of_play_tier`, and every table's places come from
:func:`table_places` (players out of the game who share a tier share a place, and its points are averaged).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TypeVar

from bot.rules.errors import RuleError

P = TypeVar("P", bound=Hashable)

IN_PLAY, OUT, BELOW_OUT = 0, 1, 2
DISQUALIFIED_RANKS = ("with_withdrawn", "below_withdrawn")  # the preset field's values; the first is the default


def out_of_play_tier(status: str, *, disqualified_below_withdrawn: bool) -> int:
    """0 for a player in play (``active``, ``frozen``, ``played``); 1 for one out of the game (withdrawn, forfeit);
    a disqualified player 1 as well, or 2 where the preset puts them below every withdrawal."""
    if status in ("active", "frozen", "played"):
        return IN_PLAY
    if status == "disqualified":
        return BELOW_OUT if disqualified_below_withdrawn else OUT
    return OUT


class PlacesError(RuleError):
    """A table the places cannot be read from: a player seated twice, a player in play without an order key."""


def table_places(seats: Iterable[tuple[P, str, float | None]], *, disqualified_below_withdrawn: bool) -> dict[P, int]:
    """Each player's place at one table (1 = best): the one rule of every ranking of a table.

    ``seats`` are ``(player, status, key)``. Players in play (:func:`out_of_play_tier` 0) rank by ``key``, lower
    first — a rank the game's own tie-breakers gave, or negated points; equal keys share a place (an unresolved tie,
    RR 6.3's joint winners). Everyone out of the game comes below them, in the preset's tiers
    (``disqualified_below_withdrawn``: ARB 23 last sentence and 25 put a disqualification with the withdrawals, RR
    13.4 below them). Within a tier out of the game a ``key`` of ``None`` means no order: the whole tier shares one
    place (RisiKo!: ARB 25 gives the position obtained, and nothing separates players whose territories all went
    neutral; RR 13.4: every disqualified player is "declared last"). A game that does order a tier gives keys there
    too (RR 9.3: the later a player left, the higher). Places are shared the usual way: two players sharing place 3
    leave no place 4. Names and the order of ``seats`` never matter."""
    tiered: dict[P, tuple[int, float]] = {}
    keyed: dict[int, set[bool]] = {}
    for player, status, key in seats:
        if player in tiered:
            raise PlacesError("player_twice_at_table", player)
        tier = out_of_play_tier(status, disqualified_below_withdrawn=disqualified_below_withdrawn)
        if key is None and tier == IN_PLAY:
            raise PlacesError("in_play_without_order", player)
        keyed.setdefault(tier, set()).add(key is not None)
        tiered[player] = (tier, 0.0 if key is None else key)
    mixed = [t for t, kinds in keyed.items() if len(kinds) > 1]
    if mixed:  # a tier is ordered or shared, never half of each
        raise PlacesError("tier_partly_ordered", sorted(str(p) for p, (t, _) in tiered.items() if t == mixed[0]))
    return {p: 1 + sum(1 for other in tiered.values() if other < mine) for p, mine in tiered.items()}
