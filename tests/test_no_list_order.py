"""No outcome depends on the order of a list (BOT-STD-1, FIRK-TIE-2, NP-PTS-1, TOUR-FIN-1): the standings, the season
and ``steward standings`` / ``steward season`` give the same ranks, points and final places when the players are
renamed and when the games, the tables and the lines are listed in another order. (A table's lines with equal points
are in the document's own finishing order — the order a tie-break decided — so those keep their order; the draws'
lots are the published exception, held by the rules' own property tests.)"""

from __future__ import annotations

import io
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.rules.season import SeasonRules, SeasonTournament, compute_season
from bot.rules.tournament.standings import GameResult, TableEntry, compute_standings

PLAYERS = [f"p{i:02d}" for i in range(12)]


@st.composite
def tournaments(draw: st.DrawFn) -> list[GameResult]:
    """Two or three rounds of three tables of four, each table's places 1–4 with tournament and table points (some
    players level on points across tables, as real standings are)."""
    rounds = draw(st.integers(2, 3))
    results = []
    for r in range(1, rounds + 1):
        seats = draw(st.permutations(PLAYERS))
        for t in range(3):
            table = seats[4 * t : 4 * t + 4]
            tp = sorted(draw(st.lists(st.integers(0, 6), min_size=4, max_size=4, unique=True)), reverse=True)
            entries = tuple(TableEntry(p, k + 1, float([12, 9, 6, 3][k]), float(tp[k] * 10)) for k, p in
                            enumerate(table))  # fmt: skip
            results.append(GameResult(r, t + 1, entries))
    return results


def shuffled(results: list[GameResult], rng: random.Random, rename: dict[str, str]) -> list[GameResult]:
    out = [GameResult(g.round, g.table, tuple(rng.sample([TableEntry(rename[str(e.player)], e.order,
                      e.tournament_points, e.table_points, e.status) for e in g.entries], len(g.entries))))
           for g in results]  # fmt: skip
    return rng.sample(out, len(out))


def renaming(rng: random.Random) -> dict[str, str]:
    return {p: f"{chr(122 - i)}{rng.randrange(100)}-{p}" for i, p in enumerate(PLAYERS)}


@settings(max_examples=60, deadline=None)
@given(
    tournaments(),
    st.integers(0, 2**31),
    st.sampled_from(
        [(), ("last_game_table",), ("table_points_total",), ("first_game_table_points", "last_game_table")]
    ),
)
def test_no_list_order_the_standings_are_the_same_for_any_listing_and_any_names(results, seed, tie_breakers):
    rng = random.Random(seed)
    base = {r.player: (r.rank, r.points) for r in compute_standings(results, tie_breakers=tie_breakers).rows}
    rename = renaming(rng)
    other = compute_standings(shuffled(results, rng, rename), players=rng.sample(list(rename.values()), 12),
                              tie_breakers=tie_breakers)  # fmt: skip
    assert {r.player: (r.rank, r.points) for r in other.rows} == {rename[str(p)]: v for p, v in base.items()}


@settings(max_examples=40, deadline=None)
@given(st.lists(tournaments(), min_size=2, max_size=3), st.integers(0, 2**31), st.booleans())
def test_no_list_order_the_season_is_the_same_for_any_listing_and_any_names(events, seed, project):
    rules = SeasonRules(points="project" if project else "standings", points_by_place=(12, 9, 6, 3),
                        tie_breakers=("latest_tournament_rank", "first_places"))  # fmt: skip
    rng = random.Random(seed)
    rename = renaming(rng)

    def season(rn: dict[str, str], shuffle: bool) -> dict[str, tuple[int, float]]:
        made = []
        for k, results in enumerate(events):
            games = shuffled(results, rng, rn) if shuffle else results
            made.append(SeasonTournament(f"T{k}", tuple(games), compute_standings(games)))
        return {str(r.player): (r.rank, r.points) for r in compute_season(made, rules=rules).rows}

    base = season({p: p for p in PLAYERS}, False)
    assert season(rename, True) == {rename[p]: v for p, v in base.items()}


def run(command: str, doc: dict[str, Any], capsys: Any, monkeypatch: Any) -> dict[str, Any]:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(doc)))
    capsys.readouterr()
    assert main([command, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def uff_document(rng: random.Random, rename: dict[str, str], shuffle: bool) -> dict[str, Any]:
    """Two rounds, four semifinals and the final of 16 players as ``steward standings`` reads them (distinct table
    points at every table: a table's lines may be listed in any order)."""
    names = [f"q{i:02d}" for i in range(16)]
    games = []
    for r, tables in ((1, [names[i : i + 4] for i in range(0, 16, 4)]), (2, [names[i::4] for i in range(4)])):
        for t, table in enumerate(tables, start=1):
            games.append({"round": r, "table": t, "players": [{"id": p, "table_points": 90 - 13 * k - r}
                                                               for k, p in enumerate(table)]})  # fmt: skip
    semis = [[names[0], names[5], names[10], names[15]], [names[1], names[4], names[11], names[14]],
             [names[2], names[7], names[8], names[13]], [names[3], names[6], names[9], names[12]]]  # fmt: skip
    for t, table in enumerate(semis, start=1):
        games.append({"round": 3, "table": t, "kind": "semifinal",
                      "players": [{"id": p, "table_points": 70 - 9 * k} for k, p in enumerate(table)]})  # fmt: skip
    final = [semis[2][0], semis[0][0], semis[3][0], semis[1][0]]
    games.append({"round": 4, "table": 1, "kind": "final",
                  "players": [{"id": p, "table_points": 99 - 20 * k} for k, p in enumerate(final)]})  # fmt: skip
    for g in games:
        for row in g["players"]:
            row["id"] = rename.get(row["id"], row["id"])
        if shuffle:
            rng.shuffle(g["players"])
    if shuffle:
        rng.shuffle(games)
    return {"preset": "risiko-ufficiali-2018", "games": games}


def test_no_list_order_steward_standings_and_its_final_block_for_any_listing_and_any_names(capsys, monkeypatch):
    """The command line's invariant: games, tables and lines listed in any order, every player renamed — the same
    ranks, points and final places (the champion included)."""
    base = run("standings", uff_document(random.Random(0), {}, False), capsys, monkeypatch)
    assert base["final"]["complete"] and base["final"]["champions"] == ["q02"]
    places = {r["player"]: r["place"] for r in base["final"]["classification"]}
    ranks = {r["player"]: (r["rank"], r["points"]) for r in base["standings"]}
    for seed in range(5):
        rng = random.Random(seed)
        rename = {f"q{i:02d}": f"{chr(122 - i)}{rng.randrange(99)}" for i in range(16)}
        other = run("standings", uff_document(rng, rename, True), capsys, monkeypatch)
        assert {r["player"]: r["place"] for r in other["final"]["classification"]} == {rename[p]: v for p, v in
                                                                                        places.items()}  # fmt: skip
        assert {r["player"]: (r["rank"], r["points"]) for r in other["standings"]} == {rename[p]: v for p, v in
                                                                                        ranks.items()}  # fmt: skip
        assert other["final"]["champions"] == [rename["q02"]]


def test_no_list_order_steward_season_for_any_listing_and_any_names(capsys, monkeypatch):
    def season(rng: random.Random, rename: dict[str, str], shuffle: bool) -> dict[str, Any]:
        tournaments = []
        for k in range(2):
            doc = uff_document(random.Random(k if not shuffle else rng.random()), rename, shuffle)
            tournaments.append({"name": f"T{k}", "date": f"2026-0{k + 1}-01", "games": doc["games"]})
        return run("season", {"preset": "risiko-ufficiali-2018", "tournaments": tournaments}, capsys, monkeypatch)

    base = {r["player"]: (r["rank"], r["points"]) for r in season(random.Random(0), {}, False)["season"]}
    rng = random.Random(3)
    rename = {f"q{i:02d}": f"{chr(122 - i)}-{i}" for i in range(16)}
    other = {r["player"]: (r["rank"], r["points"]) for r in season(rng, rename, True)["season"]}
    assert other == {rename[p]: v for p, v in base.items()}
