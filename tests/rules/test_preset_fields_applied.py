"""Preset fields that now have a rule applying them (no key read by nothing)."""

from __future__ import annotations

import io
import json

import pytest

from bot.cli import main
from bot.rules.risiko.config import shipped_rules
from bot.rules.risiko.endgame import elimination_allowed, time_limit_reached
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.limits import FoundBy, OverOutcome, over_placement_check
from bot.rules.risiko.sanctions import check_kind
from bot.rules.ruleset import load_ruleset

FIRK = shipped_rules("risiko-firk-1")
NP = shipped_rules("risiko-nostra-passione-2018")


def test_rk_elim_1_no_elimination_before_the_end_of_turn_four():
    assert [elimination_allowed(NP, t) for t in (0, 3, 4, 5)] == [False, False, True, True]
    assert elimination_allowed(FIRK, 4)  # FIRK §23: the same rule


def test_rk_sd_1_and_firk_time_1_time_limits_move_with_recovery_minutes():
    """NP 120 minutes, FIRK about 1 h 45 (105); TOUR-TIME-1: recovery minutes push the limit."""
    assert not time_limit_reached(NP.end, 119) and time_limit_reached(NP.end, 120)
    assert not time_limit_reached(NP.end, 125, recovery_minutes=10) and time_limit_reached(NP.end, 130, 10)
    assert time_limit_reached(FIRK.end, 105) and not time_limit_reached(FIRK.end, 104)


def test_firk_over_1_deliberate_over_placement_puts_out_and_costs_25_standing_points():
    """FIRK §6 (reading 5): the −25 is read and returned with the verdict."""
    v = over_placement_check(12, 8, FoundBy.OTHER, FIRK.limits, deliberate=True, sanctions=FIRK.sanctions)
    assert v.outcome is OverOutcome.OUT_OF_GAME and v.standing_points == -25
    plain = over_placement_check(12, 8, FoundBy.OTHER, FIRK.limits, deliberate=False, sanctions=FIRK.sanctions)
    assert plain.outcome is OverOutcome.CONTINUE and plain.standing_points == 0


def test_firk_over_1_steward_risiko_limit_prints_the_standing_points(capsys, monkeypatch):
    payload = {"preset": "risiko-firk-1", "kind": "over_placement", "placed": 12, "due": 8, "deliberate": True}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    assert main(["risiko", "limit", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "out_of_game" and out["standing_points"] == -25


def test_firk_wd_1_and_pen_1_standing_deductions_by_code():
    rules = load_ruleset("risiko-firk-1").tournament
    assert (rules.standing_deduction("withdrawal"), rules.standing_deduction("disturbance")) == (25, 7)
    assert load_ruleset("risiko-ufficiali-2018").tournament.standing_deduction("withdrawal") == 0


def test_np_fmt_1_the_knockout_plan_uses_the_preset_final_size():
    """NP-FMT-1: 100 players -> 20 tables of 5 -> 5 tables of 4 -> final of 5 (NP's own example)."""
    plan = load_ruleset("risiko-nostra-passione-2018").tournament.knockout_plan(100)
    assert [r.sizes for r in plan] == [(5,) * 20, (4,) * 5, (5,)]


def test_rk_san_1_sanction_kinds_come_from_the_preset():
    assert check_kind(FIRK.sanctions, "freeze") == "freeze"
    with pytest.raises(RisikoError) as err:
        check_kind(NP.sanctions, "freeze")
    assert err.value.code == "unknown_sanction_kind"


def test_rr_min_1_steward_rr_defaults_come_from_the_preset():
    """RR-MIN-1: without minimum_moves the RR preset's minimum (5) applies, not a literal in the CLI."""
    from bot.tools import rr

    assert rr.PRESET.minimum_moves == load_ruleset("ricochet-v3.3").ricochet.minimum_moves == 5


@pytest.mark.parametrize(
    ("command", "payload", "field"),
    [
        (
            ["risiko", "points"],
            {"preset": "risiko-ufficiali-2018", "table_points": [3, 2], "overrides": {"scoring": {"boxed_method": 3}}},
            "scoring.boxed_method",
        ),
        (
            ["risiko", "battle"],
            {
                "preset": "risiko-firk-1",
                "attacker_dice": [6],
                "defender_dice": [1],
                "overrides": {"risiko": {"dice": {"max_attack_dice": 0}}},
            },
            "risiko.dice.max_attack_dice",
        ),
        (
            ["standings"],
            {"preset": "risiko-firk-1", "games": [], "overrides": {"tournament": {"table_size": 0}}},
            "tournament.table_size",
        ),
    ],
)
def test_steward_commands_refuse_a_bad_override_naming_the_field(capsys, monkeypatch, command, payload, field):
    """Issue 10: the CLI runs the same checks as /tournament create: exit 2 and one line naming the field."""
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    assert main([*command, "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err and "allowed" in err
