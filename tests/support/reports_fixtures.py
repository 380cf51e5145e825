"""Builders shared by the report/standings tests: a tournament with rounds and seated tables, rows written
directly (so these tests do not depend on the draw services of another area)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select

from bot.db.models import (
    GameTable,
    GuildConfig,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    Seat,
    TableResult,
    Tournament,
)
from bot.services import Services
from bot.services.access import Actor

GUILD = 777_000_000_000_001
ORGANIZER_ROLE, REFEREE_ROLE, HEAD_ROLE = 901, 902, 903
REFEREE = Actor(guild_id=GUILD, user_id=42, display_name="Arbitro", role_ids=frozenset({REFEREE_ROLE}))
ORGANIZER = Actor(guild_id=GUILD, user_id=41, display_name="Org", role_ids=frozenset({ORGANIZER_ROLE}))
OUTSIDER = Actor(guild_id=GUILD, user_id=999_999, display_name="Curioso")


def player(user_id: int) -> Actor:
    return Actor(guild_id=GUILD, user_id=user_id, display_name=f"user{user_id}")


@dataclass
class Built:
    tournament_id: int
    name: str
    registrations: dict[str, int] = field(default_factory=dict)  # display name -> registration id
    users: dict[str, int] = field(default_factory=dict)  # display name -> user id
    tables: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, table) -> table id


async def build_tournament(
    services: Services,
    *,
    name: str = "Coppa Test",
    preset: str = "risiko-ufficiali-2018",
    game: str = "risiko",
    rounds: dict[int, list[list[str]]] | None = None,
    clubs: dict[str, str] | None = None,
    teams: dict[str, str] | None = None,
    guild_id: int = GUILD,
) -> Built:
    """Roles mapped; a tournament; one registration per name seen in ``rounds`` ({round: [[names at table 1], …]})."""
    rounds = rounds or {1: [["Anna", "Bruno", "Carla", "Dario"]]}
    async with services.sessionmaker() as session, session.begin():
        if (
            await session.execute(select(func.count()).select_from(GuildConfig).where(GuildConfig.guild_id == guild_id))
        ).scalar_one() == 0:
            session.add(
                GuildConfig(
                    guild_id=guild_id,
                    organizer_role_id=ORGANIZER_ROLE,
                    referee_role_id=REFEREE_ROLE,
                    head_referee_role_id=HEAD_ROLE,
                )
            )
        tournament = Tournament(guild_id=guild_id, name=name, game=game, preset=preset, status="running")
        session.add(tournament)
        await session.flush()
        assert tournament.id is not None
        built = Built(tournament.id, name)
        names = [n for tables in rounds.values() for table in tables for n in table]
        for n in dict.fromkeys(names):
            uid = 1000 + len(built.users)
            reg = Registration(
                guild_id=guild_id,
                tournament_id=tournament.id,
                user_id=uid,
                display_name=n,
                club=(clubs or {}).get(n),
                team=(teams or {}).get(n),
                status=RegistrationStatus.VALIDATED.value,
            )
            session.add(reg)
            await session.flush()
            assert reg.id is not None
            built.registrations[n] = reg.id
            built.users[n] = uid
        for number, tables in rounds.items():
            rnd = Round(
                guild_id=guild_id,
                tournament_id=tournament.id,
                number=number,
                kind=RoundKind.QUALIFYING.value,
                status=RoundStatus.PUBLISHED.value,
            )
            session.add(rnd)
            await session.flush()
            assert rnd.id is not None
            for tnum, seated in enumerate(tables, start=1):
                table = GameTable(guild_id=guild_id, round_id=rnd.id, number=tnum)
                session.add(table)
                await session.flush()
                assert table.id is not None
                built.tables[(number, tnum)] = table.id
                for pos, n in enumerate(seated, start=1):
                    session.add(
                        Seat(guild_id=guild_id, table_id=table.id, registration_id=built.registrations[n], position=pos)
                    )
        await session.flush()
    return built


async def count(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def results_of(services: Services, table_id: int) -> list[TableResult]:
    async with services.sessionmaker() as session:
        rows = await session.execute(select(TableResult).where(TableResult.table_id == table_id))
        return list(rows.scalars().all())


async def table_row(services: Services, table_id: int) -> GameTable:
    async with services.sessionmaker() as session:
        row = await session.get(GameTable, table_id)
        assert row is not None
        return row
