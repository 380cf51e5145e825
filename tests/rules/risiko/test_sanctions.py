"""Sanction ladders as preset data (RK-PACT-1, RK-OVER-1, RK-SD-3, FIRK-PEN-1)."""

import pytest

from bot.rules.risiko.config import shipped_rules
from bot.rules.risiko.sanctions import Ladder, next_step

UFF = shipped_rules("risiko-ufficiali-2018").sanctions
FIRK = shipped_rules("risiko-firk-1").sanctions


def test_rk_pact_1_first_offence_is_a_verbal_warning():
    assert next_step(UFF, Ladder.PACT, 0).code == "verbal_warning"


def test_rk_pact_1_second_offence_depends_on_the_cards_in_hand():
    two = next_step(UFF, Ladder.PACT, 1, cards_in_hand=4)
    one = next_step(UFF, Ladder.PACT, 1, cards_in_hand=1)
    none = next_step(UFF, Ladder.PACT, 1, cards_in_hand=0)
    assert (two.cards, two.armies) == (2, 0)
    assert (one.cards, one.armies) == (1, 3)
    assert (none.cards, none.armies) == (0, 6)


def test_rk_pact_1_third_offence_excludes_and_expels_and_stays_at_the_top():
    third = next_step(UFF, Ladder.PACT, 2)
    assert third.code == "excluded_and_expelled" and third.last_rung
    assert next_step(UFF, Ladder.PACT, 5).code == "excluded_and_expelled"


def test_rk_over_1_third_deliberate_over_placement_disqualifies_from_the_game():
    assert next_step(UFF, Ladder.OVER_PLACEMENT, 2).code == "disqualified_from_game"


def test_rk_sd_3_forgotten_roll_ladder_warning_then_excluded():
    assert [next_step(UFF, Ladder.FORGOTTEN_SDADATA_ROLL, n).code for n in (0, 1)] == [
        "verbal_warning",
        "excluded_from_game",
    ]


def test_firk_pen_1_deliberate_over_placement_costs_25_standing_points():
    """FIRK §6 (FIRK-OVER-1): −25 in the general standings; withdrawal/disturbing live in [tournament]."""
    assert FIRK.deliberate_over_placement_standing_points == -25


@pytest.mark.parametrize(
    ("previous", "hand", "code", "not_drawn", "cap"),
    [
        (0, 3, "penalty_cards_or_army_cap", 1, 0),  # FIRK §26: at least one card not drawn
        (0, 0, "penalty_cards_or_army_cap", 1, 0),  # an empty hand too: the cards are the ones not drawn
        (1, 3, "heavier_penalty_cards_or_army_cap", 2, 0),  # heavier on a repeat
        (1, 0, "heavier_penalty_cards_or_army_cap", 2, 0),
        (0, 7, "penalty_cards_or_army_cap", 0, 100),  # more than 6 cards: an army cap of 100 instead
        (2, 3, "expelled_from_game", 0, 0),  # then expulsion from the table
        (5, 3, "expelled_from_game", 0, 0),
    ],
)
def test_firk_26_penalita_2_penalties_grow_on_repeat_then_expel(previous, hand, code, not_drawn, cap):
    """FIRK-PEN-1 reading 7 (FIRK §26 refers to penalità 2): one or more cards the player may *not draw* — not cards
    taken from the hand, so an empty hand gets its penalty too —, heavier on repeat, then expulsion."""
    step = next_step(FIRK, Ladder.PACT, previous, cards_in_hand=hand)
    assert (step.code, step.cards_not_drawn, step.army_cap, step.cards) == (code, not_drawn, cap, 0)
    assert step.at_least == (code != "expelled_from_game")
