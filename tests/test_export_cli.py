"""``steward verify``, ``steward modulo`` and others on the whole-tournament export (CLI.md, docs/export.md):
exit codes and one-line answers as the contract fixes them, the example export verified as the demo wrote it."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.support.modulo_contract import check

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "export" / "tournament.json"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def run(args: list[str], capsys: Any, monkeypatch: Any, stdin: Any = None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(stdin)))
    capsys.readouterr()
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_steward_verify_says_verified_for_the_example_export(capsys, monkeypatch):
    code, out, _ = run(["verify", str(EXAMPLE)], capsys, monkeypatch)
    assert code == 0 and out.strip().splitlines()[-1].startswith("verified: Torneo Demo RisiKo!")
    assert "4 round(s) replayed" in out and "final classification: as the export says" in out


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (lambda d: d["rounds"][1]["draw"]["tables_drawn"][0].reverse(), "round 2, table 1"),
        (lambda d: d["standings"][0].update(points=99.0), "standings, player"),
        (lambda d: d["final_classification"][0].update(place=2), "final classification, player"),
    ],
)
def test_steward_verify_exits_1_naming_the_first_thing_that_does_not_hold(capsys, monkeypatch, where, expected):
    doc = copy.deepcopy(load())
    where(doc)
    code, out, _ = run(["verify"], capsys, monkeypatch, stdin=doc)
    assert code == 1 and out.startswith("not verified: ") and expected in out and len(out.splitlines()) == 1


def test_steward_verify_exits_2_on_an_unreadable_document(capsys, monkeypatch):
    code, _, err = run(["verify"], capsys, monkeypatch, stdin={"schema": "steward-export/1", "players": []})
    assert code == 2 and err.startswith("error: ") and "tournament" in err


def test_steward_modulo_writes_a_workbook_the_contract_accepts(capsys, monkeypatch, tmp_path):
    out = tmp_path / "m.xlsx"
    code, text, _ = run(["modulo", "--input", str(EXAMPLE), "--out", str(out), "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(text)["players"] == 38
    assert check(out.read_bytes()) == ([], [])


def test_steward_modulo_refuses_naming_what_is_missing(capsys, monkeypatch, tmp_path):
    doc = load()
    for p in doc["players"][:3]:
        p.pop("surname")
    doc["tournament"].pop("publishing")
    out = tmp_path / "m.xlsx"
    code, _, err = run(["modulo", "--out", str(out)], capsys, monkeypatch, stdin=doc)
    assert code == 2 and not out.exists() and len(err.strip().splitlines()) == 1
    assert "no organiser" in err and "players without a surname: " + doc["players"][0]["name"] in err


def test_steward_standings_and_draw_read_the_export(capsys, monkeypatch):
    code, out, _ = run(["standings", "--input", str(EXAMPLE), "--json"], capsys, monkeypatch)
    result = json.loads(out)
    doc = load()
    assert code == 0 and result["final"]["complete"]
    assert [r["place"] for r in result["final"]["classification"]] == [r["place"] for r in doc["final_classification"]]
    code, out, _ = run(["draw", "--input", str(EXAMPLE), "--round", "1", "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out)["tables"] == doc["rounds"][0]["draw"]["tables_drawn"]
