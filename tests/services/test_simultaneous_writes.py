"""Issue 40, finding 7: two simultaneous ``/season attach`` (PostgreSQL) or report submissions answered "something went
wrong" although the data stayed correct. Now one wins and every other gets a clear, localised refusal: on SQLite
and, with TEST_POSTGRES_URL, on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy import select

from bot.db.models import AuditLog, SeasonTournament
from bot.db.repo import seasons as season_queries  # what ``uc.seasons`` calls
from bot.errors import UserFacingError
from bot.services import Services
from bot.services.access import Actor
from bot.services.races import is_concurrent_change
from bot.services.reports import ReportStamp
from tests.support.reports_fixtures import GUILD, REFEREE, build_tournament, player, results_of

FOUR = {1: [["Anna", "Bruno", "Carla", "Dario"]]}
SUBMISSIONS = 200


async def _outcome(work: Awaitable[Any]) -> str:
    try:
        await work
    except UserFacingError as exc:
        return exc.key
    return "ok"


async def _entries(services: Services) -> list[AuditLog]:
    async with services.sessionmaker() as session:
        found = await session.execute(select(AuditLog).where(AuditLog.action == "report.enter"))
        return list(found.scalars().all())


async def test_finding_7_hundreds_of_simultaneous_report_submissions_give_one_report_and_clear_refusals(
    services: Services,
):
    """Two hundred people (the four players and the referee, over and over) open the empty report of one table and
    submit it at the same moment, each with other points: one report is written, every other submission is told
    that someone else entered it meanwhile — none is an error — and the table has one line per seat."""
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    stamp = ReportStamp.of(await services.reports.sheet(REFEREE, table_id))
    names = list(b.registrations)
    who = [REFEREE, *(player(b.users[n]) for n in names)]

    def submit(i: int) -> Awaitable[Any]:
        values = {b.registrations[n]: str(10 * (k + 1) + i % 7) for k, n in enumerate(names)}
        return services.reports.enter_points(who[i % len(who)], table_id, values, seen=stamp)

    started = time.perf_counter()
    outcomes = Counter(await asyncio.gather(*(_outcome(submit(i)) for i in range(SUBMISSIONS))))
    elapsed = time.perf_counter() - started
    assert outcomes == {"ok": 1, "error.report.changed_meanwhile": SUBMISSIONS - 1}, outcomes
    rows = await results_of(services, table_id)
    assert sorted(r.registration_id for r in rows) == sorted(b.registrations.values())
    assert len(await _entries(services)) == 1
    print(f"{SUBMISSIONS} simultaneous submissions in {elapsed:.1f} s: {dict(outcomes)}")


async def test_finding_7_simultaneous_submissions_without_a_form_each_get_a_clear_answer(services: Services):
    """Submissions that carry no form (a final situation typed in a command, the CLI) are checked against the table
    as they found it on arrival: each is written or told it arrived while another was written; never an error."""
    b = await build_tournament(services, rounds=FOUR)
    table_id = b.tables[(1, 1)]
    names = list(b.registrations)

    def submit(i: int) -> Awaitable[Any]:
        values = {b.registrations[n]: str(10 * (k + 1) + i % 5) for k, n in enumerate(names)}
        return services.reports.enter_points(REFEREE if i % 2 else player(b.users["Anna"]), table_id, values)

    outcomes = Counter(await asyncio.gather(*(_outcome(submit(i)) for i in range(SUBMISSIONS))))
    assert set(outcomes) <= {"ok", "error.report.changed_meanwhile"} and outcomes["ok"] >= 1, outcomes
    assert len(await _entries(services)) == outcomes["ok"]
    assert len(await results_of(services, table_id)) == 4


# ------------------------------------------------------------------------------------------------ /season attach

ORG_ROLE = 71
SEASON_ORGANIZER = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({ORG_ROLE}))


def _both_checked(real: Callable[..., Awaitable[Any]], arrived: list[int], everyone: int) -> Callable[..., Any]:
    """``season_of_tournament`` that returns only once every attach has asked it: both find the tournament in no
    season, as two organizers pressing at the same moment did."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        found = await real(*args, **kwargs)
        arrived.append(1)
        for _ in range(200):
            if len(arrived) >= everyone:
                break
            await asyncio.sleep(0.005)
        return found

    return call


@pytest.mark.parametrize("run", range(5))
async def test_finding_7_two_simultaneous_season_attaches_of_one_tournament_answer_a_clear_line(
    services: Services, monkeypatch: pytest.MonkeyPatch, run: int
):
    """Two organizers put the same tournament in two seasons at the same moment. On PostgreSQL the second insert
    met the constraint outside its savepoint and answered "something went wrong"; now it is told the tournament is
    already in the other season, and the tournament is in exactly one."""
    await services.setup.set_roles(Actor(guild_id=GUILD, user_id=1, is_admin=True), organizer_role_id=ORG_ROLE,
                                   referee_role_id=72, head_referee_role_id=73)  # fmt: skip
    await services.tournaments.create(SEASON_ORGANIZER, name="Tappa", preset="risiko-firk-1")
    for season in ("Anno", "Altro"):
        await services.seasons.create(SEASON_ORGANIZER, name=season, preset="risiko-firk-1")
    arrived: list[int] = []
    monkeypatch.setattr(season_queries, "season_of_tournament",
                        _both_checked(season_queries.season_of_tournament, arrived, 2))  # fmt: skip
    outcomes = await asyncio.gather(
        *(_outcome(services.seasons.attach(SEASON_ORGANIZER, season=s, tournament="Tappa")) for s in ("Anno", "Altro"))
    )
    assert sorted(outcomes) == ["error.season.already_in", "ok"], outcomes
    async with services.sessionmaker() as session:
        links = (await session.execute(select(SeasonTournament))).scalars().all()
    assert len(links) == 1


# ------------------------------------------------------------------------------ what reaches the error path


class _Driver(Exception):
    def __init__(self, message: str, sqlstate: str | None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("error", "lost_race"),
    [
        (sa_exc.IntegrityError("INSERT", {}, _Driver("duplicate key value", "23505")), True),
        (sa_exc.IntegrityError("INSERT", {}, _Driver("UNIQUE constraint failed: season_tournament.x", None)), True),
        (sa_exc.OperationalError("UPDATE", {}, _Driver("could not serialize access", "40001")), True),
        (sa_exc.OperationalError("UPDATE", {}, _Driver("deadlock detected", "40P01")), True),
        (sa_exc.IntegrityError("INSERT", {}, _Driver("null value in column", "23502")), False),
        (sa_exc.IntegrityError("INSERT", {}, _Driver("NOT NULL constraint failed: x.y", None)), False),
        (sa_exc.OperationalError("SELECT", {}, _Driver("database is locked", None)), False),  # is_busy's
        (ValueError("no"), False),
    ],
)
def test_finding_7_a_write_that_lost_a_race_is_recognised(error: BaseException, lost_race: bool):
    assert is_concurrent_change(error) is lost_race
    try:
        try:
            raise error
        except Exception as inner:
            raise RuntimeError("the use case failed") from inner
    except RuntimeError as outer:
        assert is_concurrent_change(outer) is lost_race
