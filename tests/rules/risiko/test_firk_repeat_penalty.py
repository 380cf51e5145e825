"""FIRK §26 "penalità peggiori" on a repeat (FIRK-PEN-1): a player holding more than 6 cards gets a lower army cap
the second time than the first (``sanctions.outsider_army_cap_on_repeat``, our default 75 below FIRK's 100)."""

import pytest

from bot.rules.presets import PresetFieldError
from bot.rules.risiko.config import load_rules, shipped_rules
from bot.rules.risiko.sanctions import Ladder, next_step

FIRK = shipped_rules("risiko-firk-1").sanctions


@pytest.mark.parametrize(
    ("previous", "hand", "code", "cap", "not_drawn"),
    [
        (0, 7, "penalty_cards_or_army_cap", 100, 0),  # FIRK §26: more than 6 cards -> the 100 cap
        (1, 7, "heavier_penalty_cards_or_army_cap", 75, 0),  # a repeat: heavier, so a lower cap
        (1, 12, "heavier_penalty_cards_or_army_cap", 75, 0),
        (1, 6, "heavier_penalty_cards_or_army_cap", 0, 2),  # six cards or fewer: cards not drawn, not a cap
    ],
)
def test_firk_26_penalita_peggiori_a_repeat_offence_caps_the_armies_lower_than_the_first(
    previous, hand, code, cap, not_drawn
):
    step = next_step(FIRK, Ladder.PACT, previous, cards_in_hand=hand)
    assert (step.code, step.army_cap, step.cards_not_drawn) == (code, cap, not_drawn)


def test_firk_26_the_repeat_cap_is_heavier_than_the_first_offence_s_cap():
    first = next_step(FIRK, Ladder.PACT, 0, cards_in_hand=8).army_cap
    repeat = next_step(FIRK, Ladder.PACT, 1, cards_in_hand=8).army_cap
    assert 0 < repeat < first == FIRK.army_cap
    assert FIRK.outsider_army_cap_on_repeat == repeat


def test_firk_26_the_repeat_cap_is_an_overridable_preset_field():
    rules = load_rules("risiko-firk-1", {"sanctions": {"outsider_army_cap_on_repeat": 50}}).sanctions
    assert next_step(rules, Ladder.PACT, 1, cards_in_hand=9).army_cap == 50
    assert next_step(rules, Ladder.PACT, 0, cards_in_hand=9).army_cap == 100  # the first offence is untouched
    same = load_rules("risiko-firk-1", {"sanctions": {"outsider_army_cap_on_repeat": 0}}).sanctions
    assert next_step(same, Ladder.PACT, 1, cards_in_hand=9).army_cap == 100  # 0: the first offence's cap


@pytest.mark.parametrize("value", [101, 150])
def test_firk_26_a_repeat_cap_above_the_first_offence_s_is_refused_naming_the_field(value):
    with pytest.raises(PresetFieldError) as err:
        load_rules("risiko-firk-1", {"sanctions": {"outsider_army_cap_on_repeat": value}})
    assert err.value.field == "sanctions.outsider_army_cap_on_repeat" and err.value.bad_value == value
    assert "100" in err.value.allowed


def test_firk_26_a_repeat_cap_that_is_not_a_count_is_refused_naming_the_field():
    with pytest.raises(PresetFieldError) as err:
        load_rules("risiko-firk-1", {"sanctions": {"outsider_army_cap_on_repeat": -5}})
    assert err.value.field == "sanctions.outsider_army_cap_on_repeat"


@pytest.mark.parametrize("name", ["risiko-ufficiali-2018", "risiko-nostra-passione-2018"])
def test_firk_26_other_presets_leave_the_repeat_cap_unused_like_the_first(name):
    rules = shipped_rules(name).sanctions
    assert rules.outsider_army_cap_on_repeat == rules.army_cap == 0
