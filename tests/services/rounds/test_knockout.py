"""The knockout on a real database (bot/services/rounds/knockout.py and the draw that runs it): the plan,
refusals with the nearest workable sizes, withdrawals, ties decided by NP's tie-breaks (NP-FMT-1, NP-SCORE-2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import (
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    TableResult,
)
from bot.errors import Conflict
from bot.present.tables import tables_render_data
from bot.services import Services
from bot.services.access import Actor
from bot.services.reports import TableRef
from tests.support.rounds import (
    GUILD,
    ORGANIZER,
    REF_ROLE,
    count,
    report_all,
    setup_knockout,
    steward_draw,
)


async def test_np_fmt_1_a_hundred_player_knockout_runs_from_the_plan_to_the_champion(
    services: Services, capsys, tmp_path
):
    """NP-FMT-1: 100 players → 20 tables of 5 → 5 tables of 4 → the final of 5, each table's winner going on; the
    plan is shown before the first draw, every round is reproduced by `steward draw --seed` on its export, and the
    final's winner heads the standings."""
    await setup_knockout(services, 100)
    planned = await services.rounds.plan(ORGANIZER, tournament="Coppa")
    assert planned.knockout is not None
    assert planned.knockout.plan == ((100, (5,) * 20), (20, (4,) * 5), (5, (5,)))
    expected = [(5,) * 20, (4,) * 5, (5,)]
    for number, sizes in enumerate(expected, start=1):
        view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
        assert view.number == number and tuple(len(t.seats) for t in view.tables) == sizes
        assert view.knockout is not None and view.knockout.final == (number == 3)
        assert tables_render_data(view, date="2026-11-25").kind == ("final" if number == 3 else "qualifying")
        doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=number)
        cli = steward_draw(doc, view.seed, capsys, tmp_path)
        assert cli["tables"] == [[s.registration_id for s in t.seats] for t in view.tables]
        assert cli["report"]["knockout"]["final"] == (number == 3)
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        # the last seat wins each table: the advancing players are exactly those
        winners = {t.seats[-1].registration_id for t in view.tables}
        await report_all(services, number, order={t.number: [s.registration_id for s in reversed(t.seats)]
                                                  for t in view.tables})  # fmt: skip
        if number < 3:
            nxt = await services.rounds.plan(ORGANIZER, tournament="Coppa")
            assert nxt.knockout is not None and nxt.knockout.players == len(winners)
    champion = next(iter(winners))
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.knockout_over"
    standings = await services.standings.compute(GUILD, "Coppa")
    assert standings.lines[0].player_id == champion and standings.lines[0].rank == 1
    final_players = {s.registration_id for t in view.tables for s in t.seats}
    assert {line.player_id for line in standings.lines[:5]} == final_players  # the finalists come next


async def test_np_fmt_1_a_field_that_cannot_be_planned_is_refused_with_the_nearest_workable_sizes(services: Services):
    """NP-FMT-1: 37 players cannot reach a final of 5 with every round's tables a multiple of 5: the plan says so
    before the draw, the draw is refused naming 25 and 80, and nothing is stored."""
    await setup_knockout(services, 37)
    planned = await services.rounds.plan(ORGANIZER, tournament="Coppa")
    assert planned.knockout is not None and not planned.knockout.plan
    assert (planned.knockout.below, planned.knockout.above) == (25, 80)
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.knockout_no_plan" and err.value.params["nearest"] == "25 / 80"
    assert await count(services, GameTable) == 0


async def test_np_fmt_1_a_winner_who_withdraws_is_replaced_by_the_next_of_the_table_and_ties_are_refused(
    services: Services,
):
    """NP-FMT-1 (our reading where NP is silent): a table winner who withdraws before the next round is replaced by
    the 2nd of the same table, so the plan holds; a shared first place is refused until the referee settles it."""
    await setup_knockout(services, 25)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in view.tables}
    await report_all(services, 1, order=orders)
    gone, second = orders[1][0], orders[1][1]

    async def set_rank(player: int, rank: int) -> None:
        async with services.sessionmaker() as session, session.begin():
            row = (await session.execute(select(TableResult).where(TableResult.registration_id == player))).scalar_one()
            row.table_rank = rank

    await set_rank(second, 1)  # a shared first place at table 1
    with pytest.raises(Conflict) as err:
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert err.value.key == "error.knockout_tied_winner" and err.value.params == {"table": 1, "round": 1}
    assert await count(services, Round) == 1
    await set_rank(second, 2)
    async with services.sessionmaker() as session, session.begin():
        (await session.get(Registration, gone)).status = RegistrationStatus.WITHDRAWN.value
    nxt = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    seated = {s.registration_id for t in nxt.tables for s in t.seats}
    assert seated == {second} | {orders[n][0] for n in range(2, 6)}
    assert nxt.knockout is not None and nxt.knockout.final


# NP-SCORE-2 at a knockout table: the two tied on objective points are "tied" and "winner"; the others score less.
# In each case the tie-break that decides comes before one that would have picked the other player.
_NP_TIES = {
    "outside_objective_value": (  # 10 = 10 objective points; outside: Europa Meridionale 6 > Giappone 2
        {"Cina": 10, "India": 10, "Giappone": 20},
        {"Ontario": 1, "Groenlandia": 1, "Europa Meridionale": 1},
        None,
    ),
    "objective_armies": (  # outside 2 = 2; objective armies 8 > 3 (all armies would say 33 > 9)
        {"Cina": 2, "India": 1, "Giappone": 30},
        {"Ontario": 4, "Groenlandia": 4, "Argentina": 1},
        None,
    ),
    "all_armies": (  # outside 2 = 2, objective armies 3 = 3; all armies 8 > 4
        {"Cina": 2, "India": 1, "Giappone": 1},
        {"Ontario": 2, "Groenlandia": 1, "Argentina": 5},
        None,
    ),
    "dice_roll": (  # everything level: the dice the referee records decide
        {"Cina": 2, "India": 1, "Giappone": 1},
        {"Ontario": 2, "Groenlandia": 1, "Argentina": 1},
        (2, 5),
    ),
}


@pytest.mark.parametrize("decider", list(_NP_TIES))
async def test_np_fmt_1_np_score_2_a_knockout_tie_on_objective_points_is_decided_by_np_tie_breaks(
    services: Services, decider: str, capsys, tmp_path
):
    """NP-FMT-1 with NP-SCORE-2: a knockout table (25 players → 5 tables of 5 → the final of 5) reported as a
    RisiKo! final situation (the `/report situation` service call) where two players have the same objective points
    (10 each: Cina + India, Ontario + Groenlandia). NP's tie-breaks in order — value of territories outside the
    objective, armies on the objective, all armies, the dice — rank them; the tie-break winner is the one seated in
    the next round and the other is not (no shared first place to refuse). The tie's winner is the player
    with the higher id (and later name), and the tie-break that decides comes before one that would pick the other."""
    await setup_knockout(services, 25)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    referee = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
    first = view.tables[0]
    by_id = sorted(first.seats, key=lambda s: s.registration_id)
    tied, winner, rest = by_id[0], by_id[-1], by_id[1:-1]
    tied_terr, winner_terr, dice = _NP_TIES[decider]
    others = [  # 7, 4 and 2 objective points: below the tie
        ({"Brasile": 3, "Venezuela": 3}, ["Brasile", "Venezuela"]),
        ({"Egitto": 3}, ["Egitto", "Congo"]),
        ({"Madagascar": 3}, ["Madagascar", "Siam"]),
    ]
    players = [
        {"name": tied.name, "territories": tied_terr, "objective": ["Cina", "India"]},
        {"name": winner.name, "territories": winner_terr, "objective": ["Ontario", "Groenlandia"]},
        *({"name": s.name, "territories": terr, "objective": obj} for s, (terr, obj) in zip(rest, others, strict=True)),
    ]
    situation: dict[str, Any] = {"players": players}
    if dice is not None:
        situation["dice"] = {tied.name: dice[0], winner.name: dice[1]}
    report = await services.reports.enter_situation(referee, TableRef("Coppa", 1, 1), json.dumps(situation))
    line = {s.registration_id: s for s in report.seats}
    assert report.kind == "situation"
    assert line[winner.registration_id].table_points == line[tied.registration_id].table_points == 10
    assert (line[winner.registration_id].rank, line[tied.registration_id].rank) == (1, 2)
    assert line[winner.registration_id].decided_by == decider
    winners = {first.number: winner.registration_id}
    for table in view.tables[1:]:  # the other tables typed as table points: the last seat wins each
        ids = [s.registration_id for s in table.seats]
        await services.reports.enter_points(referee, TableRef("Coppa", table.number, 1),
                                            {rid: str(10 + 5 * k) for k, rid in enumerate(ids)})  # fmt: skip
        winners[table.number] = ids[-1]
    final = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert final.knockout is not None and final.knockout.final
    seated = {s.registration_id for t in final.tables for s in t.seats}
    assert seated == set(winners.values()) and tied.registration_id not in seated
    doc = await services.rounds.export_inputs(GUILD, tournament="Coppa", number=2)
    cli = steward_draw(doc, final.seed, capsys, tmp_path)
    assert cli["tables"] == [[s.registration_id for s in t.seats] for t in final.tables]


async def test_np_fmt_1_a_table_with_nobody_left_gives_its_seat_to_the_best_runner_up(services: Services):
    """NP-FMT-1 (our reading where NP is silent, as ARB 5 recovers a final's seat): every player of table 1 withdraws
    before round 2; the best 2nd of the other tables by table points takes the seat, so 25 → 5 tables → the final
    of 5 still holds instead of stopping at 4 players."""
    await setup_knockout(services, 25)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in view.tables}
    await report_all(services, 1, order=orders)
    async with services.sessionmaker() as session, session.begin():
        for rid in orders[1]:
            (await session.get(Registration, rid)).status = RegistrationStatus.WITHDRAWN.value
        seconds = [orders[n][1] for n in range(2, 6)]
        rows = (await session.execute(select(TableResult).where(TableResult.registration_id.in_(seconds)))).scalars()
        best = {row.registration_id: row for row in rows}
        best[seconds[2]].table_points = 99.0  # table 4's 2nd scored most of the 2nds
    final = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    seated = {s.registration_id for t in final.tables for s in t.seats}
    assert seated == {orders[n][0] for n in range(2, 6)} | {seconds[2]}
    assert final.knockout is not None and final.knockout.final and len(final.tables[0].seats) == 5
