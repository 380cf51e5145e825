"""Slash commands of the first slice dispatched through the real command tree (BOT-REG-1, BOT-ROLE-1, BOT-I18N-1)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import Registration, Tournament
from bot.services import Services
from tests.support.helpers import Harness


async def rows(services: Services, model: type) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def map_roles(h: Harness) -> None:
    sent = await h.invoke(
        "setup roles",
        admin=True,
        organizer=h.role("Organizzatori"),
        referee=h.role("Arbitri"),
        head_referee=h.role("Capo arbitro"),
    )
    assert sent[-1].ephemeral


async def test_bot_role_1_setup_roles_confirms_the_mapping_in_italian(harness: Harness):
    sent = await harness.invoke(
        "setup roles",
        admin=True,
        locale="it",
        organizer=harness.role("Organizzatori"),
        referee=harness.role("Arbitri"),
        head_referee=harness.role("Capo arbitro"),
    )
    assert len(sent) == 1 and sent[0].kind == "callback" and sent[0].ephemeral
    assert "Ruoli configurati" in sent[0].text
    assert f"<@&{harness.guild.roles['Organizzatori']}>" in sent[0].text
    assert sent[0].data["allowed_mentions"]["parse"] == []  # mentions shown, nobody pinged


async def test_bot_reg_1_organizer_creates_a_tournament_and_players_register_and_list(harness: Harness, services):
    await map_roles(harness)
    sent = await harness.invoke(
        "tournament create", roles=("Organizzatori",), name="Coppa d'Inverno", preset="risiko-firk-1", cap=40
    )
    assert sent[0].body["type"] == 5  # deferred, then a follow-up
    assert "Coppa d'Inverno" in sent[-1].text and not sent[-1].ephemeral
    for uid, name, club in [(10, "Anna", "Roma"), (11, "Bruno", "Milano")]:
        reply = await harness.invoke("register", user_id=uid, tournament="Coppa d'Inverno", name=name, club=club)
        assert reply[-1].ephemeral and "Coppa d'Inverno" in reply[-1].text
    listing = await harness.invoke("players", tournament="coppa d'inverno", locale="it")
    assert "Anna" in listing[-1].text and "Bruno" in listing[-1].text and "in gara: 2" in listing[-1].text
    assert await rows(services, Registration) == 2


async def test_bot_role_1_a_non_organizer_is_told_which_role_is_needed_and_nothing_changes(harness: Harness, services):
    await map_roles(harness)
    sent = await harness.invoke("tournament create", locale="it", name="Coppa", preset="risiko-firk-1")
    assert sent[-1].ephemeral
    assert "Organizzatore" in sent[-1].text
    assert await rows(services, Tournament) == 0


async def test_bot_reg_1_bad_inputs_get_a_clear_localised_line_and_change_nothing(harness: Harness, services):
    await map_roles(harness)
    await harness.invoke("tournament create", roles=("Organizzatori",), name="Coppa", preset="risiko-firk-1")
    cases = [
        ({"tournament": "Coppa", "name": "   "}, "non può essere vuoto"),
        ({"tournament": "Coppa", "name": "Anna", "club": "c" * 500}, "troppo lungo"),
        ({"tournament": "Inesistente", "name": "Anna"}, "Nessun torneo chiamato"),
    ]
    for options, expected in cases:
        sent = await harness.invoke("register", locale="it", **options)
        assert sent[-1].ephemeral, options
        assert expected in sent[-1].text, (options, sent[-1].text)
        assert "Traceback" not in sent[-1].text
    assert await rows(services, Registration) == 0


async def test_bot_reg_1_a_bad_deadline_is_refused_in_english_for_an_english_user(harness: Harness, services):
    await map_roles(harness)
    sent = await harness.invoke(
        "tournament create", roles=("Organizzatori",), name="Coppa", preset="risiko-firk-1", deadline="domani sera"
    )
    assert sent[-1].ephemeral and "is not a date and time" in sent[-1].text
    assert await rows(services, Tournament) == 0


async def test_bot_i18n_1_user_text_cannot_ping_everyone(harness: Harness):
    await map_roles(harness)
    await harness.invoke("tournament create", roles=("Organizzatori",), name="Coppa", preset="risiko-firk-1")
    sent = await harness.invoke("register", tournament="Coppa", name="@everyone", club="<@&123>")
    body = sent[-1].data
    assert body["allowed_mentions"]["parse"] == []
    assert "@everyone" not in sent[-1].text  # escaped as well as not parsed
    listing = await harness.invoke("players", tournament="Coppa")
    assert listing[-1].data["allowed_mentions"]["parse"] == []


async def test_bot_role_1_commands_outside_a_server_are_refused_politely(harness: Harness):
    sent = await harness.invoke("players", in_guild=False, locale="it", tournament="Coppa")
    assert sent and sent[-1].ephemeral
    assert "solo in un server" in sent[-1].text


@pytest.mark.unexpected_errors_expected
async def test_an_unexpected_failure_shows_a_reference_not_a_traceback(harness: Harness, bot, monkeypatch, caplog):
    async def boom(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(bot.services.registrations, "list_players", boom)
    sent = await harness.invoke("players", tournament="Coppa", locale="en-GB")
    assert sent[-1].ephemeral and "ref " in sent[-1].text
    assert "database on fire" not in sent[-1].text
    assert "database on fire" in caplog.text
