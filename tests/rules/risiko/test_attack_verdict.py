"""FIRK §12 (FIRK-ATK-1) reading 8: ``legal`` means the attack is allowed — dice counts AND superiority; the
attacker may add the bordering territories, so ``legal`` is monotone in every army count."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.rules.risiko.config import shipped_rules
from bot.rules.risiko.dice import DiceVerdict, Superiority, check_superiority, judge_attack

FIRK = shipped_rules("risiko-firk-1").dice
UFF = shipped_rules("risiko-ufficiali-2018").dice


@pytest.mark.parametrize(
    ("attacker", "support", "defender", "legal", "reason"),
    [
        (6, [], 5, True, None),  # 6 against 5: superiority
        (4, [2], 5, True, None),  # 4 + 2 bordering against 5: superiority by the sum
        (5, [], 5, False, "superiority_not_allowed"),  # parity from an unsupported territory under 10
        (10, [], 12, True, None),  # unsupported with at least 10 armies may attack at inferiority
        (4, [1], 5, False, "superiority_not_allowed"),  # parity with support, under 10: not allowed
        (12, [], 14, True, None),  # §12's exception: at least 10 in the attacking territory
        (12, [1], 14, True, None),  # a 1-army neighbour does not take the exception away (it used to)
        (12, [1, 1], 14, True, None),
    ],
)
def test_firk_atk_1_an_attack_without_superiority_is_not_legal(attacker, support, defender, legal, reason):
    verdict = judge_attack(3, 3, attacker, defender, support, FIRK)
    assert (verdict.legal, verdict.reason) == (legal, reason)
    assert verdict.dice is DiceVerdict.LEGAL


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 40), st.lists(st.integers(0, 30), max_size=4), st.integers(1, 40), st.integers(0, 10),
    st.integers(0, 10), st.integers(0, 10),
)  # fmt: skip
def test_firk_12_legal_is_monotone_in_every_army_count(attacker, support, defender, more, extra, fewer):
    """FIRK §12: the attacker *may* add the bordering territories, so more attacking or supporting armies never
    forbid an attack, and more defenders never allow one."""

    def legal(a: int, s: list[int], d: int) -> bool:  # the superiority part (the dice follow the armies)
        return check_superiority(a, s, d, FIRK) is not Superiority.NOT_ALLOWED

    base = legal(attacker, support, defender)
    if base:
        assert legal(attacker + more, support, defender)
        assert legal(attacker, [*support, extra], defender)
        assert legal(attacker, support, max(1, defender - fewer))
    else:
        assert not legal(attacker, support, defender + more)


def test_firk_atk_2_wrong_dice_are_reported_before_superiority():
    verdict = judge_attack(2, 3, 6, 5, (), FIRK)
    assert not verdict.legal and verdict.reason == DiceVerdict.NOT_MAX_ATTACK_DICE.value


def test_rk_dice_1_boxed_rules_never_ask_for_superiority():
    verdict = judge_attack(3, 3, 5, 5, (), UFF)
    assert verdict.legal and verdict.superiority is Superiority.NOT_REQUIRED


def test_firk_atk_1_steward_battle_says_not_legal_with_the_reason(capsys, monkeypatch):
    payload = {
        "preset": "risiko-firk-1",
        "attacker_dice": [6, 5, 1],
        "defender_dice": [5, 5, 2],
        "attacker_armies": 5,
        "defender_armies": 5,
    }
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    assert main(["risiko", "battle", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["superiority"] == "not_allowed"
    assert out["legal"] is False and out["reason"] == "superiority_not_allowed"
