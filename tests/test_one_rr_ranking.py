"""Issue 10, one home per rule decision: the bot's report entry and `steward standings` rank a Ricochet Robots table
with the same function (``bot.rules.ricochet.game.final_ranking``): RR-WIN-1, RR-WD-1 (RR 9.3, 13.3, 13.4)."""

from __future__ import annotations

import io
import json

from bot.cli import main
from bot.rules.tournament.rescore import ricochet_lines

POINTS = [10.0, 6.0, 3.0, 1.0]  # a points_by_place override, so the places show in the standings


def test_rr_wd_1_the_bot_and_steward_standings_give_the_same_places_and_points(capsys, monkeypatch) -> None:
    typed = [(1, "played", 3.0), (2, "withdrawn", 0.0), (3, "disqualified", 0.0), (4, "played", 3.0)]
    lines = ricochet_lines(POINTS, typed)
    bot = {x.registration_id: (x.rank, x.tournament_points) for x in lines}
    assert bot == {1: (1, 8.0), 4: (1, 8.0), 2: (3, 3.0), 3: (4, 1.0)}  # joint winners share 10 and 6
    doc = {
        "preset": "ricochet-v3.3",
        "overrides": {"tournament": {"points_by_place": POINTS}},
        "games": [
            {
                "round": 1,
                "table": 1,
                "players": [
                    {"id": 1, "game_points": 3},
                    {"id": 2, "game_points": 0, "status": "forfeit", "left_at": 1},
                    {"id": 3, "game_points": 0, "status": "disqualified"},
                    {"id": 4, "game_points": 3},
                ],
            }
        ],
    }
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((json.dumps(doc)).encode())))
    assert main(["standings", "--json"]) == 0
    cli = {row["player"]: row["points"] for row in json.loads(capsys.readouterr().out)["standings"]}
    assert cli == {pid: pts for pid, (_, pts) in bot.items()}
