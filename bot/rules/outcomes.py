"""Where a player out of the game ranks: one decision for a table's ranking and the tournament's standings.

ARB art. 23 (last sentence) and art. 25 treat a player disqualified from a game as one who withdrew: the same tier,
below everyone still in play. RR 13.4 puts the disqualified player last of the game, below every withdrawal or
forfeit. The preset's ``[tournament] disqualified_ranks`` says which (``with_withdrawn`` / ``below_withdrawn``);
every ranking that places players out of the game — the engine's final situation, typed table points, the Ricochet
Robots table and the standings — asks :func:`out_of_play_tier`.
"""

from __future__ import annotations

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
