"""SeasonService on a real database (SQLite, and PostgreSQL in CI): tournaments run to the end through the services
a Discord user triggers, attached to a season; the season's ranking (NP-PTS-1 project points, FIRK's annual
standings), a sanction given to the season's ranking (FIRK-PEN-1) and FIRK round 1 drawn from the previous
tournament's final standings (FIRK-SEED-1)."""

from __future__ import annotations

import pytest

from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.present.season import season_csv, season_table
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import TableRef
from bot.services.rounds import RoundView

GUILD = 4242
ORG_ROLE, REF_ROLE, HEAD_ROLE = 71, 72, 73
ADMIN = Actor(guild_id=GUILD, user_id=1, is_admin=True)
ORGANIZER = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({ORG_ROLE}))
REFEREE = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
HEAD = Actor(guild_id=GUILD, user_id=4, role_ids=frozenset({HEAD_ROLE}))
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ivo")
TEAMS = ("Aquile", "Lupi", "Orsi", "Falchi")


def player(i: int, guild: int = GUILD) -> Actor:
    return Actor(guild_id=guild, user_id=1000 + i, display_name=NAMES[i])


async def report(services: Services, view: RoundView, referee: Actor = REFEREE) -> None:
    """Every table reported, signed and countersigned: table points by a fixed strength (the later in NAMES, the
    more points) with a turn of the round, so places change from round to round."""
    for table in view.tables:
        values = {
            s.registration_id: str(10 + 7 * ((NAMES.index(s.name) + view.number) % len(NAMES))) for s in table.seats
        }
        ref = TableRef(view.tournament_name, table.number, view.number)
        first = next(s for s in table.seats)
        guild = referee.guild_id
        entered = await services.reports.enter_points(
            Actor(guild_id=guild, user_id=first.user_id or 0, display_name=first.name), ref, values
        )
        for seat in table.seats:
            await services.reports.sign(
                Actor(guild_id=guild, user_id=seat.user_id or 0, display_name=seat.name), entered.table_id
            )
        await services.reports.countersign(referee, entered.table_id)


async def run_tournament(
    services: Services,
    name: str,
    preset: str,
    *,
    rounds: int,
    season: str | None = None,
    organizer: Actor = ORGANIZER,
    referee: Actor = REFEREE,
) -> list[RoundView]:
    """A tournament from creation to its last closed round, the eight players of NAMES (one Discord account each,
    the same in every tournament); ``season``: the tournament is attached to it before its first draw."""
    await services.tournaments.create(organizer, name=name, preset=preset)
    for i in range(len(NAMES)):
        team = TEAMS[i % len(TEAMS)] if preset == "risiko-nostra-passione-2018" else None
        await services.registrations.register(player(i, organizer.guild_id), tournament=name, display_name=NAMES[i],
                                              club=None, team=team)  # fmt: skip
    await services.tournaments.validate(organizer, name)
    if season is not None:
        await services.seasons.attach(organizer, season=season, tournament=name)
    played = []
    for _ in range(rounds):
        drawn = await services.rounds.draw(organizer, tournament=name)
        published = (await services.rounds.publish(organizer, tournament=name, number=drawn.number)).round
        await report(services, published, referee)
        await services.rounds.close(organizer, tournament=name)
        played.append(published)
    return played


@pytest.fixture
async def server(services: Services) -> Services:
    await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
    )
    return services


async def test_firk_seed_1_and_firk_pen_1_three_tournaments_make_the_annual_ranking(server: Services):
    services = server
    firk = "risiko-firk-1"
    await run_tournament(services, "Serata 1", firk, rounds=2)
    created = await services.seasons.create(ORGANIZER, name="Anno 2026", tournament="Serata 1")
    assert (created.preset, created.tournaments) == (firk, ("Serata 1",))
    await run_tournament(services, "Serata 2", firk, rounds=2, season="Anno 2026")
    # FIRK §6: round 1 of the third evening follows the second's final standings — nobody typed them
    second = await services.standings.compute(GUILD, "Serata 2")
    played = await run_tournament(services, "Serata 3", firk, rounds=2, season="Anno 2026")
    by_user = {s.user_id: s.name for t in played[0].tables for s in t.seats}
    expected = [line.name for line in second.lines if line.user_id in by_user]
    assert [[s.name for s in t.seats] for t in played[0].tables] == [expected[:4], expected[4:]]
    export = await services.rounds.export_inputs(GUILD, tournament="Serata 3", number=1)
    assert export["previous_ranks"] == [line.rank for line in second.lines]
    assert len(export["previous_standings"]) == len(NAMES)

    view = await services.seasons.show(GUILD, "anno 2026")
    assert view.tournaments == ("Serata 1", "Serata 2", "Serata 3") and view.points_kind == "standings"
    for k, name in enumerate(view.tournaments):  # each evening's general classification carries over whole
        standings = {line.name: line.points for line in (await services.standings.compute(GUILD, name)).lines}
        assert {line.name: line.by_tournament[k] for line in view.lines} == standings
    for line in view.lines:
        assert line.points == pytest.approx(sum(p for p in line.by_tournament if p is not None) - line.deductions)
    assert [line.rank for line in view.lines] == sorted(line.rank for line in view.lines)
    assert all(line.previous_rank is not None for line in view.lines)  # the movement since Serata 2

    # penalità 4 "anche a livello annuale": the −7 reaches the year, and the evening's standings are untouched
    before = {line.name: line.points for line in view.lines}
    given = await services.seasons.sanction(REFEREE, season="Anno 2026", infraction="disturbing_table",
                                            player=None, user_id=1000 + 5)  # fmt: skip
    assert given.sanction.points == -7.0 and given.sanction.tournament_name == "Serata 3"
    after = await services.seasons.show(GUILD, "Anno 2026")
    fabio = after.line_of("Fabio")
    assert fabio is not None and fabio.deductions == 7.0 and fabio.points == pytest.approx(before["Fabio"] - 7)
    assert [(p.name, p.points, p.tournament) for p in after.penalties] == [("Fabio", 7.0, "Serata 3")]
    evening = await services.standings.compute(GUILD, "Serata 3")
    assert not evening.penalties and evening.line_of(fabio_id(evening)) is not None
    await services.sanctions.revoke(HEAD, case_number=given.sanction.case_number, reason="errore di persona")
    revoked = await services.seasons.show(GUILD, "Anno 2026")
    assert revoked.line_of("Fabio").points == pytest.approx(before["Fabio"]) and not revoked.penalties


def fabio_id(view) -> int:
    return next(line.player_id for line in view.lines if line.name == "Fabio")


async def test_np_pts_1_the_project_counts_every_board_12_9_6_3(server: Services):
    services = server
    np = "risiko-nostra-passione-2018"
    await services.seasons.create(ORGANIZER, name="Progetto", preset=np)
    for name in ("Coppa 1", "Coppa 2", "Coppa 3"):
        await run_tournament(services, name, np, rounds=2, season="Progetto")
    view = await services.seasons.show(GUILD, "Progetto")
    assert view.points_kind == "project" and len(view.tournaments) == 3
    boards: dict[str, float] = dict.fromkeys(NAMES, 0.0)
    for name in view.tournaments:
        for number in (1, 2):
            shown = await services.rounds.show(ORGANIZER, tournament=name, number=number)
            for table in shown.tables:
                sheet = await services.reports.lookup(REFEREE, TableRef(name, table.number, number))
                for place, line in enumerate(sheet.ranking, start=1):
                    boards[line.name] += (12, 9, 6, 3)[place - 1]
    assert {line.name: line.points for line in view.lines} == boards
    assert all(line.games == 6 and line.tournaments == 3 for line in view.lines)
    table = season_table(view, "it")
    assert table.header[:4] == ("Pos.", "Giocatore", "Club", "Coppa 1") and len(table.rows) == len(NAMES)
    assert season_csv(view, "it").startswith(b"\xef\xbb\xbf")


async def test_a_tournament_belongs_to_one_season_of_its_own_preset(server: Services):
    services = server
    await services.tournaments.create(ORGANIZER, name="Serata", preset="risiko-firk-1")
    await services.tournaments.create(ORGANIZER, name="Coppa", preset="risiko-nostra-passione-2018")
    await services.seasons.create(ORGANIZER, name="Anno", tournament="Serata")
    await services.seasons.create(ORGANIZER, name="Altro anno", preset="risiko-firk-1")
    with pytest.raises(Conflict) as twice:
        await services.seasons.attach(ORGANIZER, season="Altro anno", tournament="Serata")
    assert twice.value.key == "error.season.already_in" and twice.value.params["season"] == "Anno"
    with pytest.raises(Conflict) as other:
        await services.seasons.attach(ORGANIZER, season="Anno", tournament="Coppa")
    assert other.value.key == "error.season.other_preset"
    with pytest.raises(Conflict):
        await services.seasons.create(ORGANIZER, name="ANNO", preset="risiko-firk-1")
    with pytest.raises(PermissionDenied):
        await services.seasons.attach(REFEREE, season="Anno", tournament="Coppa")
    with pytest.raises(NotFound):
        await services.seasons.show(GUILD, "Nessuna")
    with pytest.raises(InvalidInput):
        await services.seasons.create(ORGANIZER, name="Senza preset")
    with pytest.raises(InvalidInput) as no_points:
        await services.seasons.sanction(REFEREE, season="Anno", infraction="pact", player="Anna", user_id=None)
    assert no_points.value.key == "error.season.no_standing_points"
    assert (await services.seasons.show(GUILD, "Altro anno")).lines == ()


async def test_attaching_at_once_gives_each_tournament_its_own_place(server: Services):
    """Two organizers attach two tournaments at the same moment: the season's lock orders them, places 2 and 3."""
    import asyncio

    services = server
    for name in ("S1", "S2", "S3"):
        await services.tournaments.create(ORGANIZER, name=name, preset="risiko-firk-1")
    await services.seasons.create(ORGANIZER, name="Anno", tournament="S1")
    results = await asyncio.gather(
        *(services.seasons.attach(ORGANIZER, season="Anno", tournament=n) for n in ("S2", "S3")),
        return_exceptions=True,
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    shown = await services.seasons.show(GUILD, "Anno")
    assert sorted(shown.tournaments) == ["S1", "S2", "S3"] and shown.tournaments[0] == "S1"
