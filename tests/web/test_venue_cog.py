"""/venue link and /venue revoke through the real command tree: the link is posted where the command was
given when the pages are served, a private "off" line when they are not; revoke posts a new one."""

from __future__ import annotations

import re

from bot.app import StewardBot
from bot.services import Services
from bot.settings import Settings
from tests.support.helpers import Harness
from tests.support.venue import venue_snapshot

ORG = ("Organizzatori",)


async def setup_server(harness: Harness) -> None:
    await harness.invoke("setup roles", admin=True, locale="it", organizer=harness.role("Organizzatori"),
                         referee=harness.role("Arbitri"), head_referee=harness.role("Capo arbitro"))  # fmt: skip
    await harness.invoke("tournament create", roles=ORG, name="Coppa @everyone", preset="risiko-firk-1")


async def test_venue_link_posts_the_page_and_revoke_replaces_it(
    bot: StewardBot, harness: Harness, services: Services, database_url: str
):
    await setup_server(harness)
    off = await harness.invoke("venue link", roles=ORG, tournament="Coppa @everyone")
    assert off[-1].ephemeral and "spenta" in off[-1].text  # the server's language: Italian
    bot.settings = Settings(database_url=database_url, web_port=8123, web_base_url="https://steward.club.it/")
    sent = await harness.invoke("venue link", roles=ORG, tournament="Coppa @everyone")
    assert not sent[-1].ephemeral
    urls = re.findall(r"https://steward\.club\.it/v/([\w-]+)(/screen)?", sent[-1].text)
    assert len(urls) == 2 and urls[0][0] == urls[1][0] and urls[1][1] == "/screen"
    token = urls[0][0]
    assert len(token) >= 32 and await venue_snapshot(services, token) is not None
    assert "@everyone" not in sent[-1].text.replace("@\u200beveryone", "")  # the name cannot ping
    revoked = await harness.invoke("venue revoke", roles=ORG, tournament="Coppa @everyone")
    new = re.findall(r"https://steward\.club\.it/v/([\w-]+)", revoked[-1].text)[0]
    assert new != token and await venue_snapshot(services, token) is None
    refused = await harness.invoke("venue link", tournament="Coppa @everyone")  # a plain member
    assert refused[-1].ephemeral and "steward.club.it" not in refused[-1].text
