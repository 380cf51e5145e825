"""Table scoring: NP-SCORE-1..3, NP-METHOD-1, FIRK-SCORE-1, FIRK-RISIKO-1, FIRK-FREEZE-1, FIRK-TIE-1."""

import random
from itertools import pairwise, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.risiko.board import standard_board
from bot.rules.risiko.config import load_rules, shipped_rules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.scoring import (
    PlayerSituation,
    Status,
    apply_freeze,
    best_chain_strip,
    best_connected_strip,
    freeze_condition,
    score_table,
    unverified_objective,
)

NP = shipped_rules("risiko-nostra-passione-2018")
FIRK = shipped_rules("risiko-firk-1")
BOARD = standard_board()
ALL = list(BOARD.territories)


def P(name, territories, **kw):
    if isinstance(territories, list):
        territories = dict.fromkeys(territories, 1)
    return PlayerSituation(name, territories, **kw)


def by_name(table):
    return {p.name: p for p in table.players}


# -- NP objective method ------------------------------------------------------------------------------------------
def test_np_score_1_only_objective_territories_count():
    anna = P("Anna", {"Cina": 3, "India": 2, "Brasile": 1}, objective=("Cina", "India", "Egitto"))
    bea = P("Bea", {"Egitto": 2}, objective=("Brasile", "Perù"))
    s = by_name(score_table([anna, bea], NP))
    assert s["Anna"].table_points == 10  # Cina 7 + India 3; Brasile outside the objective
    assert s["Bea"].table_points == 0
    assert [t.territory for t in s["Anna"].territories if t.counted] == ["Cina", "India"]


def test_np_score_3_objective_achieved_scores_a_fixed_100():
    anna = P("Anna", ["Argentina", "Brasile"], objective=("Argentina", "Brasile"), achieved_objective=True)
    bea = P("Bea", ["Cina", "Ucraina", "Medio Oriente"], objective=("Cina", "Ucraina", "Medio Oriente"))
    s = by_name(score_table([anna, bea], NP))
    assert (s["Anna"].table_points, s["Anna"].rank, s["Anna"].risiko) == (100, 1, True)
    assert s["Bea"].table_points == 19


def test_np_score_2_tie_broken_by_values_outside_the_objective_then_armies():
    anna = P("Anna", {"Cina": 1, "Brasile": 1}, objective=("Cina",))
    bea = P("Bea", {"Medio Oriente": 1, "Ucraina": 1}, objective=("Ucraina", "Medio Oriente"))
    carla = P("Carla", {"Siberia": 2, "Argentina": 1, "Madagascar": 1}, objective=("Siberia", "Argentina"))
    s = by_name(score_table([anna, bea, carla], NP))
    # Anna 7, Bea 12, Carla 7: Anna and Carla tie; outside values Brasile 4 vs Madagascar 2.
    assert [s[n].rank for n in ("Bea", "Anna", "Carla")] == [1, 2, 3]
    assert s["Anna"].decided_by == "outside_objective_value"
    assert s["Bea"].decided_by == "points"


def test_np_score_2_last_tie_break_needs_a_dice_roll_unless_dice_or_an_rng_are_given():
    bea = P("Bea", {"Ucraina": 1, "Giappone": 1}, objective=("Ucraina", "Giappone"))  # 6 + 2 = 8
    anna = P("Anna", {"Cina": 1, "Egitto": 1}, objective=("Cina",))  # 7, outside 4
    carla = P("Carla", {"Siberia": 1, "Kamchatka": 1}, objective=("Siberia",))  # 5
    dario = P("Dario", {"Mongolia": 1, "Afganistan": 1}, objective=("Mongolia",))  # 5, outside 4
    twin = P("Eva", {"Scandinavia": 1, "Urali": 1}, objective=("Urali", "Scandinavia"))  # 8, outside 0, 2 armies
    table = score_table([anna, bea, carla, dario, twin], NP)
    s = by_name(table)
    assert s["Bea"].unresolved == "dice_roll_needed" and s["Eva"].unresolved == "dice_roll_needed"
    assert s["Bea"].rank == s["Eva"].rank == 1
    decided = by_name(score_table([anna, bea, carla, dario, twin], NP, dice={"Bea": 2, "Eva": 5}))
    assert (decided["Eva"].rank, decided["Bea"].rank, decided["Eva"].decided_by) == (1, 2, "dice_roll")
    seeded = by_name(score_table([anna, bea, carla, dario, twin], NP, rng=random.Random(7)))
    assert {seeded["Eva"].rank, seeded["Bea"].rank} == {1, 2}


def test_np_score_1_objective_is_required_and_may_come_from_the_unverified_cards():
    with pytest.raises(RisikoError) as err:
        score_table([P("Anna", ["Cina"])], NP)
    assert err.value.code == "objective_missing"
    letto = unverified_objective("Letto", BOARD)
    assert sum(BOARD.degree(t) for t in letto) == 86


# -- boxed methods --------------------------------------------------------------------------------------------------
def boxed(method, armies=False):
    return load_rules(
        "risiko-ufficiali-2018", {"scoring": {"method": "boxed", "boxed_method": method, "boxed_add_armies": armies}}
    )


def test_np_method_1_all_territories_plus_50_for_the_objective():
    anna = P("Anna", {"Cina": 3, "Brasile": 2}, objective=("Cina",), achieved_objective=True)
    bea = P("Bea", {"Argentina": 4}, objective=("Cina",))
    s = by_name(score_table([anna, bea], boxed(1)))
    assert s["Anna"].table_points == 7 + 4 + 50 and s["Bea"].table_points == 2
    s3 = by_name(score_table([anna, bea], boxed(1, armies=True)))
    assert s3["Anna"].table_points == 61 + 5 and s3["Bea"].table_points == 2 + 4


def test_np_method_2_objective_only_or_everything_when_achieved():
    anna = P("Anna", {"Cina": 3, "Brasile": 2}, objective=("Cina", "India"))
    s = by_name(score_table([anna], boxed(2)))
    assert s["Anna"].table_points == 7
    done = P("Anna", {"Cina": 3, "Brasile": 2}, objective=("Cina",), achieved_objective=True)
    assert score_table([done], boxed(2)).players[0].table_points == 11
    assert score_table([done], boxed(2, armies=True)).players[0].table_points == 16


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=2, max_size=20, unique=True), st.data())
def test_np_method_2_removing_a_territory_never_raises_a_score(owned, data):
    objective = tuple(data.draw(st.lists(st.sampled_from(ALL), min_size=1, max_size=15, unique=True)))
    rules = boxed(2, armies=data.draw(st.booleans()))
    before = score_table([P("Anna", owned, objective=objective)], rules).players[0].table_points
    drop = data.draw(st.sampled_from(owned))
    after = (
        score_table([P("Anna", [t for t in owned if t != drop], objective=objective)], rules).players[0].table_points
    )
    assert after <= before


# -- FIRK -----------------------------------------------------------------------------------------------------------
def test_firk_score_1_values_are_border_counts_and_the_best_strip_counts_double():
    anna = P("Anna", {"Cina": 5, "India": 2, "Siam": 1, "Brasile": 3}, cards=2)
    s = score_table([anna], FIRK).players[0]
    assert s.base_points == 7 + 3 + 3 + 4
    assert s.strip == ("Cina", "India", "Siam") and s.strip_points == 13
    assert s.table_points == 17 + 13


def test_firk_score_1_conquered_continent_adds_territories_plus_external_borders_in_both_readings():
    europe = list(BOARD.continent("Europa").territories)
    s = score_table([P("Anna", europe)], FIRK).players[0]
    base = sum(BOARD.degree(t) for t in europe)
    assert s.continents == (("Europa", 7 + 8),)
    assert s.table_points == base + base + 15  # Europe is one connected strip
    other = load_rules("risiko-firk-1", {"scoring": {"continent_external": "territories"}})
    assert score_table([P("Anna", europe)], other).players[0].continents == (("Europa", 7 + 4),)


def test_firk_score_1_chain_reading_doubles_only_a_simple_path():
    star = ["Cina", "India", "Siam", "Mongolia", "Urali"]  # Cina with four owned neighbours
    connected = score_table([P("Anna", star)], FIRK).players[0]
    chain_rules = load_rules("risiko-firk-1", {"scoring": {"strip": "chain"}})
    chain = score_table([P("Anna", star)], chain_rules).players[0]
    assert connected.strip_points == 7 + 3 + 3 + 5 + 4
    # Best simple path: India-Siam-Cina-Mongolia (3+3+7+5) — Urali would need a second branch from Cina.
    assert chain.strip_points == 18 and len(chain.strip) == 4


def _brute_force_chain(owned):
    best = 0
    mine = set(owned)
    for r in range(2, len(owned) + 1):
        for perm in permutations(owned, r):
            if all(BOARD.adjacent(a, b) for a, b in pairwise(perm)):
                best = max(best, sum(BOARD.degree(t) for t in perm))
    assert mine
    return best


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL[:20]), min_size=2, max_size=7, unique=True))
def test_firk_score_1_exact_chain_search_matches_brute_force(owned):
    chain = best_chain_strip(owned, BOARD, 2)
    assert sum(BOARD.degree(t) for t in chain) == _brute_force_chain(owned)


def test_firk_score_1_chain_search_finds_a_path_through_the_whole_world():
    assert sum(BOARD.degree(t) for t in best_chain_strip(ALL, BOARD, 2)) == 164


def test_firk_score_1_a_single_isolated_territory_is_not_a_strip():
    assert best_connected_strip(["Cina", "Brasile"], BOARD, 2) == ()


def test_firk_risiko_1_threshold_by_table_size_gives_200():
    world_but = ALL[:36]
    players = [P("Anna", world_but), P("Bea", ALL[36:38]), P("Carla", ALL[38:40]), P("Dario", ALL[40:])]
    s = by_name(score_table(players, FIRK))
    assert s["Anna"].risiko and s["Anna"].table_points == 200
    assert FIRK.scoring.risiko_threshold(3) == 180 and FIRK.scoring.risiko_threshold(5) == 150


def test_firk_freeze_1_frozen_in_supplementary_turns_loses_the_strip_doubling():
    owned = {"Cina": 5, "India": 5, "Siam": 5}
    normal = score_table([P("Anna", owned, status=Status.FROZEN)], FIRK).players[0]
    late = score_table([P("Anna", owned, status=Status.FROZEN, frozen_in_supplementary=True)], FIRK).players[0]
    assert normal.table_points == 26 and late.table_points == 13 and late.strip == ()


def test_firk_freeze_1_ten_territories_with_one_or_two_armies_meet_the_condition():
    weak = dict.fromkeys(ALL[:10], 2)
    assert freeze_condition(weak, FIRK.scoring)
    assert not freeze_condition(dict(weak, **{ALL[0]: 3}), FIRK.scoring)


def test_firk_tie_1_territories_then_armies_plus_four_per_card():
    anna = P("Anna", {"Cina": 1, "Argentina": 1}, cards=0)  # 7 + 2 = 9, 2 territories
    bea = P("Bea", {"Ucraina": 1, "Islanda": 1}, cards=0)  # 6 + 3 = 9, 2 territories, not adjacent
    s = by_name(score_table([anna, bea], FIRK))
    assert s["Anna"].unresolved == "tie_unresolved"
    with_cards = by_name(score_table([P("Anna", {"Cina": 1, "Argentina": 1}, cards=1), bea], FIRK))
    assert (with_cards["Anna"].rank, with_cards["Anna"].decided_by) == (1, "armies_plus_cards")
    bea3 = P("Bea", ["Giappone", "Madagascar", "Europa Settentrionale"])  # 2 + 2 + 5 = 9 on 3 territories
    more_land = by_name(score_table([P("Anna", {"Cina": 1, "Argentina": 1}), bea3], FIRK))
    assert more_land["Bea"].table_points == more_land["Anna"].table_points == 9
    assert (more_land["Bea"].rank, more_land["Bea"].decided_by) == (1, "territories")


def test_arb_23_25_withdrawn_and_disqualified_score_zero_rank_last_and_share_a_tier():
    """ARB art. 23 (last sentence) and 25: a player disqualified from the game is treated as one who withdrew — the
    same tier below the players in play (the preset's disqualified_ranks = with_withdrawn, every RisiKo! preset);
    a preset that puts the disqualified below (RR 13.4's reading) ranks them last."""
    anna = P("Anna", ["Cina"], status=Status.DISQUALIFIED)
    bea = P("Bea", ["Ucraina"], status=Status.WITHDRAWN)
    carla = P("Carla", ["Argentina"])
    s = by_name(score_table([anna, bea, carla], FIRK))
    assert [s[n].rank for n in ("Carla", "Bea", "Anna")] == [1, 2, 2]
    assert s["Anna"].table_points == 0 and s["Bea"].table_points == 0
    below = load_rules("risiko-firk-1", {"tournament": {"disqualified_ranks": "below_withdrawn"}})
    s = by_name(score_table([anna, bea, carla], below))
    assert [s[n].rank for n in ("Carla", "Bea", "Anna")] == [1, 2, 3]


def test_firk_score_1_a_territory_owned_twice_is_refused():
    with pytest.raises(RisikoError) as err:
        score_table([P("Anna", ["Cina"]), P("Bea", ["cina"])], FIRK)
    assert err.value.code == "territory_owned_twice"


@settings(max_examples=40, deadline=None)
@given(st.permutations(ALL), st.integers(2, 5), st.data())
def test_firk_score_1_and_np_score_1_scoring_is_invariant_to_player_order(shuffled, n, data):
    cuts = sorted(data.draw(st.lists(st.integers(1, 41), min_size=n - 1, max_size=n - 1, unique=True)))
    bounds = [0, *cuts, 42]
    players = [
        P(
            f"p{i}",
            {t: 1 + (j % 3) for j, t in enumerate(shuffled[bounds[i] : bounds[i + 1]])},
            objective=tuple(ALL[i * 7 : i * 7 + 12]),
            cards=i % 3,
        )
        for i in range(n)
    ]
    order = data.draw(st.permutations(range(n)))
    for rules in (FIRK, NP):
        a = {p.name: (p.table_points, p.rank, p.unresolved) for p in score_table(players, rules).players}
        b = {
            p.name: (p.table_points, p.rank, p.unresolved)
            for p in score_table([players[i] for i in order], rules).players
        }
        assert a == b


def test_firk_freeze_1_weak_territories_of_a_frozen_player_get_five_armies():
    frozen = apply_freeze({"Cina": 1, "India": 2, "Siam": 3}, FIRK.scoring)
    assert frozen == {"Cina": 5, "India": 5, "Siam": 3}
