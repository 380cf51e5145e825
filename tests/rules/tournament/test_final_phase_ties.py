"""ARB 5 (TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1): every line the final phase draws through the standings — the direct seat
in the final, a band's edge, the odd/even halves, the cut, the final's replacement chain — finds the players level
across it, reports them, and settles them by the organizer's order or the published seeded lot: never by the order
of a list."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.tournament.cut import lot, resolve_ties
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.planner import FinalsRequest, plan_final, plan_semifinals, semifinal_lines
from bot.rules.tournament.seeding import compose_final

UFF = "risiko-ufficiali-2018"


def semis(ranking: list[str], ranks: list[int], tables: int, **kw: object) -> FinalsRequest:
    return FinalsRequest("semifinal", UFF, ranking=tuple(ranking), clubs={}, tables=tables, ranks=tuple(ranks),
                         **kw)  # type: ignore[arg-type]  # fmt: skip


def field(n: int, level: dict[int, int]) -> tuple[list[str], list[int]]:
    """``n`` players p01… ranked 1…n, with ``level`` mapping a position to the rank it shares with the one above."""
    names = [f"p{i:02d}" for i in range(1, n + 1)]
    ranks = list(range(1, n + 1))
    for pos, rank in level.items():
        ranks[pos - 1] = rank
    return names, ranks


def test_arb_5_two_players_level_at_first_for_the_direct_seat_are_settled_by_the_lot_and_reported():
    """Three semifinals: rank 1 goes straight to the final. p01 and p02 share the 1st rank: the lot with the round's
    seed decides who is the direct finalist, it is reported as the direct seat's tie, and listing them the other way
    round changes nothing."""
    names, ranks = field(20, {2: 1})
    tables, groups, ties = plan_semifinals(semis(names, ranks, 3), seed=11)
    assert [t.boundary for t in ties] == ["direct"] and set(ties[0].tied) == {"p01", "p02"}
    assert groups[0]["direct_finalist"] == lot(["p01", "p02"], 11, boundary="direct", rank=1)[0]
    swapped = [names[1], names[0], *names[2:]]
    assert plan_semifinals(semis(swapped, ranks, 3), seed=11) == (tables, groups, ties)


def test_arb_5_the_organizer_may_order_the_level_pair_for_the_direct_seat():
    names, ranks = field(20, {2: 1})
    _, groups, ties = plan_semifinals(semis(names, ranks, 3, tie_order=("p02", "p01")), seed=11)
    assert groups[0]["direct_finalist"] == "p02" and ties[0].method == "organizer"
    with pytest.raises(TournamentError) as err:  # naming players who are level nowhere a line falls
        plan_semifinals(semis(names, ranks, 3, tie_order=("p05", "p06")), seed=11)
    assert err.value.code == "cut_tie_order_without_tie"


def test_tour_sf_1_players_level_across_a_band_edge_are_settled_by_the_lot_not_the_list():
    """Four semifinals: bands 1–4 | 5–8. p04 and p05 share the 4th rank: which of them heads a table (band 1) and
    which is in band 2 is the lot's, reported as a band's tie."""
    names, ranks = field(20, {5: 4})
    _, groups, ties = plan_semifinals(semis(names, ranks, 4), seed=3)
    assert [(t.boundary, t.rank, set(t.tied)) for t in ties] == [("band", 4, {"p04", "p05"})]
    first = lot(["p04", "p05"], 3, boundary="band", rank=4)[0]
    assert first in groups[0]["bands"][0] and ties[0].order[0] == first
    for seed in range(5):  # the other order of the list gives the same tables for every seed
        swapped = [*names[:3], "p05", "p04", *names[5:]]
        assert plan_semifinals(semis(swapped, ranks, 4), seed=seed) == plan_semifinals(semis(names, ranks, 4), seed)


def test_tour_sf_2_players_level_across_the_odd_and_even_halves_are_settled_by_the_lot():
    """100+ players: odd and even positions make two parallel tournaments, so any two level players in the top are
    split by the halves — the lot decides who is in which, and with two trios who is each half's direct finalist."""
    names = [f"q{i:03d}" for i in range(1, 121)]
    ranks = [1, 1, *range(3, 121)]
    _, groups, ties = plan_semifinals(FinalsRequest("semifinal", UFF, ranking=tuple(names), clubs={}, tables=3,
                                                    ranks=tuple(ranks)), seed=5)  # fmt: skip
    assert ties and ties[0].boundary == "half" and set(ties[0].tied) == {"q001", "q002"}
    odd_first = lot(["q001", "q002"], 5, boundary="half", rank=1)[0]
    assert [g["direct_finalist"] for g in groups] == [odd_first, ({"q001", "q002"} - {odd_first}).pop()]


def test_tour_fin_1_a_recovery_between_seconds_level_in_the_standings_is_settled_by_the_lot():
    """A whole table declines; the best 2nd of the other semifinals by the standings after two games takes the seat
    (ARB 5). Two 2nds share that rank: the lot drawn with the semifinals' seed decides, and it is reported."""
    orders = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4"]]
    standings = ["a1", "b1", "c1", "b2", "c2", "a2", "a3", "b3", "c3", "a4", "b4", "c4"]
    ranks = [1, 2, 3, 4, 4, 6, 7, 8, 9, 10, 11, 12]  # b2 and c2 level at 4th
    comp = compose_final(orders, standings, declined={"a1", "a2", "a3", "a4"}, ranks=ranks, seed=9)
    recovered = comp.seats[-1]
    assert recovered.player == lot(["b2", "c2"], 9, boundary="chain", rank=4)[0]
    assert [(t.boundary, set(t.tied)) for t in comp.ties] == [("chain", {"b2", "c2"})]
    level_swapped = ["a1", "b1", "c1", "c2", "b2", *standings[5:]]  # the level pair listed the other way round
    tables_swapped = [orders[0], orders[2], orders[1]]
    for again in (
        compose_final(orders, level_swapped, declined={"a1", "a2", "a3", "a4"}, ranks=ranks, seed=9),
        compose_final(tables_swapped, standings, declined={"a1", "a2", "a3", "a4"}, ranks=ranks, seed=9),
    ):
        assert again.seats[-1].player == recovered.player  # fmt: skip
    chosen = compose_final(orders, standings, declined={"a1", "a2", "a3", "a4"}, ranks=ranks, seed=9,
                           tie_order=["c2", "b2"])  # fmt: skip
    assert chosen.seats[-1].player == "c2" and chosen.ties[0].method == "organizer"


def test_tour_fin_1_players_sharing_a_place_at_a_semifinal_are_ordered_by_the_standings_after_two_games():
    """Two players out of the game at one semifinal share its 3rd place (ARB 23, 25). If the winner and the 2nd
    decline, the seat goes to the better of them in the standings after two games — not to whoever sat first."""
    orders = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"]]
    standings = ["a4", "b1", "a1", "b2", "a2", "b3", "a3", "b4"]  # a4 ranks above a3
    comp = compose_final(orders, standings, declined={"a1", "a2"}, places=[[1, 2, 3, 3], [1, 2, 3, 4]])
    assert comp.seats[0].player == "a4" and comp.seats[0].semifinal_place == 3


def test_tour_fin_1_the_final_s_export_replays_its_chain_lot_with_steward_s_planner():
    """The final's request carries the standings' ranks, each table's places and the semifinals' seed: the planner
    gives the same seats and ties from it (what ``steward draw`` runs)."""
    request = FinalsRequest(
        "final", UFF, ranking=("a1", "b1", "b2", "c2", "a2", "c1"), ranks=(1, 2, 3, 3, 5, 6), seed=4,
        groups=({"label": "all", "tables": [1, 2, 3], "orders": [["a1", "a2"], ["b1", "b2"], ["c1", "c2"]],
                 "places": [[1, 2], [1, 2], [1, 2]], "direct_finalist": None},),
        declined=("a1", "a2"),
    )  # fmt: skip
    tables, _, ties = plan_final(request)
    again = plan_final(FinalsRequest.from_json(request.to_json()))
    assert again[0] == tables and [t.to_json() for t in again[2]] == [t.to_json() for t in ties]
    assert ties[0].boundary == "chain" and set(ties[0].tied) == {"b2", "c2"}


def test_the_lot_depends_on_who_is_level_and_the_seed_never_on_the_order_they_are_listed_in():
    assert lot(["x", "y", "z"], 7, rank=3) == lot(["z", "x", "y"], 7, rank=3)
    assert lot([5, 1, 3], 2, boundary="band", rank=1) == lot([1, 3, 5], 2, boundary="band", rank=1)
    # documents published before version 2 replay their lot as it was drawn then (the list as given)
    assert lot(["a", "b", "c"], 42, version=1) == lot(["a", "b", "c"], 42, version=1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=20, max_size=30), st.integers(0, 2**31), st.integers(3, 4), st.data())
def test_no_list_order_permuting_the_standings_never_changes_the_semifinals(scores, seed, tables, data):
    """The invariant on the semifinals: the ranking listed in any order that keeps the ranks (level players in any
    order) gives the same tables, groups and ties for the same seed."""
    ordered = sorted(scores, reverse=True)
    ranks = [ordered.index(s) + 1 for s in ordered]
    names = [f"p{i:02d}" for i in range(len(ranks))]
    rng = random.Random(data.draw(st.integers(0, 2**31)))
    shuffled = sorted(zip(names, ranks, strict=True), key=lambda pr: (pr[1], rng.random()))
    base = plan_semifinals(semis(names, ranks, tables), seed)
    other = plan_semifinals(semis([p for p, _ in shuffled], [r for _, r in shuffled], tables), seed)
    assert other[0] == base[0] and other[1] == base[1]
    assert [(t.boundary, set(t.tied), t.order) for t in other[2]] == [
        (t.boundary, set(t.tied), t.order) for t in base[2]
    ]


def test_semifinal_lines_are_the_cut_the_direct_seat_and_the_band_edges():
    from bot.rules.ruleset import load_ruleset

    rules = load_ruleset(UFF).tournament
    assert semifinal_lines(rules, 40, 4) == {16: "cut", 4: "band", 8: "band", 12: "band"}
    assert semifinal_lines(rules, 40, 3) == {13: "cut", 1: "direct", 4: "band", 7: "band", 10: "band"}
    assert set(semifinal_lines(rules, 120, 4)) == set(range(1, 33))


def test_resolve_ties_leaves_groups_no_line_cuts_as_they_are():
    ranking, ranks = ["a", "b", "c", "d"], [1, 1, 3, 3]
    assert resolve_ties(ranking, ranks, {2: "cut"}, seed=1) == (ranking, [])
