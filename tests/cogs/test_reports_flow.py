"""The whole path through the real command tree: create → register 20 → validate → draw → publish →
report + sign + countersign → standings (BOT-REG-1, BOT-TAB-1, BOT-RES-1, BOT-STD-1, BOT-ROLE-1, BOT-I18N-1)."""

from __future__ import annotations

import asyncio

from bot.services import Services
from bot.services.access import Actor
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)
CLUBS = ("Roma", "Milano", "Torino", "Napoli")


async def test_bot_res_1_bot_std_1_from_registration_to_signed_report_and_standings(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await ch.invoke(
        "setup roles",
        admin=True,
        organizer=ch.role("Organizzatori"),
        referee=ch.role("Arbitri"),
        head_referee=ch.role("Capo arbitro"),
    )
    created = await ch.invoke("tournament create", roles=ORG, name="Coppa Flusso", preset="risiko-ufficiali-2018")
    assert "Coppa Flusso" in created[-1].text
    for i in range(20):
        sent = await ch.invoke(
            "register", user_id=8000 + i, tournament="Coppa Flusso", name=f"Gioc {i:02d}", club=CLUBS[i % 4]
        )
        assert sent[-1].ephemeral, sent[-1].text
    validated = await ch.invoke("tournament validate", roles=ORG, locale="it", tournament="Coppa Flusso")
    assert "(ref " not in validated[-1].text and "Coppa Flusso" in validated[-1].text, validated[-1].text
    drawn = await ch.invoke("round draw", roles=ORG, tournament="Coppa Flusso")
    assert drawn[-1].ephemeral and drawn[-1].files
    published = await ch.invoke("round publish", roles=ORG, locale="it", tournament="Coppa Flusso")
    assert "è pubblicato" in published[-1].text
    round_view = await services.rounds.my_table(Actor(guild_id=ch.guild.id, user_id=8000), tournament="Coppa Flusso")
    table = round_view.table
    users = [s.user_id for s in table.seats]
    names = [s.name for s in table.seats]
    assert len(users) == 4 and all(u is not None for u in users)

    (modal,) = await ch.invoke(
        "report enter", user_id=users[0], locale="it", tournament="Coppa Flusso", table=table.number
    )
    assert ch.modal_labels(modal) == names
    points = dict(zip(names, ["70", "55,5", "41", "12"], strict=True))
    report = (await ch.submit(modal, points, user_id=users[0], locale="it"))[-1]
    assert "Referto — Coppa Flusso, turno 1" in report.text and "55,5" in report.text
    table_id = int(ch.custom_ids(report)[0].rsplit(":", 1)[1])
    # four players press Sign at the same moment; the message's last edit shows all four
    before = len(ch.adapter.sent)
    await asyncio.gather(*(ch.click(report, f"report:sign:{table_id}", user_id=uid) for uid in users))
    edits = [s for s in ch.adapter.sent[before:] if s.kind == "edit"]  # in the order Discord received them
    assert edits and edits[-1].text.count("✅") == 4
    last_buttons = [c for row in edits[-1].data.get("components", []) for c in row.get("components", [])]
    assert any(c["custom_id"] == f"report:countersign:{table_id}" and not c.get("disabled") for c in last_buttons)
    locked = await ch.click(report, f"report:countersign:{table_id}", user_id=4242, roles=REF, locale="it")
    assert "bloccato" in locked[-1].text

    standings = await ch.invoke("standings show", locale="it", tournament="Coppa Flusso")
    reply = standings[-1]
    assert reply.files == ["standings-1.png"] and reply.blobs[0].startswith(b"\x89PNG")
    assert f"1. {names[0]} — 12 pt" in reply.text  # UFF 12/9/6/3 (players of other tables have no result yet)
    assert f"{names[1]} — 9 pt" in reply.text
