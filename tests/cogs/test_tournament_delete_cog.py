"""/tournament delete through the real command tree (issue 44: "how to delete a test tournament — a command for a
tournament with no results"; BOT-ROLE-1, BOT-I18N-1): the organizer sees privately what goes and confirms with a
button that deletes once, survives a restart and is refused for who may not; a tournament with results is refused
with the reason, in the member's language."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.app import StewardBot
from bot.db.models import GameTable, Registration, Round, Seat, TableResult, Tournament
from bot.services import Services
from tests.support.cog_rounds import prepare
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)


async def _count(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def _drawn(ch: ComponentHarness, services: Services) -> None:
    """Coppa with eight players, round 1 drawn and published: a test evening, no report yet."""
    await prepare(ch, services, 8)
    await ch.invoke("round draw", roles=ORG, tournament="Coppa")
    await ch.invoke("round publish", roles=ORG, tournament="Coppa")


async def test_issue_44_an_organizer_confirms_and_the_test_tournament_is_gone(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _drawn(ch, services)
    choices = await ch.autocomplete("tournament delete", "tournament", tournament="Cop")
    assert [c["value"] for c in choices] == ["Coppa"]  # the tournament option completes like the others
    *_, question = await ch.invoke("tournament delete", roles=ORG, locale="it", tournament="Coppa")
    assert question.ephemeral and "Eliminare Coppa?" in question.text
    assert "Iscrizioni: 8 · turni: 1 · tavoli: 2" in question.text and "per sempre" in question.text
    assert await _count(services, Tournament) == 1  # nothing is deleted before Confirm
    (button,) = ch.custom_ids(question)
    assert button.startswith("tournament:delete:")
    done = await ch.click(question, button, user_id=4141, roles=ORG, locale="it")
    assert "Torneo eliminato: Coppa" in done[-1].text and "di nuovo libero" in done[-1].text
    for model in (Tournament, Registration, Round, GameTable, Seat):
        assert await _count(services, model) == 0, model
    again = await ch.click(question, button, user_id=4141, roles=ORG, locale="en-US")  # a double click
    assert again[-1].ephemeral and "already been deleted" in again[-1].text
    *_, gone = await ch.invoke("tournament delete", roles=ORG, locale="en-US", tournament="Coppa")
    assert gone.ephemeral and "No tournament called" in gone.text


async def test_issue_44_the_confirm_button_works_after_a_restart(
    ch: ComponentHarness, services: Services, http: HttpRecorder, bot: StewardBot
):
    """The button is rebuilt from its custom id alone (a restarted bot has no view in memory)."""
    await _drawn(ch, services)
    *_, question = await ch.invoke("tournament delete", roles=ORG, locale="en-US", tournament="Coppa")
    (button,) = ch.custom_ids(question)
    bot._connection._view_store = type(bot._connection._view_store)(bot._connection)  # the views in memory: gone
    from bot.cogs.tournaments.deletion import ConfirmDelete

    bot.add_dynamic_items(ConfirmDelete)  # what the cog's setup does at start-up
    done = await ch.click(question, button, user_id=4141, roles=ORG, locale="en-US")
    assert "Tournament deleted: Coppa" in done[-1].text
    assert await _count(services, Tournament) == 0


async def test_issue_44_a_tournament_with_a_report_is_refused_and_stays(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _drawn(ch, services)
    async with services.sessionmaker() as session, session.begin():
        table = (await session.execute(select(GameTable))).scalars().first()
        seat = (await session.execute(select(Seat).where(Seat.table_id == table.id))).scalars().first()
        session.add(TableResult(guild_id=ch.guild.id, table_id=table.id, registration_id=seat.registration_id,
                                table_points=40.0))  # fmt: skip
    *_, refused = await ch.invoke("tournament delete", roles=ORG, locale="it", tournament="Coppa")
    assert refused.ephemeral and "ha già dei risultati" in refused.text and "resta nello storico" in refused.text
    assert "tavoli con referto: 1" in refused.text and not ch.custom_ids(refused)
    *_, english = await ch.invoke("tournament delete", roles=ORG, locale="en-US", tournament="Coppa")
    assert "stays in the club's history and cannot be deleted" in english.text
    assert await _count(services, Tournament) == 1 and await _count(services, Registration) == 8


async def test_bot_role_1_a_player_or_a_referee_cannot_delete_by_command_or_button(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _drawn(ch, services)
    for user_id, roles in ((7001, ()), (4242, REF)):
        *_, refused = await ch.invoke("tournament delete", user_id=user_id, roles=roles, locale="en-US",
                                      tournament="Coppa")  # fmt: skip
        assert refused.ephemeral and "You need the Organizer role" in refused.text and not ch.custom_ids(refused)
    *_, question = await ch.invoke("tournament delete", roles=ORG, locale="en-US", tournament="Coppa")
    (button,) = ch.custom_ids(question)
    for user_id, roles in ((7001, ()), (4242, REF)):
        pressed = await ch.click(question, button, user_id=user_id, roles=roles, locale="en-US")
        assert pressed[-1].ephemeral and "You need the Organizer role" in pressed[-1].text
    assert await _count(services, Tournament) == 1 and await _count(services, Seat) == 8
