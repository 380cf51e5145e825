"""The final classification through the services (BOT-STD-1, TOUR-FIN-1, NP-FMT-1, FIRK-ROUNDS-1): the champion first
once the final is played, the open places before it, the same answer on the venue page and in the season — on a real
SQLite file and on PostgreSQL."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import Round, RoundKind
from bot.services import Services
from bot.services.seasons import previous_tournament_ranking
from tests.support.rounds import (
    GUILD,
    ORGANIZER,
    play_two_rounds,
    report_all,
    semis_played,
    setup_knockout,
    setup_tournament,
)
from tests.support.venue import venue_snapshot


async def final_played(services: Services, order: list[int] | None = None) -> tuple[dict[int, list[int]], list[int]]:
    """UFF, 24 players: two rounds, four semifinals, the final published and played (``order``: its finishing
    order, default the seats'). Returns the semifinal orders and the final's finishing order."""
    _, orders = await semis_played(services)
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa", number=final.number)
    seats = [s.registration_id for s in final.tables[0].seats]
    finish = order or seats
    await report_all(services, final.number, order={final.tables[0].number: finish})
    return orders, finish


async def test_tour_fin_1_after_the_final_the_classification_names_its_winner_first(services: Services):
    """ARB 5: the final's finishing order gives places 1–4 (the last semifinal winner wins here, whatever the
    qualifying standings say); then the semifinalists by their place at the semifinal and, in one place, by the
    standings after the qualifying rounds; then everyone else by those standings."""
    orders, seats = await final_played(services)
    finish = list(reversed(seats))
    async with services.sessionmaker() as session, session.begin():  # the final played in the reverse order
        from bot.db.models import GameTable, TableResult

        final = (await session.execute(select(Round).where(Round.kind == RoundKind.FINAL.value))).scalar_one()
        table = (await session.execute(select(GameTable).where(GameTable.round_id == final.id))).scalar_one()
        for row in (await session.execute(select(TableResult).where(TableResult.table_id == table.id))).scalars():
            row.table_rank = finish.index(row.registration_id) + 1
    view = await services.classification.show(GUILD, "Coppa")
    assert view is not None and view.complete and view.format == "finals"
    assert [line.player_id for line in view.lines[:4]] == finish and [line.place for line in view.lines[:4]] == [
        1, 2, 3, 4]  # fmt: skip
    assert [c.player_id for c in view.champions] == [finish[0]]
    standings = await services.standings.compute(GUILD, "Coppa")
    rank = {line.player_id: line.rank for line in standings.lines}
    seconds = [line for line in view.lines if line.stage == "semifinal" and line.table_place == 2]
    assert seconds[0].place == 5 and len(seconds) == 4
    assert [rank[line.player_id] for line in seconds] == sorted(rank[line.player_id] for line in seconds)
    semifinalists = {p for order in orders.values() for p in order}
    below = [line for line in view.lines if line.player_id not in semifinalists]
    assert all(line.stage == "qualifying" and line.place and line.place > 16 for line in below)
    assert [rank[line.player_id] for line in below] == sorted(rank[line.player_id] for line in below)


async def test_tour_fin_1_before_the_final_is_played_its_places_are_open(services: Services):
    await semis_played(services)
    semis_only = await services.classification.show(GUILD, "Coppa")
    assert semis_only is not None and not semis_only.complete
    assert [(b.first, b.last, b.stage) for b in semis_only.open] == [(1, 16, "semifinal")]
    final = await services.rounds.compose_final(ORGANIZER, tournament="Coppa")
    drawn = await services.classification.show(GUILD, "Coppa")
    assert drawn is not None and drawn.open == semis_only.open  # a final only drawn may still change
    await services.rounds.publish(ORGANIZER, tournament="Coppa", number=final.number)
    published = await services.classification.show(GUILD, "Coppa")
    assert published is not None and [(b.first, b.last, b.stage) for b in published.open] == [(1, 4, "final")]
    assert set(published.open[0].names) == {s.name for s in final.tables[0].seats}
    assert all(line.place is not None for line in published.lines[4:]) and not published.champions


async def test_before_the_semifinals_there_is_no_classification_yet(services: Services):
    await setup_tournament(services, 24)
    await play_two_rounds(services)
    assert await services.classification.show(GUILD, "Coppa") is None


async def test_bot_std_1_the_venue_page_shows_the_champion_and_each_final_place(services: Services):
    _, finish = await final_played(services)
    link = await services.venue.link(ORGANIZER, tournament="Coppa")
    snap = await venue_snapshot(services, link.token)
    assert snap is not None
    block = snap.data["classification"]
    assert block["complete"] and block["format"] == "finals" and not block["open"]
    names = {line.player_id: line.name for line in (await services.standings.compute(GUILD, "Coppa")).lines}
    assert block["champions"] == [names[finish[0]]]
    assert [line["name"] for line in block["lines"][:4]] == [names[p] for p in finish]
    assert block["lines"][0] | {"place": 1, "stage": "final", "table_place": 1} == block["lines"][0]


async def test_np_fmt_1_the_knockout_s_classification_follows_the_rounds_to_the_final(services: Services):
    """NP-FMT-1, 25 players → 5 tables of 5 → the final of 5: the final's winner first, the final's places, then
    those out in round 1 by their place at their table (the 2nds, the 3rds…)."""
    await setup_knockout(services, 25)
    for number in (1, 2):
        view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        if number == 1:
            during = await services.classification.show(GUILD, "Coppa")
            assert during is not None and during.open and during.open[0].stage == "knockout"
        await report_all(services, number)
        if number == 1:
            await services.rounds.close(ORGANIZER, tournament="Coppa")
    found = await services.classification.show(GUILD, "Coppa")
    assert found is not None and found.complete and found.format == "knockout"
    final_seats = [s.registration_id for s in view.tables[0].seats]
    assert [line.player_id for line in found.lines[:5]] == final_seats  # report_all: seat order is the finish
    assert [line.stage for line in found.lines[:5]] == ["final"] * 5
    assert [line.table_place for line in found.lines[5:10]] == [2] * 5 and found.lines[5].place == 6


async def test_firk_rounds_1_after_the_two_rounds_the_standings_are_the_classification(services: Services):
    await setup_tournament(services, 8, preset="risiko-firk-1")
    await play_two_rounds(services)
    assert await services.classification.show(GUILD, "Coppa") is None  # reported, not yet countersigned
    async with services.sessionmaker() as session, session.begin():
        from bot.db.models import GameTable

        for table in (await session.execute(select(GameTable))).scalars():
            table.locked = True
    found = await services.classification.show(GUILD, "Coppa")
    standings = await services.standings.compute(GUILD, "Coppa")
    assert found is not None and found.complete and found.format == "standings"
    assert [(line.place, line.player_id) for line in found.lines] == [(x.rank, x.player_id) for x in standings.lines]


async def test_a_season_reads_a_tournament_s_place_from_its_final_classification(services: Services):
    """FIRK §6's "classifica finale del torneo precedente" and the season's latest-tournament tie-break: a
    tournament with a final phase places its champion 1st (``season.place = "classification"``)."""
    _, finish = await final_played(services)
    season = await services.seasons.create(ORGANIZER, name="Stagione", preset="risiko-ufficiali-2018")
    await services.seasons.attach(ORGANIZER, season=season.name, tournament="Coppa")
    await setup_tournament(services, 0, name="Seconda")
    await services.seasons.attach(ORGANIZER, season=season.name, tournament="Seconda")
    async with services.standings.run(GUILD, tournament="Seconda") as uc:  # the use case of the later tournament
        first = await uc.tournaments.by_name("Coppa")
        assert first is not None and first.id is not None
        regs = await uc.registrations.listed(tournament_id=first.id)
        carried = await previous_tournament_ranking(uc, list(regs), services.standings)
    assert carried is not None
    ranking, ranks = carried
    assert list(ranking[:4]) == finish and list(ranks[:4]) == [1, 2, 3, 4]
