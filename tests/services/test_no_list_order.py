"""The invariant on the services (BOT-STD-1, RK-WD-1, FIRK-TIE-2, TOUR-FIN-1): renaming the players and seating them
in another order — so their registration ids come in another order too — changes no table's places and points, no
standings rank and no final place, on a real SQLite file and on PostgreSQL. (The draws' lots are the published
exception and are held by the rules' own property tests.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.services import Services
from tests.support.reports_fixtures import GUILD, REFEREE, build_tournament, player

FIRST = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fabio", "Gino", "Ilaria", "Luca", "Marta", "Nino", "Olga", "Pia",
         "Rino", "Sara", "Tino"]  # fmt: skip
NAMES = [f"{first} {i}" for i, first in enumerate(FIRST)]
ROUND_1 = [NAMES[0:4], NAMES[4:8], NAMES[8:12], NAMES[12:16]]
ROUND_2 = [[NAMES[i], NAMES[i + 4], NAMES[i + 8], NAMES[i + 12]] for i in range(4)]
# table points by name and round: level totals across tables, a withdrawal and a disqualification at one table
POINTS = {1: {n: 40 + 7 * (i % 4) for i, n in enumerate(NAMES)}, 2: {n: 70 - 9 * (i // 4) for i, n in enumerate(NAMES)}}
OUT = {(2, NAMES[1]): "ritirato", (2, NAMES[9]): "squalificato"}  # both at round 2's table 2


async def play(
    services: Services, preset: str, name: str, rename: dict[str, str], rng: random.Random
) -> dict[str, Any]:
    """The same two rounds, each table seated in a shuffled order, every player under ``rename``: what the bot
    stored and computed, keyed by the original names."""
    back = {v: k for k, v in rename.items()}
    rounds = {r: [rng.sample([rename[n] for n in t], len(t)) for t in tables]
              for r, tables in ((1, ROUND_1), (2, ROUND_2))}  # fmt: skip
    b = await build_tournament(services, name=name, preset=preset, rounds=rounds)
    for (number, table), table_id in sorted(b.tables.items()):
        seated = rounds[number][table - 1]
        typed = {b.registrations[n]: OUT.get((number, back[n]), str(POINTS[number][back[n]])) for n in seated}
        await services.reports.enter_points(REFEREE, table_id, typed)
        for n in seated:
            await services.reports.sign(player(b.users[n]), table_id)
        await services.reports.countersign(REFEREE, table_id)
    standings = await services.standings.compute(GUILD, name)
    final = await services.classification.show(GUILD, name)
    tables = {}
    for (number, table), table_id in b.tables.items():
        report = await services.reports.view(GUILD, table_id)
        tables[(number, table)] = {back[s.name]: (s.rank, s.tournament_points) for s in report.seats}
    return {
        "tables": tables,
        "standings": {back[line.name]: (line.rank, line.points) for line in standings.lines},
        "final": {back[line.name]: line.place for line in final.lines} if final is not None else None,
    }


@pytest.mark.parametrize("preset", ["risiko-ufficiali-2018", "risiko-firk-1"])
async def test_no_list_order_renaming_and_reseating_players_changes_no_outcome(services: Services, preset: str):
    base = await play(services, preset, "Base", {n: n for n in NAMES}, random.Random(0))
    assert base["tables"][(2, 2)][NAMES[1]][0] == base["tables"][(2, 2)][NAMES[9]][0] == 3  # one shared place
    for k in (1, 2):
        rng = random.Random(k)
        rename = {n: f"{'ZYXWVUTSRQPONMLK'[i]}{rng.randrange(1000)} {n}" for i, n in enumerate(NAMES)}
        other = await play(services, preset, f"Other {k}", rename, rng)
        assert other == base


async def test_rr_9_3_two_forfeits_at_a_table_share_their_place_whatever_the_seats(services: Services):
    """RR 9.3 ranks forfeits by when they left; the bot's report records who left, not when, so two forfeits share
    the place their tier gives (and its points) — never the seat order (the bot seats them either way round)."""
    places = []
    for k, seats in enumerate((["Anna", "Bruno", "Carla", "Dario"], ["Anna", "Dario", "Carla", "Bruno"])):
        b = await build_tournament(services, name=f"RR {k}", preset="ricochet-v3.3", game="ricochet",
                                   rounds={1: [seats]})  # fmt: skip
        table_id = b.tables[(1, 1)]
        typed = {b.registrations["Anna"]: "3", b.registrations["Carla"]: "1"}
        typed |= {b.registrations["Bruno"]: "ritirato", b.registrations["Dario"]: "ritirato"}
        await services.reports.enter_points(REFEREE, table_id, typed)
        report = await services.reports.view(GUILD, table_id)
        places.append({s.name: (s.rank, s.tournament_points) for s in report.seats})
    assert places[0] == places[1] and places[0]["Bruno"] == places[0]["Dario"] and places[0]["Bruno"][0] == 3


def test_rr_9_3_steward_standings_orders_forfeits_by_left_at_and_shares_the_same_moment():
    from bot.rules.ruleset import load_ruleset
    from bot.tools.tournament import StandingsDocument, game_results, validated

    def places(rows: list[dict[str, Any]]) -> dict[str, int]:
        doc = validated(StandingsDocument, {"preset": "ricochet-v3.3", "games": [{"round": 1, "table": 1,
                                                                                  "players": rows}]})  # fmt: skip
        return {e.player: e.order for e in game_results(doc.games, load_ruleset("ricochet-v3.3"))[0].entries}

    rows: list[dict[str, Any]] = [
        {"id": "a", "game_points": 3},
        {"id": "b", "game_points": 0, "status": "forfeit", "left_at": 1},
        {"id": "c", "game_points": 1},
        {"id": "d", "game_points": 0, "status": "forfeit", "left_at": 2},
    ]
    assert places(rows) == {"a": 1, "c": 2, "d": 3, "b": 4}  # d left later: ranks higher
    same = [dict(r, left_at=0) if r["id"] in "bd" else r for r in rows]
    assert places(same) == places(list(reversed(same))) == {"a": 1, "c": 2, "b": 3, "d": 3}
