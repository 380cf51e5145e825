"""ISSUE-40.1 in a real browser — past the live streams' cap the page falls back to polling, politely.

The server takes one stream and a client holds it; the projector's page then gets ``503`` for its stream, keeps
showing the tournament from ``/data``, shows a change made meanwhile (which only a poll can have brought), and
takes a stream again once one is free. Headless Chromium as in ``test_venue_browser.py`` (skipped without it)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.services import Services
from bot.web.app import VenueServer, page_url
from bot.web.limits import WebLimits
from tests.support.reports_fixtures import ORGANIZER, REFEREE, build_tournament
from tests.web import test_venue_browser as venue_browser
from tests.web.test_venue_browser import card_text, field, in_browser, until

pytestmark = venue_browser.pytestmark  # skipped, saying why, without Chromium, chromedriver or Selenium
browser = venue_browser.browser  # the headless Chromium fixture

By: Any
try:
    from selenium.webdriver.common.by import By
except ImportError:  # pragma: no cover - the module is skipped then (pytestmark)
    By = None


async def test_issue_40_1_past_the_streams_cap_the_page_polls_shows_changes_and_streams_again_when_free(
    services: Services, browser: Any
):
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=field(4))
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    server = VenueServer(services.venue, host="127.0.0.1", port=0, limits=replace(WebLimits(), max_streams=1))
    await server.start()
    reader, writer = await asyncio.open_connection(server.host, server.port)
    try:
        writer.write(f"GET /v/{token}/events HTTP/1.1\r\nHost: venue\r\n\r\n".encode())
        assert (await asyncio.wait_for(reader.readline(), 30)).startswith(b"HTTP/1.1 200")  # the one stream

        await in_browser(browser.get, page_url(server.base_url, token, "screen") + "?lang=it")
        await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".table-card"), 15, "the tables drawn")
        await until(lambda: server.streams.refused >= 1, 30, "the page's stream refused")
        await services.clocks.start(REFEREE, tournament=b.name, table=1)
        await until(lambda: "Mancano" in card_text(browser, 1), 60, "the change brought by a poll")
        assert server.streams.open == 1  # the page never had a stream: the poll brought it
        status = await in_browser(lambda: browser.find_element(By.ID, "status").get_attribute("class"))
        assert "live" in status, status

        writer.transport.abort()  # the stream is free again: the page takes it at its next try
        await until(lambda: server.streams.open == 1, 120, "the page streams again")
        await services.clocks.pause(REFEREE, tournament=b.name, table=1)
        await until(lambda: "In pausa" in card_text(browser, 1), 30, "a change brought by the stream")
    finally:
        writer.transport.abort()
        await server.stop()
