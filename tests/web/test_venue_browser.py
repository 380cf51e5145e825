"""The venue pages in a real browser: headless Chromium from the system packages, driven by Selenium with
the system's chromedriver (nothing downloaded at run time). What a person reads on the projector and on a phone,
a change published through the services appearing within 2 s without a reload, nothing wider than a 360 px screen,
25 tables on 1920×1080 without scrolling, and user text shown as text. Screenshots go to the test's temporary
folder. Without Chromium, chromedriver or Selenium these tests are skipped, saying which is missing."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.services import Services
from bot.web.app import VenueServer, page_url
from tests.conftest import FakeClock
from tests.support.reports_fixtures import ORGANIZER, REFEREE, build_tournament, player
from tests.support.timing import wall_limit

pytestmark = pytest.mark.browser

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser")) if p), None)
CHROMEDRIVER = shutil.which("chromedriver")
try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    SELENIUM = True
except ImportError:  # pragma: no cover - the dev extra installs it
    SELENIUM = False

    class StaleElementReferenceException(Exception):  # type: ignore[no-redef]
        """Stands in when Selenium is absent (the browser tests are skipped then)."""


MISSING = [
    what for what, ok in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER), ("selenium", SELENIUM)) if not ok
]
if MISSING:
    pytestmark = [
        pytest.mark.browser,
        pytest.mark.skip(reason=f"browser tests need {', '.join(MISSING)} (see .ci/run)"),
    ]

EVIL = '<img src=x onerror="window.pwned=1">'
FIRST = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fabio", "Gino", "Ilaria", "Luca", "Marta"]
CLUBS = ["Lupi di Roma", "Tana del Drago", "Dadi Pesanti", "Club Armata Rossa"]


def field(tables: int) -> dict[int, list[list[str]]]:
    """``tables`` tables of four, with long names, an HTML name and a mention among them."""
    names = [f"{FIRST[i % 10]} {'Bianchi Rossi Verdi'[: 6 + i % 12]} {i}" for i in range(tables * 4)]
    names[7] = EVIL
    names[12] = "@everyone"
    names[4 * (tables - 1)] = "Gino Ultimo"
    return {1: [names[i : i + 4] for i in range(0, len(names), 4)]}


@pytest.fixture
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
                "--force-device-scale-factor=1", "--window-size=1920,1080"):  # fmt: skip
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
async def served(services: Services) -> AsyncIterator[VenueServer]:
    server = VenueServer(services.venue, host="127.0.0.1", port=0)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def in_browser(call: Callable[..., Any], *args: Any) -> Any:
    """Selenium blocks: it runs in a thread while this loop serves the pages."""
    return await asyncio.to_thread(call, *args)


async def until(check: Callable[[], Any], within: float, what: str) -> float:
    """Seconds until ``check()`` (run in the browser's thread) is true; fails after ``within`` seconds."""
    began = time.monotonic()
    while time.monotonic() - began < within:
        try:
            if await in_browser(check):
                return time.monotonic() - began
        except StaleElementReferenceException:  # the page redrew the element between finding and reading it
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"not within {within} s: {what}")


def card_text(driver: Any, number: int) -> str:
    return str(driver.find_element(By.ID, f"table-{number}").text)


OVERFLOW = """
const width = window.innerWidth, height = window.innerHeight, out = [];
for (const node of document.body.querySelectorAll('*')) {
  const r = node.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.right > width + 0.5 || r.left < -0.5) out.push(node.tagName + '.' + node.className + ' ' + r.right);
}
return {out: out.slice(0, 10), scrollWidth: document.documentElement.scrollWidth, width: width,
        scrollHeight: document.documentElement.scrollHeight, height: height};
"""


async def test_the_projector_shows_25_tables_on_one_screen_and_a_pause_within_two_seconds(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path, clock: FakeClock
):
    rounds = field(25)
    clubs = {n: CLUBS[i % 4] for i, n in enumerate(rounds[1][0] + rounds[1][5])}
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=rounds, clubs=clubs)
    await services.clocks.start(REFEREE, tournament=b.name)
    clock.advance(minutes=10, seconds=30)
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    url = page_url(served.base_url, token, "screen") + "?lang=it"
    await in_browser(browser.set_window_size, 1920, 1080)
    await in_browser(browser.get, url)
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".table-card"), 10, "the tables drawn")
    cards = await in_browser(browser.find_elements, By.CSS_SELECTOR, ".table-card")
    assert len(cards) == 25
    first = await in_browser(card_text, browser, 1)
    assert "Tavolo 1" in first and "Anna" in first and "Mancano 1:49:" in first, first
    assert "Lupi di Roma" in first
    last = await in_browser(card_text, browser, 25)
    assert "Tavolo 25" in last and "Gino Ultimo" in last
    second = await in_browser(card_text, browser, 2)
    assert EVIL in second  # the HTML name reads as typed
    assert await in_browser(browser.execute_script, "return window.pwned === undefined")
    assert "@everyone" in await in_browser(card_text, browser, 4)
    geometry = await in_browser(browser.execute_script, OVERFLOW + "")
    assert geometry["scrollHeight"] <= geometry["height"] and geometry["scrollWidth"] <= geometry["width"], geometry
    bottoms = await in_browser(
        browser.execute_script,
        "return Array.from(document.querySelectorAll('.table-card')).map(c => c.getBoundingClientRect().bottom)",
    )
    assert max(bottoms) <= 1080, "a table card is below the screen's edge"
    clipped = await in_browser(
        browser.execute_script,
        "return Array.from(document.querySelectorAll('.table-card')).filter(c => c.scrollHeight > c.clientHeight + 1)"
        ".length",
    )
    assert clipped == 0, "a table card hides a seat"
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-25-tables.png"))

    await services.clocks.pause(REFEREE, tournament=b.name, table=3)
    took = await until(lambda: "In pausa" in card_text(browser, 3), 5, "the pause shown on table 3")
    assert took < wall_limit(2.0), f"the pause took {took:.2f} s to appear"
    assert "Mancano" in await in_browser(card_text, browser, 4)  # the other tables keep counting
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-paused.png"))
    assert (tmp_path / "projector-25-tables.png").stat().st_size > 10_000


async def test_a_phone_finds_its_table_in_one_tap_fits_360_px_and_sees_a_signature_within_two_seconds(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path
):
    rounds = field(6)
    clubs = {n: "Associazione Ludica Strategica del Lungotevere" for n in rounds[1][5]}
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=rounds, clubs=clubs)
    await services.clocks.start(REFEREE, tournament=b.name)
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    await in_browser(browser.set_window_size, 360, 780)
    await in_browser(browser.get, page_url(served.base_url, token) + "?lang=en")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".table-card"), 10, "the tables drawn")
    width = await in_browser(browser.execute_script, "return window.innerWidth")
    assert width <= 400, f"the window is {width} px wide"
    search = await in_browser(browser.find_element, By.ID, "find-input")
    await in_browser(search.send_keys, "ultimo")
    picks = await in_browser(browser.find_elements, By.CSS_SELECTOR, ".pick")
    assert [await in_browser(lambda p=p: p.text) for p in picks] == ["Gino Ultimo"]
    await in_browser(picks[0].click)  # the one tap
    mine = await in_browser(browser.find_element, By.ID, "mine")
    text = await in_browser(lambda: mine.text)
    assert "Your table · Gino Ultimo" in text and "Table 6" in text and "left" in text, text
    assert "Associazione Ludica" in text
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollWidth"] <= geometry["width"], geometry
    await in_browser(browser.save_screenshot, str(tmp_path / "phone-my-table.png"))

    table_id = b.tables[(1, 6)]
    seated = rounds[1][5]
    await services.reports.enter_points(
        REFEREE, table_id, {b.registrations[n]: str(60 - 10 * i) for i, n in enumerate(seated)}
    )
    await services.reports.sign(player(b.users["Gino Ultimo"]), table_id)
    took = await until(lambda: "1/4 signatures" in browser.find_element(By.ID, "mine").text, 5, "the signature")
    assert took < wall_limit(2.0), f"the signature took {took:.2f} s to appear"
    await in_browser(browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="standings"]').click)
    standings = await in_browser(lambda: browser.find_element(By.ID, "main").text)
    assert "Gino Ultimo" in standings and "Points" in standings
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollWidth"] <= geometry["width"], geometry
    await in_browser(browser.save_screenshot, str(tmp_path / "phone-standings.png"))
    assert await in_browser(browser.execute_script, "return window.pwned === undefined")


async def test_a_page_left_open_survives_a_restart_of_the_server(services: Services, browser: Any, tmp_path: Path):
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=field(4))
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    server = VenueServer(services.venue, host="127.0.0.1", port=0)
    await server.start()
    port = server.port
    await in_browser(browser.get, page_url(server.base_url, token, "screen"))
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".table-card"), 10, "the tables drawn")
    await server.stop()  # the bot restarts: the stream drops, the page keeps what it shows
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    await asyncio.sleep(1.0)
    again = VenueServer(services.venue, host="127.0.0.1", port=port)
    await again.start()
    try:
        await until(lambda: "Mancano" in card_text(browser, 1), 15, "the clock started during the restart")
        await in_browser(browser.save_screenshot, str(tmp_path / "after-restart.png"))
    finally:
        await again.stop()


async def test_the_season_is_a_tab_on_the_phone_and_a_panel_of_44_players_on_the_projector(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path
):
    rounds = field(11)  # 44 players: more than the 40 lines of one projector panel
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=rounds)
    await services.seasons.create(ORGANIZER, name="Progetto 2026", tournament=b.name)
    for number, seats in enumerate(rounds[1], start=1):  # every board reported: its first seat wins it
        table_id = b.tables[(1, number)]
        await services.reports.enter_points(
            REFEREE, table_id, {b.registrations[n]: str(60 - 10 * i) for i, n in enumerate(seats)}
        )
        for n in seats:
            await services.reports.sign(player(b.users[n]), table_id)
        await services.reports.countersign(REFEREE, table_id)
    seated = rounds[1][0]  # "Anna Bianch 0" won her board: 12 project points (NP-PTS-1), Bruno second: 9
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token

    await in_browser(browser.set_window_size, 360, 780)
    await in_browser(browser.get, page_url(served.base_url, token) + "?lang=it")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, '.tab[data-tab="season"]'), 10, "the season's tab")
    tab = await in_browser(browser.find_element, By.CSS_SELECTOR, '.tab[data-tab="season"]')
    assert await in_browser(lambda: tab.text) == "Stagione"
    await in_browser(tab.click)
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".season-table"), 5, "the season's ranking")
    row = await in_browser(browser.find_element, By.CSS_SELECTOR, f'.season-table tr[data-player="{seated[0]}"]')
    assert await in_browser(lambda: row.find_element(By.CSS_SELECTOR, ".season-points").text) == "12"
    assert "T1 12" in await in_browser(lambda: row.text)
    second = await in_browser(browser.find_element, By.CSS_SELECTOR, f'.season-table tr[data-player="{seated[1]}"]')
    assert await in_browser(lambda: second.find_element(By.CSS_SELECTOR, ".season-points").text) == "9"
    main = await in_browser(lambda: browser.find_element(By.ID, "main").text)
    assert "Stagione · Progetto 2026" in main and "Totale" in main and EVIL in main
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollWidth"] <= geometry["width"], geometry
    await in_browser(browser.save_screenshot, str(tmp_path / "phone-season.png"))

    await in_browser(browser.set_window_size, 1920, 1080)
    await in_browser(browser.get, page_url(served.base_url, token, "screen") + "?lang=it&only=season")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".season-table"), 10, "the season's panel")
    title = await in_browser(lambda: browser.find_element(By.CSS_SELECTOR, ".panel-title").text)
    assert title == "Stagione · Progetto 2026"
    rows = await in_browser(browser.find_elements, By.CSS_SELECTOR, ".season-table tbody tr")
    assert len(rows) == 40  # one page of the panel: two columns of 20; the other 4 on the next page
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"], geometry
    assert geometry["scrollHeight"] <= geometry["height"] and geometry["scrollWidth"] <= geometry["width"], geometry
    bottoms = await in_browser(
        browser.execute_script,
        "return Array.from(document.querySelectorAll('.season-table tr, .season-legend'))"
        ".map(r => r.getBoundingClientRect().bottom)",
    )
    assert max(bottoms) <= 1080, "a season line is below the screen's edge"
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-season.png"))
    assert await in_browser(browser.execute_script, "return window.pwned === undefined")


async def test_bot_std_1_after_the_final_the_phone_and_the_projector_name_the_winner_first(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path
):
    """TOUR-FIN-1 at the prize-giving: the phone opens on the final classification with the winner on top and reads
    "your place" from it (not the qualifying standings); the projector's first panel is the winner and the final
    places; the final-phase panel names the winner under the final. Nothing wider than 360 px."""
    from tests.services.test_classification_service import final_played
    from tests.support.rounds import ORGANIZER as UFF_ORGANIZER

    _, finish = await final_played(services)
    names = {line.player_id: line.name for line in (await services.standings.compute(111, "Coppa")).lines}
    winner, second = names[finish[0]], names[finish[1]]
    token = (await services.venue.link(UFF_ORGANIZER, tournament="Coppa")).token
    await in_browser(browser.set_window_size, 360, 780)
    await in_browser(browser.get, page_url(served.base_url, token) + "?lang=it")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".champion"), 10, "the winner shown")
    # read in the page itself: the page redraws when its stream's first snapshot follows the first poll's
    active = await in_browser(browser.execute_script, "return document.querySelector('.tab.active').textContent")
    assert active == "Classifica finale"
    main = await in_browser(browser.execute_script, "return document.getElementById('main').innerText")
    assert main.index(winner) < main.index(second) and "Ha vinto il torneo" in main and "Finale: 1° posto" in main
    search = await in_browser(browser.find_element, By.ID, "find-input")
    await in_browser(search.send_keys, second)
    picks = await in_browser(browser.find_elements, By.CSS_SELECTOR, ".pick")
    await in_browser(picks[0].click)
    mine = await in_browser(lambda: browser.find_element(By.ID, "mine").text)
    assert "Classifica finale: 2° posto" in mine, mine
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollWidth"] <= geometry["width"], geometry
    await in_browser(browser.save_screenshot, str(tmp_path / "phone-classification.png"))

    await in_browser(browser.set_window_size, 1920, 1080)
    await in_browser(browser.get, page_url(served.base_url, token, "screen") + "?lang=it&only=classification")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".champion-name"), 10, "the projector's winner")
    assert await in_browser(lambda: browser.find_element(By.CSS_SELECTOR, ".champion-name").text) == winner
    assert await in_browser(lambda: browser.find_element(By.CSS_SELECTOR, ".panel-title").text) == "Classifica finale"
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert geometry["scrollHeight"] <= geometry["height"] and geometry["scrollWidth"] <= geometry["width"], geometry
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-classification.png"))
    await in_browser(browser.get, page_url(served.base_url, token, "screen") + "?lang=it&only=bracket")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".bracket .champion-name"), 10, "the bracket's winner")
    assert await in_browser(lambda: browser.find_element(By.CSS_SELECTOR, ".bracket .champion-name").text) == winner


async def test_a_reported_table_without_a_clock_says_nothing_of_the_clock(
    services: Services, served: VenueServer, browser: Any
):
    """Issue 44: a table whose report is in reads "Clock not started" no more; a table still playing without a
    clock still says so."""
    rounds = {1: [["Anna", "Bruno", "Carla", "Dario"], ["Elio", "Fabio", "Gino", "Ilaria"]]}
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=rounds)
    await services.reports.enter_points(
        REFEREE, b.tables[(1, 1)], {b.registrations[n]: str(60 - 10 * i) for i, n in enumerate(rounds[1][0])}
    )
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    await in_browser(browser.get, page_url(served.base_url, token) + "/screen?lang=en")
    await until(lambda: browser.find_elements(By.ID, "table-2"), 10, "the tables drawn")
    assert "Clock not started" not in card_text(browser, 1) and "Clock not started" in card_text(browser, 2)
    await in_browser(browser.set_window_size, 360, 780)  # the phone, in Italian: the standings' headings whole
    await in_browser(browser.get, page_url(served.base_url, token) + "?lang=it")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, '.tab[data-tab="standings"]'), 10, "the tabs")
    await in_browser(browser.find_element(By.CSS_SELECTOR, '.tab[data-tab="standings"]').click)
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".standings-table th"), 10, "the standings")
    cut = await in_browser(browser.execute_script, """
      return Array.from(document.querySelectorAll('.standings-table th'))
        .filter(th => th.scrollWidth > th.clientWidth + 1 || th.getClientRects().length > 1).map(th => th.textContent);
    """)  # fmt: skip
    assert cut == [], cut
