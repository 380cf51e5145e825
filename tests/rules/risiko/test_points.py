"""Tournament points per preset (NP-PTS-1, FIRK-PTS-1, ARB art. 6 organizer table)."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.presets import load_preset
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.points import PointsRules, tournament_points, tournament_points_exact

FIRK = load_preset("risiko-firk-1")
NP = load_preset("risiko-nostra-passione-2018")
UFF = load_preset("risiko-ufficiali-2018")


def test_firk_pts_1_rulebook_example_40_vs_32_gives_31_8_and_14_2():
    assert tournament_points(FIRK, [40, 32]) == [31.8, 14.2]


def test_firk_pts_1_cli_contract_example_for_a_table_of_four():
    assert tournament_points(FIRK, [40, 32, 20, 10]) == [31.8, 14.2, 5.0, 0.0]


def test_firk_pts_1_fifth_place_subtracts_its_gap_to_the_first():
    assert tournament_points(FIRK, [50, 40, 30, 20, 15]) == [32.0, 14.0, 5.0, 0.0, -2.5]


def test_firk_pts_1_equal_table_points_keep_positional_base_values():
    assert tournament_points(FIRK, [30, 30, 30, 30]) == [31.0, 15.0, 7.0, 3.0]


def test_np_pts_1_positions_give_12_9_6_3():
    assert tournament_points(NP, [100, 40, 30, 2]) == [12.0, 9.0, 6.0, 3.0]


def test_uff_points_table_is_organizer_set_and_an_override_replaces_the_default():
    assert tournament_points(UFF, [50, 40, 30, 20, 10]) == [12.0, 9.0, 6.0, 3.0, 1.0]
    custom = load_preset("risiko-ufficiali-2018", {"points": {"base": [10.0, 6.0, 3.0, 1.0, 0.0]}})
    assert tournament_points(custom, [50, 40, 30, 20]) == [10.0, 6.0, 3.0, 1.0]


def test_np_pts_1_np_fmt_1_a_fifth_seat_scores_nothing_and_a_sixth_has_no_points():
    """NP's knockout example seats five at a table (NP-FMT-1) but its points stop at the 4th (NP-PTS-1): the 5th
    scores 0 (our default, the preset's points.base); a sixth seat is still refused with a code."""
    assert tournament_points(NP, [5, 4, 3, 2, 1]) == [12.0, 9.0, 6.0, 3.0, 0.0]
    with pytest.raises(RisikoError) as err:
        tournament_points(NP, [6, 5, 4, 3, 2, 1])
    assert err.value.code == "too_many_players_for_points_table"


def test_firk_pts_1_clamp_override_floors_negative_points_at_zero():
    clamped = load_preset("risiko-firk-1", {"points": {"clamp_at_zero": True}})
    assert tournament_points(clamped, [80, 40, 30, 20, 0]) == [35.0, 11.0, 2.0, 0.0, 0.0]


@given(st.lists(st.integers(min_value=0, max_value=200), min_size=2, max_size=5))
def test_firk_pts_1_points_of_first_and_second_always_sum_to_46(tps):
    """FIRK-PTS-1: the gap term moves points from the second to the first, exactly."""
    tps = sorted(tps, reverse=True)
    pts = tournament_points_exact(PointsRules.from_preset(FIRK), tps)
    assert pts[0] + pts[1] == Fraction(46)
    assert all(a >= b for a, b in pairwise(pts))


def test_tour_ref_1_arb_23_25_typed_points_order_players_in_play_then_those_out_of_the_game_in_the_preset_s_tiers():
    """ARB art. 6: the table's order from typed points; ARB art. 23 (last sentence) and 25: a disqualified player is
    treated as a withdrawn one — the same tier, sharing one place (never the order given); where a preset puts the
    disqualified below (RR 13.4's reading) they come last. A tie in play needs the final situation."""
    from bot.rules.risiko.points import order_typed_table

    entries = [("a", "disqualified", 0.0), ("b", "played", 30.0), ("c", "withdrawn", 0.0), ("d", "played", 41.0)]
    assert [(e[0], e[3]) for e in order_typed_table(entries)] == [("d", 1), ("b", 2), ("a", 3), ("c", 3)]
    assert order_typed_table(entries[::-1]) == order_typed_table(entries)
    below = order_typed_table(entries, disqualified_below_withdrawn=True)
    assert [(e[0], e[3]) for e in below] == [("d", 1), ("b", 2), ("c", 3), ("a", 4)]
    with pytest.raises(RisikoError) as err:
        order_typed_table([("a", "played", 30.0), ("b", "played", 30.0)])
    assert err.value.code == "tie_needs_situation" and err.value.value == ("a", "b")
