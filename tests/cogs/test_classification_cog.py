"""/standings show and /standings export after the final, through the real command tree (BOT-STD-1, TOUR-FIN-1,
BOT-I18N-1): the champion first, the qualifying standings one option away."""

from __future__ import annotations

import csv
import io

from sqlalchemy import select

from bot.db.models import Round, RoundKind
from bot.services import Services
from tests.support.cog_rounds import ORG, prepare
from tests.support.helpers import Harness
from tests.support.rounds import report_all


async def play_to_the_final(h: Harness, services: Services, *, final: bool = True) -> list[str]:
    """UFF with 20 players: two rounds, four semifinals, and (``final``) the final, each played in seat order;
    returns the final's players in finishing order."""
    await prepare(h, services, 20)
    for number in (1, 2):
        await h.invoke("round draw", roles=ORG, tournament="Coppa")
        await h.invoke("round publish", roles=ORG, tournament="Coppa")
        await report_all(services, number, guild_id=h.guild.id)
    await h.invoke("finals semifinals", roles=ORG, tournament="Coppa")
    await h.invoke("round publish", roles=ORG, tournament="Coppa")
    await report_all(services, 3, guild_id=h.guild.id)
    if not final:
        return []
    await h.invoke("finals final", roles=ORG, tournament="Coppa")
    await h.invoke("round publish", roles=ORG, tournament="Coppa")
    await report_all(services, 4, guild_id=h.guild.id)
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round).where(Round.kind == RoundKind.FINAL.value))).scalar_one()
    view = await services.rounds.show(_organizer(h), tournament="Coppa", number=rnd.number)
    return [s.name for s in view.tables[0].seats]


def _organizer(h: Harness):  # type: ignore[no-untyped-def]
    from bot.services.access import Actor

    return Actor(guild_id=h.guild.id, user_id=1, is_admin=True)


async def test_bot_std_1_standings_show_names_the_winner_first_after_the_final(harness, services, http):
    finish = await play_to_the_final(harness, services)
    sent = await harness.invoke("standings show", locale="it", tournament="Coppa")
    text = sent[-1].text
    assert "Classifica finale — Coppa" in text and f"🏆 Vince il torneo {finish[0]}." in text
    assert f"1. {finish[0]} — Finale: 1° posto" in text and f"4. {finish[3]} — Finale: 4° posto" in text
    assert "Semifinale" in text and "qualificazione" in text  # the hint: the qualifying standings one option away
    assert sent[-1].files == ["classification-1.png"]
    qualifying = await harness.invoke("standings show", locale="en-US", tournament="Coppa", qualifying=True)
    assert "Standings — Coppa" in qualifying[-1].text and "won by" not in qualifying[-1].text


async def test_bot_std_1_standings_export_writes_the_final_classification(harness, services, http):
    finish = await play_to_the_final(harness, services)
    sent = await harness.invoke("standings export", locale="en-US", tournament="Coppa")
    rows = list(csv.reader(io.StringIO(sent[-1].blobs[0].decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:2] == ["Place", "Player"] and [r[1] for r in rows[1:5]] == finish
    assert rows[1][4] == "Final: place 1" and len(rows) == 21
    plain = await harness.invoke("standings export", locale="en-US", tournament="Coppa", qualifying=True)
    assert plain[-1].blobs[0].decode("utf-8-sig").startswith("Rank;")


async def test_tour_fin_1_while_the_final_phase_is_played_the_standings_say_which_places_are_open(
    harness, services, http
):
    await play_to_the_final(harness, services, final=False)
    sent = await harness.invoke("standings show", locale="en-US", tournament="Coppa")
    text = sent[-1].text
    assert "Places 1–16 are decided in the semifinals and the final." in text and "Standings — Coppa" in text
