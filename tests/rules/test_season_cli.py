"""`steward season` (CLI.md contract): the season table with per-tournament points, the deductions and every
tie-break explained, from the documented example; bad input ends in exit 2 with one line (NP-PTS-1, FIRK-PEN-1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "season" / "np.json"


def run(capsys: pytest.CaptureFixture[str], tmp_path: Path, document: object, *flags: str) -> tuple[int, str, str]:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code = main(["season", "--input", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def test_np_pts_1_the_documented_example_gives_the_contract_s_fields(capsys: pytest.CaptureFixture[str]):
    assert main(["season", "--input", str(EXAMPLE), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["preset"] == "risiko-nostra-passione-2018" and result["points"] == "project"
    fabio, elena, bruno = result["season"][:3]
    assert fabio == fabio | {
        "rank": 1,
        "player": "fabio",
        "points": 21.0,
        "tournaments": 2,
        "games": 2,
        "by_tournament": {"Coppa Autunno": 9.0, "Coppa Inverno": 12.0},
        "deductions": 0.0,
    }
    assert (elena["rank"], elena["points"]) == (2, 21.0)
    assert bruno["points"] == 19.0 and bruno["deductions"] == 2.0
    assert bruno["points"] == sum(bruno["by_tournament"].values()) - bruno["deductions"]
    tie = result["tie_breaks"][0]
    assert tie == {
        "players": ["fabio", "elena"],
        "tie_breaker": "latest_tournament_rank",
        "values": [["elena", 3], ["fabio", 1]],
        "resolved": True,
        "tournament": "Coppa Inverno",
    }


def test_the_text_output_explains_each_tie_in_words(capsys: pytest.CaptureFixture[str]):
    assert main(["season", "--input", str(EXAMPLE), "--text"]) == 0
    out = capsys.readouterr().out
    assert "1. fabio" in out and "[9 | 12]" in out
    assert (
        "tie fabio, elena: the place in the latest tournament they all played (lower is better) (Coppa Inverno)" in out
    )
    assert "deduction bruno: -2 (disturbing)" in out


def test_firk_pen_1_a_seven_point_annual_deduction_and_a_withdrawal(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    document = {
        "preset": "risiko-firk-1",
        "tournaments": [
            {"name": "Serata 1", "date": "2026-07-20", "games": [{"round": 1, "table": 1, "players": [
                {"id": "anna", "table_points": 40}, {"id": "bruno", "table_points": 32},
                {"id": "carla", "table_points": 20}, {"id": "dario", "table_points": 10}]}]},
            {"name": "Serata 2", "date": "2026-07-27", "withdrawn": ["carla"], "games": [{"round": 1, "table": 1,
             "players": [{"id": "bruno", "table_points": 50}, {"id": "anna", "table_points": 45},
                         {"id": "dario", "table_points": 30},
                         {"id": "carla", "table_points": 0, "status": "forfeit"}]}]},
        ],
        "deductions": [{"player": "dario", "points": 7, "code": "disturbing_table", "tournament": "Serata 2"}],
    }  # fmt: skip
    code, out, err = run(capsys, tmp_path, document, "--json")
    assert code == 0, err
    rows = {r["player"]: r for r in json.loads(out)["season"]}
    assert rows["anna"]["by_tournament"] == {"Serata 1": 31.8, "Serata 2": 14.5} and rows["anna"]["rank"] == 1
    assert rows["carla"]["by_tournament"]["Serata 2"] == -27.0 and rows["carla"]["standing"] == {
        "Serata 2": "withdrawn"
    }
    assert rows["dario"]["points"] == -2.0 and rows["dario"]["deductions"] == 7.0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tournaments"][0].update(date="3 ottobre"), "tournaments.0.date"),
        (lambda d: d["tournaments"][1].update(name="Coppa Autunno"), "A tournament is listed twice: Coppa Autunno."),
        (
            lambda d: d["deductions"].append({"player": "zoe", "points": 7, "code": "x"}),
            "A penalty names someone who is not among the players: zoe.",
        ),
        (lambda d: d["tournaments"][0].update(preset="risiko-firk-1"), "tournaments.0.preset"),
        (lambda d: d.update(tournaments=[]), "tournaments"),
        (lambda d: d["tournaments"][0]["games"][0]["players"][0].pop("table_points"), "tournaments.0.games[0]"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, change, message: str):
    document = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    change(document)
    code, out, err = run(capsys, tmp_path, document, "--json")
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
