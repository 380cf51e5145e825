"""``steward draw`` / ``steward standings`` (CLI.md contracts), driven through ``bot.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

from bot.cli import main

# A copy of ../shared/data/draws/n33_s1.json, vendored so the test runs on a fresh clone.
N33 = Path(__file__).resolve().parents[2] / "data" / "draws" / "n33_s1.json"


def _run(capsys, argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io

        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_draw_on_an_instance_prints_tables_and_report_and_the_seed_reproduces_it(capsys):
    """CLI.md `steward draw`: tables with the instance's sizes, report with criteria, bound and whether met."""
    rc, out, _ = _run(capsys, ["draw", "-i", str(N33), "--seed", "5", "--json"])
    assert rc == 0
    doc = json.loads(out)
    inst = json.loads(N33.read_text())
    assert [len(t) for t in doc["tables"]] == inst["table_sizes"]
    rep = doc["report"]
    assert rep["seed"] == 5 and rep["bound_met"] is True and rep["optimality"] == "bound_met"
    assert list(rep["criteria"]) == ["five_repeat", "winner_pairs", "club_pairs", "repeat_pairs"]
    _, out2, _ = _run(capsys, ["draw", "-i", str(N33), "--seed", "5", "--json"])
    assert json.loads(out2)["tables"] == doc["tables"]


def test_tour_r2_1_cli_draw_round_three_on_an_instance_is_labelled_round_three_with_its_history(capsys):
    """TOUR-R2-1 beyond round 2: `steward draw --round 3` on an instance file draws over the whole
    history and says so — the report is labelled round 3 (as the bot's own round-3 draw), not round 2."""
    rc, out, _ = _run(capsys, ["draw", "-i", str(N33), "--round", "3", "--seed", "7", "--json"])
    assert rc == 0
    doc = json.loads(out)
    assert doc["report"]["kind"] == "round3" and doc["history"]
    _, again, _ = _run(capsys, ["draw", "-i", str(N33), "--round", "3", "--seed", "7", "--json"])
    assert json.loads(again)["tables"] == doc["tables"]


def test_cli_draw_text_mode_and_a_hand_swap_report_the_cost(capsys):
    """BOT-TAB-2 offline: --swap shows before/after per criterion."""
    rc, out, _ = _run(capsys, ["draw", "-i", str(N33), "--seed", "1", "--json"])
    tables = json.loads(out)["tables"]
    a, b = tables[0][0], tables[1][0]
    rc, out, _ = _run(capsys, ["draw", "-i", str(N33), "--seed", "1", "--text", "--swap", str(a), str(b)])
    assert rc == 0
    assert "Table   1" in out and "Hand change" in out
    assert "optimality: optimal: every criterion at its lowest possible" in out


def test_cli_draw_from_a_tournament_export_uses_the_preset(capsys, monkeypatch):
    """steward-tournament/1 export: UFF preset, round 1, clubs separated, 5-tables last."""
    players = [{"id": i, "club": f"C{i % 4}"} for i in range(1, 19)]
    doc = {"schema": "steward-tournament/1", "preset": "risiko-ufficiali-2018", "round": 1, "players": players}
    rc, out, err = _run(capsys, ["draw", "--seed", "2", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 0, err
    res = json.loads(out)
    assert [len(t) for t in res["tables"]] == [4, 4, 5, 5]
    assert res["report"]["criteria"] == res["report"]["lower_bound"]


def test_cli_draw_firk_round_one_is_seeded_with_family_moves(capsys, monkeypatch):
    """FIRK-SEED-1 / FIRK-FAM-1 through the CLI."""
    doc = {
        "schema": "steward-tournament/1",
        "preset": "risiko-firk-1",
        "round": 1,
        "players": [{"id": i} for i in range(1, 13)],
        "previous_standings": list(range(1, 13)),
        "family_pairs": [[1, 2]],
    }
    rc, out, err = _run(capsys, ["draw", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 0, err
    res = json.loads(out)
    assert res["tables"] == [[1, 3, 4, 5], [2, 6, 7, 8], [9, 10, 11, 12]]
    assert res["report"]["criteria"]["family_pairs"] == 0
    assert res["report"]["notes"] == ["family_move:2:1->2:5"]


def test_cli_draw_rejects_an_unknown_field_with_exit_two(capsys, monkeypatch):
    doc = {"schema": "steward-tournament/1", "preset": "risiko-ufficiali-2018", "players": [], "plyers": []}
    rc, _, err = _run(capsys, ["draw", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 2 and "plyers" in err


def test_cli_standings_explains_the_firk_tie_break(capsys, monkeypatch):
    """BOT-STD-1 through the CLI, with FIRK points computed from table points (FIRK-PTS-1)."""
    doc = {
        "preset": "risiko-firk-1",
        "games": [
            {"round": 1, "table": 1, "players": [{"id": "a", "table_points": 40}, {"id": "b", "table_points": 32}]},
            {"round": 1, "table": 2, "players": [{"id": "c", "table_points": 50}, {"id": "d", "table_points": 42}]},
        ],
    }
    rc, out, err = _run(capsys, ["standings", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 0, err
    res = json.loads(out)
    assert [(r["player"], r["points"]) for r in res["standings"]] == [
        ("c", 31.8),
        ("a", 31.8),
        ("d", 14.2),
        ("b", 14.2),  # d scored 42 table points, b 32
    ]
    assert res["tie_breaks"][0]["tie_breaker"] == "first_game_table_points"
    rc, text, _ = _run(capsys, ["standings", "--text"], json.dumps(doc), monkeypatch)
    assert "tie c, a: the table points of the first game" in text


def test_cli_standings_ricochet_ranks_from_tokens(capsys, monkeypatch):
    doc = {
        "preset": "ricochet-v3.3",
        "games": [
            {
                "round": 1,
                "table": 1,
                "players": [
                    {"id": "a", "game_points": 4},
                    {"id": "b", "game_points": 2},
                    {"id": "c", "game_points": 3, "status": "forfeit", "left_at": 1},
                ],
            }
        ],
    }
    rc, out, err = _run(capsys, ["standings", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 0, err
    assert [(r["player"], r["points"]) for r in json.loads(out)["standings"]] == [("a", 4), ("b", 2), ("c", 0)]


def test_cli_draw_firk_last_round_with_five_present_seats_the_top_four_and_the_fifth_sits_out(capsys, monkeypatch):
    """FIRK-SIZE-1 (FIRK §9): five present in the last round -> the 5th of the standings sits out."""
    doc = {
        "schema": "steward-tournament/1",
        "preset": "risiko-firk-1",
        "round": 2,
        "players": [{"id": i} for i in range(1, 6)],
        "previous_standings": [3, 1, 2, 5, 4],
    }
    rc, out, err = _run(capsys, ["draw", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 0, err
    res = json.loads(out)
    assert res["tables"] == [[3, 1, 2, 5], [4]]  # the 5th sits out: a one-seat table scored 15 or 1 by the bot
    assert res["special_tables"] == {"2": "sit_out"} and res["report"]["notes"] == ["sit_out:4"]


def test_firk_punteggio_9_steward_standings_scores_the_head_to_head_and_the_sit_out_as_the_bot(capsys, monkeypatch):
    """FIRK punteggio 9 and §9 through ``steward standings``: a game marked ``head_to_head`` pays 31 / 15 and one
    marked ``sit_out`` 15 to the 5th in the standings (1 otherwise), as the bot scores them — not the gap formula."""
    doc = {
        "preset": "risiko-firk-1",
        "games": [
            {"round": 3, "table": 2, "special": "head_to_head",
             "players": [{"id": "e", "table_points": 40}, {"id": "f", "table_points": 20}]},
            {"round": 3, "table": 3, "special": "sit_out", "overall_rank": 5, "players": [{"id": "g"}]},
        ],
    }  # fmt: skip
    rc, out, err = _run(capsys, ["standings", "--json"], json.dumps(doc), monkeypatch)
    assert rc == 0, err
    assert {r["player"]: r["points"] for r in json.loads(out)["standings"]} == {"e": 31.0, "f": 15.0, "g": 15.0}
    doc["games"][0]["special"] = None
    rc, out, _ = _run(capsys, ["standings", "--json"], json.dumps(doc), monkeypatch)
    assert {r["player"]: r["points"] for r in json.loads(out)["standings"]}["e"] == 33.0  # an ordinary table
