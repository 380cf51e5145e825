"""Issue 15, defects 1–3: limits that hold under concurrency because the database holds them (BOT-REG-1,
BOT-REG-2). Hundreds of simultaneous calls on a real SQLite file and, in CI, PostgreSQL."""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import func, select

from bot.db.models import Registration, Tournament
from bot.errors import Conflict, UserFacingError
from bot.services import Services
from bot.services.access import Actor
from tests.support.reports_fixtures import GUILD, ORGANIZER, build_tournament


def member(user_id: int) -> Actor:
    return Actor(guild_id=GUILD, user_id=user_id, display_name=f"u{user_id}")


async def _open(services: Services, cap: int) -> str:
    await build_tournament(services, name="Riserva")  # maps the roles
    created = await services.tournaments.create(ORGANIZER, name="Coppa Cap", preset="risiko-ufficiali-2018", cap=cap)
    return created.name


async def test_three_hundred_registrations_at_a_cap_of_250_fill_exactly_the_cap(services: Services):
    name = await _open(services, 250)
    outcomes = await asyncio.gather(
        *(services.registrations.register(member(10_000 + i), tournament=name, display_name=f"P{i:03d}", club=None)
          for i in range(300)),
        return_exceptions=True,
    )  # fmt: skip
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert errors == []
    statuses = Counter(o.registration.status for o in outcomes if not isinstance(o, BaseException))
    assert statuses == Counter({"registered": 250, "waitlisted": 50})
    async with services.sessionmaker() as session:
        stored = Counter((await session.execute(select(Registration.status).where(
            Registration.tournament_id == select(Tournament.id).where(Tournament.name == name).scalar_subquery()
        ))).scalars().all())  # fmt: skip
    assert stored == statuses  # each was told the truth


async def test_five_simultaneous_gemelli_make_one_row_and_four_clean_refusals(services: Services):
    name = await _open(services, 100)
    outcomes = await asyncio.gather(
        *(services.registrations.register(member(20_000 + i), tournament=name, display_name="Gemello", club=None)
          for i in range(5)),
        return_exceptions=True,
    )  # fmt: skip
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 4 and all(isinstance(o, Conflict) and o.key == "error.name_taken" for o in refused)
    again = await asyncio.gather(
        *(services.registrations.register(member(30_000 + i), tournament=name, display_name=v, club=None)
          for i, v in enumerate(["GEMELLO", "gemello", "Gemello\u200b", "Ge\u0301mello"]))  ,
        return_exceptions=True,
    )  # fmt: skip
    assert all(isinstance(o, Conflict) for o in again[:3])  # case and invisible characters fold to one name


async def test_case_variant_tournaments_created_at_once_make_one(services: Services):
    await build_tournament(services, name="Riserva")
    outcomes = await asyncio.gather(
        *(services.tournaments.create(ORGANIZER, name=n, preset="risiko-ufficiali-2018")
          for n in ["Coppa Neve", "COPPA NEVE", "coppa neve", "Coppa  Neve"] * 10),
        return_exceptions=True,
    )  # fmt: skip
    made = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(made) == 1
    assert all(isinstance(o, Conflict) and o.key == "error.tournament_exists" for o in outcomes if o not in made)
    async with services.sessionmaker() as session:
        count = (await session.execute(select(func.count()).select_from(Tournament).where(
            func.lower(Tournament.name) == "coppa neve"))).scalar_one()  # fmt: skip
    assert count == 1
    view = await services.tournaments.get(GUILD, "COPPA NEVE")  # any case finds it
    assert view.name in ("Coppa Neve", "COPPA NEVE", "coppa neve")


async def test_the_same_user_registering_three_times_at_once_gets_clean_refusals(
    services: Services,
):
    name = await _open(services, 10)
    outcomes = await asyncio.gather(
        *(services.registrations.register(member(40_000), tournament=name, display_name=f"Io{i}", club=None)
          for i in range(3)),
        return_exceptions=True,
    )  # fmt: skip
    ok = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(ok) == 1
    assert all(isinstance(o, UserFacingError) and o.key == "error.already_registered"
               for o in outcomes if isinstance(o, BaseException))  # fmt: skip


async def test_simultaneous_withdrawals_promote_exactly_as_many_from_the_waitlist(
    services: Services,
):
    name = await _open(services, 20)
    for i in range(30):
        await services.registrations.register(member(50_000 + i), tournament=name, display_name=f"W{i:02d}", club=None)
    await asyncio.gather(*(services.registrations.withdraw(member(50_000 + i), tournament=name) for i in range(8)))
    players = await services.registrations.list_players(GUILD, tournament=name)
    assert players.counts.get("registered", 0) == 20 and players.counts.get("waitlisted", 0) == 2
    promoted = [p.display_name for p in players.players if p.status == "registered" and p.display_name >= "W20"]
    assert promoted == [f"W{i}" for i in range(20, 28)]  # in arrival order


async def test_a_registration_racing_a_roster_import_on_one_account_gets_a_clean_refusal(
    services: Services,
):
    name = await _open(services, 100)
    csv = b"name;club;discord_id\nRiccardo;Roma;123456789012345678\nSofia;Roma;223456789012345678\n"
    outcomes = await asyncio.gather(
        services.roster.import_csv(ORGANIZER, tournament=name, data=csv),
        services.registrations.register(member(123456789012345678), tournament=name, display_name="Ric", club=None),
        return_exceptions=True,
    )
    assert not any(isinstance(o, BaseException) and not isinstance(o, UserFacingError) for o in outcomes)
    players = await services.registrations.list_players(GUILD, tournament=name)
    ids = [p.user_id for p in players.players if p.user_id == 123456789012345678]
    assert len(ids) == 1  # one entry for the account, whoever came first


async def test_a_double_check_in_keeps_one_and_answers_both_cleanly(services: Services):
    from tests.support.reports_fixtures import player as as_player

    b = await build_tournament(services, name="Coppa Doppia", rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    async with services.sessionmaker() as session, session.begin():
        from sqlalchemy import update

        from bot.db.models import Round

        await session.execute(update(Round).values(status="planned"))
    outcomes = await asyncio.gather(
        *(services.checkins.check_in(as_player(b.users["Anna"]), tournament=b.name) for _ in range(20)),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, Conflict) and o.key == "error.already_checked_in"
               for o in outcomes if isinstance(o, BaseException))  # fmt: skip


async def test_two_redraws_at_once_one_wins_and_the_other_is_told_the_tables_changed(
    services: Services,
):
    name = await _open(services, 100)
    for i in range(16):
        await services.registrations.register(member(60_000 + i), tournament=name, display_name=f"R{i:02d}", club=None)
    await services.rounds.draw(ORGANIZER, tournament=name)
    outcomes = await asyncio.gather(
        *(services.rounds.redraw(ORGANIZER, tournament=name) for _ in range(2)), return_exceptions=True
    )
    won = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(won) == 1
    (refused,) = [o for o in outcomes if isinstance(o, BaseException)]
    assert isinstance(refused, Conflict) and refused.key == "error.round_changed_meanwhile"
    shown = await services.rounds.show(ORGANIZER, tournament=name)
    assert shown.seed == won[0].seed  # what the winner was shown is what is stored


async def test_a_sign_that_meets_a_locked_database_is_retried_and_never_lost(services: Services, monkeypatch):
    """SQLite refuses a writer that started from a stale snapshot at once ("database is locked"); the press is
    retried as a whole and the signature is stored."""
    from sqlalchemy.exc import OperationalError

    from bot.db.repo import reports as report_queries
    from bot.services.reports import TableRef
    from tests.support.reports_fixtures import REFEREE, player

    b = await build_tournament(services, name="Coppa Firme", rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    await services.reports.enter_points(REFEREE, TableRef(b.name, 1, 1), {
        b.registrations["Anna"]: "70", b.registrations["Bruno"]: "50", b.registrations["Carla"]: "30",
        b.registrations["Dario"]: "10"})  # fmt: skip
    real = report_queries.mark_result_signed  # what ``uc.reports.mark_result_signed`` calls
    failures = {"left": 2}

    async def flaky(**kwargs):  # type: ignore[no-untyped-def]
        if failures["left"]:
            failures["left"] -= 1
            raise OperationalError("UPDATE table_result", {}, Exception("database is locked"))
        return await real(**kwargs)

    monkeypatch.setattr(report_queries, "mark_result_signed", flaky)
    outcome = await services.reports.sign(player(b.users["Anna"]), b.tables[(1, 1)])
    assert not outcome.already_signed and failures["left"] == 0
    view = await services.reports.view(GUILD, b.tables[(1, 1)])
    assert [s.signed for s in view.seats if s.name == "Anna"] == [True]
