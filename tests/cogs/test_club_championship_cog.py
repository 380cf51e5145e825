"""Issue 47: a six-evening club championship through the real command tree to the final, on SQLite and PostgreSQL.

Each evening is a round with its own date (`/schedule round`), a player is absent twice (`/forfeit`), one member
registers late on evening 3 (`/register` stays open while ``late_entry`` allows) and the organizer adds another
(`/player add`); the standings discard each player's two worst evenings, absences first; the semifinals seat the two
direct finalists and the repechage (the best single game of those not qualified, with three games or more), said with
its reason; the final crowns a champion.
"""

from __future__ import annotations

import json

from sqlalchemy import select

from bot.db.models import GameTable, Round, Seat, TableResult
from bot.services import Services
from bot.services.access import Actor
from tests.support.cog_rounds import ORG
from tests.support.helpers import Harness

EVENINGS = 6
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca", "Marta", "Nino", "Olga", "Rocco"]
ABSENT = {"Bruno": (2, 5)}  # absent twice: both evenings are his discards
LATE = ("Sara", "Teo")  # Sara registers herself on evening 3; the organizer adds Teo the same evening


def strength(name: str, evening: int) -> float:
    """A player's table points that evening: a steady level and a little swing; Rocco, low all along, has one great
    evening (97 on evening 4): the repechage's best single game."""
    if name == "Rocco":
        return 97.0 if evening == 4 else 20.0 + evening
    order = [*NAMES, *LATE]
    base = 90.0 - 4.5 * order.index(name)
    return round(base + ((order.index(name) * 7 + evening * 13) % 11) - 5, 1)


async def report_by_strength(services: Services, number: int, guild_id: int) -> None:
    """Every table of round ``number`` reported: places by the evening's table points, which are also the tournament
    points (the preset's ``points.method = "table_points"``)."""
    async with services.sessionmaker() as session, session.begin():
        rnd = (
            await session.execute(select(Round).where(Round.number == number, Round.guild_id == guild_id))
        ).scalar_one()
        tables = (await session.execute(select(GameTable).where(GameTable.round_id == rnd.id))).scalars().all()
        regs = {
            r.id: r.display_name
            for r in (await services.registrations.list_players(guild_id, tournament="Serate")).players
        }
        for gt in tables:
            seats = (await session.execute(select(Seat).where(Seat.table_id == gt.id))).scalars().all()
            scored = sorted(((strength(regs[s.registration_id], number), s.registration_id) for s in seats),
                            key=lambda x: (-x[0], x[1]))  # fmt: skip
            for place, (points, rid) in enumerate(scored, start=1):
                session.add(TableResult(guild_id=guild_id, table_id=gt.id, registration_id=rid, table_rank=place,
                                        table_points=points, tournament_points=points))  # fmt: skip


async def play_evening(h: Harness, services: Services, number: int) -> None:
    await h.invoke("schedule round", roles=ORG, tournament="Serate", start=f"2027-01-{number + 10:02d} 21:00",
                   number=number)  # fmt: skip
    for name, evenings in ABSENT.items():
        if number in evenings:
            sent = await h.invoke("forfeit", user_id=8000 + NAMES.index(name), tournament="Serate")
            assert sent[-1].ephemeral
    await h.invoke("round draw", roles=ORG, tournament="Serate")
    await h.invoke("round publish", roles=ORG, tournament="Serate")
    await report_by_strength(services, number, h.guild.id)
    await h.invoke("round close", roles=ORG, tournament="Serate")


async def test_issue_47_a_six_evening_championship_to_the_final(harness: Harness, services: Services, http):
    h = harness
    await h.invoke("setup roles", admin=True, organizer=h.role("Organizzatori"), referee=h.role("Arbitri"),
                   head_referee=h.role("Capo arbitro"))  # fmt: skip
    overrides = json.dumps({"tournament": {"qualifying_rounds": EVENINGS}})
    sent = await h.invoke("tournament create", roles=ORG, name="Serate", preset="club-championship",
                          overrides=overrides)  # fmt: skip
    assert "Serate" in sent[-1].text
    for i, name in enumerate(NAMES):
        await h.invoke("register", user_id=8000 + i, tournament="Serate", name=name)
    await h.invoke("tournament close", roles=ORG, tournament="Serate")

    for number in range(1, EVENINGS + 1):
        if number == 3:
            late = await h.invoke("register", user_id=8100, locale="it", tournament="Serate", name="Sara")
            assert "Iscrizione tardiva: giochi dal turno 3; i 2 turni precedenti contano come assenze." in late[-1].text
            added = await h.invoke("player add", roles=ORG, tournament="Serate", name="Teo")
            assert "Late entry: plays from round 3" in added[-1].text
        await play_evening(h, services, number)

    view = await services.standings.compute(h.guild.id, "Serate")
    lines = {line.name: line for line in view.lines}
    assert view.with_discards and view.rounds == EVENINGS
    assert lines["Bruno"].discarded == (2, 5) and lines["Bruno"].games == 4
    assert lines["Sara"].discarded == (1, 2) and lines["Teo"].discarded == (1, 2)
    for line in view.lines:  # the counted total is the best four evenings, absences discarded first
        played = sorted((p for _, p, _ in line.rounds if p is not None), reverse=True)
        assert line.points == round(sum(played[:4]), 6) and len(line.discarded) == 2
    shown = await h.invoke("standings show", locale="it", tournament="Serate")
    assert shown[-1].files and shown[-1].files[0].endswith(".png")

    sent = await h.invoke("finals semifinals", roles=ORG, locale="it", tournament="Serate")
    text = sent[-1].text
    top = [line.name for line in view.lines]
    assert f"Accesso diretto alla finale: {top[0]} e {top[1]}" in text
    said = "Ripescaggio: Rocco, con la miglior partita singola sotto il taglio: 97 punti (6 partite giocate)."
    assert said in text
    organizer = Actor(guild_id=h.guild.id, user_id=1, is_admin=True)
    async with services.sessionmaker() as session:
        semi = (await session.execute(select(Round).where(Round.kind == "semifinal"))).scalar_one()
    semis = await services.rounds.show(organizer, tournament="Serate", number=semi.number)
    seated = sorted(s.name for table in semis.tables for s in table.seats)
    assert len(semis.tables) == 2 and seated == sorted([*top[2:9], "Rocco"])
    assert semis.repechage is not None and semis.repechage.name == "Rocco"
    before = len(http.calls)
    await h.invoke("round publish", roles=ORG, tournament="Serate")
    channel = h.guild.channel_id
    announced = [
        c.content for c in http.calls[before:] if c.method == "POST" and c.path.endswith(f"{channel}/messages")
    ]
    assert (
        len(announced) == 1
        and said in announced[0]
        and f"Accesso diretto alla finale: {top[0]} e {top[1]}" in announced[0]
    )
    await report_by_strength(services, semi.number, h.guild.id)
    await h.invoke("finals final", roles=ORG, tournament="Serate")
    await h.invoke("round publish", roles=ORG, tournament="Serate")
    await report_by_strength(services, semi.number + 1, h.guild.id)
    final = await services.rounds.show(organizer, tournament="Serate", number=semi.number + 1)
    finalists = [s.name for s in final.tables[0].seats]
    assert {top[0], top[1]} <= set(finalists) and len(finalists) == 4
    champion = max(finalists, key=lambda n: (strength(n, semi.number + 1), -finalists.index(n)))
    done = await h.invoke("standings show", locale="it", tournament="Serate")
    assert f"🏆 Vince il torneo {champion}." in done[-1].text
