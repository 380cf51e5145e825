"""One error path for commands, buttons and modals, and who sees which command in the menu (BOT-ROLE-1,
BOT-I18N-1; issue "A house a newcomer can walk through": default_permissions, central error path)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.app import StewardBot
from bot.cogs._translator import StewardTranslator
from bot.services import Services
from bot.services.access import Actor
from tests.support.helpers import Sent
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)
ORGANIZER = discord.Permissions(manage_events=True).value
REFEREE = discord.Permissions(moderate_members=True).value
ADMIN = discord.Permissions(administrator=True).value
EXPECTED_MENU = {
    # staff: hidden from members by default (server admins can grant them to the staff roles)
    "tournament": ORGANIZER,
    "roster": ORGANIZER,
    "player": ORGANIZER,
    "round": ORGANIZER,
    "finals": ORGANIZER,
    "review": REFEREE,
    "arrival": REFEREE,
    "sanction": REFEREE,
    "sanctions": REFEREE,
    "setup": ADMIN,
    # everyone
    "tournaments": None,
    "register": None,
    "players": None,
    "withdraw": None,
    "checkin": None,
    "forfeit": None,
    "tables": None,
    "my-table": None,
    "report": None,
    "my-games": None,
    "standings": None,
    "season": None,  # anyone reads a season; create and attach check the organizer role, sanction the referee's
    "record": None,
    "appeal": None,
    "referee": None,
    "schedule": ORGANIZER,
    "replace": ORGANIZER,
    "announce": ORGANIZER,
    "venue": ORGANIZER,
    "print": ORGANIZER,  # the paper kit
    "history": ORGANIZER,  # importing an earlier season's tournament
    "publishing": None,  # players give their own identity (/publishing me); the rest checks the organizer role
    "clock": REFEREE,
    "endgame": None,
    "rule": None,
    "about": None,
    "risiko": None,
    "rr": None,
    "score": None,
}


async def test_bot_role_1_staff_commands_are_hidden_from_members_and_player_commands_are_not(bot: StewardBot):
    payloads = [await c.get_translated_payload(bot.tree, StewardTranslator()) for c in bot.tree.get_commands()]
    menu = {
        p["name"]: None if p.get("default_member_permissions") is None else int(p["default_member_permissions"])
        for p in payloads
    }
    assert menu == EXPECTED_MENU


async def _setup(ch: ComponentHarness) -> None:
    await ch.invoke(
        "setup roles",
        admin=True,
        organizer=ch.role("Organizzatori"),
        referee=ch.role("Arbitri"),
        head_referee=ch.role("Capo arbitro"),
    )


async def test_bot_role_1_the_role_check_stays_when_the_menu_shows_a_staff_command(ch: ComponentHarness):
    """A member who still reaches /tournament create (a server may grant it to everyone) is refused by the service."""
    await _setup(ch)
    sent = await ch.invoke("tournament create", locale="en-US", name="Coppa", preset="risiko-firk-1")
    assert sent[-1].ephemeral and "Organizer" in sent[-1].text and "not mapped" not in sent[-1].text


async def _report_message(ch: ComponentHarness, services: Services, http: HttpRecorder) -> tuple[Any, int, list[int]]:
    await _setup(ch)
    await ch.invoke("tournament create", roles=ORG, name="Coppa Errori", preset="risiko-ufficiali-2018")
    for i in range(4):
        await ch.invoke("register", user_id=9100 + i, tournament="Coppa Errori", name=f"Gioc {i}")
    await ch.invoke("tournament validate", roles=ORG, tournament="Coppa Errori")
    await ch.invoke("round draw", roles=ORG, tournament="Coppa Errori")
    published = await ch.invoke("round publish", roles=ORG, tournament="Coppa Errori")
    assert "(ref " not in published[-1].text, published[-1].text
    mine = await services.rounds.my_table(Actor(guild_id=ch.guild.id, user_id=9100), tournament="Coppa Errori")
    users = [s.user_id for s in mine.table.seats if s.user_id is not None]
    (modal,) = await ch.invoke("report enter", user_id=users[0], tournament="Coppa Errori", table=mine.table.number)
    points = dict(zip(ch.modal_labels(modal), ["70", "55", "41", "12"], strict=True))
    report = (await ch.submit(modal, points, user_id=users[0]))[-1]
    table_id = int(ch.custom_ids(report)[0].rsplit(":", 1)[1])
    return report, table_id, users


@pytest.mark.unexpected_errors_expected
async def test_a_button_that_fails_unexpectedly_answers_with_a_reference_not_silence(
    ch: ComponentHarness, services: Services, http: HttpRecorder, monkeypatch: pytest.MonkeyPatch
):
    report, table_id, users = await _report_message(ch, services, http)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(services.reports, "sign", broken)
    sent = await ch.click(report, f"report:sign:{table_id}", user_id=users[1], locale="en-US")
    assert sent and sent[-1].ephemeral
    assert "(ref " in sent[-1].text and "database went away" not in sent[-1].text


async def test_a_button_refusal_is_one_localised_line(ch: ComponentHarness, services: Services, http: HttpRecorder):
    """A stranger pressing Sign gets the domain refusal in their language (the commands' path)."""
    report, table_id, _ = await _report_message(ch, services, http)
    sent = await ch.click(report, f"report:sign:{table_id}", user_id=123456, locale="it")
    assert sent[-1].ephemeral and "\n" not in sent[-1].text.strip() and "Traceback" not in sent[-1].text


@pytest.mark.unexpected_errors_expected
async def test_a_modal_that_fails_unexpectedly_answers_with_a_reference(
    ch: ComponentHarness, services: Services, http: HttpRecorder, monkeypatch: pytest.MonkeyPatch
):
    _, _, users = await _report_message(ch, services, http)
    mine = await services.rounds.my_table(Actor(guild_id=ch.guild.id, user_id=users[0]), tournament="Coppa Errori")

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    (modal,) = await ch.invoke(
        "review correct", user_id=4242, roles=REF, tournament="Coppa Errori", table=mine.table.number, reason="typo"
    )
    monkeypatch.setattr(services.reports, "correct", broken)
    sent = await ch.submit(modal, {}, user_id=4242, roles=REF, locale="en-US")
    assert sent[-1].ephemeral and "(ref " in sent[-1].text and "disk full" not in sent[-1].text


NINES = "9" * 19  # a template's longest id: beyond any row id (and past a signed 64-bit integer)


@pytest.mark.parametrize(
    "forged_id",
    [
        f"report:sign:{NINES}",
        f"report:countersign:{NINES}",
        f"referee:call:{NINES}:9999",
        f"referee:claim:{NINES}",
        f"late:apply:{NINES}:{NINES}",
        "rule:more:99",
    ],
)
async def test_forged_button_ids_get_a_clear_refusal_and_no_traceback(
    ch: ComponentHarness, services: Services, http: HttpRecorder, caplog: pytest.LogCaptureFixture, forged_id: str
):
    """Issue 15 item 14: a button id edited to an id no row can have is refused like a vanished table, for every
    button the bot answers after a restart (report Sign and Countersign, the referee call and its claim, a
    latecomer's Apply, the rules desk's More articles)."""
    report, _, users = await _report_message(ch, services, http)
    button = {"type": 2, "style": 3, "label": "Sign", "custom_id": forged_id}
    forged_message = Sent("followup", report.method, report.path, report.data | {"components": [
        {"type": 1, "components": [button]}]})  # fmt: skip
    forged_message.message_id = report.message_id  # type: ignore[attr-defined]
    sent = await ch.click(forged_message, forged_id, user_id=users[0], locale="en-US")
    assert sent[-1].ephemeral and "(ref " not in sent[-1].text
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_refusal_that_quotes_user_text_shows_it_as_typed_never_as_markdown_or_a_ping(
    ch: ComponentHarness,
):
    """BOT-I18N-1 error path: a tournament name typed with markdown and a mention comes back in the refusal escaped —
    "**Coppa**" is not bold, "@everyone" is text (mentions are also off bot-wide)."""
    await _setup(ch)
    sent = await ch.invoke("tournaments show", locale="en-US", tournament="**Coppa** @everyone __x__")
    text = sent[-1].text
    assert sent[-1].ephemeral and "\\*\\*Coppa\\*\\*" in text and "@\u200beveryone" in text, text
    assert "\\_\\_x\\_\\_" in text
