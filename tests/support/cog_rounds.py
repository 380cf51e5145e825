"""A tournament ready for /round through the real command tree: roles set, "Coppa" created, ``n`` validated
players (``prepare``); ``ORG`` is the organizers' role for ``Harness.invoke``."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.db.models import Registration, RegistrationStatus
from bot.services import Services
from tests.support.helpers import Harness

ORG = ("Organizzatori",)


async def rows(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def prepare(h: Harness, services: Services, n: int, *, preset: str = "risiko-ufficiali-2018") -> None:
    await h.invoke(
        "setup roles",
        admin=True,
        organizer=h.role("Organizzatori"),
        referee=h.role("Arbitri"),
        head_referee=h.role("Capo arbitro"),
    )
    sent = await h.invoke("tournament create", roles=ORG, name="Coppa", preset=preset)
    assert "Coppa" in sent[-1].text
    tournament = await services.tournaments.get(h.guild.id, "Coppa")
    clubs = ("Roma", "Milano", "Torino", None)
    async with services.sessionmaker() as session, session.begin():
        for i in range(n):
            session.add(
                Registration(
                    guild_id=h.guild.id,
                    tournament_id=tournament.id,
                    user_id=7000 + i,
                    display_name=f"Giocatore {i:02d}",
                    club=clubs[i % len(clubs)],
                    status=RegistrationStatus.VALIDATED.value,
                    registered_at=services.clock(),
                )
            )
