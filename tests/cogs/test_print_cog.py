"""Issue 41, paper through the real command tree: /print round answers privately with the round's table sheets and
its door pairings as PDF files (every player on their own sheet, read back with ``pdftotext``), in the server's
language, the reply in the member's; each table's QR code links to its card on the venue page when the bot serves
it (an organizer's link; a referee's sheets have none and the reply says why); /print standings prints the standings;
a round that does not exist is one clear line in either language."""

from __future__ import annotations

import pytest

from bot.app import StewardBot
from bot.services import Services
from bot.services.access import Actor
from tests.support.helpers import Sent
from tests.support.helpers_components import ComponentHarness
from tests.support.paper import lines_of, pages_of, poppler, qr_codes
from tests.support.reports_fixtures import Built, build_tournament

__all__ = ["poppler"]  # the fixture, shared with tests/test_paper.py

ORG = ("Organizzatori",)
REF = ("Arbitri",)
TABLES = [["Anna", "Bruno", "Carla", "Dario"], ["Elena", "Fabio", "Giulia", "Ilaria", "Luca"]]
CLUBS = {"Anna": "Lupi di Bologna", "Elena": "Carrarmatini Roma", "Luca": "Dadi Tratti Milano"}


async def _world(ch: ComponentHarness, services: Services) -> Built:
    await ch.invoke("setup roles", admin=True, organizer=ch.role("Organizzatori"), referee=ch.role("Arbitri"),
                    head_referee=ch.role("Capo arbitro"))  # fmt: skip
    return await build_tournament(services, rounds={1: TABLES}, clubs=CLUBS, guild_id=ch.guild.id)


def _check_sheets(sent: Sent, *, table_word: str) -> bytes:
    """Two private PDF files; every player found on their own table's sheet, in seat order."""
    assert sent.ephemeral and len(sent.files) == 2 and all(f.endswith(".pdf") for f in sent.files)
    sheets, door = sent.blobs
    pages = pages_of(sheets)
    assert len(pages) == len(TABLES)
    everyone = {name for table in TABLES for name in table}
    for number, (page, seated) in enumerate(zip(pages, TABLES, strict=True), start=1):
        lines = lines_of(page)
        assert f"{table_word} {number}" in lines
        assert [line for line in lines if line in everyone] == seated
    door_lines = lines_of(pages_of(door)[0])
    assert [line for line in door_lines if line in everyone] == sorted(everyone)
    return sheets


async def test_print_round_sends_the_sheets_and_pairings_in_the_server_s_language(
    ch: ComponentHarness, services: Services, poppler: None
):
    await _world(ch, services)
    *_, sent = await ch.invoke("print round", roles=ORG, locale="it", tournament="Coppa Test")
    assert sent.files == ["coppa-test-turno-1-tavoli.pdf", "coppa-test-turno-1-elenco.pdf"]
    assert "Turno 1 di Coppa Test: 2 schede dei tavoli e l'elenco per l'ingresso, da stampare." in sent.text
    assert "Nessun codice QR sulle schede: la pagina in diretta è spenta" in sent.text  # no web server here
    sheets = _check_sheets(sent, table_word="Tavolo")
    assert qr_codes(sheets, 1) == []

    # an English member: the reply in English, the paper in the server's Italian
    *_, sent = await ch.invoke("print round", roles=ORG, locale="en-GB", tournament="Coppa Test", number=1)
    assert "Round 1 of Coppa Test: 2 table sheets and the pairings for the door, ready to print." in sent.text
    assert "No QR codes on the sheets: the venue pages are off" in sent.text
    _check_sheets(sent, table_word="Tavolo")

    # an English server: English paper
    await services.setup.set_locale(Actor(guild_id=ch.guild.id, user_id=1, is_admin=True), locale="en")
    *_, sent = await ch.invoke("print round", roles=REF, locale="en-GB", tournament="Coppa Test")
    assert sent.files == ["coppa-test-round-1-tables.pdf", "coppa-test-round-1-pairings.pdf"]
    _check_sheets(sent, table_word="Table")


async def test_with_the_venue_pages_on_each_sheet_s_qr_code_opens_its_table(
    ch: ComponentHarness, services: Services, bot: StewardBot, monkeypatch: pytest.MonkeyPatch, poppler: None
):
    await _world(ch, services)
    settings = bot.settings.model_copy(update={"web_port": 8080, "web_base_url": "https://club.example/"})
    monkeypatch.setattr(bot, "settings", settings)
    *_, sent = await ch.invoke("print round", roles=ORG, locale="it", tournament="Coppa Test")
    organizer = Actor(guild_id=ch.guild.id, user_id=4141, role_ids=frozenset({ch.guild.roles["Organizzatori"]}))
    token = (await services.venue.link(organizer, tournament="Coppa Test")).token
    assert "codice QR" not in sent.text
    sheets = _check_sheets(sent, table_word="Tavolo")
    for number in (1, 2):
        assert qr_codes(sheets, number) == [f"https://club.example/v/{token}#table-{number}"]

    # a referee prints too, but only organizers give out the page's link: no QR code, and the reply says why
    *_, sent = await ch.invoke("print round", roles=REF, locale="en-US", tournament="Coppa Test")
    assert "No QR codes on the sheets: only an organizer can link the venue page (/venue link)." in sent.text
    assert qr_codes(_check_sheets(sent, table_word="Tavolo"), 1) == []


async def test_a_round_that_does_not_exist_is_one_clear_line_in_either_language(
    ch: ComponentHarness, services: Services
):
    await _world(ch, services)
    *_, sent = await ch.invoke("print round", roles=ORG, locale="it", tournament="Coppa Test", number=5)
    assert sent.ephemeral and sent.files == []
    assert "Coppa Test non ha un turno 5 con tavoli da stampare." in sent.text
    *_, sent = await ch.invoke("print round", roles=ORG, locale="en-US", tournament="Coppa Test", number=5)
    assert "Coppa Test has no round 5 with tables to print." in sent.text

    await ch.invoke("tournament create", roles=ORG, name="Vuoto", preset="risiko-firk-1")
    *_, sent = await ch.invoke("print round", roles=ORG, locale="it", tournament="Vuoto")
    assert "Vuoto non ha ancora un turno con tavoli: prima sorteggiane uno (/turno sorteggia)." in sent.text
    *_, sent = await ch.invoke("print round", roles=ORG, locale="en-US", tournament="Nessuno")
    assert sent.ephemeral and sent.files == [] and "Nessuno" in sent.text  # no such tournament: the usual line


async def test_print_standings_sends_the_standings_as_a_pdf(ch: ComponentHarness, services: Services, poppler: None):
    built = await _world(ch, services)
    referee = Actor(guild_id=ch.guild.id, user_id=4242, role_ids=frozenset({ch.guild.roles["Arbitri"]}))
    points = {built.registrations[name]: str(60 - 10 * k) for k, name in enumerate(TABLES[0])}
    await services.reports.enter_points(referee, built.tables[(1, 1)], points)
    *_, sent = await ch.invoke("print standings", roles=REF, locale="it", tournament="Coppa Test")
    assert sent.ephemeral and sent.files == ["coppa-test-classifica.pdf"]
    assert "La classifica di Coppa Test, da stampare." in sent.text
    page = pages_of(sent.blobs[0], layout=True)[0]
    assert "Classifica" in page and "Anna" in page and "Lupi di Bologna" in page
    anna = next(line for line in page.splitlines() if "Anna" in line)
    assert anna.split()[0] == "1"
    *_, sent = await ch.invoke("print standings", roles=ORG, locale="en-US", tournament="Coppa Test")
    assert "The standings of Coppa Test, ready to print." in sent.text
