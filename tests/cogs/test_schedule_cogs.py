"""/schedule, /announce, /setup timezone, /clock and /endgame through the real command tree (BOT-SCH-1, BOT-SCH-2,
BOT-I18N-1): times typed in the server's zone and shown as Discord timestamps, the round's Discord event made, moved
and cancelled (and a missing permission said once), the DST refusal as one localised line, the clock's pause told in
the table's thread, and the end-of-game tracker answering the table."""

from __future__ import annotations

from sqlalchemy import func, select, update

from bot.db.models import GuildConfig, Round, ScheduledReminder
from bot.services import Services
from tests.conftest import FakeClock
from tests.support.cog_rounds import prepare
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)
EVENTS = "/guilds/{guild_id}/scheduled-events"
EVENT = "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"


async def _rows(services: Services) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(ScheduledReminder))).scalar_one())


async def test_bot_sch_1_schedule_a_round_its_discord_event_follows_it_and_is_cancelled_with_it(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await prepare(ch, services, 8)
    *_, reply = await ch.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="2026-12-05 21:00")
    assert reply.ephemeral and "turno 1: inizia <t:1796500800:F>" in reply.text and "Europe/Rome" in reply.text
    assert reply.text.count("<t:") >= 8  # the start and three reminders, absolute and relative
    assert "Evento Discord creato" in reply.text
    (created,) = http.of("POST", EVENTS)
    assert created.body["scheduled_start_time"] == "2026-12-05T20:00:00+00:00" and created.body["entity_type"] == 3
    assert created.body["name"] == "Coppa — turno 1"
    *_, moved = await ch.invoke("schedule round", roles=ORG, locale="en-US", tournament="Coppa",
                                start="2026-12-05 21:30")  # fmt: skip
    assert "It was <t:1796500800:F>" in moved.text and "Discord event moved" in moved.text
    (patch,) = http.of("PATCH", EVENT)
    assert patch.body["scheduled_start_time"] == "2026-12-05T20:30:00+00:00"
    *_, cleared = await ch.invoke("schedule clear", roles=ORG, locale="it", tournament="Coppa")
    assert "orario di inizio tolto" in cleared.text and "Evento Discord annullato" in cleared.text
    assert http.of("PATCH", EVENT)[-1].body == {"status": 4}
    async with services.sessionmaker() as session:
        rnd = (await session.execute(select(Round))).scalar_one()
        assert rnd.scheduled_start is None and rnd.discord_event_id is None


async def test_bot_sch_1_without_manage_events_the_bot_says_so_once_and_schedules_anyway(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await prepare(ch, services, 8)
    http.fail("POST", EVENTS, status=403)
    *_, first = await ch.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="2026-12-05 21:00")
    assert "turno 1: inizia" in first.text and "Gestisci eventi" in first.text
    *_, second = await ch.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="2026-12-05 22:00")
    assert "turno 1: inizia" in second.text and "Gestisci eventi" not in second.text


async def test_bot_sch_1_02_30_the_night_the_clocks_go_forward_is_one_clear_line_and_changes_nothing(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await prepare(ch, services, 8)
    *_, reply = await ch.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="2027-03-28 02:30")
    assert reply.ephemeral and "non esiste" in reply.text and "01:30 o 03:30" in reply.text
    assert "Traceback" not in reply.text and "\n" not in reply.text.strip()
    *_, english = await ch.invoke("schedule round", roles=ORG, locale="en-US", tournament="Coppa",
                                  start="2026-10-25 02:30")  # fmt: skip
    assert "happens twice" in english.text
    assert await _rows(services) == 0 and http.of("POST", EVENTS) == []


async def test_bot_sch_1_announce_list_cancel_reminders_and_the_server_zone(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await prepare(ch, services, 8)
    *_, no_channel = await ch.invoke("announce", roles=ORG, locale="it", tournament="Coppa", at="2026-12-01 20:00",
                                     text="ciao")  # fmt: skip
    assert "Nessun canale annunci" in no_channel.text
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(GuildConfig).values(announcement_channel_id=123_456_789_012_345_678))
    *_, tz = await ch.invoke("setup timezone", admin=True, locale="it", zone="Europe/London")
    assert "Europe/London" in tz.text
    *_, ann = await ch.invoke("announce", roles=ORG, locale="it", tournament="Coppa", at="2026-12-01 20:00",
                              text="@everyone la pizza è alle 21", image="standings")  # fmt: skip
    assert "L'annuncio #1 sarà pubblicato <t:1796155200:F>" in ann.text  # 20:00 in London is 20:00 UTC
    *_, rem = await ch.invoke("schedule reminders", roles=ORG, locale="it", tournament="Coppa", offsets="2h, 15m")
    assert "2 h, 15 min" in rem.text
    await ch.invoke("schedule round", roles=ORG, locale="it", tournament="Coppa", start="2026-12-05 21:00")
    *_, listing = await ch.invoke("schedule list", roles=REF, locale="it")
    assert "In attesa (3)" in listing.text and "Annuncio" in listing.text and "2 h prima" in listing.text
    *_, bad = await ch.invoke("schedule reminders", roles=ORG, locale="en-US", tournament="Coppa", offsets="soon")
    assert "is not a time before the round" in bad.text
    *_, gone = await ch.invoke("schedule cancel", roles=ORG, locale="it", id=1)
    assert "#1 cancellato" in gone.text
    *_, again = await ch.invoke("schedule cancel", roles=ORG, locale="it", id=1)
    assert "non è più in attesa" in again.text
    *_, refused = await ch.invoke("announce", locale="it", tournament="Coppa", at="2026-12-01 20:00", text="x")
    assert "permess" in refused.text.lower() or "ruolo" in refused.text.lower()


async def test_bot_sch_2_clock_pause_told_in_the_thread_and_the_table_records_its_turns(
    ch: ComponentHarness, services: Services, http: HttpRecorder, clock: FakeClock
):
    await prepare(ch, services, 8)
    await ch.invoke("round draw", roles=ORG, tournament="Coppa")
    await ch.invoke("round publish", roles=ORG, tournament="Coppa")
    *_, started = await ch.invoke("clock start", roles=REF, locale="it", tournament="Coppa")
    assert "Tavolo 1" in started.text and "Tavolo 2" in started.text and "sdadata alle" in started.text
    clock.advance(minutes=20)
    *_, paused = await ch.invoke("clock pause", roles=REF, locale="it", tournament="Coppa", table=1)
    assert "in pausa" in paused.text
    notes = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "⏸️" in c.content]
    assert len(notes) == 1 and notes[0].allowed_mentions == {"parse": []}
    clock.advance(minutes=7)
    *_, resumed = await ch.invoke("clock resume", roles=REF, locale="en-US", tournament="Coppa", table=1)
    assert "recovery 7 min (1 pause)" in resumed.text
    *_, twice = await ch.invoke("clock resume", roles=REF, locale="en-US", tournament="Coppa", table=1)
    assert "is not paused" in twice.text
    view = await services.rounds.show(services_actor(ch), tournament="Coppa")
    first = view.tables[0].seats[0]
    *_, status = await ch.invoke("endgame status", user_id=first.user_id or 0, locale="it", tournament="Coppa")
    assert status.ephemeral and f"Ora: turno di {first.name}" in status.text and "UFF Sdadata 1" in status.text
    *_, turn = await ch.invoke("endgame turn", user_id=first.user_id or 0, locale="it", tournament="Coppa")
    assert not turn.ephemeral and f"Turno di {first.name} registrato" in turn.text
    *_, stranger = await ch.invoke("endgame turn", user_id=4_242_424, locale="it", tournament="Coppa", table=1)
    assert stranger.ephemeral
    *_, early = await ch.invoke("endgame out", roles=REF, locale="en-US", tournament="Coppa", table=1,
                                player=view.tables[0].seats[2].name)  # fmt: skip
    assert "before full round 4 ends" in early.text


def services_actor(ch: ComponentHarness):  # a reader who sees what players see
    from bot.services.access import Actor

    return Actor(guild_id=ch.guild.id, user_id=1)
