"""Table sizes per preset: TOUR-SIZE-1, FIRK-SIZE-1, NP-FMT-1 knockout, Ricochet Robots tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.presets import load_preset
from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.sizes import FirkPlan, firk_sizes, knockout_plan, rr_sizes, standard_sizes

FIRK = TournamentRules.from_preset(load_preset("risiko-firk-1")).firk


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (16, (4, 4, 4, 4)),
        (17, (4, 4, 4, 5)),
        (33, (4, 4, 4, 4, 4, 4, 4, 5)),
        (15, (5, 5, 5)),
        (22, (4, 4, 4, 5, 5)),
    ],
)
def test_tour_size_1_fours_with_the_fewest_fives_and_the_fives_last(n, sizes):
    """TOUR-SIZE-1 / ARB art. 5: n mod 4 tables of five, at the end (the cinquisti sit at the last tables)."""
    assert standard_sizes(n) == sizes


@given(st.integers(min_value=12, max_value=400))
def test_tour_size_1_property_sizes_sum_to_n_with_at_most_three_fives(n):
    sizes = standard_sizes(n)
    assert sum(sizes) == n
    assert set(sizes) <= {4, 5}
    assert sizes.count(5) == n % 4 <= 3


def test_tour_size_1_too_few_players_for_fours_and_fives_is_refused():
    with pytest.raises(TournamentError) as err:
        standard_sizes(7)
    assert err.value.code == "too_few_players_for_tables"


@pytest.mark.parametrize(
    ("n", "round_no", "last", "plan"),
    [
        (12, 2, True, FirkPlan((4, 4, 4))),
        (13, 1, False, FirkPlan((5, 4, 4))),  # FIRK §9: only in round 1 may table 1 hold five
        (13, 2, True, FirkPlan((4, 4, 5))),  # ... afterwards table 1 is always of four
        (7, 1, False, FirkPlan((4, 3), dummy_tables=(2,))),  # 3 + "dummy" at 3, 7, 11 players
        (11, 2, True, FirkPlan((4, 4, 3), dummy_tables=(3,))),
        (3, 1, False, FirkPlan((3,), dummy_tables=(1,))),
        (5, 2, True, FirkPlan((4,), sit_out=True)),  # last round, five present: the 5th sits out
        (6, 2, True, FirkPlan((4, 2), head_to_head=True)),  # six present: 5th and 6th head to head
    ],
)
def test_firk_size_1_golden_table_plans(n, round_no, last, plan):
    """FIRK-SIZE-1 (FIRK §9)."""
    assert firk_sizes(n, round_no=round_no, last_round=last, cfg=FIRK) == plan


def test_firk_size_1_ten_players_after_round_one_cannot_keep_table_one_of_four():
    """FIRK §9 leaves 10 players in round 2 without a legal plan: refused with a code, not guessed."""
    with pytest.raises(TournamentError) as err:
        firk_sizes(10, round_no=2, last_round=False, cfg=FIRK)
    assert err.value.code == "firk_sizes_impossible"


def test_np_fmt_1_knockout_plan_of_the_rulebook_example():
    """NP-FMT-1: 100 players, final of 5 -> 20 tables of 5 -> 5 tables of 4 -> final of 5."""
    plan = knockout_plan(100, final_size=5, allowed_sizes=(4, 5))
    assert [(r.players, r.sizes) for r in plan] == [(100, (5,) * 20), (20, (4,) * 5), (5, (5,))]


@pytest.mark.parametrize("n", [16, 64, 80, 100])
def test_np_fmt_1_every_knockout_round_has_a_multiple_of_the_final_size_tables(n):
    plan = knockout_plan(n, final_size=4, allowed_sizes=(4, 5))
    for rnd in plan[:-1]:
        assert len(rnd.sizes) % 4 == 0
        assert sum(rnd.sizes) == rnd.players
    assert plan[-1].sizes == (4,)


def test_np_fmt_1_impossible_knockout_is_refused():
    with pytest.raises(TournamentError) as err:
        knockout_plan(12, final_size=5, allowed_sizes=(4, 5))
    assert err.value.code == "no_knockout_plan"


@pytest.mark.parametrize(("n", "finals", "plan"), [(64, [4], ((16 * (4,)), (4, 4, 4, 4), (4,))), (37, [], None)])
def test_np_fmt_1_a_refused_field_is_told_the_final_sizes_that_would_plan_it(n, finals, plan):
    """NP-FMT-1 refusal with a way forward: 64 players cannot reach a final of 5, but a final of 4 works
    (16 tables of 4 → 4 tables of 4 → the final of 4); 37 fits neither."""
    with pytest.raises(TournamentError) as err:
        knockout_plan(n, final_size=5, allowed_sizes=(4, 5))
    assert err.value.value["other_finals"] == finals
    if plan:
        assert tuple(k.sizes for k in knockout_plan(n, final_size=4, allowed_sizes=(4, 5))) == plan


@pytest.mark.parametrize(("n", "k", "sizes"), [(10, 4, (4, 3, 3)), (8, 4, (4, 4)), (5, 2, (2, 2, 1))])
def test_rr_tables_follow_the_organizers_size_and_never_go_below_two(n, k, sizes):
    """Ricochet Robots: the organizer's size, as even as possible; RR 6.4 needs two players per game."""
    if min(sizes) < 2:
        with pytest.raises(TournamentError):
            rr_sizes(n, k, minimum=2)
    else:
        assert rr_sizes(n, k, minimum=2) == sizes


def test_every_preset_has_a_valid_tournament_table():
    for name in ("ricochet-v3.3", "risiko-nostra-passione-2018", "risiko-ufficiali-2018", "risiko-firk-1"):
        rules = TournamentRules.from_preset(load_preset(name))
        assert rules.table_size == 4
        assert rules.round1_criteria


def test_firk_wd_1_and_pen_1_deductions_have_one_home():
    """FIRK-WD-1 / FIRK-PEN-1: −25 (withdrawal, FIRK §21) and −7 (disturbing a table) live only in [tournament]."""
    preset = load_preset("risiko-firk-1")
    rules = TournamentRules.from_preset(preset)
    assert (rules.withdrawal_deduction, rules.disturbance_deduction) == (25, 7)
    sanctions = preset.section("sanctions")
    assert "withdrawal_standing_points" not in sanctions and "disturbing_standing_points" not in sanctions


def test_np_fmt_1_knockout_round_draw_through_the_planner_keeps_clubs_apart_and_says_the_plan():
    """NP-FMT-1: 20 players -> 5 tables of 4 (final of 5): the planner draws the plan's first round, clubs apart,
    teams ignored (a knockout), and its report carries the plan ahead."""
    from bot.rules.tournament.model import Player
    from bot.rules.tournament.planner import DrawRequest, plan_draw

    players = tuple(Player(i, f"C{i % 5}", "stessa squadra") for i in range(20))
    request = DrawRequest("risiko-nostra-passione-2018", 2, players, overrides={"tournament": {"format": "knockout"}})
    d = plan_draw(request, 1)
    assert [len(t) for t in d.tables] == [4] * 5 and d.report["criteria"]["club_pairs"] == 0
    assert "team_pairs" not in d.report["criteria_order"]
    assert d.report["knockout"] == {
        "plan": [{"players": 20, "tables": [4] * 5}, {"players": 5, "tables": [5]}], "final": False, "final_size": 5,
    }  # fmt: skip


def test_np_fmt_1_the_nearest_workable_fields_are_named_when_none_can_be_planned():
    from bot.rules.tournament.model import TournamentError
    from bot.rules.tournament.sizes import nearest_knockout_fields

    assert nearest_knockout_fields(37, final_size=5, allowed_sizes=(4, 5)) == (25, 80)
    with pytest.raises(TournamentError) as err:
        knockout_plan(37, final_size=5, allowed_sizes=(4, 5))
    assert err.value.value == {"players": 37, "final_size": 5, "below": 25, "above": 80, "other_finals": []}


def test_firk_size_1_last_round_special_points():
    """FIRK §9: the sitting-out 5th gets 15 if 5th overall, else 1; head to head 31 / 15."""
    from bot.rules.tournament.sizes import firk_head_to_head_points, firk_sit_out_points

    assert firk_sit_out_points("e", overall_rank=5, cfg=FIRK).points == 15.0
    assert firk_sit_out_points("e", overall_rank=9, cfg=FIRK).points == 1.0
    assert [x.points for x in firk_head_to_head_points("e", "f", cfg=FIRK)] == [31.0, 15.0]
