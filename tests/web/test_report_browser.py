"""The table's report page on four phones (issue 42): headless Chromium from the system packages at 360×740 with
touch, driven by Selenium. Four players, each on their own browser session, enter a full Nostra Passione final
situation by taps alone (a colour, the territories, the armies on the keypad, their objective); the four phones
see each other's taps live; one submits; the report's points equal ``steward risiko score`` run on the same
situation. Two phones tapping one territory converge on the last write; a closed round's page says "closed" and a
wrong link is a 404. The taps are counted (the issue's goal: under 120 for a 42-territory end of game); the
count and a screenshot go to the test's folder (``REPORT_PAGE_SHOTS=<dir>`` copies the screenshot there: the one
``docs/tournament-day.md`` shows). Without Chromium, chromedriver or Selenium these tests are skipped."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from bot.db.models import Round, RoundStatus
from bot.rules.risiko.board import standard_board
from bot.services import Services
from bot.services.report_page import page_token
from bot.web.app import VenueServer
from tests.services.test_report_page import NP, round_id, venue_token
from tests.support.reports_fixtures import build_tournament, results_of
from tests.web.report_situations import situation_document, typical_end
from tests.web.test_venue_browser import CHROMEDRIVER, CHROMIUM, MISSING, OVERFLOW

pytestmark = pytest.mark.browser
try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # pragma: no cover - the dev extra installs it
    pass
if MISSING:
    pytestmark = [pytest.mark.browser, pytest.mark.skip(reason=f"browser tests need {', '.join(MISSING)}")]

NAMES = ["Anna Bianchi", "Bruno Rossi", "Carla Verdi", "Dario Neri"]
EVIL = '<img src=x onerror="window.pwned=1">'
PHONE = {"width": 360, "height": 740, "pixelRatio": 1, "touch": True}


def phone() -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture
def phones() -> Iterator[list[Any]]:
    made: list[Any] = []
    try:
        for _ in range(4):
            made.append(phone())
        yield made
    finally:
        for driver in made:
            driver.quit()


@pytest.fixture
async def served(services: Services) -> AsyncIterator[VenueServer]:
    server = VenueServer(services.venue, host="127.0.0.1", port=0)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def table_page(services: Services, server: VenueServer, names: list[str] = NAMES) -> tuple[Any, str]:
    b = await build_tournament(services, preset=NP, rounds={1: [names]})
    table_id = b.tables[(1, 1)]
    token = page_token(await venue_token(services, b.tournament_id), table_id, await round_id(services, table_id))
    return b, f"{server.base_url}/r/{token}"


async def until(check: Callable[[], Any], within: float, what: str) -> float:
    began = time.monotonic()
    while time.monotonic() - began < within:
        try:
            if await asyncio.to_thread(check):
                return time.monotonic() - began
        except StaleElementReferenceException:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"not within {within} s: {what}")


class Taps:
    """A player's thumb: every tap is a click on one element, counted."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.count = 0

    def tap(self, element_id: str) -> None:
        for _ in range(50):  # the page redraws: the element may be replaced between finding and tapping it
            try:
                self.driver.find_element(By.ID, element_id).click()
                self.count += 1
                return
            except StaleElementReferenceException:
                time.sleep(0.02)
        raise AssertionError(f"could not tap {element_id}")

    def choose(self, element_id: str, text: str) -> None:
        """A select: one tap opens it, one picks the option."""
        Select(self.driver.find_element(By.ID, element_id)).select_by_visible_text(text)
        self.count += 2


def enter_my_territories(taps: Taps, seat: int) -> None:
    """Continent by continent (one tap zooms the map there), this seat's territories: a tap each, then the armies'
    digits (a territory with one army needs none: a tap gives it one)."""
    held, objectives = typical_end()
    board = standard_board()
    index = {name: i for i, name in enumerate(board.territories)}
    taps.tap(f"brush-{seat}")
    for c, continent in enumerate(board.continents):
        mine = [t for t in continent.territories if held[t][0] == seat]
        if not mine:
            continue
        taps.tap(f"zoom-{c}")
        for name in mine:
            taps.tap(f"t-{index[name]}")
            armies = held[name][1]
            if armies != 1:
                for digit in str(armies):
                    taps.tap(f"pad-{digit}")
    taps.choose(f"objective-{seat}", objectives[seat])


def painted(driver: Any) -> dict[str, tuple[int, int]]:
    """What a phone shows: each territory's owner and armies, read from the server's draft it drew."""
    state = driver.execute_script(
        "return fetch(location.pathname + '/state').then(r => r.json()).then(s => s.draft.territories)"
    )
    return {name: (v["seat"], v["armies"]) for name, v in state.items()}


PHONE_STATE = """
const text = (id) => { const n = document.getElementById(id); return n ? n.textContent.trim().slice(0, 200) : null; };
const submit = document.getElementById("submit");
return {version: document.body.dataset.version, submit: submit ? !submit.disabled : null, message: text("message"),
        status: text("status"), banner: text("banner"),
        summary: Array.from(document.querySelectorAll(".summary")).map(n => n.textContent.trim()).join(" | ")};
"""


def shown_version(driver: Any) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") or 0)


async def test_issue_42_four_phones_enter_a_final_situation_by_taps_and_it_scores_as_steward_risiko_score(
    services: Services, served: VenueServer, phones: list[Any], tmp_path: Path
):
    b, url = await table_page(services, served)
    for driver in phones:
        await asyncio.to_thread(driver.get, url + "?lang=it")
    await until(lambda: all(d.find_elements(By.ID, "brush-3") for d in phones), 15, "the four pages drawn")
    taps = [Taps(d) for d in phones]
    began = time.monotonic()
    await asyncio.gather(*(asyncio.to_thread(enter_my_territories, taps[s], s) for s in range(4)))
    entering = time.monotonic() - began
    held, _ = typical_end()
    expected = {name: value for name, value in held.items()}

    def everyone_sees_everything() -> bool:
        return all(
            d.find_element(By.ID, "submit").is_enabled() and shown_version(d) == shown_version(phones[0])
            for d in phones
        )

    try:
        await until(everyone_sees_everything, 20, "every phone shows the whole situation, ready to submit")
    except AssertionError as exc:  # once in CI (not reproduced in 12 runs here): say what each phone showed
        seen = [await asyncio.to_thread(driver.execute_script, PHONE_STATE) for driver in phones]
        raise AssertionError(f"{exc}; entering took {entering:.1f} s; the phones showed {seen}") from None
    assert await asyncio.to_thread(painted, phones[2]) == expected
    for driver in phones:  # nothing wider than the phone
        found = await asyncio.to_thread(driver.execute_script, OVERFLOW)
        assert found["scrollWidth"] <= found["width"], found["out"]
    shot = tmp_path / "report-page.png"
    await asyncio.to_thread(phones[0].execute_script, "window.scrollTo(0, 0)")
    await asyncio.to_thread(phones[0].save_screenshot, str(shot))
    if os.environ.get("REPORT_PAGE_SHOTS"):
        shutil.copy(shot, Path(os.environ["REPORT_PAGE_SHOTS"]) / "report-page.png")
    submit = Taps(phones[1])
    await asyncio.to_thread(submit.tap, "submit")
    await until(lambda: "Discord" in phones[3].find_element(By.ID, "banner").text, 15, "the entered banner")

    document = situation_document(NAMES)
    document["preset"] = NP
    source = tmp_path / "situation.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    steward = [sys.executable, "-c", "from bot.cli import main; main()"]  # the `steward` console script's entry
    cli = await asyncio.to_thread(subprocess.run, [*steward, "risiko", "score", "--input", str(source), "--json"],
                                  capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    scored = {p["name"]: p for p in json.loads(cli.stdout)["players"]}
    rows = {r.registration_id: r for r in await results_of(services, b.tables[(1, 1)])}
    for name in NAMES:
        row = rows[b.registrations[name]]
        assert (row.table_points, row.table_rank) == (scored[name]["table_points"], scored[name]["rank"]), name
    total = sum(t.count for t in taps) + submit.count
    (tmp_path / "taps.txt").write_text(f"{total} taps ({[t.count for t in taps]} + submit), {entering:.1f} s\n")
    print(f"report page: {total} taps by four phones for 42 territories, objectives and submit")
    assert total < 120, total


async def test_issue_42_two_phones_tapping_one_territory_converge(
    services: Services, served: VenueServer, phones: list[Any]
):
    _, url = await table_page(services, served, names=[EVIL, "@everyone", "Carla Verdi", "Dario Neri"])
    a, b = phones[0], phones[1]
    for driver in (a, b):
        await asyncio.to_thread(driver.get, url)
    await until(lambda: a.find_elements(By.ID, "brush-2") and b.find_elements(By.ID, "brush-2"), 15, "drawn")
    card = await asyncio.to_thread(lambda: a.find_element(By.ID, "seat-0").text)
    assert EVIL in card  # a name is text, shown as typed
    assert await asyncio.to_thread(a.execute_script, "return window.pwned === undefined")
    ta, tb = Taps(a), Taps(b)
    index = standard_board().territories.index("Brasile")
    for taps, seat in ((ta, 0), (tb, 2)):
        await asyncio.to_thread(taps.tap, f"brush-{seat}")
        await asyncio.to_thread(taps.tap, "zoom-1")
    await asyncio.gather(asyncio.to_thread(ta.tap, f"t-{index}"), asyncio.to_thread(tb.tap, f"t-{index}"))
    await asyncio.to_thread(tb.tap, "pad-7")

    def same() -> bool:
        fills = {d.find_element(By.ID, f"t-{index}").get_attribute("data-seat") for d in (a, b)}
        return len(fills) == 1 and shown_version(a) == shown_version(b)

    await until(same, 10, "both phones show one owner")
    seen_a, seen_b = await asyncio.to_thread(painted, a), await asyncio.to_thread(painted, b)
    assert seen_a["Brasile"] == seen_b["Brasile"] and seen_a["Brasile"][0] in (0, 2)


async def test_issue_42_a_closed_round_s_page_says_closed_and_a_wrong_link_is_404(
    services: Services, served: VenueServer, phones: list[Any]
):
    b, url = await table_page(services, served)
    driver = phones[0]
    await asyncio.to_thread(driver.get, url + "?lang=en")
    await until(lambda: driver.find_elements(By.ID, "brush-0"), 15, "drawn")
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(Round).where(Round.tournament_id == b.tournament_id).values(
            status=RoundStatus.CLOSED.value))  # fmt: skip
    await until(lambda: "closed" in driver.find_element(By.ID, "banner").text, 30, "the open page learns it")
    await asyncio.to_thread(driver.get, url + "?lang=en")
    assert "closed" in await asyncio.to_thread(lambda: driver.find_element(By.TAG_NAME, "body").text)
    table_id = url.rsplit("/", 1)[1].split("-")[0]
    await asyncio.to_thread(driver.get, f"{served.base_url}/r/{table_id}-{'Q' * 22}")
    assert "404" in await asyncio.to_thread(lambda: driver.find_element(By.TAG_NAME, "body").text)


async def test_issue_44_taps_refused_as_too_fast_are_sent_again_not_lost(
    services: Services, served: VenueServer, phones: list[Any]
):
    """A table's phones share a budget of requests (a burst, then 20 a second); a tap past it is answered 429 with
    Retry-After. The page keeps such edits and sends them again when told — before, it dropped them, and the
    situation could never be completed (the four-phone test failed once in CI so). Here the budget is cut to a
    burst of 3 and 2 a second, and one phone enters its whole part as fast as Selenium taps."""
    from bot.web.report import RATES

    _, url = await table_page(services, served)
    driver = phones[0]
    await asyncio.to_thread(driver.get, url + "?lang=it")
    await until(lambda: driver.find_elements(By.ID, "brush-0"), 15, "the page drawn")
    rates = served.app[RATES]
    rates.rate, rates.burst, rates._tokens = 2.0, 3.0, {}
    await asyncio.to_thread(enter_my_territories, Taps(driver), 0)
    held, _ = typical_end()
    mine = {name: value for name, value in held.items() if value[0] == 0}

    def landed() -> bool:
        shown = painted(driver)
        return all(shown.get(name) == value for name, value in mine.items())

    refused = rates.refused
    rates.rate, rates.burst, rates._tokens = 1000.0, 1000.0, {}  # the checks' own reads are not what is measured
    await until(landed, 60, "every edit on the server despite the 429s")
    assert refused > 0, "the budget never refused a tap: the test proves nothing"
