"""Cards and reinforcements (RK-REIN-1, RK-TRIS-1, RK-TRIS-2, FIRK-CARD-1, RK-CARD-1), limits (RK-LIM-1,
RK-OVER-1, FIRK-LIM-1, FIRK-OVER-1) and the initial distribution (RK-SET-2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.risiko.cards import (
    Card,
    HandVerdict,
    SetKind,
    Symbol,
    best_set,
    exchange_values,
    hand_check,
    reinforcements,
    set_value,
)
from bot.rules.risiko.config import shipped_rules
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.limits import (
    FoundBy,
    OverOutcome,
    army_limit_check,
    distribution_violations,
    fix_last_card,
    over_placement_check,
)

NP = shipped_rules("risiko-nostra-passione-2018")
UFF = shipped_rules("risiko-ufficiali-2018")
FIRK = shipped_rules("risiko-firk-1")
C, N, K, J = Symbol.CANNON, Symbol.INFANTRY, Symbol.CAVALRY, Symbol.JOLLY


def cards(*symbols, territories=()):
    terr = list(territories) + [None] * (len(symbols) - len(territories))
    return [Card(s, t) for s, t in zip(symbols, terr, strict=True)]


@pytest.mark.parametrize(
    ("symbols", "boxed", "np"),
    [((C, C, C), 4, 8), ((N, N, N), 6, 8), ((K, K, K), 8, 8), ((C, N, K), 10, 10), ((J, N, N), 12, 12)],
)
def test_rk_tris_1_and_rk_tris_2_set_values_boxed_and_np(symbols, boxed, np):
    assert set_value(cards(*symbols), [], UFF.cards).total == boxed
    assert set_value(cards(*symbols), [], NP.cards).total == np


def test_rk_tris_1_two_armies_per_card_whose_territory_the_player_owns():
    hand = cards(C, N, K, territories=["Cina", "Brasile", "Egitto"])
    value = set_value(hand, ["Cina", "Egitto"], NP.cards)
    assert (value.base, value.territory_bonus, value.total) == (10, 4, 14)
    assert value.bonus_territories == ("Cina", "Egitto")


def test_rk_tris_1_jolly_only_with_two_equal_cards():
    with pytest.raises(RisikoError) as err:
        set_value(cards(J, C, N), [], UFF.cards)
    assert err.value.code == "not_a_valid_set"
    with pytest.raises(RisikoError):
        set_value(cards(J, J, C), [], UFF.cards)


def test_rk_tris_1_best_set_in_a_hand_prefers_the_most_armies():
    hand = cards(C, C, C, N, K)
    _, value = best_set(hand, [], UFF.cards)
    assert value.kind is SetKind.ONE_OF_EACH and value.total == 10
    assert best_set(cards(C, C, N, N), [], UFF.cards) is None


@pytest.mark.parametrize(
    ("hand", "exchanged", "values"),
    [(1, 1, (2,)), (2, 2, (4,)), (3, 3, (8,)), (4, 3, (10,)), (5, 3, (12,)), (7, 6, (12, 10)), (9, 9, (12, 12, 8))],
)
def test_firk_card_1_exchange_without_sets(hand, exchanged, values):
    assert exchange_values(hand, exchanged, FIRK.cards) == values


@pytest.mark.parametrize(("hand", "exchanged"), [(2, 1), (3, 1), (3, 2), (5, 4), (4, 5)])
def test_firk_card_1_only_all_of_one_or_two_cards_and_multiples_of_three_from_three(hand, exchanged):
    with pytest.raises(RisikoError):
        exchange_values(hand, exchanged, FIRK.cards)


def test_firk_card_1_card_territory_gives_nothing():
    assert FIRK.cards.territory_bonus == 0


def test_rk_card_1_seven_cards_stop_the_draw_and_eight_are_all_discarded():
    assert hand_check(6, UFF.cards) is HandVerdict.MAY_DRAW
    assert hand_check(7, UFF.cards) is HandVerdict.AT_LIMIT_NO_DRAW
    assert hand_check(8, UFF.cards) is HandVerdict.DISCARD_ALL
    assert hand_check(9, NP.cards) is HandVerdict.NO_LIMIT


def test_rk_rein_1_territories_over_three_rounded_down_plus_continents():
    # Boxed example: 14 territories give 4 armies.
    oceania = ["Indonesia", "Nuova Guinea", "Australia Occidentale", "Australia Orientale"]
    owned = [
        *oceania,
        "Cina",
        "India",
        "Siam",
        "Urali",
        "Siberia",
        "Jacuzia",
        "Cita",
        "Kamchatka",
        "Giappone",
        "Egitto",
    ]
    r = reinforcements(owned, UFF, from_cards=10)
    assert (r.territories, r.from_territories, r.continents, r.total) == (14, 4, (("Oceania", 2),), 16)


def test_rk_rein_1_whole_world_gives_every_bonus():
    r = reinforcements(UFF.board.territories, UFF)
    assert r.from_territories == 14 and sum(b for _, b in r.continents) == 24


def test_rk_lim_1_self_declared_excess_is_removed_once_and_the_limit_stays():
    v = army_limit_check(140, FoundBy.SELF, UFF.limits)
    assert (v.excess, v.remove, v.new_limit) == (10, 10, 130)


def test_rk_lim_1_spotted_excess_is_removed_twice_and_the_limit_drops_by_the_excess():
    v = army_limit_check(140, FoundBy.OTHER, UFF.limits)
    assert (v.excess, v.remove, v.new_limit) == (10, 20, 120)
    again = army_limit_check(125, FoundBy.OTHER, UFF.limits, limit=v.new_limit)
    assert (again.excess, again.remove, again.new_limit) == (5, 10, 115)


def test_firk_lim_1_rulebook_example_160_armies_remove_20_and_limit_140():
    v = army_limit_check(160, FoundBy.SELF, FIRK.limits)
    assert (v.excess, v.remove, v.new_limit) == (10, 20, 140)


def test_rk_lim_1_np_has_no_army_limit():
    assert army_limit_check(500, FoundBy.OTHER, NP.limits).new_limit is None


def test_rk_over_1_over_placement_self_declared_once_spotted_twice_and_third_deliberate_is_out():
    assert over_placement_check(10, 7, FoundBy.SELF, UFF.limits).remove == 3
    assert over_placement_check(10, 7, FoundBy.OTHER, UFF.limits).remove == 6
    second = over_placement_check(10, 7, FoundBy.OTHER, UFF.limits, deliberate=True, previous_deliberate=1)
    assert second.outcome is OverOutcome.CONTINUE
    third = over_placement_check(10, 7, FoundBy.OTHER, UFF.limits, deliberate=True, previous_deliberate=2)
    assert third.outcome is OverOutcome.OUT_OF_GAME and third.deliberate_count == 3


def test_firk_over_1_twice_the_excess_but_never_more_than_placed_and_deliberate_is_out_at_once():
    assert over_placement_check(5, 3, FoundBy.SELF, FIRK.limits).remove == 4
    assert over_placement_check(5, 1, FoundBy.SELF, FIRK.limits).remove == 5
    assert over_placement_check(5, 1, FoundBy.SELF, FIRK.limits, deliberate=True).outcome is OverOutcome.OUT_OF_GAME


@given(st.integers(0, 400), st.integers(0, 200), st.sampled_from(list(FoundBy)))
def test_rk_lim_1_removal_never_exceeds_the_armies_on_board_and_the_limit_never_rises(armies, limit, found):
    v = army_limit_check(armies, found, UFF.limits, limit=limit)
    assert 0 <= v.remove <= armies
    assert v.new_limit is not None and v.new_limit <= limit


def test_rk_set_2_nobody_above_half_of_a_continent():
    board = UFF.board
    europe = board.continent("Europa").territories
    owners = {t: "Anna" for t in europe[:4]} | {t: "Bea" for t in europe[4:]}
    [violation] = distribution_violations(owners, board, 0.5)
    assert (violation.player, violation.continent, violation.owned, violation.allowed) == ("Anna", "Europa", 4, 3)


def test_rk_set_2_the_last_card_breaking_the_limit_is_swapped_with_the_one_before():
    board = UFF.board
    oce = board.continent("Oceania").territories
    deal = [(oce[0], "Anna"), (oce[1], "Anna"), ("Cina", "Bea"), ("Brasile", "Bea"), (oce[2], "Anna")]
    fixed, index = fix_last_card(deal, board, 0.5)
    assert index == 3
    assert fixed[-1] == ("Brasile", "Anna") and fixed[3] == (oce[2], "Bea")
    assert not distribution_violations(dict(fixed), board, 0.5)
