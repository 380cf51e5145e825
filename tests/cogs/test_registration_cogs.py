"""The registration path through the real command tree: /tournament list|show|close|validate, overrides,
/roster import|export, /withdraw, /player add|remove|edit, /checkin, /forfeit, /arrival
(BOT-REG-1..4, BOT-ROLE-1, BOT-I18N-1)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select

from bot.db.models import CheckIn, Registration, Round, RoundStatus, Tournament
from bot.services import Services
from tests.conftest import FakeClock
from tests.support.helpers import FakeFile, Harness

ORG = ("Organizzatori",)
REF = ("Arbitri",)


async def rows(services: Services, model: type, **where: Any) -> int:
    async with services.sessionmaker() as session:
        stmt = select(func.count()).select_from(model)
        for key, value in where.items():
            stmt = stmt.where(getattr(model, key) == value)
        return int((await session.execute(stmt)).scalar_one())


async def statuses(services: Services) -> dict[str, str]:
    async with services.sessionmaker() as session:
        return {r.display_name: r.status for r in (await session.execute(select(Registration))).scalars()}


async def ready(h: Harness, **create: Any) -> None:
    sent = await h.invoke(
        "setup roles",
        admin=True,
        organizer=h.role("Organizzatori"),
        referee=h.role("Arbitri"),
        head_referee=h.role("Capo arbitro"),
    )
    assert sent[-1].ephemeral
    options = {"name": "Coppa", "preset": "risiko-firk-1"} | create
    sent = await h.invoke("tournament create", roles=ORG, **options)
    assert not sent[-1].ephemeral, sent[-1].text


async def add_round(services: Services, number: int = 1, *, start=None, status=RoundStatus.PLANNED) -> None:
    """Fixture helper: rounds belong to the rounds area; here they are plain rows."""
    async with services.sessionmaker() as session, session.begin():
        t = (await session.execute(select(Tournament))).scalar_one()
        session.add(
            Round(guild_id=t.guild_id, tournament_id=t.id, number=number, status=status.value, scheduled_start=start)
        )


async def join(h: Harness, *names: str, start: int = 100) -> None:
    for offset, name in enumerate(names):
        sent = await h.invoke("register", user_id=start + offset, tournament="Coppa", name=name)
        assert "Coppa" in sent[-1].text


# --- /tournament ----------------------------------------------------------------------------------------------


async def test_bot_reg_1_create_with_overrides_shows_them_and_a_bad_key_is_refused(harness: Harness, services):
    await ready(harness, overrides='{"tournament": {"qualifying_rounds": 3}}')
    async with services.sessionmaker() as session:
        t = (await session.execute(select(Tournament))).scalar_one()
        assert t.overrides == {"tournament": {"qualifying_rounds": 3}}
    for text, expected in [
        ('{"tournament": {"giri": 3}}', "non ha la voce «tournament.giri»"),
        # the engines' own checks run at creation and the reply names the field and what is allowed
        ('{"tournament": {"table_size": 0}}', "«tournament.table_size» non può valere 0: ammessi 2, 3, 4, …"),
        ('{"scoring": {"boxed_method": 3}}', "«scoring.boxed_method» non può valere 3: ammessi 1, 2"),
        ('{"lateness": {"cards_forfeited": -1}}', "«lateness.cards_forfeited»"),
        ('{"tournament": {"qualifying_rounds": -3}}', "«tournament.qualifying_rounds» non può valere -3"),
        ('{"tournament": {"qualifying_rounds": "3"}}', "Tipo sbagliato"),
        ("{giri: 3}", "non sono JSON valido"),
    ]:
        sent = await harness.invoke(
            "tournament create", roles=ORG, locale="it", name="Altra", preset="risiko-firk-1", overrides=text
        )
        shown = re.sub(r"\\(.)", r"\1", sent[-1].text)  # as Discord renders it: escapes are invisible
        assert sent[-1].ephemeral and expected in shown, sent[-1].text
    assert await rows(services, Tournament) == 1


async def test_bot_reg_1_list_and_show_give_status_preset_counts_and_deadline(
    harness: Harness, services, clock: FakeClock
):
    await ready(harness, cap=2, deadline="2026-12-05 21:00")
    await join(harness, "Anna", "Bruno", "Carla")
    listing = await harness.invoke("tournaments list", locale="it")
    assert "**Coppa**" in listing[-1].text and "iscrizioni aperte" in listing[-1].text
    shown = await harness.invoke("tournaments show", locale="it", tournament="coppa")
    text = shown[-1].text
    assert "Stato: iscrizioni aperte" in text and "RisiKo! — 1° Torneo FIRK" in text
    assert "in gara: 2" in text and "in attesa: 1" in text and "Posti: 2" in text
    assert "<t:1796500800:f>" in text  # 21:00 in Rome on 5 December = 20:00 UTC
    missing = await harness.invoke("tournaments show", locale="it", tournament="Nessuno")
    assert missing[-1].ephemeral and "Nessun torneo chiamato «Nessuno»" in missing[-1].text


async def test_bot_reg_1_closing_is_for_organizers_and_then_registration_is_refused(harness: Harness, services):
    await ready(harness)
    refused = await harness.invoke("tournament close", locale="it", tournament="Coppa")
    assert refused[-1].ephemeral and "serve il ruolo Organizzatore" in refused[-1].text
    closed = await harness.invoke("tournament close", roles=ORG, locale="it", tournament="Coppa")
    assert "chiuse" in closed[-1].text and not closed[-1].ephemeral
    again = await harness.invoke("tournament close", roles=ORG, locale="it", tournament="Coppa")
    assert again[-1].ephemeral and "non sono aperte" in again[-1].text
    late = await harness.invoke("register", locale="it", tournament="Coppa", name="Anna")
    assert late[-1].ephemeral and "sono chiuse" in late[-1].text
    assert await rows(services, Registration) == 0


async def test_bot_reg_2_a_referee_validates_and_a_player_is_told_which_roles_may(harness: Harness, services):
    await ready(harness, cap=2)
    await join(harness, "Anna", "Bruno", "Carla")
    refused = await harness.invoke("tournament validate", user_id=100, locale="it", tournament="Coppa")
    assert refused[-1].ephemeral and "Organizzatore o Arbitro" in refused[-1].text
    assert (await statuses(services))["Anna"] == "registered"
    done = await harness.invoke("tournament validate", roles=REF, locale="it", tournament="Coppa")
    assert "Giocatori convalidati: 2" in done[-1].text and "In lista d'attesa: 1" in done[-1].text
    assert await statuses(services) == {"Anna": "validated", "Bruno": "validated", "Carla": "waitlisted"}


# --- /withdraw and /player -----------------------------------------------------------------------------------


async def test_bot_reg_3_withdraw_frees_a_place_and_the_promoted_player_is_pinged(harness: Harness, services):
    await ready(harness, cap=2)
    await join(harness, "Anna", "Bruno", "Carla")
    sent = await harness.invoke("withdraw", user_id=100, locale="it", tournament="Coppa")
    assert sent[-2].ephemeral and "Ritiro da **Coppa** registrato" in sent[-2].text
    notice = sent[-1]
    assert not notice.ephemeral and "<@102>" in notice.text and "lista d'attesa" in notice.text
    assert notice.data["allowed_mentions"] == {"parse": ["users"]}  # only this message pings, and only users
    assert await statuses(services) == {"Anna": "withdrawn", "Bruno": "registered", "Carla": "registered"}
    again = await harness.invoke("withdraw", user_id=100, locale="it", tournament="Coppa")
    assert again[-1].ephemeral and "Non risulta una tua iscrizione" in again[-1].text


async def test_bot_reg_1_an_organizer_adds_a_member_and_a_name_without_discord(harness: Harness, services):
    await ready(harness)
    carla = harness.member(777, "Carla")
    sent = await harness.invoke("player add", roles=ORG, locale="it", tournament="Coppa", member=carla, club="Roma")
    assert "Iscrizione di **Carla** a **Coppa** confermata" in sent[-1].text
    sent = await harness.invoke("player add", roles=ORG, locale="it", tournament="Coppa", name="Nonno Piero")
    assert "Nonno Piero" in sent[-1].text
    async with services.sessionmaker() as session:
        regs = {r.display_name: r.user_id for r in (await session.execute(select(Registration))).scalars()}
    assert regs == {"Carla": 777, "Nonno Piero": None}


async def test_bot_role_1_bad_player_commands_get_a_clear_line_and_change_nothing(harness: Harness, services):
    await ready(harness)
    cases = [
        ({"tournament": "Coppa", "name": "Anna"}, (), "serve il ruolo Organizzatore"),
        ({"tournament": "Coppa", "name": "Anna", "club": "c" * 500}, ORG, "troppo lungo (500 caratteri"),
        ({"tournament": "Inesistente", "name": "Anna"}, ORG, "Nessun torneo chiamato"),
        ({"tournament": "Coppa"}, ORG, "Indica un membro del server oppure un nome"),
    ]
    for options, roles, expected in cases:
        sent = await harness.invoke("player add", roles=roles, locale="it", **options)
        assert sent[-1].ephemeral and expected in sent[-1].text, (options, sent[-1].text)
    assert await rows(services, Registration) == 0


async def test_bot_reg_1_organizers_edit_and_remove_players(harness: Harness, services):
    await ready(harness)
    await join(harness, "Anna", "Bruno")
    edited = await harness.invoke(
        "player edit", roles=ORG, locale="it", tournament="Coppa", player="anna", name="Anna Rossi", family="Rossi"
    )
    assert "**Anna Rossi**" in edited[-1].text and "famiglia: Rossi" in edited[-1].text
    refused = await harness.invoke("player remove", user_id=101, locale="it", tournament="Coppa", player="Anna Rossi")
    assert refused[-1].ephemeral and "Organizzatore" in refused[-1].text
    removed = await harness.invoke("player remove", roles=ORG, locale="it", tournament="Coppa", player="Anna Rossi")
    assert "Iscrizione di **Anna Rossi** a **Coppa** cancellata" in removed[-1].text
    unknown = await harness.invoke("player remove", roles=ORG, locale="it", tournament="Coppa", player="Zeno")
    assert unknown[-1].ephemeral and "Nessun giocatore «Zeno»" in unknown[-1].text
    assert await statuses(services) == {"Bruno": "registered"}


# --- /roster import|export ----------------------------------------------------------------------------------


async def test_bot_reg_1_an_italian_csv_is_imported_and_exported_back(harness: Harness, services):
    await ready(harness)
    data = "\ufeffNome;Club;Squadra;Famiglia\nAnna;Roma;;Rossi\nBruno;Milano;;\n".encode()
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="it", tournament="Coppa", file=FakeFile("iscritti.csv", data)
    )
    assert sent[-1].ephemeral and "Importati 2 giocatori" in sent[-1].text
    assert await statuses(services) == {"Anna": "registered", "Bruno": "registered"}
    exported = await harness.invoke("roster export", roles=REF, locale="it", tournament="Coppa")
    assert exported[-1].files == ["coppa-giocatori.csv"]
    text = exported[-1].blobs[0].decode("utf-8-sig")
    assert text.splitlines() == [
        "nome;club;squadra;famiglia;discord id;stato",
        "Anna;Roma;;Rossi;;registered",
        "Bruno;Milano;;;;registered",
    ]


async def test_bot_reg_1_a_csv_with_bad_rows_lists_them_by_line_and_imports_nothing(harness: Harness, services):
    await ready(harness)
    data = b"name,club\nAnna,Roma\n,Milano\nBruno," + b"c" * 500 + b"\n"
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="en-GB", tournament="Coppa", file=FakeFile("players.csv", data)
    )
    text = sent[-1].text
    assert sent[-1].ephemeral and "2 problems: no player imported" in text
    assert "Line 3: the name is empty." in text and "Line 4: the club is too long (500 characters" in text
    assert len(text) <= 2000
    refused = await harness.invoke(
        "roster import", locale="it", tournament="Coppa", file=FakeFile("a.csv", b"nome\nX\n")
    )
    assert refused[-1].ephemeral and "Organizzatore" in refused[-1].text
    assert await rows(services, Registration) == 0


async def test_bot_reg_1_hundreds_of_bad_rows_stay_within_one_message(harness: Harness, services):
    await ready(harness)
    data = b"nome;discord id\n" + b"".join(b"Giocatore %d;abc\n" % i for i in range(300))
    sent = await harness.invoke(
        "roster import", roles=ORG, locale="it", tournament="Coppa", file=FakeFile("x.csv", data)
    )
    assert len(sent[-1].data["content"]) <= 2000 and "…e altri" in sent[-1].text
    assert await rows(services, Registration) == 0


# --- /checkin, /forfeit, /arrival ---------------------------------------------------------------------------


async def test_bot_reg_4_check_in_without_a_round_is_explained(harness: Harness, services):
    await ready(harness)
    await join(harness, "Anna")
    sent = await harness.invoke("checkin", user_id=100, locale="it", tournament="Coppa")
    assert sent[-1].ephemeral and "non ha un turno in programma" in sent[-1].text
    assert await rows(services, CheckIn) == 0


async def test_bot_reg_4_a_player_checks_in_and_another_forfeits_the_game(harness: Harness, services, clock):
    await ready(harness)
    await join(harness, "Anna", "Bruno")
    await add_round(services, start=clock.now + timedelta(minutes=10))
    sent = await harness.invoke("checkin", user_id=100, locale="it", tournament="Coppa")
    assert sent[-1].ephemeral and "Presenza di **Anna** al turno 1 di **Coppa**" in sent[-1].text
    sent = await harness.invoke("forfeit", user_id=101, locale="en-US", tournament="Coppa")
    assert "does not play the game of round 1" in sent[-1].text
    assert await rows(services, CheckIn, status="forfeit") == 1
    stranger = await harness.invoke("checkin", user_id=999, locale="it", tournament="Coppa")
    assert stranger[-1].ephemeral and "Non sei tra i giocatori" in stranger[-1].text
    assert await rows(services, CheckIn) == 2


async def test_bot_reg_4_a_referee_marks_arrival_with_the_minutes_late(harness: Harness, services, clock):
    await ready(harness, preset="ricochet-v3.3")
    await join(harness, "Anna", "Bruno")
    await add_round(services, start=clock.now)
    clock.advance(minutes=4)
    sent = await harness.invoke("arrival", roles=REF, locale="it", tournament="Coppa", player="Anna")
    assert "Arrivo di **Anna** al turno 1 di **Coppa**: 4 minuti di ritardo" in sent[-1].text
    assert "ammonizione verbale automatica (RR 13.5)" in sent[-1].text
    clock.advance(minutes=10)
    bruno = harness.member(101, "Bruno")
    sent = await harness.invoke("arrival", roles=ORG, locale="it", tournament="Coppa", member=bruno)
    assert "partita persa per rinuncia, ultimo posto della partita" in sent[-1].text
    refused = await harness.invoke("arrival", user_id=100, locale="it", tournament="Coppa", player="Bruno")
    assert refused[-1].ephemeral and "Organizzatore o Arbitro" in refused[-1].text
    async with services.sessionmaker() as session:
        got = sorted((c.status, c.minutes_late) for c in (await session.execute(select(CheckIn))).scalars())
    assert got == [("forfeit", 14), ("late", 4)]


async def test_bot_reg_1_autocomplete_offers_tournaments_and_that_tournaments_players(harness: Harness, services):
    await ready(harness)
    await join(harness, "Anna Rossi", "Bruno")
    tournaments = await harness.autocomplete("tournaments show", "tournament", tournament="cop")
    assert [c["value"] for c in tournaments] == ["Coppa"]
    players = await harness.autocomplete("player edit", "player", roles=ORG, tournament="Coppa", player="ros")
    assert [c["value"] for c in players] == ["Anna Rossi"]
    assert await harness.autocomplete("arrival", "player", tournament="Nessuno", player="") == []
