"""A tie across a qualification cut (TOUR-SF-1, ARB 5): who takes the last seats when players share the rank."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.tournament.cut import lot, resolve_cut
from bot.rules.tournament.model import TournamentError

RANKING = ["a", "b", "c", "d", "e", "f"]
RANKS = [1, 2, 3, 3, 3, 6]  # c, d, e level at 3rd


def test_no_group_across_the_cut_changes_nothing():
    assert resolve_cut(RANKING, RANKS, 2, seed=1) == (RANKING, None)
    assert resolve_cut(RANKING, RANKS, 5, seed=1) == (RANKING, None)


def test_arb_5_a_lot_with_the_seed_orders_the_level_group_and_is_the_same_for_the_same_seed():
    ordered, cut = resolve_cut(RANKING, RANKS, 3, seed=42)
    assert cut is not None and (cut.rank, cut.tied, cut.seats, cut.method, cut.seed) == (3, ("c", "d", "e"), 1,
                                                                                          "lot", 42)  # fmt: skip
    assert ordered[:2] == ["a", "b"] and ordered[-1] == "f" and set(ordered[2:5]) == {"c", "d", "e"}
    assert list(cut.qualified) == lot(["c", "d", "e"], 42, rank=3)[:1] == ordered[2:3]
    assert resolve_cut(RANKING, RANKS, 3, seed=42) == (ordered, cut)


def test_arb_5_the_organizer_s_order_decides_and_must_name_exactly_the_level_players():
    ordered, cut = resolve_cut(RANKING, RANKS, 4, seed=1, order=["e", "c", "d"])
    assert ordered == ["a", "b", "e", "c", "d", "f"] and cut is not None
    assert (cut.qualified, cut.seats, cut.method, cut.seed) == (("e", "c"), 2, "organizer", None)
    for bad in (["e", "c"], ["e", "c", "f"], ["e", "e", "c"]):
        with pytest.raises(TournamentError) as err:
            resolve_cut(RANKING, RANKS, 4, seed=1, order=bad)
        assert err.value.code == "cut_tie_order_must_name_the_tied"
    with pytest.raises(TournamentError) as err:
        resolve_cut(RANKING, RANKS, 4, seed=1, reading="organizer")
    assert err.value.code == "cut_tie_needs_order" and err.value.value["tied"] == ["c", "d", "e"]
    with pytest.raises(TournamentError):
        resolve_cut(RANKING, RANKS, 2, seed=1, order=["a", "b"])  # nobody level at the cut


@given(st.lists(st.integers(1, 4), min_size=2, max_size=30), st.integers(0, 2**31), st.data())
def test_the_cut_only_reorders_the_level_group_and_keeps_everyone(scores, seed, data):
    """Whatever the scores: the result is a permutation of the ranking, everyone above the group keeps their place,
    and the qualified are exactly the group members now inside the cut."""
    ranking = [f"p{i}" for i in range(len(scores))]
    ordered_scores = sorted(scores, reverse=True)
    ranks = [ordered_scores.index(s) + 1 for s in ordered_scores]
    places = data.draw(st.integers(1, len(ranking) - 1))
    ordered, cut = resolve_cut(ranking, ranks, places, seed=seed)
    assert sorted(ordered) == sorted(ranking)
    if cut is None:
        assert ordered == ranking
    else:
        first = ranking.index(cut.tied[0])
        assert ordered[:first] == ranking[:first]
        assert list(cut.qualified) == ordered[first:places]
