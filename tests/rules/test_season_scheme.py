"""A season's own point scheme ("giocatore dell'anno", issue 47) and ranked one-off games ("amichevoli
classificate"), bot/rules/season.py: worked by hand from the club example — a Master won 2000, a finalist 1000, a
semifinalist 500, 50 for each game played. No requirement id names the custom scheme (docs/requirements.md lists the NP
and FIRK seasons only: NP-PTS-1, FIRK-SEED-1, FIRK-PEN-1); the tie-breaks are FIRK's season chain."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.ruleset import load_ruleset
from bot.rules.season import (
    OneOffEntry,
    OneOffGame,
    PointScheme,
    SeasonTournament,
    compute_season,
    event_type_key,
    parse_finish_order,
    parse_place_points,
)
from bot.rules.tournament.model import TournamentError
from bot.rules.tournament.standings import GameResult, TableEntry, compute_standings

FIRK = load_ruleset("risiko-firk-1").season  # tie-breakers: the latest tournament's place, then boards won

MASTER = (2000.0, 1000.0, 1000.0, 1000.0, *([500.0] * 12))
SCHEME = PointScheme(
    per_game=50.0,
    events=(("master", MASTER), ("open", (300.0, 200.0, 100.0)), ("amichevole", (100.0, 50.0))),
    one_off="amichevole",
)


def table(rnd: int, number: int, players: Sequence[str]) -> GameResult:
    """A table in final order: 3 / 2 / 1 / 0 tournament points."""
    return GameResult(rnd, number, tuple(TableEntry(p, k, float(4 - k), 40.0 - 10 * k) for k, p in
                                         enumerate(players, 1)))  # fmt: skip


def tournament(name: str, event_type: str | None, tables: Sequence[GameResult],
               places: Mapping[str, int]) -> SeasonTournament:  # fmt: skip
    return SeasonTournament(name, tuple(tables), compute_standings(tables), dict(places), event_type)


def master() -> SeasonTournament:
    """Two qualifying rounds of two tables, then the final table of the four qualified (a third game for them)."""
    return tournament("Master Primavera", "master", [
        table(1, 1, ["anna", "bruno", "elena", "fabio"]), table(1, 2, ["carla", "dario", "gino", "ivo"]),
        table(2, 1, ["anna", "carla", "gino", "elena"]), table(2, 2, ["bruno", "dario", "fabio", "ivo"]),
        table(3, 1, ["anna", "bruno", "carla", "dario"]),
    ], {"anna": 1, "bruno": 2, "carla": 3, "dario": 4, "elena": 5, "fabio": 6, "gino": 7, "ivo": 8})  # fmt: skip


def open_() -> SeasonTournament:
    return tournament("Open Estate", "open", [
        table(1, 1, ["elena", "fabio", "anna", "bruno"]), table(1, 2, ["carla", "dario", "gino", "ivo"]),
        table(2, 1, ["elena", "anna", "carla", "gino"]), table(2, 2, ["fabio", "bruno", "dario", "ivo"]),
    ], {"elena": 1, "fabio": 2, "anna": 3, "bruno": 4, "carla": 5, "dario": 6, "gino": 7, "ivo": 8})  # fmt: skip


def friendly(tournament: str | None = "Open Estate") -> OneOffGame:
    return OneOffGame((OneOffEntry("gino", 1), OneOffEntry("ivo", 2), OneOffEntry("carla", 3),
                       OneOffEntry("dario", 4)), tournament)  # fmt: skip


def test_player_of_the_year_master_2000_finalist_1000_semifinalist_500_and_50_a_game_by_hand():
    """Master: anna wins (2000 + 3 games × 50 = 2150), bruno, carla, dario reach the final (1000 + 150), the others
    stop before it (500 + 2 × 50 = 600). Open: 300 / 200 / 100 by place, then 0, + 100 for two games. The one-off
    game: 100 / 50 by place for its type, + 50 each. carla and dario are level on 1300: the latest tournament they
    both played (Open Estate: 5th and 6th) puts carla first."""
    season = compute_season([master(), open_()], rules=FIRK, scheme=SCHEME, games=[friendly()])
    assert [(r.rank, r.player, r.points) for r in season.rows] == [
        (1, "anna", 2350.0), (2, "carla", 1300.0), (3, "dario", 1300.0), (4, "bruno", 1250.0),
        (5, "elena", 1000.0), (6, "fabio", 900.0), (7, "gino", 850.0), (8, "ivo", 800.0),
    ]  # fmt: skip
    rows = {r.player: r for r in season.rows}
    assert rows["anna"].by_tournament == {"Master Primavera": 2150.0, "Open Estate": 200.0}
    assert rows["bruno"].by_tournament == {"Master Primavera": 1150.0, "Open Estate": 100.0}
    assert rows["elena"].by_tournament == {"Master Primavera": 600.0, "Open Estate": 400.0}
    assert (rows["gino"].one_off_points, rows["gino"].one_off_games, rows["gino"].games) == (150.0, 1, 5)
    assert (rows["carla"].one_off_points, rows["dario"].one_off_points, rows["anna"].one_off_points) == (50, 50, 0)
    (tie,) = season.decisions
    assert (tie.players, tie.tie_breaker, tie.note, dict(tie.values)) == (
        ("carla", "dario"), "latest_tournament_rank", "Open Estate", {"carla": 5, "dario": 6})  # fmt: skip
    # before Open Estate (and the game recorded after it): the Master alone; the three finalists level on 1150
    # are ordered by their Master places
    assert {r.player: r.previous_rank for r in season.rows} == {
        "anna": 1, "bruno": 2, "carla": 3, "dario": 4, "elena": 5, "fabio": 6, "gino": 7, "ivo": 8}  # fmt: skip


def test_places_shared_share_the_points_they_cover_and_a_tournament_without_a_type_gives_games_only():
    """A one-off game with a shared 2nd place: (50 + 0) / 2 each, as NP's shared places; an untyped tournament
    gives 50 a game and nothing by place."""
    shared = OneOffGame((OneOffEntry("a", 1), OneOffEntry("b", 2), OneOffEntry("c", 2), OneOffEntry("d", 4)))
    untyped = tournament("Serata", None, [table(1, 1, ["a", "b", "c", "d"])], {})
    season = compute_season([untyped], rules=FIRK, scheme=SCHEME, games=[shared])
    assert {r.player: r.points for r in season.rows} == {"a": 200.0, "b": 125.0, "c": 125.0, "d": 100.0}


def test_a_one_off_game_without_a_one_off_type_gives_points_per_game_only():
    scheme = PointScheme(per_game=50.0, events=(("master", MASTER),))
    season = compute_season([], rules=FIRK, scheme=scheme, games=[friendly(None)])
    assert {r.player: r.points for r in season.rows} == dict.fromkeys(("gino", "ivo", "carla", "dario"), 50.0)


def test_the_scheme_as_people_type_it_and_as_the_database_keeps_it():
    assert parse_place_points("2000, 1000x3; 500 × 12") == MASTER
    assert parse_place_points("12,9,6,3") == (12.0, 9.0, 6.0, 3.0)
    assert parse_finish_order("Anna, Bruno = Carla ,  Dario") == (("Anna", 1), ("Bruno", 2), ("Carla", 2),
                                                                   ("Dario", 4))  # fmt: skip
    assert event_type_key("  Master   Nazionale ") == "master nazionale"
    assert PointScheme.from_data(SCHEME.to_data()) == SCHEME
    assert SCHEME.with_event("Open", None).event_types == ("master", "amichevole")
    assert SCHEME.with_event("amichevole", None).one_off is None
    assert SCHEME.with_event("open", [1, 2]).places("open") == (1.0, 2.0)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: parse_place_points("2000, mille"), "places_invalid"),
        (lambda: parse_place_points("-5"), "places_invalid"),
        (lambda: parse_place_points("500x300"), "places_invalid"),
        (lambda: parse_finish_order("Anna, , Bruno = "), "order_empty_name"),
        (lambda: event_type_key("master!"), "event_type_invalid"),
        (lambda: PointScheme(per_game=-1).validated(), "scheme_per_game"),
        (lambda: PointScheme(events=(("master", ()),)).validated(), "scheme_places"),
        (lambda: PointScheme(events=(("a", (1.0,)), ("a", (2.0,)))).validated(), "scheme_event_twice"),
        (lambda: PointScheme(one_off="amichevole").validated(), "scheme_one_off_unknown"),
        (lambda: PointScheme.from_data({"per_game": 1, "extra": 2}), "scheme_unknown_field"),
        (lambda: PointScheme.from_data({"events": {"master": ["1000"]}}), "scheme_places"),
        (lambda: compute_season([], rules=FIRK, games=[friendly(None)]), "games_need_scheme"),
        (lambda: compute_season([master()], rules=FIRK, scheme=PointScheme(), games=()), "unknown_event_type"),
        (lambda: compute_season([], rules=FIRK, scheme=SCHEME, games=[friendly()]), "game_for_unknown_tournament"),
        (lambda: OneOffGame((OneOffEntry("a", 1),)).validated(), "game_players"),
        (lambda: OneOffGame((OneOffEntry("a", 1), OneOffEntry("a", 2))).validated(), "game_player_twice"),
        (lambda: OneOffGame((OneOffEntry("a", 1), OneOffEntry("b", 3))).validated(), "game_places"),
        (lambda: OneOffGame((OneOffEntry("a", 2), OneOffEntry("b", 2))).validated(), "game_places"),
    ],
)
def test_bad_schemes_and_games_are_refused_with_a_code(call, code: str):
    with pytest.raises(TournamentError) as bad:
        call()
    assert bad.value.code == code


PLAYERS = ("a", "b", "c", "d", "e", "f")


@st.composite
def games(draw: st.DrawFn) -> OneOffGame:
    seated = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=6, unique=True))
    finish = sorted(draw(st.lists(st.integers(0, 3), min_size=len(seated), max_size=len(seated))))
    places = [1 + sum(1 for y in finish if y < x) for x in finish]  # a finish order with ties
    return OneOffGame(tuple(OneOffEntry(p, k) for p, k in zip(seated, places, strict=True)))


schemes = st.builds(
    lambda per_game, table: PointScheme(per_game, (("amichevole", tuple(table)),), "amichevole"),
    st.floats(0, 100, allow_nan=False),
    st.lists(st.floats(0, 1000, allow_nan=False), min_size=1, max_size=6),
)


@settings(max_examples=150, deadline=None)
@given(schemes, st.lists(games(), max_size=6), games())
def test_adding_a_game_never_lowers_anyone_s_season_points(scheme: PointScheme, earlier: list[OneOffGame],
                                                            added: OneOffGame):  # fmt: skip
    """A property: one more ranked game gives each of its players at least the points per game, and changes nobody
    else's points."""
    tournaments = [tournament("Open Estate", None, [table(1, 1, ["a", "b", "c", "d"])], {})]
    before = {r.player: r.points for r in compute_season(tournaments, rules=FIRK, scheme=scheme, games=earlier).rows}
    after = {r.player: r.points for r in compute_season(tournaments, rules=FIRK, scheme=scheme,
                                                        games=[*earlier, added]).rows}  # fmt: skip
    seated = {e.player for e in added.entries}
    for p, points in after.items():
        was = before.get(p, 0.0)
        if p in seated:
            assert points >= was + scheme.per_game - 1e-6
        else:
            assert points == pytest.approx(was)
