"""The report page in Discord (issue 42), through the real command tree: each table's thread message carries the
**Referto dal telefono** link button when the bot serves its pages; `/report page` gives a seated player the link
privately and refuses a member who is not at the table; a report the page enters is posted in the table's thread
with the sign buttons, pinging the players who must sign."""

from __future__ import annotations

import re

import pytest

from bot.app import StewardBot
from bot.db.models import GameTable, Round, Seat
from bot.rules.risiko.situation_draft import SituationDraft, apply_edit
from bot.services import Services
from tests.cogs.test_desk_cogs import _published
from tests.support.helpers_components import ComponentHarness
from tests.support.helpers_http import HttpRecorder

BASE = "https://steward.example"
LINK = re.compile(re.escape(BASE) + r"/r/([0-9]+-[A-Za-z0-9_-]{22})")


@pytest.fixture
def serving(bot: StewardBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.settings, "web_port", 8080)
    monkeypatch.setattr(bot.settings, "web_base_url", BASE)


async def test_issue_42_every_table_s_thread_message_links_its_report_page(
    serving: None, ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _published(ch, services)
    thread_messages = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "referee:call:" in str(c.body)]
    assert len(thread_messages) == 2  # 8 players: two tables
    tokens = []
    for call in thread_messages:
        buttons = [b for row in call.body["components"] for b in row["components"]]
        (link,) = [b for b in buttons if b.get("url")]
        assert link["label"] == "Referto dal telefono" and link["style"] == 5
        tokens.append(LINK.fullmatch(link["url"]).group(1))  # type: ignore[union-attr]
    pages = [await services.report_pages.open(token) for token in tokens]
    assert sorted(p.table_number for p in pages if p is not None) == [1, 2]


async def test_issue_42_report_page_gives_a_seated_player_the_link_and_refuses_a_member(
    serving: None, ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _published(ch, services)
    seated = await seated_users(services, table=1)
    *_, reply = await ch.invoke("report page", user_id=seated[0], locale="it", tournament="Coppa", table=1)
    assert reply.ephemeral and LINK.search(reply.text) and "Tavolo 1" in reply.text
    *_, refused = await ch.invoke("report page", user_id=6001, locale="it", tournament="Coppa", table=1)
    assert refused.ephemeral and not LINK.search(refused.text)


async def test_issue_42_a_report_the_page_enters_is_posted_in_the_thread_to_sign(
    serving: None, ch: ComponentHarness, services: Services, http: HttpRecorder
):
    await _published(ch, services)
    thread_messages = [c for c in http.of("POST", "/channels/{channel_id}/messages") if "referee:call:" in str(c.body)]
    link = next(b["url"] for row in thread_messages[0].body["components"] for b in row["components"] if b.get("url"))
    page = await services.report_pages.open(LINK.fullmatch(link).group(1))  # type: ignore[union-attr]
    assert page is not None and page.thread_id is not None
    draft = SituationDraft()
    for seat in range(len(page.seats)):
        draft = apply_edit(draft, {"t": "points", "seat": seat, "value": str(40 - 7 * seat)}, board=None,  # type: ignore[arg-type]
                           seats=len(page.seats), rules=page.risiko)  # fmt: skip
    before = len(http.calls)
    await services.report_pages.submit(page, draft, "points")
    posted = [c for c in http.calls[before:] if c.method == "POST" and str(page.thread_id) in c.path]
    assert len(posted) == 1
    body = posted[0].body
    assert "report:sign:" in str(body["components"]) and body["embeds"]
    assert all(f"<@{u}>" in body["content"] for u in await seated_users(services, table=page.table_number))
    assert set(body["allowed_mentions"].get("parse", [])) <= {"users"}  # the players, never @everyone or a role


async def seated_users(services: Services, *, table: int) -> list[int]:
    from sqlalchemy import select

    from bot.db.models import Registration

    async with services.sessionmaker() as session:
        rows = await session.execute(
            select(Registration.user_id)
            .join(Seat, Seat.registration_id == Registration.id)
            .join(GameTable, GameTable.id == Seat.table_id)
            .join(Round, Round.id == GameTable.round_id)
            .where(GameTable.number == table, Round.number == 1)
            .order_by(Seat.position)
        )
        return [int(u) for u in rows.scalars().all()]
