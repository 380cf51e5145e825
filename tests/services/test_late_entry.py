"""Late entries (issue 47, ``tournament.late_entry``) on a real database (SQLite, and PostgreSQL when
TEST_POSTGRES_URL is set): `/register` and `/player add` take a player while the preset allows it, the player joins
the list as it stands and plays the next draw; refused, nothing changes. Also the evenings of a championship dated
ahead with `/schedule round number:` (BOT-SCH-1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models import Registration, RegistrationStatus, Round, RoundStatus
from bot.errors import Conflict, NotFound
from bot.services import Services
from bot.services.access import Actor
from tests.support.rounds import GUILD, ORGANIZER, report_all, setup_tournament


def member(user_id: int) -> Actor:
    return Actor(guild_id=GUILD, user_id=user_id)


async def play_round(services: Services, number: int) -> None:
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa", number=number)
    await report_all(services, number)
    await services.rounds.close(ORGANIZER, tournament="Coppa")


async def status_of(services: Services, name: str) -> str:
    async with services.sessionmaker() as session:
        reg = (await session.execute(select(Registration).where(Registration.display_name == name))).scalar_one()
        return reg.status


async def test_issue_47_until_round_two_a_late_entry_plays_round_two_and_none_is_taken_after(services: Services):
    await setup_tournament(services, 12, overrides={"tournament": {"late_entry": 2}})
    await services.tournaments.close_registration(ORGANIZER, "Coppa")
    await play_round(services, 1)
    late = await services.registrations.register(member(5000), tournament="Coppa", display_name="Tardo", club=None)
    assert late.late_from_round == 2 and late.registration.status == RegistrationStatus.VALIDATED.value
    added = await services.registrations.add_player(ORGANIZER, tournament="Coppa", display_name="Aggiunta")
    assert added.late_from_round == 2 and await status_of(services, "Aggiunta") == RegistrationStatus.VALIDATED.value
    drawn = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    seated = {s.name for table in drawn.tables for s in table.seats}
    assert {"Tardo", "Aggiunta"} <= seated and len(seated) == 14
    with pytest.raises(Conflict) as closed:
        await services.registrations.register(member(5001), tournament="Coppa", display_name="Troppo", club=None)
    assert closed.value.key == "error.registration_closed"
    async with services.sessionmaker() as session:
        names = (await session.execute(select(Registration.display_name))).scalars().all()
    assert "Troppo" not in names


async def test_issue_47_a_closed_preset_takes_no_late_entry(services: Services):
    """The rulebooks' presets keep registration closed once it is closed (``late_entry = "closed"``)."""
    await setup_tournament(services, 8)
    await services.tournaments.close_registration(ORGANIZER, "Coppa")
    with pytest.raises(Conflict) as closed:
        await services.registrations.register(member(5000), tournament="Coppa", display_name="Tardo", club=None)
    assert closed.value.key == "error.registration_closed"


async def test_issue_47_a_late_entry_joins_an_unvalidated_list_as_registered_and_plays(services: Services):
    """Registration closed without validating: the draw takes the registered players, so a late entry (and a staff
    addition) joins them registered — not validated alone, which would leave everyone else out of the draw."""
    await setup_tournament(services, 8, preset="club-championship", status=RegistrationStatus.REGISTERED.value)
    await services.tournaments.close_registration(ORGANIZER, "Coppa")
    await play_round(services, 1)
    late = await services.registrations.register(member(5000), tournament="Coppa", display_name="Tardo", club=None)
    assert late.late_from_round == 2 and late.registration.status == RegistrationStatus.REGISTERED.value
    drawn = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert sum(len(t.seats) for t in drawn.tables) == 9


async def test_bot_sch_1_a_championship_s_evenings_are_dated_ahead(services: Services):
    """`/schedule round number:` opens the next round, planned, even beside another planned one; a gap is refused
    with the tournament named."""
    await setup_tournament(services, 8, preset="club-championship")
    start = services.clock() + timedelta(days=1)
    for number in (1, 2, 3):
        evening = start + timedelta(days=7 * (number - 1))
        done = await services.schedules.schedule_round(ORGANIZER, tournament="Coppa", start=evening, number=number)
        assert done.round_number == number and done.reminders
    with pytest.raises(NotFound) as gap:
        await services.schedules.schedule_round(ORGANIZER, tournament="Coppa", start=start, number=5)
    assert gap.value.key == "error.round_not_found" and gap.value.params == {"number": 5, "tournament": "Coppa"}
    async with services.sessionmaker() as session:
        rounds = (await session.execute(select(Round).order_by(Round.number))).scalars().all()
    assert [(r.number, r.status) for r in rounds] == [(n, RoundStatus.PLANNED.value) for n in (1, 2, 3)]
    drawn = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert drawn.number == 1 and drawn.scheduled_start == start
