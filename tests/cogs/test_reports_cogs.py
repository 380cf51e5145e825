"""Reports and standings through the real command tree, with real button clicks and modal submits
(BOT-RES-1, TOUR-REF-1, BOT-STD-1, BOT-ROLE-1, BOT-I18N-1)."""

from __future__ import annotations

import asyncio

import pytest

from bot.app import StewardBot
from bot.db.models import TableResult
from bot.services import Services
from tests.support.helpers import Sent
from tests.support.helpers_components import ComponentHarness
from tests.support.reports_fixtures import build_tournament, count, results_of, table_row

ROLES = ("Organizzatori", "Arbitri", "Capo arbitro", "Giocatori")
FOUR = {1: [["Anna", "Bruno", "Carla", "Dario"]]}


@pytest.fixture
async def ch(bot: StewardBot) -> ComponentHarness:
    h = ComponentHarness(bot, roles=ROLES)
    sent = await h.invoke(
        "setup roles",
        admin=True,
        organizer=h.role("Organizzatori"),
        referee=h.role("Arbitri"),
        head_referee=h.role("Capo arbitro"),
    )
    assert sent[-1].ephemeral
    return h


async def entered_report(ch: ComponentHarness, services: Services, preset: str = "risiko-firk-1"):
    b = await build_tournament(services, preset=preset, rounds=FOUR, guild_id=ch.guild.id)
    anna = b.users["Anna"]
    (modal,) = await ch.invoke("report enter", user_id=anna, locale="it", tournament="Coppa Test", table=1)
    assert modal.body["type"] == 9 and ch.modal_labels(modal) == ["Anna", "Bruno", "Carla", "Dario"]
    sent = await ch.submit(
        modal, {"Anna": "40", "Bruno": "32", "Carla": "20", "Dario": "10"}, user_id=anna, locale="it"
    )
    report = sent[-1]
    assert sent[0].body["type"] == 5  # acknowledged first, then the report
    assert not report.ephemeral and report.kind == "followup"
    return b, report


async def test_bot_res_1_a_player_fills_the_modal_and_the_report_shows_firk_points_in_italian(
    ch: ComponentHarness, services: Services
):
    b, report = await entered_report(ch, services)
    assert "Referto — Coppa Test, turno 1, tavolo 1" in report.text
    assert "31,8" in report.text and "14,2" in report.text  # FIRK example, Italian decimals
    table_id = b.tables[(1, 1)]
    assert ch.custom_ids(report) == [f"report:sign:{table_id}", f"report:countersign:{table_id}"]
    assert report.data["allowed_mentions"]["parse"] == ["users"]  # this message may ping users, nobody else
    assert f"<@{b.users['Anna']}>" in report.data["content"]  # the players who must sign are pinged
    assert len(await results_of(services, table_id)) == 4


async def test_bot_res_1_every_player_signs_by_button_once_and_a_referee_countersigns_by_button(
    ch: ComponentHarness, services: Services
):
    b, report = await entered_report(ch, services)
    table_id = b.tables[(1, 1)]
    sign, countersign = f"report:sign:{table_id}", f"report:countersign:{table_id}"
    first = await ch.click(report, sign, user_id=b.users["Anna"], locale="it")
    assert first[0].body["type"] == 6  # acknowledged at once (never "This interaction failed")
    edit = next(x for x in first if x.method == "PATCH")  # then the report message is redrawn in place
    assert "✅" in edit.text and "Firma registrata" in first[-1].text and first[-1].ephemeral
    again = await ch.click(report, sign, user_id=b.users["Anna"], locale="it")
    assert again[-1].ephemeral and "già firmato" in again[-1].text
    early = await ch.click(report, countersign, user_id=42, roles=("Arbitri",), locale="it")
    assert early[-1].ephemeral and "Mancano ancora le firme" in early[-1].text
    for n in ("Bruno", "Carla", "Dario"):
        await ch.click(report, sign, user_id=b.users[n], locale="en-US")
    done = await ch.click(report, countersign, user_id=42, roles=("Arbitri",), locale="it")
    assert done[0].body["type"] == 6 and done[-1].method == "PATCH" and "bloccato" in done[-1].text
    assert (await table_row(services, table_id)).locked
    assert sum(1 for r in await results_of(services, table_id) if r.signed_at is not None) == 4


async def test_bot_res_1_a_non_player_clicking_sign_gets_a_clear_refusal_and_nothing_changes(
    ch: ComponentHarness, services: Services
):
    b, report = await entered_report(ch, services)
    sent = await ch.click(report, f"report:sign:{b.tables[(1, 1)]}", user_id=31337, locale="it")
    assert [x.method for x in sent] == ["POST", "POST"] and sent[0].body["type"] == 6 and sent[-1].ephemeral
    assert "Il tuo posto non è al tavolo 1" in sent[-1].text
    assert all(r.signed_at is None for r in await results_of(services, b.tables[(1, 1)]))


async def test_bot_res_1_buttons_survive_a_restart_because_they_carry_only_the_table_id(
    ch: ComponentHarness, services: Services, bot: StewardBot
):
    b, report = await entered_report(ch, services)
    bot._connection._view_store._views.clear()  # as after a restart: no view objects in memory
    sent = await ch.click(report, f"report:sign:{b.tables[(1, 1)]}", user_id=b.users["Bruno"], locale="it")
    assert "Firma registrata" in sent[-1].text


async def test_bot_res_1_non_numeric_points_in_the_modal_are_refused_in_italian_and_nothing_changes(
    ch: ComponentHarness, services: Services
):
    b = await build_tournament(services, rounds=FOUR, guild_id=ch.guild.id)
    (modal,) = await ch.invoke("report enter", user_id=b.users["Anna"], tournament="Coppa Test", table=1)
    sent = await ch.submit(
        modal, {"Anna": "tanti", "Bruno": "3", "Carla": "2", "Dario": "1"}, user_id=b.users["Anna"], locale="it"
    )
    assert sent[-1].ephemeral and "Valore non valido per Anna" in sent[-1].text
    assert await count(services, TableResult) == 0


async def test_bot_res_1_a_player_cannot_enter_a_report_for_a_locked_table(ch: ComponentHarness, services: Services):
    b, report = await entered_report(ch, services)
    table_id = b.tables[(1, 1)]
    for n in ("Anna", "Bruno", "Carla", "Dario"):
        await ch.click(report, f"report:sign:{table_id}", user_id=b.users[n])
    await ch.click(report, f"report:countersign:{table_id}", user_id=42, roles=("Arbitri",))
    before = [(r.table_points, r.tournament_points) for r in await results_of(services, table_id)]
    sent = await ch.invoke("report enter", user_id=b.users["Dario"], locale="it", tournament="Coppa Test", table=1)
    assert sent[-1].ephemeral and "bloccato" in sent[-1].text
    sent = await ch.invoke("report enter", user_id=b.users["Dario"], locale="en-US", tournament="Coppa Test", table=1)
    assert "locked" in sent[-1].text
    assert [(r.table_points, r.tournament_points) for r in await results_of(services, table_id)] == before


async def test_bot_res_1_a_referee_corrects_through_the_modal_and_the_table_stays_locked(
    ch: ComponentHarness, services: Services
):
    b, report = await entered_report(ch, services)
    table_id = b.tables[(1, 1)]
    for n in ("Anna", "Bruno", "Carla", "Dario"):
        await ch.click(report, f"report:sign:{table_id}", user_id=b.users[n])
    await ch.invoke("review countersign", user_id=42, roles=("Arbitri",), tournament="Coppa Test", table=1)
    refused = await ch.invoke(
        "review correct", user_id=b.users["Anna"], locale="it", tournament="Coppa Test", table=1, reason="errore"
    )
    assert refused[-1].ephemeral and "Arbitro" in refused[-1].text
    (modal,) = await ch.invoke(
        "review correct", user_id=42, roles=("Arbitri",), tournament="Coppa Test", table=1, reason="scambio"
    )
    sent = await ch.submit(
        modal, {"Anna": "40", "Bruno": "10", "Carla": "20", "Dario": "32"}, user_id=42, roles=("Arbitri",)
    )
    assert not sent[-1].ephemeral
    dario = next(r for r in await results_of(services, table_id) if r.registration_id == b.registrations["Dario"])
    assert dario.table_rank == 2 and dario.locked


async def test_bot_res_1_the_situation_command_scores_a_final_situation(ch: ComponentHarness, services: Services):
    await build_tournament(services, preset="risiko-firk-1", rounds=FOUR, guild_id=ch.guild.id)
    situation = (
        '{"players": [{"name": "Anna", "territories": {"Cina": 3, "India": 2}},'
        ' {"name": "Bruno", "territories": {"Alaska": 2}}, {"name": "Carla", "territories": {"Egitto": 1}},'
        ' {"name": "Dario", "territories": {"Brasile": 1}, "status": "disqualified"}]}'
    )
    sent = await ch.invoke(
        "report situation",
        user_id=42,
        roles=("Arbitri",),
        locale="it",
        tournament="Coppa Test",
        table=1,
        situation=situation,
    )
    assert sent[0].body["type"] == 5 and "situazione finale" in sent[-2].text and "(squalifica)" in sent[-2].text
    # the final situation drawn under the report, a phone's page per pair of continents (BOT-IMG-1)
    assert sent[-1].files == ["map-1-1-1.png", "map-1-1-2.png", "map-1-1-3.png"]
    bad = await ch.invoke(
        "report situation",
        user_id=42,
        roles=("Arbitri",),
        locale="it",
        tournament="Coppa Test",
        table=1,
        situation="{rotto",
    )
    assert bad[-1].ephemeral and "non è JSON valido" in bad[-1].text


async def test_bot_std_1_standings_image_and_text_with_italian_numbers(ch: ComponentHarness, services: Services):
    await entered_report(ch, services)
    sent = await ch.invoke("standings show", locale="it", tournament="Coppa Test")
    reply = sent[-1]
    assert reply.files == ["standings-1.png"] and reply.blobs[0].startswith(b"\x89PNG")
    assert "Classifica — Coppa Test" in reply.text and "1. Anna — 31,8 pt" in reply.text
    assert "non ancora controfirmati: 1" in reply.text


async def test_bot_std_1_csv_export_is_semicolon_separated_with_bom(ch: ComponentHarness, services: Services):
    await entered_report(ch, services)
    sent = await ch.invoke("standings export", locale="it", tournament="Coppa Test")
    assert sent[-1].ephemeral and sent[-1].files == ["coppa-test.csv"]
    data = sent[-1].blobs[0]
    assert data.startswith(b"\xef\xbb\xbf") and b"Anna;;;31,8" in data


async def test_bot_std_1_unknown_tournament_is_a_localised_refusal(ch: ComponentHarness, services: Services):
    for path in ("standings show", "standings export", "my-games"):
        sent = await ch.invoke(path, locale="it", tournament="Fantasma")
        assert sent[-1].ephemeral and "Nessun torneo chiamato" in sent[-1].text, path
    sent = await ch.invoke("report enter", locale="it", tournament="Fantasma", table=1)
    assert sent[-1].ephemeral and "Nessun torneo chiamato" in sent[-1].text


async def test_bot_res_1_my_games_lists_the_table_and_offers_the_sign_button(ch: ComponentHarness, services: Services):
    b, _ = await entered_report(ch, services)
    sent = await ch.invoke("my-games", user_id=b.users["Bruno"], locale="it", tournament="Coppa Test")
    reply = sent[-1]
    assert reply.ephemeral and "Turno 1, tavolo 1: 2°" in reply.text and "da firmare" in reply.text
    sign = ch.custom_ids(reply)
    assert sign == [f"report:sign:{b.tables[(1, 1)]}"]
    clicked = await ch.click(reply, sign[0], user_id=b.users["Bruno"], locale="it")
    assert clicked[-1].ephemeral and "Firma registrata" in clicked[-1].text


async def test_bot_i18n_1_an_english_player_signing_leaves_the_report_message_in_the_server_language(
    ch: ComponentHarness, services: Services
):
    """Issue 11: the public report message keeps the server's language (Italian) when a player whose Discord is in
    English presses Sign; that player's private acknowledgement is in English."""
    b, report = await entered_report(ch, services)
    sent = await ch.click(report, f"report:sign:{b.tables[(1, 1)]}", user_id=b.users["Bruno"], locale="en-US")
    edit = next(x for x in sent if x.method == "PATCH")
    assert sent[0].body["type"] == 6 and "Referto — Coppa Test, turno 1, tavolo 1" in edit.text
    assert sent[-1].ephemeral and "Firma" not in sent[-1].text


async def test_a_form_open_across_a_restart_is_answered_as_expired_naming_the_command(
    ch: ComponentHarness, services: Services, bot: StewardBot
):
    """The report form lives in the process that opened it: submitted after a restart, it used to end in Discord's
    "This interaction failed". Now the member reads that it expired and which command opens it again; nothing
    changes. A button nobody handles any more gets the same kind of answer."""
    b = await build_tournament(services, preset="risiko-firk-1", rounds=FOUR, guild_id=ch.guild.id)
    anna = b.users["Anna"]
    (modal,) = await ch.invoke("report enter", user_id=anna, locale="it", tournament="Coppa Test", table=1)
    bot._connection._view_store._modals.clear()  # type: ignore[attr-defined]  # what a restart leaves
    bot.expired_grace = 0.05
    before = len(ch.adapter.sent)
    await ch.submit(modal, {"Anna": "40", "Bruno": "32", "Carla": "20", "Dario": "10"}, user_id=anna, locale="it")
    await asyncio.sleep(0.3)
    (answer,) = ch.adapter.sent[before:]
    assert answer.ephemeral and "non è più attivo" in answer.text and "/referto inserisci" in answer.text
    assert all(r.table_points is None for r in await results_of(services, b.tables[(1, 1)]))
    forged = Sent("followup", "POST", "/webhooks", {"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "?", "custom_id": "gone:button:1"}]}]})  # fmt: skip
    forged.message_id = 4242  # type: ignore[attr-defined]
    before = len(ch.adapter.sent)
    await ch.click(forged, "gone:button:1", user_id=anna, locale="en-US")
    await asyncio.sleep(0.3)
    (answer,) = ch.adapter.sent[before:]
    assert answer.ephemeral and answer.text.startswith("This button or form is no longer active")
