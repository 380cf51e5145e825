"""``steward risiko ...`` contracts of CLI.md and the exit-2 errors (RK-DICE-1, NP-PTS-1, FIRK-PTS-1, FIRK-SCORE-1)."""

import io
import json
import time

import pytest

from bot.cli import main
from tests.support.timing import wall_limit


def run(capsys, monkeypatch, command, payload):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    code = main(["risiko", command, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


def test_rk_dice_1_battle_contract(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "battle", {"attacker_dice": [6, 5, 1], "defender_dice": [5, 5, 2]})
    assert code == 0 and (out["attacker_losses"], out["defender_losses"]) == (2, 1)


def test_firk_atk_2_battle_checks_dice_counts_with_a_preset(capsys, monkeypatch):
    payload = {
        "preset": "risiko-firk-1",
        "attacker_dice": [6, 5],
        "defender_dice": [5, 5, 2],
        "attacker_armies": 3,
        "defender_armies": 4,
    }
    code, out, _ = run(capsys, monkeypatch, "battle", payload)
    assert code == 0 and out["dice_check"] == "fewer_attack_than_defence_dice" and out["legal"] is False


def test_rk_dice_1_odds_contract_single_roll_and_battle(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "odds", {"attacker_dice": 3, "defender_dice": 3})
    assert code == 0
    assert out["attacker_loss_probabilities"][0].split("/") in (["6420", "46656"], ["535", "3888"])
    assert out["attacker_loss_counts"] == [6420, 10017, 12348, 17871]
    code, out, _ = run(capsys, monkeypatch, "odds", {"attackers": 1, "defenders": 1})
    assert code == 0 and out["attacker_wins"] == "5/12"


def test_firk_pts_1_points_contract(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "points", {"preset": "risiko-firk-1", "table_points": [40, 32, 20, 10]})
    assert code == 0 and out["tournament_points"] == [31.8, 14.2, 5.0, 0.0]


def test_firk_score_1_score_contract_players_in_input_order_with_rank_and_explanation(capsys, monkeypatch):
    payload = {
        "preset": "risiko-firk-1",
        "players": [
            {"name": "Anna", "territories": {"Cina": 5, "India": 2, "Siam": 1}, "cards": 2,
             "objective": ["Cina", "India", "Mongolia"], "achieved_objective": False, "status": "active"},
            {"name": "Bea", "territories": {"Argentina": 3}},
        ],
    }  # fmt: skip
    code, out, _ = run(capsys, monkeypatch, "score", payload)
    assert code == 0
    assert [p["name"] for p in out["players"]] == ["Anna", "Bea"]
    anna = out["players"][0]
    assert (anna["table_points"], anna["rank"]) == (26, 1)
    assert anna["explanation"]["strip"] == ["Cina", "India", "Siam"]
    assert out["tournament_points"]["Anna"] == 33.4


def test_np_score_1_objective_by_card_name_is_flagged_unverified(capsys, monkeypatch):
    payload = {
        "preset": "risiko-nostra-passione-2018",
        "players": [{"name": "Anna", "territories": {"Cina": 1}, "objective": "Letto"}],
    }
    code, out, _ = run(capsys, monkeypatch, "score", payload)
    assert code == 0 and out["warnings"] == ["objective_unverified:Letto"]
    assert out["players"][0]["explanation"]["objective_source"] == "unverified_card:Letto"


@pytest.mark.parametrize(
    ("command", "payload", "needle"),
    [
        ("battle", {"attacker_dice": [1, 2, 3, 4], "defender_dice": [1]}, "[1, 2, 3, 4]"),
        ("odds", {"attackers": -3, "defenders": 2}, "-3"),
        (
            "score",
            {"preset": "risiko-firk-1", "players": [{"name": "A", "territories": {"Atlantide": 1}}]},
            "Atlantide",
        ),
        (
            "score",
            {
                "preset": "risiko-firk-1",
                "players": [{"name": "A", "territories": {"Cina": 1}}, {"name": "B", "territories": {"Cina": 2}}],
            },
            "Cina",
        ),
        ("score", {"preset": "risiko-firk-1", "players": [{"name": "A", "territories": {"Cina": -1}}]}, "-1"),
        ("points", {"preset": "risiko-firk-1", "table_points": [1, 2], "extra": 1}, "extra"),
        ("points", {"preset": "risiko-2099", "table_points": [1, 2]}, "risiko-2099"),
    ],
)
def test_rk_dice_1_and_firk_score_1_bad_input_exits_2_with_one_line_naming_the_value(
    capsys, monkeypatch, command, payload, needle
):
    code, _, err = run(capsys, monkeypatch, command, payload)
    assert code == 2
    assert err.count("\n") == 1 and needle in err


def test_rk_sd_1_sdadata_command_reports_who_rolls_next(capsys, monkeypatch):
    events = [{"event": "time_up"}] + [{"event": "turn_ended", "player": p} for p in ["A", "B", "C"] * 2]
    code, out, _ = run(
        capsys,
        monkeypatch,
        "sdadata",
        {"preset": "risiko-nostra-passione-2018", "players": ["A", "B", "C"], "events": events},
    )
    assert code == 0 and out["next"] == {"kind": "roll", "player": "C", "threshold": 4}


def test_rk_rein_1_reinforcements_and_rk_lim_1_limit_commands(capsys, monkeypatch):
    oceania = ["Indonesia", "Nuova Guinea", "Australia Occidentale", "Australia Orientale"]
    code, out, _ = run(capsys, monkeypatch, "reinforcements", {"territories": oceania})
    assert code == 0 and out["total"] == 1 + 2
    code, out, _ = run(
        capsys, monkeypatch, "limit", {"preset": "risiko-ufficiali-2018", "armies_on_board": 140, "found_by": "other"}
    )
    assert code == 0 and (out["remove"], out["new_limit"]) == (20, 120)


@pytest.mark.parametrize(
    ("command", "payload"),
    [
        ("sdadata", {"players": ["A", "B"], "events": 1}),
        ("sdadata", {"players": ["A", ["B"]], "events": []}),
        ("limit", {"kind": "distribution", "deal": [["Cina", "A"], 7]}),
        ("score", {"preset": "risiko-firk-1", "players": [{"name": "A", "territories": {"Cina": "3"}}]}),
        ("cards", {"preset": "risiko-firk-1", "cards_in_hand": 5, "exchange": 4}),
        ("odds", {"attacker_dice": 4, "defender_dice": 1}),
    ],
)
def test_rk_sd_1_and_rk_set_2_malformed_input_is_a_clean_exit_2_not_a_traceback(capsys, monkeypatch, command, payload):
    code, _, err = run(capsys, monkeypatch, command, payload)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("points", "says"),
    [
        ([1e308, -1e308], "beyond what a game scores"),
        (["40", "x"], "table_points.0 must be a number"),  # was "Invalid literal for Fraction"
        ([True, 1], "table_points.0 must be a number"),
        ([], "a table seats 1 to 10 players"),
    ],
)
def test_points_refuse_what_no_table_scores(capsys, monkeypatch, points, says):
    """FIRK-PTS-1 input: table points are finite numbers a game can reach, one per seat; never a silent reading."""
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"preset": "risiko-firk-1", "table_points": points})))
    assert main(["risiko", "points", "--json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("command", "payload", "field", "says"),
    [
        # was 70 s and 541 MB: a RisiKo! deck holds 42 territory cards and 2 jolly, no hand more than 44
        ("cards", {"preset": "risiko-firk-1", "cards_in_hand": 100_000_000}, "cards_in_hand", "at most 44"),
        ("cards", {"preset": "risiko-firk-1", "cards_in_hand": 45}, "cards_in_hand", "at most 44"),
        # was 8 s of exact fractions: 300 a side is already more than double the UFF/FIRK army limit
        ("odds", {"attackers": 500, "defenders": 500}, "attackers", "at most 300"),
        ("odds", {"attackers": 10, "defenders": 301}, "defenders", "at most 300"),
    ],
)
def test_cards_and_odds_past_what_the_game_allows_are_refused_at_once_with_the_limit(
    capsys, monkeypatch, command, payload, field, says
):
    """Defect 10: every input is bounded by what the game allows — a hand of 100,000,000 cards or odds of
    500 × 500 armies end at once with exit 2 and one line naming the field and its limit, no traceback."""
    started = time.perf_counter()
    code, _, err = run(capsys, monkeypatch, command, payload)
    assert time.perf_counter() - started < wall_limit(2.0)  # refused before any work, not after computing
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert f"{field}=" in err and says in err and "Traceback" not in err, err


def test_arb_23_25_steward_risiko_score_ranks_a_disqualified_player_with_the_withdrawn_as_the_standings_do(
    capsys, monkeypatch
):
    """ARB art. 23 (last sentence) and 25: the command line ranks a disqualified player in the withdrawals' tier, as
    the bot and the standings do (the preset's disqualified_ranks, one decision: bot.rules.outcomes)."""
    payload = {
        "preset": "risiko-firk-1",
        "players": [
            {"name": "Anna", "territories": {"Cina": 5}, "status": "disqualified"},
            {"name": "Bea", "territories": {"Argentina": 3}, "status": "withdrawn"},
            {"name": "Carla", "territories": {"India": 2}},
        ],
    }
    code, out, _ = run(capsys, monkeypatch, "score", payload)
    assert code == 0
    assert {p["name"]: p["rank"] for p in out["players"]} == {"Anna": 2, "Bea": 2, "Carla": 1}
    payload["overrides"] = {"tournament": {"disqualified_ranks": "below_withdrawn"}}
    code, out, _ = run(capsys, monkeypatch, "score", payload)
    assert {p["name"]: p["rank"] for p in out["players"]} == {"Anna": 3, "Bea": 2, "Carla": 1}


def test_firk_punteggio_9_the_command_line_scores_the_last_round_s_special_tables_as_the_bot(capsys, monkeypatch):
    """FIRK punteggio 9 and §9: the head to head between the 5th and 6th pays 31 / 15 and the 5th sitting out 15 if
    5th in the standings, else 1 — the points the bot gives (one function), not the gap formula's 33 / 13."""
    base = {"preset": "risiko-firk-1", "table_points": [40, 20]}
    assert run(capsys, monkeypatch, "points", base)[1]["tournament_points"] == [33.0, 13.0]
    code, out, _ = run(capsys, monkeypatch, "points", {**base, "special": "head_to_head"})
    assert code == 0 and out["tournament_points"] == [31.0, 15.0]
    sit = {"preset": "risiko-firk-1", "table_points": [0], "special": "sit_out"}
    assert run(capsys, monkeypatch, "points", {**sit, "overall_rank": 5})[1]["tournament_points"] == [15.0]
    assert run(capsys, monkeypatch, "points", {**sit, "overall_rank": 3})[1]["tournament_points"] == [1.0]
    code, _, err = run(capsys, monkeypatch, "points", sit)
    assert code == 2 and "sit_out_needs_overall_rank" in err
