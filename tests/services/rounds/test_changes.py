"""Hand changes on a real database (bot/services/rounds/changes.py): swap and move in a drawn round with
each criterion before and after, a late player replaced once the round is published (BOT-TAB-2, ARB 3)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from sqlalchemy import func, select

from bot.db.models import (
    AuditLog,
    Registration,
    RegistrationStatus,
    Tournament,
)
from bot.errors import Conflict, InvalidInput
from bot.services import Services
from tests.support.rounds import (
    GUILD,
    ORGANIZER,
    report_all,
    setup_tournament,
    table_ids,
)


async def test_bot_tab_2_swap_shows_the_cost_before_and_after_and_is_logged(services: Services):
    await setup_tournament(services, 16, clubs=("Roma", "Milano", "Torino", "Napoli"))
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert view.report.criteria[0].value == 0  # four clubs of four over four tables: perfectly separated
    # swap two players of different clubs at different tables: creates same-club pairs
    t1, t2 = view.tables[0].seats, view.tables[1].seats
    a = t1[0]
    b = next(s for s in t2 if s.club != a.club)
    adj = await services.rounds.swap(ORGANIZER, tournament="Coppa", a=a.name, b=b.name.upper())
    assert adj.before["club_pairs"] == 0 and adj.after["club_pairs"] == 2 and adj.worse
    assert adj.tables == (1, 2) and adj.players == (a.name, b.name)
    after = await table_ids(services, 1)
    assert b.registration_id in after[0] and a.registration_id in after[1]
    assert adj.round.report.criteria[0].value == 2 and not adj.round.report.provably_optimal
    assert adj.round.report.adjustments == 1
    async with services.sessionmaker() as session:
        audit = (await session.execute(select(AuditLog).where(AuditLog.action == "round.swap"))).scalar_one()
        assert audit.details["before"] == {"club_pairs": 0} and audit.details["after"] == {"club_pairs": 2}


async def test_bot_tab_2_move_changes_both_table_sizes_and_reports_the_cost(services: Services):
    await setup_tournament(services, 17)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    five = next(t for t in view.tables if len(t.seats) == 5)
    four = next(t for t in view.tables if len(t.seats) == 4)
    mover = five.seats[-1]
    adj = await services.rounds.move(ORGANIZER, tournament="Coppa", player=mover.name, table=four.number)
    sizes = {t.number: len(t.seats) for t in adj.round.tables}
    assert sizes[five.number] == 4 and sizes[four.number] == 5
    assert set(adj.before) == set(adj.after) == {"club_pairs"}


async def test_bad_input_swapping_a_player_who_is_not_seated_changes_nothing(services: Services):
    await setup_tournament(services, 16)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    before = await table_ids(services, 1)
    with pytest.raises(InvalidInput) as err:
        await services.rounds.swap(ORGANIZER, tournament="Coppa", a="Giocatore 00", b="Nessuno")
    assert err.value.key == "error.round_player_not_seated" and err.value.params["name"] == "Nessuno"
    with pytest.raises(InvalidInput) as err:
        await services.rounds.move(ORGANIZER, tournament="Coppa", player="Giocatore 00", table=9)
    assert err.value.key == "error.round_no_such_table"
    assert await table_ids(services, 1) == before
    async with services.sessionmaker() as session:
        assert (await session.execute(select(func.count()).where(AuditLog.action == "round.swap"))).scalar_one() == 0


async def test_bad_input_a_published_round_cannot_be_swapped(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    with pytest.raises(Conflict) as err:
        await services.rounds.swap(ORGANIZER, tournament="Coppa", a="Giocatore 00", b="Giocatore 01")
    assert err.value.key == "error.round_already_published"


async def test_arb_3_a_late_player_is_replaced_by_a_waitlisted_one_who_plays_and_scores_in_their_place(
    services: Services,
):
    """ARB 3 / UFF "Ritardi": not at the table at the start, the player is replaced by the organizers. The
    substitute (here the first on the waitlist) takes the seat and the table is scored with them; the replaced
    player has no result in that game and stays in the tournament; a table that reported keeps its players."""
    await setup_tournament(services, 8)
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        session.add(Registration(guild_id=GUILD, tournament_id=t.id, user_id=1999, display_name="Riserva",
                                 status=RegistrationStatus.WAITLISTED.value))  # fmt: skip
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    view = (await services.rounds.publish(ORGANIZER, tournament="Coppa")).round
    late = view.tables[0].seats[2]
    done = await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=late.name, by="Riserva")
    assert (done.replaced, done.substitute, done.table_number) == (late.name, "Riserva", 1)
    seated = [s.name for s in done.round.tables[0].seats]
    assert "Riserva" in seated and late.name not in seated
    with pytest.raises(Conflict) as twice:  # the substitute now plays in this round
        await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=seated[0], by="Riserva")
    assert twice.value.key == "error.round_replace_seated"
    await report_all(services, 1)
    with pytest.raises(Conflict) as reported:
        await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player="Riserva", by=late.name)
    assert reported.value.key in ("error.round_replace_reported", "error.round_replace_seated")
    standings = {line.name: line for line in (await services.standings.compute(GUILD, "Coppa")).lines}
    assert standings["Riserva"].games == 1
    assert late.name not in standings or standings[late.name].games == 0
    listed = await services.registrations.list_players(GUILD, tournament="Coppa")
    players = {p.display_name: p.status for p in listed.players}
    assert players["Riserva"] == "validated" and players[late.name] == "validated"


async def test_arb_3_two_hundred_replacements_at_once_seat_the_substitute_once(services: Services):
    """Organizers pressing at once: one waitlisted substitute, two hundred replacements of the eight seated players
    at the same time — exactly one succeeds, every other is refused, and the round
    keeps eight seats with the substitute in one of them."""

    await setup_tournament(services, 8)
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament).where(Tournament.name == "Coppa"))).scalar_one()
        session.add(Registration(guild_id=GUILD, tournament_id=t.id, user_id=1999, display_name="Riserva",
                                 status=RegistrationStatus.WAITLISTED.value))  # fmt: skip
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    view = (await services.rounds.publish(ORGANIZER, tournament="Coppa")).round
    names = [s.name for table in view.tables for s in table.seats]

    async def one(i: int) -> str:
        try:
            await services.rounds.replace_player(ORGANIZER, tournament="Coppa", player=names[i % 8], by="Riserva")
        except (Conflict, InvalidInput) as exc:
            return exc.key
        return "ok"

    outcomes = Counter(await asyncio.gather(*(one(i) for i in range(200))))
    assert outcomes["ok"] == 1 and sum(outcomes.values()) == 200
    # the others: the substitute already plays, or (the replaced player's own calls) that player no longer sits
    assert set(outcomes) - {"ok"} <= {"error.round_replace_seated", "error.round_player_not_seated"}
    after = await services.rounds.show(ORGANIZER, tournament="Coppa")
    seated = [s.name for table in after.tables for s in table.seats]
    assert len(seated) == 8 and seated.count("Riserva") == 1
