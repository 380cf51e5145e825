"""A "player of the year" season on a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): the
club's own point scheme (issue 47 — a Master won 2000, finalists 1000, semifinalists 500, 50 a game), two
tournaments run through the services a Discord user triggers, and one ranked one-off game. No requirement id names
the custom scheme; the FIRK season's tie-breakers order the ties (FIRK-SEED-1 seats the second tournament)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.present.season import season_table, season_text
from bot.services import Services
from bot.services.season_games import GamePlayer, finish_order
from tests.services.test_seasons import ADMIN, GUILD, HEAD_ROLE, NAMES, ORG_ROLE, ORGANIZER, REF_ROLE, REFEREE
from tests.services.test_seasons import run_tournament as play

FIRK = "risiko-firk-1"
MASTER = [2000.0, 1000.0, 1000.0, 1000.0, *([500.0] * 12)]
OPEN = [300.0, 200.0, 100.0]
FRIENDLY = [100.0, 50.0]


@pytest.fixture
async def server(services: Services) -> Services:
    await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
    )
    return services


def shared(ranks: dict[str, int], table: list[float]) -> dict[str, float]:
    """Points by place, players sharing a place sharing the places they cover (averaged)."""
    count: dict[int, int] = defaultdict(int)
    for r in ranks.values():
        count[r] += 1
    value = [table[k - 1] if k <= len(table) else 0.0 for k in range(1, 2 * len(ranks) + 2)]
    return {p: sum(value[r - 1 : r - 1 + count[r]]) / count[r] for p, r in ranks.items()}


async def test_player_of_the_year_over_two_tournaments_and_a_ranked_one_off_game(server: Services):
    services = server
    await services.seasons.create(ORGANIZER, name="Giocatore dell'anno", preset=FIRK)
    await services.season_games.set_scheme(ORGANIZER, season="Giocatore dell'anno", per_game=50)
    await services.season_games.set_scheme(ORGANIZER, season="Giocatore dell'anno", event_type="Master",
                                      places="2000, 1000x3, 500x12")  # fmt: skip
    await services.season_games.set_scheme(
        ORGANIZER, season="Giocatore dell'anno", event_type="open", places="300,200,100"
    )
    scheme = await services.season_games.set_scheme(ORGANIZER, season="Giocatore dell'anno", event_type="amichevole",
                                               places="100, 50", one_off=True)  # fmt: skip
    assert (scheme.per_game, scheme.one_off) == (50.0, "amichevole")
    assert dict(scheme.events) == {"master": tuple(MASTER), "open": tuple(OPEN), "amichevole": tuple(FRIENDLY)}

    await play(services, "Master di Primavera", FIRK, rounds=2, season="Giocatore dell'anno")
    await play(services, "Open d'Estate", FIRK, rounds=2, season="Giocatore dell'anno")
    games = services.season_games
    await games.set_event_type(ORGANIZER, season="Giocatore dell'anno", tournament="master di primavera",
                               event_type="master")  # fmt: skip
    typed = await games.set_event_type(ORGANIZER, season="Giocatore dell'anno", tournament="Open d'Estate",
                                       event_type="OPEN")  # fmt: skip
    assert typed.tournaments == (("Master di Primavera", "master"), ("Open d'Estate", "open"))

    # the one-off game: Anna 1st, Bruno and Carla share the 2nd, Zoe (new to the season) 4th
    with pytest.raises(InvalidInput) as unknown:
        await services.season_games.record_game(ORGANIZER, season="Giocatore dell'anno",
                                           players=finish_order("Anna, Bruno = Carla, Zoe"))  # fmt: skip
    assert unknown.value.key == "error.season.game_unknown_players" and unknown.value.params["names"] == ("Zoe",)
    order = finish_order("anna, Bruno = Carla, Zoe")
    game = await services.season_games.record_game(
        ORGANIZER, season="Giocatore dell'anno", players=order, newcomers=True
    )
    assert game.number == 1 and game.newcomers == ("Zoe",)
    assert list(zip(game.players, game.points, strict=True)) == [
        (("Anna", 1), 150.0), (("Bruno", 2), 75.0), (("Carla", 2), 75.0), (("Zoe", 4), 50.0)]  # fmt: skip

    view = await services.seasons.show(GUILD, "Giocatore dell'anno")
    assert view.points_kind == "scheme" and view.one_off_games == 1
    # the expected ranking, worked from each tournament's own standings: place points + 50 for each of 2 games
    expected: dict[str, float] = defaultdict(float)
    for name, table in (("Master di Primavera", MASTER), ("Open d'Estate", OPEN)):
        standings = await services.standings.compute(GUILD, name)
        ranks = {line.name: line.rank for line in standings.lines}
        for p, points in shared(ranks, table).items():
            expected[p] += points + 2 * 50
    for p, points in {"Anna": 150.0, "Bruno": 75.0, "Carla": 75.0, "Zoe": 50.0}.items():
        expected[p] += points
    got = {line.name: line.points for line in view.lines}
    assert got == pytest.approx(dict(expected)) and set(got) == {*NAMES, "Zoe"}
    points = [line.points for line in view.lines]
    assert points == sorted(points, reverse=True) and view.lines[-1].name == "Zoe"
    assert [line.rank for line in view.lines] == sorted(line.rank for line in view.lines)
    zoe = view.line_of("Zoe")
    assert zoe is not None and (zoe.tournaments, zoe.games, zoe.by_tournament) == (0, 1, (None, None))
    anna = view.line_of("Anna")
    assert anna is not None and (anna.one_off_points, anna.one_off_games, anna.games) == (150.0, 1, 5)
    assert "amichevoli 150" in season_text(view, "it") and "Punteggio di **Giocatore dell'anno**" in season_text(
        view, "it")  # fmt: skip
    assert season_table(view, "en").header[3:6] == ("Master di Primavera", "Open d'Estate", "One-off games")

    # voided, the game counts nothing; the scheme stays the season's
    await services.season_games.void_game(ORGANIZER, season="Giocatore dell'anno", number=1)
    voided = await services.seasons.show(GUILD, "Giocatore dell'anno")
    assert voided.one_off_games == 0 and voided.line_of("Zoe") is None
    assert voided.line_of("Anna").points == pytest.approx(expected["Anna"] - 150.0)


async def test_bad_scheme_input_is_refused_clearly_and_changes_nothing(server: Services):
    services = server
    await services.tournaments.create(ORGANIZER, name="Serata", preset=FIRK)
    await services.seasons.create(ORGANIZER, name="Anno", tournament="Serata")
    with pytest.raises(Conflict) as no_scheme:
        await services.season_games.record_game(ORGANIZER, season="Anno", players=[GamePlayer("Anna", None, 1)])
    assert no_scheme.value.key == "error.season.no_scheme"
    with pytest.raises(Conflict):
        await services.season_games.set_event_type(ORGANIZER, season="Anno", tournament="Serata", event_type="master")
    with pytest.raises(PermissionDenied):
        await services.season_games.set_scheme(REFEREE, season="Anno", per_game=50)
    await services.season_games.set_scheme(ORGANIZER, season="Anno", event_type="master", places="2000, 1000x3")
    cases = [
        ({"event_type": "master", "places": "2000, mille"}, "error.season.places_invalid"),
        ({"event_type": "master!", "places": "1"}, "error.season.event_type_invalid"),
        ({"places": "1, 2"}, "error.season.event_type_needed"),
        ({"event_type": "open", "one_off": True}, "error.season.unknown_event_type"),
    ]
    for options, key in cases:
        with pytest.raises(InvalidInput) as bad:
            await services.season_games.set_scheme(ORGANIZER, season="Anno", **options)
        assert bad.value.key == key
    await services.season_games.set_event_type(ORGANIZER, season="Anno", tournament="Serata", event_type="master")
    with pytest.raises(Conflict) as in_use:
        await services.season_games.set_scheme(ORGANIZER, season="Anno", event_type="master", places="-")
    assert in_use.value.key == "error.season.event_type_in_use"
    with pytest.raises(InvalidInput) as bad_type:
        await services.season_games.set_event_type(ORGANIZER, season="Anno", tournament="Serata", event_type="open")
    assert bad_type.value.key == "error.season.unknown_event_type"
    with pytest.raises(InvalidInput) as bad_order:
        await services.season_games.record_game(ORGANIZER, season="Anno", players=finish_order("Anna, Anna"),
                                           newcomers=True)  # fmt: skip
    assert bad_order.value.key == "error.season.game_player_twice"
    with pytest.raises(InvalidInput) as alone:
        await services.season_games.record_game(ORGANIZER, season="Anno", players=finish_order("Anna"), newcomers=True)
    assert alone.value.key == "error.season.game_players"
    with pytest.raises(NotFound):
        await services.season_games.void_game(ORGANIZER, season="Anno", number=1)
    unchanged = await services.season_games.set_scheme(ORGANIZER, season="Anno")
    assert dict(unchanged.events) == {"master": (2000.0, 1000.0, 1000.0, 1000.0)} and unchanged.per_game == 0
    view = await services.seasons.show(GUILD, "Anno")
    assert view.one_off_games == 0 and view.lines == ()


async def test_issue_47_player_of_the_year_over_two_club_championships_and_a_one_off_game(server: Services):
    """The acceptance's season: two `club-championship` tournaments (three evenings each, the standings the sum of
    the evenings' table points) and a ranked one-off game, scored by the club's scheme; the expected total is worked
    from each championship's own standings."""
    services = server
    season = "Giocatore dell'anno"
    await services.seasons.create(ORGANIZER, name=season, preset="club-championship")
    await services.season_games.set_scheme(ORGANIZER, season=season, per_game=50)
    await services.season_games.set_scheme(
        ORGANIZER, season=season, event_type="campionato", places="2000, 1000x3, 500x4"
    )
    await services.season_games.set_scheme(ORGANIZER, season=season, event_type="amichevole", places="100, 50",
                                           one_off=True)  # fmt: skip
    championships = ("Campionato d'Autunno", "Campionato di Primavera")
    for name in championships:
        await play(services, name, "club-championship", rounds=3, season=season)
        await services.season_games.set_event_type(ORGANIZER, season=season, tournament=name, event_type="campionato")
    await services.season_games.record_game(ORGANIZER, season=season, players=finish_order(f"{NAMES[7]}, {NAMES[0]}"))
    view = await services.seasons.show(GUILD, season)
    table = [2000.0, 1000.0, 1000.0, 1000.0, *([500.0] * 4)]
    expected: dict[str, float] = defaultdict(float)
    for name in championships:
        standings = await services.standings.compute(GUILD, name)
        assert standings.preset == "club-championship" and standings.rounds == 3
        for p, points in shared({line.name: line.rank for line in standings.lines}, table).items():
            expected[p] += points + 3 * 50
    expected[NAMES[7]] += 100.0 + 50
    expected[NAMES[0]] += 50.0 + 50
    assert {line.name: line.points for line in view.lines} == pytest.approx(dict(expected))
    points = [line.points for line in view.lines]
    assert points == sorted(points, reverse=True) and len(points) == len(NAMES)
