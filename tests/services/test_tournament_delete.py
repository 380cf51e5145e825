"""Deleting a test tournament, on a real SQLite file (issue 44: "how to delete a test tournament — a command for a
tournament with no results").

"No results" means no table with a report (a result line, or a final situation or report entered) and no sanction
ever logged; registrations, draws, check-ins, clocks, calls, reminders and their messages may exist and go with it.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models import (
    AuditLog,
    CheckIn,
    DmDelivery,
    GameTable,
    Registration,
    RegistrationStatus,
    ReportDraft,
    Round,
    ScheduledReminder,
    SeasonGame,
    SeasonSanction,
    SeasonTournament,
    SQLModel,
    TableResult,
    Tournament,
)
from bot.errors import Conflict, NotFound, PermissionDenied
from bot.services import Services
from bot.services.access import Actor
from bot.services.tournaments import creation_stamp
from tests.conftest import FakeClock

GUILD = 111
ORG_ROLE, REF_ROLE = 9001, 9002
ADMIN = Actor(guild_id=GUILD, user_id=1, is_admin=True)
ORGANIZER = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({ORG_ROLE}))
REFEREE = Actor(guild_id=GUILD, user_id=3, role_ids=frozenset({REF_ROLE}))
ELSEWHERE = Actor(guild_id=222, user_id=2, is_admin=True)  # another server's administrator


async def _tournament(services: Services, clock: FakeClock, name: str, first_user: int) -> int:
    """A tournament in its published first round with everything a test evening leaves behind: eight validated
    players at two tables, a registration deadline and round reminders planned, a check-in, a started clock, a
    referee call, a report page's draft, a reminder's direct message, and an unconfirmed sanction proposal."""
    deadline = (clock.now + timedelta(days=30)).replace(tzinfo=None)  # the server's wall clock
    t = await services.tournaments.create(
        ORGANIZER, name=name, preset="risiko-ufficiali-2018", registration_deadline=deadline
    )
    async with services.sessionmaker() as session, session.begin():
        session.add_all(
            Registration(
                guild_id=GUILD,
                tournament_id=t.id,
                user_id=first_user + i,
                display_name=f"{name} {i}",
                status=RegistrationStatus.VALIDATED.value,
                registered_at=clock.now,
            )
            for i in range(8)
        )
    await services.rounds.draw(ORGANIZER, tournament=name)
    await services.rounds.publish(ORGANIZER, tournament=name)
    await services.schedules.schedule_round(ORGANIZER, tournament=name,
                                            start=(clock.now + timedelta(days=2)).replace(tzinfo=None))  # fmt: skip
    await services.checkins.check_in(Actor(guild_id=GUILD, user_id=first_user), tournament=name)
    await services.clocks.start(REFEREE, tournament=name, table=1)
    await services.calls.call(REFEREE, tournament=name, table=2)
    await services.proposals.offer(REFEREE, tournament=name, player=f"{name} 1", user_id=None, infraction="pact")
    async with services.sessionmaker() as session, session.begin():
        rnd = (await session.execute(select(Round).where(Round.tournament_id == t.id))).scalar_one()
        table = (await session.execute(select(GameTable).where(GameTable.round_id == rnd.id))).scalars().first()
        assert table is not None and table.id is not None
        session.add(ReportDraft(table_id=table.id, guild_id=GUILD, round_id=rnd.id, number=table.number, draft={}))
        reminder = (
            (await session.execute(select(ScheduledReminder).where(ScheduledReminder.tournament_id == t.id)))
            .scalars()
            .first()
        )
        assert reminder is not None
        session.add(DmDelivery(guild_id=GUILD, tournament_id=t.id, reminder_id=reminder.id, user_id=first_user,
                               ok=True))  # fmt: skip
    return t.id


async def _stamp(services: Services, tournament_id: int) -> int:
    """The creation stamp the Confirm button carries with the id."""
    async with services.sessionmaker() as session:
        t = (await session.execute(select(Tournament).where(Tournament.id == tournament_id))).scalar_one()
        return creation_stamp(t.created_at)


async def _snapshot(services: Services, *, but: tuple[str, ...] = ("audit_log",)) -> dict[str, set[str]]:
    """Every row of every table (the audit log apart: it only grows)."""
    out: dict[str, set[str]] = {}
    async with services.sessionmaker() as session:
        for table in SQLModel.metadata.sorted_tables:
            if table.name not in but:
                rows = (await session.execute(select(table))).all()
                out[table.name] = {json.dumps(list(row), sort_keys=True, default=str) for row in rows}
    return out


async def _roles(services: Services) -> None:
    await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=None
    )


async def test_issue_44_every_row_of_the_test_tournament_goes_and_nothing_of_the_others(
    services: Services, clock: FakeClock
):
    """The deleted tournament leaves no row in any table; the other tournament, its season and everything else is
    exactly as it was; the season's one-off game dated at the deleted tournament is dated at the one before it."""
    await _roles(services)
    coppa = await _tournament(services, clock, "Coppa", 1000)
    await services.seasons.create(ORGANIZER, name="Anno", tournament="Coppa")
    before = await _snapshot(services)
    prova = await _tournament(services, clock, "Prova", 2000)
    await services.seasons.attach(ORGANIZER, season="Anno", tournament="Prova")
    async with services.sessionmaker() as session, session.begin():
        season_id = (await session.execute(select(SeasonTournament.season_id))).scalars().first()
        session.add(SeasonGame(guild_id=GUILD, season_id=season_id, number=1, given_at=prova))
    filled = await _snapshot(services)
    grown = {name for name, rows in filled.items() if len(rows) > len(before[name])}
    assert grown >= {"tournament", "registration", "round", "game_table", "seat", "check_in", "table_clock",
                     "referee_call", "report_draft", "scheduled_reminder", "dm_delivery", "sanction_proposal",
                     "season_tournament", "season_game"}  # fmt: skip

    preview = await services.tournaments.deletion(ORGANIZER, "Prova")
    assert (preview.name, preview.registrations, preview.rounds, preview.tables) == ("Prova", 8, 1, 2)
    stamp = await _stamp(services, prova)
    assert preview.stamp == stamp
    deleted = await services.tournaments.delete(ORGANIZER, prova, stamp)
    assert deleted == preview

    after = await _snapshot(services, but=("audit_log", "season_game"))
    assert after == {name: rows for name, rows in before.items() if name != "season_game"}
    async with services.sessionmaker() as session:
        (game,) = (await session.execute(select(SeasonGame))).scalars().all()
        assert game.given_at == coppa  # dated at the season's tournament before the deleted one
        assert (await session.execute(select(Tournament).where(Tournament.id == prova))).first() is None
        (entry,) = (
            (await session.execute(select(AuditLog).where(AuditLog.action == "tournament.delete"))).scalars().all()
        )
    assert entry.actor_id == ORGANIZER.user_id and entry.entity_id == prova
    assert entry.details["name"] == "Prova" and entry.details["registrations"] == 8 and entry.details["rows"] > 30
    # the name is free again; SQLite may give the new tournament the deleted one's id, and the deleted one's
    # Confirm, pressed again, never deletes it
    clock.advance(minutes=1)
    again = await services.tournaments.create(ORGANIZER, name="Prova", preset="risiko-ufficiali-2018")
    with pytest.raises(NotFound) as stale:
        await services.tournaments.delete(ORGANIZER, prova, stamp)
    assert stale.value.key == "error.tournament.already_deleted"
    assert (await services.tournaments.get(GUILD, "Prova")).id == again.id


async def test_issue_44_a_tournament_with_a_report_or_a_sanction_is_refused_and_kept(
    services: Services, clock: FakeClock
):
    """A result line, or a sanction (revoked ones too), makes the tournament history: refused at the command and at
    the button, with the reason, and nothing changes."""
    await _roles(services)
    prova = await _tournament(services, clock, "Prova", 2000)
    async with services.sessionmaker() as session, session.begin():
        table = (await session.execute(select(GameTable))).scalars().first()
        assert table is not None
        reg = (await session.execute(select(Registration))).scalars().first()
        assert reg is not None
        session.add(TableResult(guild_id=GUILD, table_id=table.id, registration_id=reg.id, table_points=40.0))
    before = await _snapshot(services)
    stamp = await _stamp(services, prova)
    for attempt in (
        services.tournaments.deletion(ORGANIZER, "Prova"),
        services.tournaments.delete(ORGANIZER, prova, stamp),
    ):
        with pytest.raises(Conflict) as refused:
            await attempt
        assert refused.value.key == "error.tournament.has_results"
        assert refused.value.params == {"tournament": "Prova", "tables": 1, "sanctions": 0}
    assert await _snapshot(services) == before

    await _roles(services)
    other = await _tournament(services, clock, "Altra", 3000)
    case = await services.sanctions.record(REFEREE, tournament="Altra", player="Altra 2", user_id=None,
                                           infraction="pact")  # fmt: skip
    head = Actor(guild_id=GUILD, user_id=1, is_admin=True)
    await services.sanctions.revoke(head, case_number=case.case_number, reason="errore")
    with pytest.raises(Conflict) as refused:
        await services.tournaments.delete(ORGANIZER, other, await _stamp(services, other))
    assert refused.value.params == {"tournament": "Altra", "tables": 0, "sanctions": 1}


async def test_issue_44_only_organizers_of_the_server_delete(services: Services, clock: FakeClock):
    """A referee or a player is refused for their role; another server's administrator does not find it."""
    await _roles(services)
    prova = await _tournament(services, clock, "Prova", 2000)
    stamp = await _stamp(services, prova)
    before = await _snapshot(services)
    for actor in (REFEREE, Actor(guild_id=GUILD, user_id=2000)):
        with pytest.raises(PermissionDenied):
            await services.tournaments.deletion(actor, "Prova")
        with pytest.raises(PermissionDenied):
            await services.tournaments.delete(actor, prova, stamp)
    with pytest.raises(NotFound):
        await services.tournaments.delete(ELSEWHERE, prova, stamp)
    with pytest.raises(NotFound):
        await services.tournaments.deletion(ELSEWHERE, "Prova")
    assert await _snapshot(services) == before
    await services.tournaments.delete(ADMIN, prova, stamp)  # administrators pass every role check


async def test_issue_44_a_hundred_simultaneous_confirms_delete_once(services: Services, clock: FakeClock):
    """Once only: of 100 simultaneous presses of Confirm exactly one deletes; the 99 others are told the tournament
    is already gone; one audit entry."""
    await _roles(services)
    prova = await _tournament(services, clock, "Prova", 2000)
    stamp = await _stamp(services, prova)

    async def press() -> str:
        try:
            await services.tournaments.delete(ORGANIZER, prova, stamp)
        except NotFound as exc:
            return exc.key
        return "deleted"

    outcomes = Counter(await asyncio.gather(*(press() for _ in range(100))))
    assert outcomes == {"deleted": 1, "error.tournament.already_deleted": 99}
    async with services.sessionmaker() as session:
        audit = (await session.execute(select(AuditLog).where(AuditLog.action == "tournament.delete"))).all()
        assert len(audit) == 1
        assert (await session.execute(select(CheckIn))).first() is None
        assert (await session.execute(select(SeasonSanction))).first() is None
    with pytest.raises(NotFound) as late:  # a press after a restart, long after
        await services.tournaments.delete(ORGANIZER, prova, stamp)
    assert late.value.key == "error.tournament.already_deleted"
