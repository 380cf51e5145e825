"""/season through the real command tree (SQLite, and PostgreSQL in CI): three FIRK evenings run to the end, put in a
season with /season create and /season attach; /season show (the image and the text, in Italian and English),
/season export (the CSV), /season sanction (FIRK penalità 4 at annual level) and who may do what (NP-PTS-1,
FIRK-SEED-1, FIRK-PEN-1, BOT-STD-1, BOT-I18N-1)."""

from __future__ import annotations

import io

import openpyxl

from bot.services import Services
from bot.services.access import Actor
from tests.services.test_seasons import NAMES, player, report, run_tournament
from tests.support.helpers import Harness

ORG = ("Organizzatori",)
REF = ("Arbitri",)
PNG = b"\x89PNG\r\n\x1a\n"


async def _three_evenings(harness: Harness, services: Services) -> None:
    await harness.invoke("setup roles", admin=True, organizer=harness.role("Organizzatori"),
                         referee=harness.role("Arbitri"), head_referee=harness.role("Capo arbitro"))  # fmt: skip
    guild = harness.guild.id
    organizer = Actor(guild_id=guild, user_id=4141, role_ids=frozenset({harness.guild.roles["Organizzatori"]}))
    referee = Actor(guild_id=guild, user_id=4242, role_ids=frozenset({harness.guild.roles["Arbitri"]}))
    await run_tournament(services, "Serata 1", "risiko-firk-1", rounds=2, organizer=organizer, referee=referee)
    created = await harness.invoke("season create", roles=ORG, locale="it", name="Anno FIRK", tournament="Serata 1")
    assert "Stagione **Anno FIRK** creata" in created[-1].text and "torneo n. 1" in created[-1].text
    for number, name in ((2, "Serata 2"), (3, "Serata 3")):
        await services.tournaments.create(organizer, name=name, preset="risiko-firk-1")
        attached = await harness.invoke("season attach", roles=ORG, season="Anno FIRK", tournament=name)
        assert f"**{name}** is tournament no. {number} of **Anno FIRK**" in attached[-1].text
    # the evenings themselves, attached already: round 1 of each is seated from the one before (FIRK §6)
    for name in ("Serata 2", "Serata 3"):
        await _play(services, name, organizer, referee)


async def _play(services: Services, name: str, organizer: Actor, referee: Actor) -> None:
    for i in range(len(NAMES)):
        await services.registrations.register(player(i, organizer.guild_id), tournament=name, display_name=NAMES[i],
                                              club=None)  # fmt: skip
    await services.tournaments.validate(organizer, name)
    for _ in range(2):
        drawn = await services.rounds.draw(organizer, tournament=name)
        published = (await services.rounds.publish(organizer, tournament=name, number=drawn.number)).round
        await report(services, published, referee)
        await services.rounds.close(organizer, tournament=name)


async def test_season_show_and_export_through_the_command_tree(harness: Harness, services: Services):
    await _three_evenings(harness, services)
    view = await services.seasons.show(harness.guild.id, "Anno FIRK")
    assert view.tournaments == ("Serata 1", "Serata 2", "Serata 3")
    shown = await harness.invoke("season show", locale="it", season="Anno FIRK")
    reply = shown[-1]
    assert reply.files == ["season-1.png"] and reply.blobs[0].startswith(PNG)
    assert "Anno FIRK: classifica di stagione dopo 3 tornei" in reply.text
    assert "Serata 1 → Serata 2 → Serata 3" in reply.text
    first = view.lines[0]
    assert f"**1.** {first.name}" in reply.text
    english = (await harness.invoke("season show", locale="en-US", season="anno firk"))[-1]
    assert "Anno FIRK: season standings after 3 tournaments" in english.text

    exported = (await harness.invoke("season export", locale="it", season="Anno FIRK"))[-1]
    assert exported.ephemeral and exported.files == ["anno-firk.csv"]
    lines = exported.blobs[0].decode("utf-8-sig").splitlines()
    assert lines[0].split(";")[:6] == ["Pos.", "Giocatore", "Club", "Serata 1", "Serata 2", "Serata 3"]
    assert len(lines) == len(NAMES) + 1 and lines[1].split(";")[1] == first.name
    total = lines[1].split(";")[7]
    assert total == f"{first.points:g}".replace(".", ",")

    # the workbook carries the CSV's rows (one table, two writers): names as text, numbers as numbers
    book = (await harness.invoke("season export", locale="it", season="Anno FIRK", format="xlsx"))[-1]
    assert book.files == ["anno-firk.xlsx"]
    sheet = openpyxl.load_workbook(io.BytesIO(book.blobs[0])).active
    assert sheet is not None and sheet.freeze_panes == "A2"
    rows = list(sheet.iter_rows(values_only=True))
    assert [str(c) for c in rows[0][:6]] == ["Pos.", "Giocatore", "Club", "Serata 1", "Serata 2", "Serata 3"]
    assert len(rows) == len(NAMES) + 1 and rows[1][1] == first.name and rows[1][7] == first.points


async def test_season_sanction_reaches_the_year_and_only_referees_give_it(harness: Harness, services: Services):
    await _three_evenings(harness, services)
    refused = await harness.invoke("season sanction", locale="it", season="Anno FIRK", infraction="disturbing_table",
                                   player="Fabio")  # fmt: skip
    assert "Arbitri" in refused[-1].text or "arbitro" in refused[-1].text.lower()
    given = await harness.invoke("season sanction", roles=REF, locale="it", season="Anno FIRK",
                                 infraction="disturbing_table", player="Fabio")  # fmt: skip
    assert "Fabio, −7 punti nella classifica di **Anno FIRK**" in given[-1].text
    shown = (await harness.invoke("season show", locale="it", season="Anno FIRK"))[-1]
    assert "Penalità sulla classifica di stagione" in shown.text and "Fabio: −7" in shown.text
    choices = await harness.autocomplete("season sanction", "infraction", season="Anno FIRK", infraction="")
    assert [c["value"] for c in choices] == ["deliberate_over_placement", "disturbing_table"]


async def test_only_organizers_create_and_attach(harness: Harness, services: Services):
    await harness.invoke("setup roles", admin=True, organizer=harness.role("Organizzatori"),
                         referee=harness.role("Arbitri"), head_referee=harness.role("Capo arbitro"))  # fmt: skip
    refused = await harness.invoke("season create", roles=REF, locale="en-US", name="Anno", preset="risiko-firk-1")
    assert "organizer" in refused[-1].text.lower()
    assert await services.seasons.names(harness.guild.id) == ()
    made = await harness.invoke("season create", roles=ORG, locale="en-US", name="Anno", preset="risiko-firk-1")
    assert "Season **Anno** created" in made[-1].text
    missing = await harness.invoke("season show", locale="en-US", season="Altro")
    assert "No season called “Altro”" in missing[-1].text
    suggestions = await harness.autocomplete("season show", "season", season="an")
    assert [c["value"] for c in suggestions] == ["Anno"]


async def test_issue_47_the_scheme_s_event_types_and_the_season_s_infractions_are_suggested(
    harness: Harness, services: Services
):
    """`/season event` suggests the scheme's event types, `/season sanction` the preset's infractions; an unknown or
    missing season suggests nothing and raises nothing while the member types."""
    await harness.invoke("setup roles", admin=True, organizer=harness.role("Organizzatori"),
                         referee=harness.role("Arbitri"), head_referee=harness.role("Capo arbitro"))  # fmt: skip
    organizer = Actor(guild_id=harness.guild.id, user_id=4141,
                      role_ids=frozenset({harness.guild.roles["Organizzatori"]}))  # fmt: skip
    await services.tournaments.create(organizer, name="Serata 1", preset="risiko-firk-1")
    await harness.invoke("season create", roles=ORG, name="Anno", tournament="Serata 1")
    await harness.invoke("season scheme", roles=ORG, season="Anno", event_type="Master", places="2000, 1000x3")
    await harness.invoke("season scheme", roles=ORG, season="Anno", event_type="open", places="300, 200")
    types = await harness.autocomplete("season event", "event_type", roles=ORG, season="Anno", tournament="Serata 1",
                                       event_type="ma")  # fmt: skip
    assert [c["value"] for c in types] == ["master"]
    infractions = await harness.autocomplete("season sanction", "infraction", roles=REF, season="Anno",
                                             infraction="", player="")  # fmt: skip
    assert [c["value"] for c in infractions] == ["deliberate_over_placement", "disturbing_table"]  # FIRK: −25, −7
    assert await harness.autocomplete("season event", "event_type", roles=ORG, season="Nessuna", tournament="x",
                                      event_type="") == []  # fmt: skip
