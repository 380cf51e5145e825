"""Issue 44, the venue screen at the prize-giving: the projector view scales its content to fill 1920×1080 — one
table (the final) in large type across the screen, 25 tables all visible with nothing cut — and the column headings
are never broken inside a word, on the projector nor on a 360 px phone. Real Chromium (see
``test_venue_browser.py``).

The screenshots in the docs come from here: ``VENUE_SHOTS=docs nice -n 19 python -m pytest -p no:cacheprovider
tests/web/test_venue_issue44_browser.py`` writes ``docs/venue-projector.png`` (12 tables, 1280×720),
``docs/venue-projector-1.png`` (the final, 1920×1080) and ``docs/venue-projector-25.png`` (25 tables, 1920×1080)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from bot.db.models import Round, RoundKind
from bot.services import Services
from bot.web.app import VenueServer, page_url
from tests.conftest import FakeClock
from tests.support.reports_fixtures import ORGANIZER, REFEREE, Built, build_tournament, player
from tests.web import test_venue_browser as venue_browser
from tests.web.test_venue_browser import OVERFLOW, in_browser, until

try:
    from selenium.webdriver.common.by import By
except ImportError:  # pragma: no cover - the browser tests are skipped then
    By = None  # type: ignore[assignment,misc]

pytestmark = venue_browser.pytestmark  # browser tests, skipped (saying why) without Chromium or chromedriver
browser = venue_browser.browser  # the headless Chromium
served = venue_browser.served  # the venue server on a free port

REPO = Path(__file__).resolve().parents[2]
FIRST = ("Paola", "Sara", "Carla", "Dario", "Federica", "Chiara", "Bruno", "Tommaso", "Luca", "Elena", "Davide",
         "Andrea", "Giorgio", "Valeria", "Nicola", "Fabio", "Riccardo", "Lorenzo", "Monica", "Pietro", "Ilaria",
         "Marta", "Niccolò", "Zoë", "Gianluca")  # fmt: skip
LAST = ("Romano", "Bianchi", "Lombardi", "Conti", "Ricci", "Ferrari", "Mancini", "Marino", "Esposito", "Moretti",
        "Colombo", "Gallo", "Barbieri", "Giordano", "Costa", "Rizzo", "De Luca", "Santoro", "Fontana",
        "Caruso")  # fmt: skip
CLUBS = ("Dadi Pesanti", "Armata Rossa Bologna", "Lupi di Roma", "Tana del Drago", "RisiKo! Club Napoli")


def people(count: int, seed: int = 44) -> list[str]:
    """``count`` different first name + surname pairs, always the same ones."""
    rng = random.Random(seed)
    pairs = [f"{f} {s}" for f in FIRST for s in LAST]
    rng.shuffle(pairs)
    return pairs[:count]


async def evening(services: Services, clock: FakeClock, tables: int, *, name: str, final: bool = False) -> Built:
    """A round of ``tables`` tables of four as an evening looks at its middle: the clocks running, a few reports
    entered, signed or countersigned, one table paused (``final``: the one table is the final, still playing)."""
    names = people(tables * 4)
    rng = random.Random(tables)
    rounds = {1: [names[i : i + 4] for i in range(0, len(names), 4)]}
    clubs = {n: CLUBS[rng.randrange(len(CLUBS))] for n in names}
    b = await build_tournament(services, name=name, preset="risiko-nostra-passione-2018", rounds=rounds, clubs=clubs)
    if final:
        async with services.sessionmaker() as session, session.begin():
            await session.execute(update(Round).where(Round.tournament_id == b.tournament_id)
                                  .values(kind=RoundKind.FINAL.value))  # fmt: skip
    await services.clocks.start(REFEREE, tournament=b.name)
    clock.advance(minutes=71, seconds=14)
    for number in range(2, tables + 1, 3):  # every third table has a report in, in its three states
        seated = rounds[1][number - 1]
        table_id = b.tables[(1, number)]
        await services.reports.enter_points(
            REFEREE, table_id, {b.registrations[n]: str(70 - 13 * i) for i, n in enumerate(seated)}
        )
        state = (number // 3) % 3
        for n in seated[: 2 if state == 0 else 4]:
            await services.reports.sign(player(b.users[n]), table_id)
        if state == 2:
            await services.reports.countersign(REFEREE, table_id)
    if tables >= 9:
        await services.clocks.pause(REFEREE, tournament=b.name, table=9)
    return b


FONT = "return parseFloat(getComputedStyle(document.querySelector('.seat-name')).fontSize)"
AREA = """
const rects = Array.from(document.querySelectorAll('.table-head, .seat, .recovery'))
  .map(n => n.getBoundingClientRect());
const top = Math.min(...rects.map(r => r.top)), bottom = Math.max(...rects.map(r => r.bottom));
const ink = Array.from(document.querySelectorAll(
  '.seat-name, .seat-club, .seat-result, .table-number, .clock, .report')).map(n => n.getBoundingClientRect());
const right = Math.max(...ink.map(r => r.right)), left = Math.min(...ink.map(r => r.left));
return {height: (bottom - top) / innerHeight, width: (right - left) / innerWidth};
"""
TAP_STANDINGS = "document.querySelector('.tab[data-tab=\"standings\"]').click(); return true"
HEADINGS = "return Array.from(document.querySelectorAll('th')).map(th => th.textContent)"
CUT = """
return Array.from(document.querySelectorAll('.seat-name, .table-number, th')).filter(n =>
  n.scrollWidth > n.clientWidth + 1 || n.getClientRects().length > 1).map(n => n.textContent);
"""


def keep(shot: Path, name: str) -> None:
    """With ``VENUE_SHOTS=docs``: the screenshot into the docs, as a palette PNG (what the README shows)."""
    if os.environ.get("VENUE_SHOTS") != "docs":
        return
    from PIL import Image

    with Image.open(shot) as image:
        image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(REPO / "docs" / name,
                                                                                       optimize=True)  # fmt: skip


async def viewport(browser: Any, width: int, height: int) -> None:
    """The page's own area ``width``×``height`` (the window is that plus the browser's frame)."""
    await in_browser(browser.set_window_size, width, height)
    inner = await in_browser(browser.execute_script, "return [innerWidth, innerHeight]")
    await in_browser(browser.set_window_size, 2 * width - inner[0], 2 * height - inner[1])


async def open_screen(browser: Any, url: str, width: int, height: int) -> None:
    await viewport(browser, width, height)
    await in_browser(browser.get, url)
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".table-card"), 10, "the tables drawn")
    await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".panel-body.fitted"), 10, "the panel fitted")


async def test_issue_44_the_projector_fills_the_screen_with_one_table_and_with_25(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path, clock: FakeClock
):
    """Issue 44 (scale to fill): the final alone fills most of 1920×1080 in large type; 25 tables are all on the
    screen, none cut, nothing wider than the screen, and their type is much smaller than the final's."""
    one = await evening(services, clock, 1, name="Coppa d'Autunno 2026", final=True)
    token = (await services.venue.link(ORGANIZER, tournament=one.name)).token
    await open_screen(browser, page_url(served.base_url, token, "screen") + "?lang=it&only=tables", 1920, 1080)
    text = await in_browser(lambda: browser.find_element(By.ID, "main").text)
    assert "Tavolo 1" in text and "Mancano" in text
    big = await in_browser(browser.execute_script, FONT)
    area = await in_browser(browser.execute_script, AREA)
    assert area["height"] >= 0.6 and area["width"] >= 0.6, area
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollHeight"] <= geometry["height"], geometry
    assert await in_browser(browser.execute_script, CUT) == []
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-1.png"))
    keep(tmp_path / "projector-1.png", "venue-projector-1.png")

    many = await evening(services, clock, 25, name="Torneo del Giovedì")
    token = (await services.venue.link(ORGANIZER, tournament=many.name)).token
    await open_screen(browser, page_url(served.base_url, token, "screen") + "?lang=it&only=tables", 1920, 1080)
    cards = await in_browser(browser.find_elements, By.CSS_SELECTOR, ".table-card")
    assert len(cards) == 25
    small = await in_browser(browser.execute_script, FONT)
    assert big >= 3 * small, (big, small)
    assert small >= 14, small  # still readable from the back of the room
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"], geometry
    assert geometry["scrollHeight"] <= geometry["height"] and geometry["scrollWidth"] <= geometry["width"], geometry
    hidden = await in_browser(browser.execute_script, """
      return Array.from(document.querySelectorAll('.table-card')).filter(c => {
        const r = c.getBoundingClientRect();
        return r.bottom > innerHeight || r.right > innerWidth || c.scrollHeight > c.clientHeight + 1;
      }).map(c => c.id);
    """)  # fmt: skip
    assert hidden == [], hidden
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-25.png"))
    keep(tmp_path / "projector-25.png", "venue-projector-25.png")


async def test_issue_44_twelve_tables_on_a_1280_projector_for_the_readme(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path, clock: FakeClock
):
    """The README's projector picture (12 tables at 1280×720), drawn by the page it shows: every table whole."""
    b = await evening(services, clock, 12, name="Coppa d'Autunno 2026")
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    await open_screen(browser, page_url(served.base_url, token, "screen") + "?lang=it&only=tables", 1280, 720)
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollHeight"] <= geometry["height"], geometry
    assert await in_browser(browser.execute_script, CUT) == []
    await in_browser(browser.save_screenshot, str(tmp_path / "projector-12.png"))
    keep(tmp_path / "projector-12.png", "venue-projector.png")


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_issue_44_no_heading_is_broken_inside_a_word_on_the_projector_or_a_phone(
    services: Services, served: VenueServer, browser: Any, clock: FakeClock, lang: str, tmp_path: Path
):
    """Issue 44 ("Gam/es", "Parti/te"): the standings' headings whole at 1920×1080 and at 360 px."""
    b = await evening(services, clock, 6, name="Coppa d'Autunno 2026")
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    for width, height, view in ((1920, 1080, "screen"), (360, 780, "")):
        await viewport(browser, width, height)
        url = page_url(served.base_url, token, view) + f"?lang={lang}" + ("&only=standings" if view else "")
        await in_browser(browser.get, url)
        if not view:
            await until(lambda: browser.find_elements(By.CSS_SELECTOR, '.tab[data-tab="standings"]'), 10, "the tabs")

            # a click in the page itself: the page may redraw its tabs between finding one and clicking it
            def tapped() -> Any:
                return browser.execute_script(TAP_STANDINGS) and browser.find_elements(By.CSS_SELECTOR, "table")

            await until(tapped, 10, "the standings' tab")
        await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".standings-table th"), 10, "the standings")
        headings = await in_browser(browser.execute_script, HEADINGS)
        assert ("Partite" if lang == "it" else "Games") in headings, headings
        assert await in_browser(browser.execute_script, CUT) == [], (width, lang)
        await in_browser(browser.save_screenshot, str(tmp_path / f"standings-{width}.png"))


async def test_issue_44_75_tables_page_by_25_each_page_fitted(
    services: Services, served: VenueServer, browser: Any, clock: FakeClock
):
    """75 tables: the projector's tables panel shows 25 at a time (the panels cycle), each page fitted as 25 are."""
    b = await evening(services, clock, 75, name="Open di Primavera")
    token = (await services.venue.link(ORGANIZER, tournament=b.name)).token
    await open_screen(browser, page_url(served.base_url, token, "screen") + "?lang=it&only=tables", 1920, 1080)
    cards = await in_browser(browser.execute_script,
                             "return Array.from(document.querySelectorAll('.table-card')).map(c => c.id)")  # fmt: skip
    assert cards == [f"table-{n}" for n in range(1, 26)]
    assert await in_browser(browser.execute_script, FONT) >= 14
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollHeight"] <= geometry["height"], geometry


async def test_issue_44_after_the_final_the_projector_names_who_won_in_large_type(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path
):
    """Issue 44 (the prize-giving): after the final the projector names who won the tournament — "Ha vinto il
    torneo", no gendered title after the name — above the final places, and the final-phase panel names them under
    the final; both fill the screen without cutting a name."""
    from tests.services.test_classification_service import final_played
    from tests.support.rounds import ORGANIZER as UFF_ORGANIZER

    _, finish = await final_played(services)
    names = {line.player_id: line.name for line in (await services.standings.compute(111, "Coppa")).lines}
    token = (await services.venue.link(UFF_ORGANIZER, tournament="Coppa")).token
    for only in ("classification", "bracket"):
        await viewport(browser, 1920, 1080)
        await in_browser(browser.get, page_url(served.base_url, token, "screen") + f"?lang=it&only={only}")
        await until(lambda: browser.find_elements(By.CSS_SELECTOR, ".panel-body.fitted .champion-name"), 10, only)
        champion = await in_browser(lambda: browser.find_element(By.CSS_SELECTOR, ".champion").text)
        assert champion.splitlines() == ["★", "Ha vinto il torneo", names[finish[0]]], champion
        assert not any(word in champion.lower() for word in ("campion", "vincit"))
        geometry = await in_browser(browser.execute_script, OVERFLOW)
        assert not geometry["out"] and geometry["scrollHeight"] <= geometry["height"], geometry
        assert await in_browser(browser.execute_script, CUT) == [], only
        await in_browser(browser.save_screenshot, str(tmp_path / f"projector-{only}.png"))


@pytest.mark.parametrize(("width", "height"), [(360, 780), (1920, 1080)])
async def test_issue_44_a_wrong_link_shows_a_small_page_that_says_what_to_do(
    services: Services, served: VenueServer, browser: Any, tmp_path: Path, width: int, height: int
):
    """Issue 44: a wrong or revoked link is a page with the venue page's look, not a bare "404: Not Found"."""
    await viewport(browser, width, height)
    await in_browser(browser.get, f"{served.base_url}/v/{'x' * 32}/screen?lang=it")
    text = await in_browser(lambda: browser.find_element(By.TAG_NAME, "body").text)
    assert text.splitlines() == [
        "Pagina non trovata",
        "Questo link è sbagliato, oppure è stato sostituito da uno nuovo.",
        "Chiedi agli organizzatori il nuovo link del torneo.",
    ], text
    styled = await in_browser(browser.execute_script,
                              "return getComputedStyle(document.querySelector('.top')).backgroundColor")  # fmt: skip
    assert styled == "rgb(122, 31, 31)"  # the venue page's header: its style sheet is loaded
    geometry = await in_browser(browser.execute_script, OVERFLOW)
    assert not geometry["out"] and geometry["scrollWidth"] <= geometry["width"], geometry
    await in_browser(browser.save_screenshot, str(tmp_path / f"wrong-link-{width}.png"))
