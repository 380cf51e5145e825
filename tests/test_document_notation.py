"""Issue #48, "one JSON-document notation": a record about a player names them under ``player`` in every document
the bot and ``steward`` read and write (a game's row like a deduction, an event or an export's result); the older
``"id"`` of a game's row is still read, so old files work; a row naming its player twice is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.rules.ruleset import load_ruleset
from bot.rules.tournament.export import read_export, standings_document
from bot.tools._common import BadInput
from bot.tools.season import SeasonDocument
from bot.tools.tournament import StandingsDocument, game_results, validated

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _rows(key: str) -> list[dict[str, Any]]:
    return [{key: name, "table_points": points} for name, points in (("anna", 61), ("bruno", 40), ("carla", 33))]


def _places(rows: list[dict[str, Any]]) -> dict[object, int]:
    games = [{"round": 1, "table": 1, "players": rows}]
    doc = validated(StandingsDocument, {"preset": "risiko-firk-1", "games": games})
    return {e.player: e.order for e in game_results(doc.games, load_ruleset("risiko-firk-1"))[0].entries}


def test_a_game_s_row_names_its_player_under_player_and_the_older_id_reads_the_same():
    assert _places(_rows("player")) == _places(_rows("id")) == {"anna": 1, "bruno": 2, "carla": 3}


def test_a_row_naming_its_player_twice_or_not_at_all_is_refused_naming_the_field():
    both = [{**r, "id": r["player"]} for r in _rows("player")]
    with pytest.raises(BadInput, match=r"players\.0\.id"):
        _places(both)
    with pytest.raises(BadInput, match=r"players\.0\.player"):
        _places([{"table_points": 61}])


def test_the_season_reads_both_keys_in_its_games_and_one_off_games():
    """``steward season``: the documented example (``player``) and the same with the older ``id`` are one season."""
    new = json.loads((EXAMPLES / "season" / "np.json").read_text(encoding="utf-8"))
    old = json.loads(json.dumps(new))
    for row in (row for t in old["tournaments"] for g in t["games"] for row in g["players"]):
        row["id"] = row.pop("player")
    one_off = {"one_off_games": [{"players": [{"player": "anna", "place": 1}, {"id": "bruno", "place": 2}]}]}
    a = SeasonDocument.model_validate({**new, **one_off})
    b = SeasonDocument.model_validate(old)
    assert [g.players for t in a.tournaments for g in t.games] == [g.players for t in b.tournaments for g in t.games]
    assert [p.id for p in a.one_off_games[0].players] == ["anna", "bruno"]


def test_the_standings_written_from_an_export_name_players_as_the_export_does():
    """The standings document made from a whole-tournament export (``steward standings`` of an export) writes
    ``player`` in its rows, as the export's results and the deductions do."""
    export = read_export(json.loads((EXAMPLES / "export" / "tournament.json").read_text(encoding="utf-8")))
    doc = standings_document(export)
    rows = [row for game in doc["games"] for row in game["players"]]
    assert rows and all("player" in row and "id" not in row for row in rows)
    assert {row["player"] for row in rows} <= {p.id for p in export.players}
    validated(StandingsDocument, doc)  # and it reads back
