"""A tournament on a real database for the rounds' service tests: ``setup_tournament`` (roles set, "Coppa"
created, ``n`` players), results written as tables finish (``report_all``), two rounds played, the
semifinals played, a FIRK round 1 whose tables finished alike, ``steward draw`` through the command line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.db.models import (
    GameTable,
    Registration,
    RegistrationStatus,
    Round,
    Seat,
    TableResult,
)
from bot.services import Services
from bot.services.access import Actor

GUILD = 111
ORG_ROLE, REF_ROLE, HEAD_ROLE = 9001, 9002, 9003
ADMIN = Actor(guild_id=GUILD, user_id=1, is_admin=True)
ORGANIZER = Actor(guild_id=GUILD, user_id=2, role_ids=frozenset({ORG_ROLE}))
PLAYER = Actor(guild_id=GUILD, user_id=1000)
CLUBS = ("Roma", "Milano", "Torino", "Napoli", None)


async def count(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def setup_tournament(
    services: Services,
    n: int,
    *,
    preset: str = "risiko-ufficiali-2018",
    name: str = "Coppa",
    clubs: tuple[str | None, ...] = CLUBS,
    status: str = RegistrationStatus.VALIDATED.value,
    extra: dict[int, dict[str, Any]] | None = None,
    format: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> int:
    await services.setup.set_roles(
        ADMIN, organizer_role_id=ORG_ROLE, referee_role_id=REF_ROLE, head_referee_role_id=HEAD_ROLE
    )
    t = await services.tournaments.create(ORGANIZER, name=name, preset=preset, format=format, overrides=overrides)
    async with services.sessionmaker() as session, session.begin():
        for i in range(n):
            session.add(
                Registration(
                    **{
                        "guild_id": GUILD,
                        "tournament_id": t.id,
                        "user_id": 1000 + i,
                        "display_name": f"Giocatore {i:02d}",
                        "club": clubs[i % len(clubs)],
                        "status": status,
                        "registered_at": services.clock(),
                        **((extra or {}).get(i, {})),
                    }
                )
            )
    return t.id


async def table_ids(services: Services, number: int, name: str = "Coppa") -> list[list[int]]:
    view = await services.rounds.show(ORGANIZER, tournament=name, number=number)
    return [[s.registration_id for s in t.seats] for t in view.tables]


async def report_all(
    services: Services, round_number: int, *, order: dict[int, list[int]] | None = None, guild_id: int = GUILD
) -> None:
    """Write a TableResult per seat: the seat order is the finishing order unless ``order`` says otherwise."""
    async with services.sessionmaker() as session, session.begin():
        rnd = (await session.execute(select(Round).where(Round.number == round_number))).scalar_one()
        tables = (await session.execute(select(GameTable).where(GameTable.round_id == rnd.id))).scalars().all()
        for gt in tables:
            seats = (await session.execute(select(Seat).where(Seat.table_id == gt.id))).scalars().all()
            ids = [s.registration_id for s in sorted(seats, key=lambda s: s.position)]
            if order and gt.number in order:
                ids = order[gt.number]
            for rank, rid in enumerate(ids, start=1):
                session.add(
                    TableResult(
                        guild_id=guild_id,
                        table_id=gt.id,
                        registration_id=rid,
                        table_rank=rank,
                        table_points=float(100 - rank),
                        tournament_points=float(len(ids) - rank) * 3 + (rid % 7) * 0.1,
                    )
                )


async def play_two_rounds(services: Services) -> None:
    for number in (1, 2):
        await services.rounds.draw(ORGANIZER, tournament="Coppa")
        await services.rounds.publish(ORGANIZER, tournament="Coppa")
        await report_all(services, number)


async def ranking(services: Services) -> list[int]:
    return await services.rounds.ranking(GUILD, tournament="Coppa")


async def semis_played(services: Services, n: int = 24, tables: int = 4) -> tuple[Any, dict[int, list[int]]]:
    await setup_tournament(services, n)
    await play_two_rounds(services)
    semi = await services.rounds.seed_semifinals(ORGANIZER, tournament="Coppa", tables=tables)
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    orders = {t.number: [s.registration_id for s in t.seats] for t in semi.tables}
    await report_all(services, semi.number)
    return semi, orders


def steward_draw(doc: dict[str, Any], seed: int, capsys: pytest.CaptureFixture[str], tmp_path: Any) -> dict[str, Any]:
    """``steward draw --seed`` through the real command line (the verifiable-draw promise)."""
    from bot.cli import main

    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    assert main(["draw", "--input", str(path), "--seed", str(seed), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


async def stay_home(services: Services, players: list[int]) -> None:
    """``players`` forfeit the planned round (they do not come)."""
    async with services.sessionmaker() as session:
        regs = {r.id: r for r in (await session.execute(select(Registration))).scalars()}
    for rid in players:
        await services.checkins.forfeit(Actor(guild_id=GUILD, user_id=regs[rid].user_id), tournament="Coppa")


async def firk_alike_round_1(services: Services) -> Any:
    """A FIRK tournament of 12 whose three round-1 tables finished alike, round 2 (the last) planned: the general
    classification's ranks are 1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10. Its standings."""
    await setup_tournament(services, 12, preset="risiko-firk-1", extra={i: {"previous_rank": i + 1} for i in range(12)})
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    async with services.sessionmaker() as session, session.begin():
        rnd = (await session.execute(select(Round).where(Round.number == 1))).scalar_one()
        for gt in (await session.execute(select(GameTable).where(GameTable.round_id == rnd.id))).scalars().all():
            seats = sorted((await session.execute(select(Seat).where(Seat.table_id == gt.id))).scalars().all(),
                           key=lambda seat: seat.position)  # fmt: skip
            for place, seat in enumerate(seats, start=1):
                session.add(TableResult(guild_id=GUILD, table_id=gt.id, registration_id=seat.registration_id,
                                        table_rank=place, table_points=float(100 - 10 * place),
                                        tournament_points=(31.0, 15.0, 7.0, 3.0)[place - 1]))  # fmt: skip
    await services.rounds.close(ORGANIZER, tournament="Coppa")
    await services.rounds.plan(ORGANIZER, tournament="Coppa")
    standings = await services.standings.compute(GUILD, "Coppa")
    assert [line.rank for line in standings.lines] == [1, 1, 1, 4, 4, 4, 7, 7, 7, 10, 10, 10]
    return standings


async def setup_knockout(services: Services, n: int) -> None:
    """An NP knockout created as an organizer creates it (`/tournament create format:knockout`)."""
    await setup_tournament(services, n, preset="risiko-nostra-passione-2018", clubs=CLUBS, format="knockout")
