"""Battles: one roll (RK-DICE-1), dice legality (FIRK-ATK-2), superiority (FIRK-ATK-1) and exact odds."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.risiko.config import BOXED_DICE, shipped_rules
from bot.rules.risiko.dice import (
    DiceVerdict,
    Superiority,
    battle_odds,
    check_dice_counts,
    check_superiority,
    naive_attacker_wins,
    resolve_roll,
    roll_counts,
    roll_distribution,
    win_table,
)
from bot.rules.risiko.errors import RisikoError

FIRK_DICE = shipped_rules("risiko-firk-1").dice

# Golden table: for a attack dice vs d defence dice, how many of the 6**(a+d) outcomes make the attacker lose
# 0, 1, ... armies. 3 vs 3 is the figure quoted in the issue (6420, 10017, 12348, 17871 of 46656).
GOLDEN_COUNTS = {
    (1, 1): ((15, 21), 36),
    (1, 2): ((55, 161), 216),
    (1, 3): ((225, 1071), 1296),
    (2, 1): ((125, 91), 216),
    (2, 2): ((295, 420, 581), 1296),
    (2, 3): ((979, 1981, 4816), 7776),
    (3, 1): ((855, 441), 1296),
    (3, 2): ((2890, 2611, 2275), 7776),
    (3, 3): ((6420, 10017, 12348, 17871), 46656),
}


@pytest.mark.parametrize(("dice", "expected"), sorted(GOLDEN_COUNTS.items()))
def test_rk_dice_1_single_roll_outcome_counts_for_all_nine_dice_combinations(dice, expected):
    assert roll_counts(*dice) == expected


@pytest.mark.parametrize("dice", sorted(GOLDEN_COUNTS))
def test_rk_dice_1_single_roll_probabilities_are_exact_and_sum_to_one(dice):
    dist = roll_distribution(*dice)
    assert all(isinstance(p, Fraction) for p in dist)
    assert sum(dist) == 1


def test_rk_dice_1_cli_contract_example_6_5_1_against_5_5_2():
    result = resolve_roll([6, 5, 1], [5, 5, 2])
    assert (result.attacker_losses, result.defender_losses) == (2, 1)


def test_rk_dice_1_ties_go_to_the_defender():
    assert resolve_roll([4], [4]).attacker_losses == 1
    assert resolve_roll([6, 6, 6], [6, 6, 6]).attacker_losses == 3


def test_rk_dice_1_only_as_many_comparisons_as_the_smaller_side_has_dice():
    result = resolve_roll([6, 6, 6], [1])
    assert (result.attacker_losses, result.defender_losses) == (0, 1)


def test_rk_dice_1_four_dice_or_a_seven_are_refused_naming_the_value():
    with pytest.raises(RisikoError) as err:
        resolve_roll([1, 2, 3, 4], [1])
    assert err.value.code == "attacker_dice_count_invalid"
    with pytest.raises(RisikoError) as err:
        resolve_roll([7], [1])
    assert err.value.code == "attacker_die_invalid"
    assert "7" in str(err.value)


@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
    st.lists(st.integers(1, 6), min_size=1, max_size=3),
)
def test_rk_dice_1_losses_add_up_to_the_comparisons_and_do_not_depend_on_dice_order(att, dfn):
    result = resolve_roll(att, dfn)
    assert result.attacker_losses + result.defender_losses == min(len(att), len(dfn))
    assert resolve_roll(list(reversed(att)), list(reversed(dfn))) == result


def test_rk_dice_1_attacker_needs_one_army_more_than_dice():
    assert check_dice_counts(3, 3, 3, 5) is DiceVerdict.TOO_MANY_ATTACK_DICE
    assert check_dice_counts(2, 3, 3, 5) is DiceVerdict.LEGAL  # boxed: fewer dice than the defender is allowed
    assert check_dice_counts(1, 1, 10, 5) is DiceVerdict.LEGAL  # boxed: the attacker may choose fewer dice


def test_firk_atk_2_maximum_dice_are_mandatory_and_no_attack_with_fewer_dice():
    assert check_dice_counts(2, 3, 10, 5, FIRK_DICE) is DiceVerdict.NOT_MAX_ATTACK_DICE
    assert check_dice_counts(3, 2, 10, 5, FIRK_DICE) is DiceVerdict.NOT_MAX_DEFENCE_DICE
    assert check_dice_counts(2, 3, 3, 5, FIRK_DICE) is DiceVerdict.FEWER_ATTACK_THAN_DEFENCE_DICE
    assert check_dice_counts(2, 2, 3, 2, FIRK_DICE) is DiceVerdict.LEGAL
    assert check_dice_counts(1, 1, 2, 1, FIRK_DICE) is DiceVerdict.LEGAL


def test_firk_atk_1_superiority_counts_every_bordering_own_territory():
    assert check_superiority(4, [3], 6, FIRK_DICE) is Superiority.SUPERIORITY
    assert check_superiority(4, [2], 6, FIRK_DICE) is Superiority.NOT_ALLOWED
    assert check_superiority(10, [], 12, FIRK_DICE) is Superiority.UNSUPPORTED_STRONG
    assert check_superiority(9, [], 12, FIRK_DICE) is Superiority.NOT_ALLOWED
    assert check_superiority(1, [], 12, BOXED_DICE) is Superiority.NOT_REQUIRED


def test_rk_dice_1_whole_battle_one_against_one_is_the_single_roll():
    assert battle_odds(1, 1).attacker_wins == Fraction(15, 36)


@given(st.integers(1, 12), st.integers(1, 12))
def test_rk_dice_1_whole_battle_probabilities_sum_to_one(a, d):
    odds = battle_odds(a, d)
    assert odds.attacker_wins + odds.defender_holds == 1
    assert sum(p for _, p in odds.attacker_remaining) == odds.attacker_wins
    assert odds.stopped == 0


def test_rk_dice_1_win_table_agrees_with_the_forward_programme_and_the_naive_recursion():
    table = win_table(8, 8)
    for a in (1, 3, 5, 8):
        for d in (1, 4, 8):
            assert table[a - 1][d - 1] == battle_odds(a, d).attacker_wins
    assert table[5][5] == naive_attacker_wins(6, 6)


def test_rk_dice_1_more_attackers_never_lower_the_chance_to_conquer():
    table = win_table(15, 15)
    for d in range(15):
        column = [table[a][d] for a in range(15)]
        assert column == sorted(column)


def test_firk_atk_2_battle_stops_when_the_attacker_would_roll_fewer_dice():
    odds = battle_odds(2, 3, FIRK_DICE)
    assert odds.attacker_wins == 0
    assert odds.stopped == 1
    firk = battle_odds(10, 7, FIRK_DICE)
    assert firk.attacker_wins + firk.defender_holds == 1
    assert firk.attacker_wins < battle_odds(10, 7).attacker_wins


def test_rk_dice_1_negative_armies_are_refused():
    with pytest.raises(RisikoError) as err:
        battle_odds(-1, 3)
    assert err.value.code == "negative_armies"
