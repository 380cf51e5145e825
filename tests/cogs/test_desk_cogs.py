"""The referee's desk through the real command tree (BOT-SAN-1, BOT-SAN-2, BOT-SAN-3, BOT-ROLE-1, BOT-I18N-1):
the ladder's proposal with Confirm, the case in the table's thread pinging only the player, records and appeals,
and every referee and head-referee command refusing who may not use it without changing anything."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import func, select

from bot.app import StewardBot
from bot.db.models import Registration, RegistrationStatus, Sanction, Tournament
from bot.services import Services
from bot.services.access import Actor
from tests.conftest import FakeClock
from tests.support.cog_rounds import prepare
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)
HEAD = ("Capo arbitro",)


async def _published(ch: ComponentHarness, services: Services) -> None:
    await prepare(ch, services, 8)
    await ch.invoke("round draw", roles=ORG, tournament="Coppa")
    await ch.invoke("round publish", roles=ORG, tournament="Coppa")


async def _count(services: Services) -> int:
    async with services.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(Sanction))).scalar_one())


async def test_bot_san_2_a_referee_confirms_the_ladder_s_proposal_and_the_thread_hears_of_it(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _published(ch, services)
    *_, offer = await ch.invoke(
        "sanction give", user_id=4242, roles=REF, locale="it", tournament="Coppa", infraction="pact",
        player="Giocatore 01", cards_in_hand=1, details="consiglio al vicino",
    )  # fmt: skip
    assert offer.ephemeral and "ammonizione verbale" in offer.text and "ARB 27" in offer.text
    assert await _count(services) == 0  # nothing is written before Confirm
    button = [c for c in ch.custom_ids(offer)][-1]
    done = await ch.click(offer, button, user_id=4242, roles=REF, locale="it")
    assert "Caso 1" in done[-1].text and "ammonizione verbale" in done[-1].text
    await ch.click(offer, button, user_id=4242, roles=REF, locale="it")  # a double click logs no second case
    assert await _count(services) == 1
    thread_posts = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "⚖️" in c.content]
    (post,) = thread_posts
    assert "<@7001>" in post.content  # the sanctioned player, and nobody else, may be pinged
    assert post.allowed_mentions == {"users": [7001], "parse": []}
    # the second offence climbs the ladder: one card and three armies with one card in hand
    *_, again = await ch.invoke(
        "sanction give", user_id=4242, roles=REF, locale="en-US", tournament="Coppa", infraction="pact",
        player="Giocatore 01", cards_in_hand=1,
    )  # fmt: skip
    assert "lose cards or armies" in again.text and "Cards to lose: 1 · armies to lose: 3" in again.text


async def test_bot_san_3_the_player_reads_their_record_and_appeals_and_the_head_referee_decides(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _published(ch, services)
    referee = Actor(guild_id=ch.guild.id, user_id=4242, role_ids=frozenset({ch.guild.roles["Arbitri"]}))
    await services.sanctions.record(referee, tournament="Coppa", player="Giocatore 02", user_id=None, infraction="pact")
    *_, record = await ch.invoke("record", user_id=7002, locale="it", tournament="Coppa")
    assert record.ephemeral and "#1" in record.text and "ammonizione verbale" in record.text
    *_, appeal = await ch.invoke("appeal", user_id=7002, locale="it", case=1, reason="era una battuta")
    assert "arbitro capo" in appeal.text and "ricorso in attesa" in appeal.text
    refused = await ch.invoke("sanction decide", user_id=4242, roles=REF, case=1, decision="annulled")
    assert refused[-1].ephemeral and "Head referee" in refused[-1].text
    decided = await ch.invoke("sanction decide", user_id=4343, roles=HEAD, locale="it", case=1, decision="upheld")
    assert "ricorso respinto" in decided[-1].text
    *_, other = await ch.invoke("record", user_id=7003, locale="en-US", tournament="Coppa", player="Giocatore 02")
    assert other.ephemeral and "Referee" in other.text  # another player's record is the referees'


REFEREE_CALLS = [
    ("sanction give", {"tournament": "Coppa", "infraction": "pact", "player": "Giocatore 01"}),
    ("sanctions list", {"tournament": "Coppa"}),
    ("sanctions export", {"tournament": "Coppa"}),
    ("sanctions latecomers", {"tournament": "Coppa"}),
]
HEAD_CALLS = [
    ("sanction revoke", {"case": 1, "reason": "errore"}),
    ("sanction decide", {"case": 1, "decision": "annulled"}),
]


async def test_bot_role_1_desk_commands_refuse_members_referees_and_other_servers_and_change_nothing(
    ch: ComponentHarness, services: Services, bot: StewardBot, http: HttpRecorder
):
    await _published(ch, services)
    referee = Actor(guild_id=ch.guild.id, user_id=4242, role_ids=frozenset({ch.guild.roles["Arbitri"]}))
    await services.sanctions.record(referee, tournament="Coppa", player="Giocatore 01", user_id=None, infraction="pact")
    before = await _count(services)
    elsewhere = ComponentHarness(bot, roles=("Arbitri", "Capo arbitro"))  # another server: same role names
    calls = [(p, o, "You need the Referee role") for p, o in REFEREE_CALLS]
    calls += [(p, o, "You need the Head referee role") for p, o in HEAD_CALLS]
    for path, options, refusal in calls:
        sent = await ch.invoke(path, user_id=7005, locale="en-US", **options)  # a plain member
        assert sent[-1].ephemeral and refusal in sent[-1].text, (path, sent[-1].text)
        other = await elsewhere.invoke(path, user_id=4242, roles=REF + HEAD, locale="en-US", **options)
        assert other[-1].ephemeral and "(ref " not in other[-1].text, (path, other[-1].text)
    for path, options in HEAD_CALLS:
        sent = await ch.invoke(path, user_id=4242, roles=REF, locale="en-US", **options)  # a referee
        assert sent[-1].ephemeral and "Head referee" in sent[-1].text, (path, sent[-1].text)
    assert await _count(services) == before
    async with services.sessionmaker() as session:
        case = (await session.execute(select(Sanction))).scalar_one()
    assert case.revoked_at is None and case.appeal_state == "none"


async def test_bot_rul_2_a_player_calls_the_referee_the_role_is_the_one_ping_and_the_first_referee_takes_it(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _published(ch, services)
    threads = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "referee:call:" in str(c.body)]
    assert threads, "every table's thread message carries the call button"
    *_, call = await ch.invoke("referee", user_id=7001, locale="it", tournament="Coppa", note="dubbio sui dadi")
    role = ch.guild.roles["Arbitri"]
    assert (
        not call.ephemeral and f"<@&{role}>" in call.text and "tavolo" in call.text and "dubbio sui dadi" in call.text
    )
    assert call.body["allowed_mentions"] == {"parse": [], "roles": [role]}  # the referee role, nobody else
    claim = next(i for i in ch.custom_ids(call) if i.startswith("referee:claim:"))
    refused = await ch.click(call, claim, user_id=7002, locale="en-US")  # a player cannot take it
    assert refused[-1].ephemeral and "Referee" in refused[-1].text
    taken = await ch.click(call, claim, user_id=4242, roles=REF, locale="it")
    assert "Presa in carico da <@4242>" in taken[-1].text
    late = await ch.click(call, claim, user_id=4343, roles=REF, locale="it")
    assert late[-1].ephemeral and "già stata presa da <@4242>" in late[-1].text


async def test_rr_late_1_the_latecomers_message_lists_each_missing_player_with_an_apply_button(
    ch: ComponentHarness, services: Services, http: HttpRecorder, clock: FakeClock
):
    await prepare(ch, services, 8, preset="ricochet-v3.3")
    organizer = Actor(guild_id=ch.guild.id, user_id=1, is_admin=True)
    await services.rounds.plan(organizer, tournament="Coppa", start=clock.now + timedelta(minutes=2))
    await ch.invoke("round draw", roles=ORG, tournament="Coppa")
    await ch.invoke("round publish", roles=ORG, tournament="Coppa")
    clock.advance(minutes=4)
    *_, message = await ch.invoke("sanctions latecomers", user_id=4242, roles=REF, locale="it", tournament="Coppa")
    assert "Ritardatari" in message.text and message.text.count("ammonizione verbale") == 8
    buttons = [i for i in ch.custom_ids(message) if i.startswith("late:apply:")]
    assert len(buttons) == 8
    applied = await ch.click(message, buttons[0], user_id=4242, roles=REF, locale="it")
    assert applied[-1].ephemeral and "Caso 1" in applied[-1].text
    again = await ch.click(message, buttons[0], user_id=4242, roles=REF, locale="it")
    assert again[-1].ephemeral and "già registrato" in again[-1].text
    refused = await ch.click(message, buttons[1], user_id=7005, locale="en-US")
    assert refused[-1].ephemeral and "Referee" in refused[-1].text
    assert await _count(services) == 1


async def test_bot_san_2_the_proposal_s_menu_and_confirm_work_after_a_restart_and_confirm_once(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    """The proposal is a row: after a restart (the process's views gone) the referee still picks another kind and
    confirms; fifty presses of Confirm write one case, and the others are told its number."""
    await _published(ch, services)
    *_, offer = await ch.invoke(
        "sanction give", user_id=4242, roles=REF, locale="en-US", tournament="Coppa", infraction="pact",
        player="Giocatore 01", cards_in_hand=1,
    )  # fmt: skip
    pick, confirm = ch.custom_ids(offer)
    assert pick.startswith("sanction:pick:") and confirm.startswith("sanction:confirm:")
    ch.bot._connection._view_store._views.clear()  # type: ignore[attr-defined]  # what a restart leaves
    picked = await ch.click(offer, pick, user_id=4242, roles=REF, values=["pass_turn"])
    assert not any(p.ephemeral and p.text for p in picked), picked  # a quiet acknowledgement
    *_, wrong = await ch.click(offer, pick, user_id=4242, roles=REF, values=["standing_points"])  # not ARB's
    assert wrong.ephemeral and "no sanction “standing\\_points”" in wrong.text
    presses = await asyncio.gather(*(ch.click(offer, confirm, user_id=4242, roles=REF) for _ in range(50)))
    assert await _count(services) == 1
    async with services.sessionmaker() as session:
        case = (await session.execute(select(Sanction))).scalar_one()
    assert (case.kind, case.proposed_kind) == ("pass_turn", "verbal_warning")  # the override, kept
    answers = {id(sent): sent for p in presses for sent in p}.values()  # concurrent clicks share the recording
    assert sum("already confirmed as case 1" in sent.text for sent in answers) == 49
    *_, refused = await ch.invoke("sanction give", user_id=5151, locale="en-US", tournament="Coppa",
                                  infraction="pact", player="Giocatore 01")  # fmt: skip
    assert refused.ephemeral and "Referee" in refused.text


async def test_bot_san_2_an_expired_proposal_says_so_and_how_to_ask_again(
    ch: ComponentHarness, services: Services, clock: FakeClock, http: HttpRecorder
):
    await _published(ch, services)
    *_, offer = await ch.invoke("sanction give", user_id=4242, roles=REF, locale="it", tournament="Coppa",
                                infraction="pact", player="Giocatore 01")  # fmt: skip
    clock.advance(hours=13)
    *_, late = await ch.click(offer, ch.custom_ids(offer)[-1], user_id=4242, roles=REF, locale="it")
    assert late.ephemeral and "/sanzione assegna" in late.text
    assert await _count(services) == 0


async def test_bot_san_2_the_sanction_menus_follow_the_tournament_s_overrides(ch: ComponentHarness, services: Services):
    """A tournament whose overrides change a ladder (ARB 9's disturbing: a forced pass first) offers that kind in
    /sanction give's menu and proposes it; its infraction menu is read from its own ruleset (overrides applied); a
    tournament without the override keeps the shipped ladder."""
    await prepare(ch, services, 4)
    overrides = '{"sanctions": {"disturbing": ["forced_pass", "disqualification"]}}'
    sent = await ch.invoke("tournament create", roles=ORG, name="Serale", preset="risiko-ufficiali-2018",
                           overrides=overrides)  # fmt: skip
    assert not sent[-1].ephemeral, sent[-1].text
    offered = await ch.autocomplete("sanction give", "infraction", tournament="Serale", infraction="dist")
    assert [c["value"] for c in offered] == ["disturbing"]
    async with services.sessionmaker() as session, session.begin():
        serale = (await session.execute(select(Tournament).where(Tournament.name == "Serale"))).scalar_one()
        zeta = Registration(guild_id=ch.guild.id, tournament_id=serale.id, user_id=7100, display_name="Zeta",
                            status=RegistrationStatus.VALIDATED.value, registered_at=services.clock())  # fmt: skip
        session.add(zeta)
    *_, offer = await ch.invoke("sanction give", user_id=4242, roles=REF, locale="en-US", tournament="Serale",
                                infraction="disturbing", player="Zeta")  # fmt: skip
    menu = ch.components_of(offer)[0]["components"][0]
    assert "forced_pass" in [o["value"] for o in menu["options"]]
    assert next(o for o in menu["options"] if o.get("default"))["value"] == "forced_pass"
    *_, shipped = await ch.invoke("sanction give", user_id=4242, roles=REF, locale="en-US", tournament="Coppa",
                                  infraction="disturbing", player="Giocatore 01")  # fmt: skip
    assert "forced_pass" not in [o["value"] for o in ch.components_of(shipped)[0]["components"][0]["options"]]
