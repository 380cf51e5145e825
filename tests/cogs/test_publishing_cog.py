"""/publishing, /tournament export and /history import through the real command tree (the national ranking's
workbook, all the data out and back; BOT-I18N-1, BOT-ROLE-1)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.services import Services
from tests.support.cog_rounds import ORG, prepare
from tests.support.helpers import FakeFile, Harness
from tests.support.rounds import report_all

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "export" / "tournament.json"


async def played_round(h: Harness, services: Services) -> None:
    await prepare(h, services, 8)
    await h.invoke("round draw", roles=ORG, tournament="Coppa")
    await h.invoke("round publish", roles=ORG, tournament="Coppa")
    await report_all(services, 1, guild_id=h.guild.id)


async def test_an_organizer_turns_publishing_on_and_a_player_gives_their_details(harness, services, http):
    await played_round(harness, services)
    sent = await harness.invoke("publishing settings", roles=ORG, locale="it", tournament="Coppa",
                                organiser="ROMA [Il Gufo]", type="opn")  # fmt: skip
    assert "Coppa viene pubblicato nella classifica nazionale: organizzatore ROMA [Il Gufo], tipologia Torneo Open" in (
        sent[-1].text
    )
    mine = await harness.invoke("publishing me", user_id=7000, locale="it", tournament="Coppa", first_name="Anna",
                                surname="Rossi", birth_date="03/04/1990")  # fmt: skip
    assert mine[-1].ephemeral and "Anna Rossi, data di nascita 03/04/1990" in mine[-1].text
    wrong = await harness.invoke(
        "publishing me", user_id=7001, locale="en-US", tournament="Coppa", birth_date="31/02/1990"
    )
    assert wrong[-1].ephemeral and "is not a birth date" in wrong[-1].text
    checked = await harness.invoke("publishing check", roles=ORG, locale="en-US", tournament="Coppa")
    text = checked[-1].text
    assert (
        "would refuse Coppa" in text
        and "7 players without a surname" in text
        and "Giocatore 00" not in (text.split("surname:")[1].split("\n")[0])
    )


async def test_tournament_export_gives_the_whole_document_or_refuses_the_workbook_naming_what_is_missing(
    harness, services, http
):
    await played_round(harness, services)
    sent = await harness.invoke("tournament export", roles=ORG, locale="en-US", tournament="Coppa")
    assert sent[-1].ephemeral and sent[-1].files == ["coppa.json"]
    document = json.loads(sent[-1].blobs[0])
    assert document["schema"] == "steward-export/1" and len(document["players"]) == 8
    refused = await harness.invoke("tournament export", roles=ORG, locale="it", tournament="Coppa", format="modulo")
    assert not refused[-1].files and "non passerebbe il controllo" in refused[-1].text
    assert "8 giocatori senza cognome" in refused[-1].text and "Manca l'organizzatore" in refused[-1].text


async def test_history_import_brings_a_finished_tournament_in(harness, services, http):
    await harness.invoke("setup roles", admin=True, organizer=harness.role("Organizzatori"),
                         referee=harness.role("Arbitri"), head_referee=harness.role("Capo arbitro"))  # fmt: skip
    sent = await harness.invoke("history import", roles=ORG, locale="it",
                                file=FakeFile("torneo.json", EXAMPLE.read_bytes(), "application/json"))  # fmt: skip
    assert "Torneo Demo RisiKo! importato come torneo concluso: 38 giocatori, 4 turni" in sent[-1].text
    again = await harness.invoke("history import", roles=ORG, locale="en-US",
                                 file=FakeFile("torneo.json", EXAMPLE.read_bytes(), "application/json"))  # fmt: skip
    assert "already has a tournament called Torneo Demo RisiKo!" in again[-1].text
    shown = await harness.invoke("standings show", locale="en-US", tournament="Torneo Demo RisiKo!")
    assert "Final classification — Torneo Demo RisiKo!" in shown[-1].text


async def test_registration_asks_for_the_identity_only_when_the_tournament_goes_to_the_national_ranking(
    harness, services, http
):
    """Issue 41: the identity fields are asked only once the organizer turns national publishing on."""
    await prepare(harness, services, 4)
    plain = await harness.invoke("register", user_id=9001, locale="it", tournament="Coppa", name="Senza Nome")
    assert "confermata" in plain[-1].text and "classifica nazionale" not in plain[-1].text
    await harness.invoke("publishing settings", roles=ORG, locale="it", tournament="Coppa",
                         organiser="ROMA [Il Gufo]", type="opn")  # fmt: skip
    asked = await harness.invoke("register", user_id=9002, locale="it", tournament="Coppa", name="Bianca")
    assert asked[-1].ephemeral and "Questo torneo va nella classifica nazionale" in asked[-1].text
    assert "/pubblicazione io" in asked[-1].text
    english = await harness.invoke("register", user_id=9003, locale="en-US", tournament="Coppa", name="Carlo")
    assert "goes to the national ranking" in english[-1].text and "/publishing me" in english[-1].text
