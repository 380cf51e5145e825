"""/rule through the real command tree (BOT-RUL-1, BOT-I18N-1): the best three articles in the reader's language
with their references, "More" paging from the message itself, a referee posting and pinning the answer in a table's
thread, and refusals as one localised line."""

from __future__ import annotations

from bot.services import Services
from tests.support.cog_rounds import prepare
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

ORG = ("Organizzatori",)
REF = ("Arbitri",)


def _fields(sent) -> list[str]:  # type: ignore[no-untyped-def]
    return [f["name"] for e in sent.data.get("embeds") or [] for f in e.get("fields", [])]


async def test_bot_rul_1_rule_answers_in_the_reader_s_language_and_pages_with_more(ch: ComponentHarness):
    *_, answer = await ch.invoke("rule", locale="it", question="Un dado è caduto per terra, si ritira?",
                                 preset="risiko-ufficiali-2018")  # fmt: skip
    assert answer.ephemeral
    names = _fields(answer)
    assert len(names) == 3 and names[0].startswith("1. ARB 17 — ")
    assert "📖 Regolamento —" in answer.text and "dadi" in answer.text.lower()
    *_, english = await ch.invoke("rule", locale="en-US", question="Un dado è caduto per terra, si ritira?",
                                  preset="risiko-ufficiali-2018")  # fmt: skip
    assert _fields(english)[0].startswith("1. ARB 17 — How dice are rolled")  # the reader's language
    more = ch.custom_ids(english)
    assert more == ["rule:more:3"]
    *_, page = await ch.click(english, "rule:more:3", locale="en-US")
    assert [n.split(".")[0] for n in _fields(page)] == ["4", "5", "6"]


async def test_bot_rul_1_the_tournament_s_preset_is_used_and_a_referee_pins_the_answer_at_a_table(
    ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await prepare(ch, services, 8, preset="risiko-firk-1")
    await ch.invoke("round draw", roles=ORG, tournament="Coppa")
    await ch.invoke("round publish", roles=ORG, tournament="Coppa")
    *_, answer = await ch.invoke("rule", locale="it", question="sono arrivato alle 21:15, posso giocare?")
    assert _fields(answer)[0].startswith("1. FIRK R1 — ")  # the server's open tournament is FIRK
    *_, refused = await ch.invoke("rule", locale="it", question="ritardo", tournament="Coppa", table=1)
    assert refused.ephemeral and "ruolo Arbitro" in refused.text  # only referees post at a table
    *_, posted = await ch.invoke("rule", roles=REF, locale="it", question="ritardo", tournament="Coppa", table=1)
    assert "fissata nel thread del tavolo 1" in posted.text
    (message,) = [c for c in http.of("POST", "/channels/{channel_id}/messages") if c.body.get("embeds")]
    assert message.body["embeds"][0]["fields"][0]["name"].startswith("1. FIRK R1")
    assert message.allowed_mentions == {"parse": []}
    assert http.of("PUT", "/channels/{channel_id}/messages/pins/{message_id}")
    *_, lonely = await ch.invoke("rule", roles=REF, locale="en-US", question="late", table=1)
    assert "name its tournament too" in lonely.text


async def test_bot_rul_1_without_a_tournament_the_desk_asks_which_rulebook(ch: ComponentHarness):
    *_, answer = await ch.invoke("rule", locale="en-US", question="who rolls in the dice-off?")
    assert answer.ephemeral and "Which rulebook?" in answer.text
