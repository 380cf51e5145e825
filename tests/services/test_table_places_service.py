"""One rule for where players out of the game rank at a table, one answer on every path (RK-WD-1, RK-OVER-1,
RR-WD-1, BOT-STD-1; ARB 23 last sentence, ARB 25, RR 9.3, RR 13.4): the bot's ``/report situation`` and ``/report
points`` (a real database), ``steward risiko score``, ``steward standings`` and ``steward season`` give the same places
and tournament points, whatever the names of the players out of the game or the seats they sat in."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from bot.cli import main
from bot.db.models import Tournament
from bot.services import Services
from tests.support.reports_fixtures import GUILD, REFEREE, build_tournament

UFF = "risiko-ufficiali-2018"
IN_PLAY = {
    "Anna": {"territories": {"Cina": 3, "India": 3, "Mongolia": 3}, "objective": ["Cina", "India", "Mongolia"]},
    "Bruno": {"territories": {"Brasile": 3, "Peru": 3}, "objective": ["Brasile", "Peru"]},
}
# Anna 1st (12), Bruno 2nd (9); the withdrawn and the disqualified player share place 3 and (6 + 3) / 2.
EXPECTED = {"Anna": (1, 12.0), "Bruno": (2, 9.0), "Carla": (3, 4.5), "Zeno": (3, 4.5)}


def situation(withdrawn: str, disqualified: str) -> dict[str, Any]:
    out = [{"name": n, **v} for n, v in IN_PLAY.items()]
    out.append({"name": withdrawn, "territories": {"Egitto": 2}, "objective": ["Egitto"], "status": "withdrawn"})
    out.append({"name": disqualified, "territories": {"Congo": 2}, "objective": ["Congo"], "status": "disqualified"})
    return {"players": out}


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str], doc: Any) -> Any:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(doc).encode())))
    code = main([*command, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def seats_of(view: Any) -> dict[str, tuple[int, float]]:
    return {s.name: (s.rank, s.tournament_points) for s in view.seats}


@pytest.mark.parametrize(
    ("withdrawn", "disqualified", "seats"),
    [
        ("Carla", "Zeno", ["Anna", "Bruno", "Carla", "Zeno"]),
        ("Zeno", "Carla", ["Anna", "Bruno", "Carla", "Zeno"]),
        ("Carla", "Zeno", ["Zeno", "Bruno", "Carla", "Anna"]),
        ("Zeno", "Carla", ["Carla", "Anna", "Zeno", "Bruno"]),
    ],
)
async def test_arb_23_a_withdrawn_and_a_disqualified_player_share_a_place_on_every_path(
    services: Services, capsys, monkeypatch, withdrawn: str, disqualified: str, seats: list[str]
):
    """ARB 23 (last sentence): a player disqualified from the game is treated as a withdrawn one; ARB 25: they get the
    points of the position obtained. Both share place 3 and the average of positions 3 and 4 on the final-situation
    path, the typed-points path, ``steward risiko score``, ``steward standings`` and ``steward season`` — and in the
    bot's own standings. Names and seats decide nothing."""
    rounds = {1: [seats]}
    by_situation = await build_tournament(services, name="Coppa Situazione", preset=UFF, rounds=rounds)
    view = await services.reports.enter_situation(
        REFEREE, by_situation.tables[(1, 1)], json.dumps(situation(withdrawn, disqualified))
    )
    assert seats_of(view) == EXPECTED
    by_outcome = {s.name: (s.outcome, s.decided_by) for s in view.seats}
    assert by_outcome[withdrawn] == ("withdrawn", "status") and by_outcome[disqualified] == ("disqualified", "status")

    typed = await build_tournament(services, name="Coppa Punti", preset=UFF, rounds=rounds)
    values = {"Anna": "15", "Bruno": "7", withdrawn: "rit", disqualified: "sq"}
    view = await services.reports.enter_points(
        REFEREE, typed.tables[(1, 1)], {typed.registrations[n]: v for n, v in values.items()}
    )
    assert seats_of(view) == EXPECTED

    score = cli(capsys, monkeypatch, ["risiko", "score"], {"preset": UFF, **situation(withdrawn, disqualified)})
    assert {p["name"]: (p["rank"], score["tournament_points"][p["name"]]) for p in score["players"]} == EXPECTED
    assert score["unresolved_ties"] == []

    status = {withdrawn: "forfeit", disqualified: "disqualified"}
    table_points = {"Anna": 15, "Bruno": 7, withdrawn: 0, disqualified: 0}
    game = {
        "round": 1,
        "table": 1,
        "players": [
            {"id": n, "table_points": table_points[n], **({"status": status[n]} if n in status else {})} for n in seats
        ],
    }
    standings = cli(capsys, monkeypatch, ["standings"], {"preset": UFF, "games": [game]})["standings"]
    assert {r["player"]: (r["rank"], r["points"]) for r in standings} == EXPECTED
    season = cli(capsys, monkeypatch, ["season"], {"preset": UFF, "tournaments": [
        {"name": "Coppa", "date": "2026-10-03", "games": [game]}]})["season"]  # fmt: skip
    assert {r["player"]: (r["rank"], r["points"]) for r in season} == EXPECTED

    for name in ("Coppa Situazione", "Coppa Punti"):
        bot = await services.standings.compute(GUILD, name)
        assert {line.name: (line.rank, line.points) for line in bot.lines} == EXPECTED


async def test_rr_13_4_two_disqualified_players_share_the_last_place_in_the_report_and_in_steward_standings(
    services: Services, capsys, monkeypatch
):
    """RR 13.4: every disqualified player is "declared last of the game": two of them share the last place (and its
    points), below the forfeit (RR 9.3), in the bot's report and in ``steward standings`` alike."""
    points = [10.0, 6.0, 3.0, 1.0, 0.0]
    b = await build_tournament(
        services, preset="ricochet-v3.3", game="ricochet", rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]}
    )
    async with services.sessionmaker() as session, session.begin():
        t = await session.get(Tournament, b.tournament_id)
        assert t is not None
        t.overrides = {"tournament": {"points_by_place": points}}
    typed = {"Anna": "sq", "Bruno": "4", "Carla": "r", "Dario": "dq"}
    view = await services.reports.enter_points(
        REFEREE, b.tables[(1, 1)], {b.registrations[n]: v for n, v in typed.items()}
    )
    expected = {"Bruno": (1, 10.0), "Carla": (2, 6.0), "Anna": (3, 2.0), "Dario": (3, 2.0)}
    assert seats_of(view) == expected
    doc = {"preset": "ricochet-v3.3", "overrides": {"tournament": {"points_by_place": points}}, "games": [
        {"round": 1, "table": 1, "players": [
            {"id": "Anna", "game_points": 0, "status": "disqualified"}, {"id": "Bruno", "game_points": 4},
            {"id": "Carla", "game_points": 0, "status": "forfeit", "left_at": 1},
            {"id": "Dario", "game_points": 0, "status": "disqualified"}]}]}  # fmt: skip
    standings = cli(capsys, monkeypatch, ["standings"], doc)["standings"]
    assert {r["player"]: (r["rank"], r["points"]) for r in standings} == expected
