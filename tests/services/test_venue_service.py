"""The venue page's snapshot and its access rules on a real database: what a viewer reads (tables, seats,
clocks, report states, standings), what they never read (Discord ids, notes), and who reaches which tournament
(wrong token, revoked token, another server's tournament)."""

from __future__ import annotations

import json

import pytest

from bot.errors import NotFound, PermissionDenied
from bot.services import Services
from bot.services.access import Actor
from tests.conftest import FakeClock
from tests.support.reports_fixtures import GUILD, ORGANIZER, ORGANIZER_ROLE, REFEREE, build_tournament, player
from tests.support.venue import venue_snapshot

TWO = {1: [["Anna", "Bruno", "Carla", "Dario"], ["Elio", "Fabio", "Gino", "<script>alert(1)</script>"]]}
OTHER_GUILD = 888_000_000_000_002
OTHER_ORGANIZER = Actor(guild_id=OTHER_GUILD, user_id=41, display_name="Org", role_ids=frozenset({ORGANIZER_ROLE}))


async def test_the_snapshot_shows_the_round_s_tables_seats_and_clubs_and_no_discord_id(services: Services):
    b = await build_tournament(services, rounds=TWO, clubs={"Anna": "Lupi", "Elio": "@everyone"})
    link = await services.venue.link(ORGANIZER, tournament=b.name)
    snap = await venue_snapshot(services, link.token)
    assert snap is not None and snap.tournament_id == b.tournament_id
    data = snap.data
    assert data["tournament"]["name"] == "Coppa Test"
    rnd = data["round"]
    assert rnd["number"] == 1 and [t["number"] for t in rnd["tables"]] == [1, 2]
    first = rnd["tables"][0]
    assert [s["name"] for s in first["seats"]] == ["Anna", "Bruno", "Carla", "Dario"]
    assert first["seats"][0]["club"] == "Lupi"
    assert rnd["tables"][1]["seats"][3]["name"] == "<script>alert(1)</script>"  # data as typed: the page escapes
    assert first["clock"] is None and first["report"]["status"] == "waiting"
    text = json.dumps(data)  # JSON-able as it is
    for discord_id in [GUILD, *b.users.values()]:
        assert str(discord_id) not in text
    assert "user_id" not in text and "thread" not in text and "note" not in text


async def test_a_wrong_or_revoked_token_finds_nothing_and_the_new_one_does(services: Services):
    b = await build_tournament(services, rounds=TWO)
    old = await services.venue.link(ORGANIZER, tournament=b.name)
    assert await services.venue.link(ORGANIZER, tournament=b.name) == old  # the link is stable until revoked
    assert len(old.token) >= 32
    for wrong in ("", "x", old.token[:-1], old.token + "x", str(b.tournament_id), old.token.upper()):
        assert await venue_snapshot(services, wrong) is None
    new = await services.venue.revoke(ORGANIZER, tournament=b.name)
    assert new.token != old.token and new.tournament_name == b.name
    assert await venue_snapshot(services, old.token) is None
    snap = await venue_snapshot(services, new.token)
    assert snap is not None and snap.tournament_id == b.tournament_id


async def test_only_organizers_get_or_revoke_the_link(services: Services):
    b = await build_tournament(services, rounds=TWO)
    for who in (REFEREE, player(b.users["Anna"])):
        with pytest.raises(PermissionDenied):
            await services.venue.link(who, tournament=b.name)
        with pytest.raises(PermissionDenied):
            await services.venue.revoke(who, tournament=b.name)


async def test_another_server_s_tournament_of_the_same_name_is_its_own_page(services: Services):
    ours = await build_tournament(services, rounds=TWO)
    theirs = await build_tournament(services, rounds={1: [["Zeno", "Yuri", "Xena", "Walt"]]}, guild_id=OTHER_GUILD)
    mine = await services.venue.link(ORGANIZER, tournament=ours.name)
    other = await services.venue.link(OTHER_ORGANIZER, tournament=theirs.name)
    assert mine.token != other.token
    snap = await venue_snapshot(services, other.token)
    assert snap is not None and snap.tournament_id == theirs.tournament_id
    assert [s["name"] for s in snap.data["round"]["tables"][0]["seats"]] == ["Zeno", "Yuri", "Xena", "Walt"]
    await services.venue.revoke(OTHER_ORGANIZER, tournament=theirs.name)  # their revoke leaves ours alone
    assert await venue_snapshot(services, mine.token) is not None
    with pytest.raises(NotFound):  # an organizer of another server cannot reach ours by name
        await services.venue.link(OTHER_ORGANIZER, tournament="Inesistente")


async def test_the_change_counter_moves_with_a_signature_and_a_pause_and_the_snapshot_follows(
    services: Services, clock: FakeClock
):
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=TWO)
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    before = (await services.venue.versions([GUILD]))[GUILD]
    assert (await services.venue.versions([GUILD]))[GUILD] == before  # reading moves nothing
    await services.clocks.start(REFEREE, tournament=b.name)
    clock.advance(minutes=30)
    await services.clocks.pause(REFEREE, tournament=b.name, table=2)
    clock.advance(minutes=5)
    started = (await services.venue.versions([GUILD]))[GUILD]
    assert started > before
    snap = await venue_snapshot(services, token)
    assert snap is not None and snap.version == started
    running, paused = (t["clock"] for t in snap.data["round"]["tables"])
    assert running["status"] == "running" and running["remaining_seconds"] is None  # the page counts down
    assert running["time_up_at"] is not None and running["ending"] == "sdadata"
    assert paused["status"] == "paused" and paused["remaining_seconds"] == 90 * 60 and paused["time_up_at"] is None
    assert paused["recovery_minutes"] == 5 and paused["pauses"] == 1
    table_id = b.tables[(1, 1)]
    await services.reports.enter_points(
        REFEREE,
        table_id,
        {b.registrations[n]: v for n, v in {"Anna": "50", "Bruno": "40", "Carla": "30", "Dario": "20"}.items()},
    )
    await services.reports.sign(player(b.users["Anna"]), table_id)
    signed = (await services.venue.versions([GUILD]))[GUILD]
    assert signed > started
    snap = await venue_snapshot(services, token)
    assert snap is not None
    report = snap.data["round"]["tables"][0]["report"]
    assert report == {"status": "entered", "signed": 1, "seats": 4}
    assert snap.data["round"]["tables"][0]["seats"][0]["result"]["rank"] == 1
    for n in ("Bruno", "Carla", "Dario"):
        await services.reports.sign(player(b.users[n]), table_id)
    snap = await venue_snapshot(services, token)
    assert snap is not None and snap.data["round"]["tables"][0]["report"]["status"] == "signed"
    assert [line["name"] for line in snap.data["standings"]["lines"]][:1] == ["Anna"]
    await services.reports.countersign(REFEREE, table_id)
    snap = await venue_snapshot(services, token)
    assert snap is not None and snap.data["round"]["tables"][0]["report"]["status"] == "countersigned"
    clock.advance(minutes=120)
    snap = await venue_snapshot(services, token)
    assert snap is not None and snap.data["round"]["tables"][0]["clock"]["status"] == "time_up"


async def test_a_server_without_changes_has_counter_zero_and_every_tournament_is_listed(services: Services):
    assert await services.venue.versions([OTHER_GUILD]) == {OTHER_GUILD: 0}
    b = await build_tournament(services, rounds=TWO)
    pages = await services.venue.pages()
    assert [p.tournament_name for p in pages] == [b.name] and len(pages[0].token) >= 32


async def test_a_tournament_of_a_season_carries_the_season_s_ranking_as_season_show_draws_it(services: Services):
    from tests.services import test_seasons as s

    await services.setup.set_roles(s.ADMIN, organizer_role_id=s.ORG_ROLE, referee_role_id=s.REF_ROLE,
                                   head_referee_role_id=s.HEAD_ROLE)  # fmt: skip
    firk = "risiko-firk-1"
    await s.run_tournament(services, "Serata 1", firk, rounds=1)
    await services.seasons.create(s.ORGANIZER, name="Anno 2026", tournament="Serata 1")
    await s.run_tournament(services, "Serata 2", firk, rounds=1, season="Anno 2026")
    await services.tournaments.create(s.ORGANIZER, name="Fuori stagione", preset=firk)

    token = (await services.venue.link(s.ORGANIZER, tournament="Serata 2")).token
    snap = await venue_snapshot(services, token)
    assert snap is not None
    season = snap.data["season"]
    view = await services.seasons.show(s.GUILD, "Anno 2026")
    assert season["name"] == "Anno 2026" and season["points_kind"] == "standings"
    assert season["tournaments"] == ["Serata 1", "Serata 2"] and season["current"] == 1
    assert [(x["rank"], x["name"], x["points"], x["by_tournament"], x["previous_rank"]) for x in season["lines"]] == [
        (line.rank, line.name, line.points, list(line.by_tournament), line.previous_rank) for line in view.lines
    ]  # the same numbers /season show draws
    assert len(season["lines"]) == len(s.NAMES) and all(x["previous_rank"] is not None for x in season["lines"])
    for k, name in enumerate(season["tournaments"]):  # FIRK: each evening's general classification, whole
        evening = {line.name: line.points for line in (await services.standings.compute(s.GUILD, name)).lines}
        assert {x["name"]: x["by_tournament"][k] for x in season["lines"]} == evening
    for x in season["lines"]:
        assert x["points"] == pytest.approx(sum(p for p in x["by_tournament"] if p is not None) - x["deductions"])
    text = json.dumps(season)
    assert "user_id" not in text and str(s.GUILD) not in text
    assert not any(str(1000 + i) in text for i in range(len(s.NAMES)))  # the players' Discord ids

    first = await venue_snapshot(services, (await services.venue.link(s.ORGANIZER, tournament="Serata 1")).token)
    assert first is not None and first.data["season"]["current"] == 0
    assert first.data["season"]["lines"] == season["lines"]  # the season's ranking, whichever evening's page
    alone = await venue_snapshot(services, (await services.venue.link(s.ORGANIZER, tournament="Fuori stagione")).token)
    assert alone is not None and alone.data["season"] is None

    # a sanction given to the season's ranking moves the server's counter: the page is rebuilt with it
    before = (await services.venue.versions([s.GUILD]))[s.GUILD]
    fabio = next(x for x in season["lines"] if x["name"] == "Fabio")
    await services.seasons.sanction(s.REFEREE, season="Anno 2026", infraction="disturbing_table", player=None,
                                    user_id=1000 + 5)  # fmt: skip
    assert (await services.venue.versions([s.GUILD]))[s.GUILD] > before
    after = await venue_snapshot(services, token)
    assert after is not None
    moved = next(x for x in after.data["season"]["lines"] if x["name"] == "Fabio")
    assert moved["deductions"] == 7.0 and moved["points"] == pytest.approx(fabio["points"] - 7)
