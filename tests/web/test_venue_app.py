"""The venue pages' web application with aiohttp's test client: a wrong or revoked token is a plain 404,
every response carries the strict Content-Security-Policy, user text stays text, a change reaches an open stream
within 2 s, and many viewers cost one snapshot."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from html import escape
from pathlib import Path

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.services import Services
from bot.web.app import CSP, make_app
from bot.web.hub import VenueHub
from tests.conftest import FakeClock
from tests.support.reports_fixtures import ORGANIZER, REFEREE, build_tournament
from tests.support.timing import wall_limit

EVIL = "<script>alert(1)</script>"
ROUNDS = {1: [["Anna", "Bruno", "Carla", "@everyone"], ["Elio", "Fabio", "Gino", EVIL]]}
STATIC = Path(__file__).resolve().parents[2] / "bot" / "web" / "static"


@pytest.fixture
async def client(services: Services) -> AsyncIterator[TestClient]:
    hub = VenueHub(services.venue, poll_seconds=0.5)
    async with TestClient(TestServer(make_app(services.venue, hub=hub))) as c:
        yield c


async def token_of(services: Services, name: str = "Coppa Test") -> str:
    return (await services.venue.link(ORGANIZER, tournament=name)).token


def strict(response: ClientResponse) -> None:
    csp = response.headers["Content-Security-Policy"]
    assert csp == CSP and "unsafe" not in csp and "default-src 'none'" in csp
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_a_wrong_token_is_a_404_with_the_policy(services: Services, client: TestClient):
    """The page's data, stream and files answer a wrong path with a plain 404; the pages with the 404 page
    (issue 44: below)."""
    b = await build_tournament(services, rounds=ROUNDS)
    token = await token_of(services)
    for path in ("/v/nope/data", "/v/nope/events", f"/v/{token[:-1]}/data", "/static/other.js", "/metrics"):
        response = await client.get(path)
        assert response.status == 404, path
        assert response.content_type == "text/plain" and await response.text() == "404: Not Found", path
        strict(response)
    for path in ("/v/nope", "/v/nope/screen", f"/v/{b.tournament_id}", f"/v/{token[:-1]}", "/", "/v/x/y/z",
                 "/static/../app.py"):  # fmt: skip
        response = await client.get(path)
        assert response.status == 404, path
        assert response.content_type == "text/html" and "Coppa" not in await response.text(), path
        strict(response)


@pytest.mark.parametrize(
    ("accept", "asked", "lang"),
    [
        ("it-IT,it;q=0.9,en;q=0.8", None, "it"),
        ("en-GB,en;q=0.9", None, "en"),
        ("fr-FR, it;q=0.7, en;q=0.5", None, "it"),  # French first: Italian is the first of ours it accepts
        ("de-DE, en;q=0.8, it;q=0.6", None, "en"),
        ("de-DE", None, "en"),
        (None, None, "en"),
        ("it;q=0, en", None, "en"),
        ("en-US", "it", "it"),  # ?lang= first, as on the pages
    ],
)
async def test_issue_44_a_wrong_or_revoked_link_is_a_small_page_in_the_visitor_s_language(
    services: Services, client: TestClient, accept: str | None, asked: str | None, lang: str
):
    """Issue 44: a wrong or revoked link answered a bare "404: Not Found". Now a small page with the venue page's
    look (its style sheet, no script): the link is wrong or was replaced, ask the organizers for the new one — in
    the browser's language (Italian or English: the token names no tournament, so its server's is unknown)."""
    await build_tournament(services, rounds=ROUNDS)
    old = await token_of(services)
    await services.venue.revoke(ORGANIZER, tournament="Coppa Test")
    headers = {"Accept-Language": accept} if accept else {}
    for path in (f"/v/{old}", f"/v/{old}/screen", "/v/nope"):
        response = await client.get(path + (f"?lang={asked}" if asked else ""), headers=headers)
        assert response.status == 404 and response.content_type == "text/html", path
        strict(response)
        html = await response.text()
        assert f'<html lang="{lang}">' in html and response.headers["Content-Language"] == lang
        expected = {"it": ("Questo link è sbagliato", "Chiedi agli organizzatori il nuovo link"),
                    "en": ("This link is wrong", "Ask the organizers for the tournament's new link")}[lang]  # fmt: skip
        assert all(escape(text) in html for text in expected), html
        assert 'href="/static/venue.css"' in html and "<script" not in html and "style=" not in html
        assert len(html.encode()) < 1024  # the answer to a flood of wrong tokens stays small


async def test_the_pages_are_strict_and_escape_the_tournament_s_name(services: Services, client: TestClient):
    await build_tournament(services, name=EVIL, rounds=ROUNDS)
    token = await token_of(services, EVIL)
    for path in (f"/v/{token}", f"/v/{token}/screen"):
        response = await client.get(path)
        assert response.status == 200
        strict(response)
        html = await response.text()
        assert EVIL not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<script>" not in html and 'src="/static/venue.js"' in html and "style=" not in html
    for name in ("venue.js", "venue.css"):
        response = await client.get(f"/static/{name}")
        assert response.status == 200
        strict(response)


def test_the_script_inserts_text_only():
    script = (STATIC / "venue.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in script
    assert "textContent" in script


async def test_the_data_is_the_snapshot_in_the_asked_language(services: Services, client: TestClient):
    await build_tournament(services, rounds=ROUNDS)
    token = await token_of(services)
    italian = await (await client.get(f"/v/{token}/data")).json()
    assert italian["lang"] == "it" and italian["words"]["tables"] == "Tavoli"
    english = await client.get(f"/v/{token}/data?lang=en")
    strict(english)
    body = await english.json()
    assert body["lang"] == "en" and body["words"]["tables"] == "Tables"
    seats = [s["name"] for s in body["data"]["round"]["tables"][1]["seats"]]
    assert seats == ["Elio", "Fabio", "Gino", EVIL]  # JSON carries the text; the script sets it as text
    assert (await (await client.get(f"/v/{token}/data?lang=xx")).json())["lang"] == "it"


async def test_issue_44_after_the_final_the_page_names_who_won_without_a_gendered_title(
    services: Services, client: TestClient
):
    """Issue 44: after the final the page's data names who won (the page draws the name under "Ha vinto il torneo",
    ``venue.champion.one``; two parallel finals: ``venue.champion.many``) — the act, never «Campione» or
    «vincitore» beside a name."""
    from tests.services.test_classification_service import final_played
    from tests.support.rounds import ORGANIZER as UFF_ORGANIZER

    _, finish = await final_played(services)
    names = {line.player_id: line.name for line in (await services.standings.compute(111, "Coppa")).lines}
    token = (await services.venue.link(UFF_ORGANIZER, tournament="Coppa")).token
    for lang, one, many in (("it", "Ha vinto il torneo", "Hanno vinto le due finali parallele"),
                            ("en", "Won the tournament", "Won the two parallel finals")):  # fmt: skip
        body = await (await client.get(f"/v/{token}/data?lang={lang}")).json()
        assert body["data"]["classification"]["champions"] == [names[finish[0]]]
        assert (body["words"]["champion_one"], body["words"]["champion_many"]) == (one, many)
    for text in (body["words"]["champion_one"], body["words"]["champion_many"]):
        assert not any(word in text.lower() for word in ("champion", "winner"))
    italian = (await (await client.get(f"/v/{token}/data?lang=it")).json())["words"]
    assert not any(w in italian[k].lower() for k in ("champion_one", "champion_many") for w in ("campion", "vincit"))


async def events(response: ClientResponse) -> AsyncIterator[tuple[str, str]]:
    name = ""
    async for raw in response.content:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name, line[6:]


async def next_snapshot(stream: AsyncIterator[tuple[str, str]]) -> dict:
    async for name, data in stream:
        if name == "snapshot":
            return json.loads(data)
        if name == "gone":
            return {"gone": True}
    raise AssertionError("stream ended")


async def test_a_pause_and_a_revoke_reach_an_open_stream_within_two_seconds(services: Services, client: TestClient):
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=ROUNDS)
    token = await token_of(services)
    response = await client.get(f"/v/{token}/events")
    assert response.status == 200 and response.content_type == "text/event-stream"
    strict(response)
    stream = events(response)
    first = await asyncio.wait_for(next_snapshot(stream), 5)
    assert first["data"]["round"]["tables"][0]["clock"] is None
    await services.clocks.start(REFEREE, tournament=b.name)
    await services.clocks.pause(REFEREE, tournament=b.name, table=2)
    began = time.monotonic()
    update = await asyncio.wait_for(next_snapshot(stream), 5)
    assert time.monotonic() - began < wall_limit(2.0)
    assert [t["clock"]["status"] for t in update["data"]["round"]["tables"]] == ["running", "paused"]
    assert update["version"] > first["version"]
    await services.venue.revoke(ORGANIZER, tournament=b.name)
    began = time.monotonic()
    assert await asyncio.wait_for(next_snapshot(stream), 5) == {"gone": True}
    assert time.monotonic() - began < wall_limit(2.0)
    assert (await client.get(f"/v/{token}/data")).status == 404
    response.close()


async def test_an_idle_viewer_is_sent_nothing_when_nothing_on_its_page_changed(services: Services, clock: FakeClock):
    """Issue 44: a running clock, the page re-read at every refresh and another tournament of the server changing:
    the viewer of a page on which nothing changed receives not one byte after its first snapshot."""
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds=ROUNDS)
    other = await build_tournament(services, name="Altro", rounds={1: [["Zeno", "Yuri", "Xena", "Walter"]]})
    token = await token_of(services)
    await services.clocks.start(REFEREE, tournament=b.name)
    hub = VenueHub(services.venue, poll_seconds=0.05, refresh_seconds=0.2)
    async with TestClient(TestServer(make_app(services.venue, hub=hub))) as c:
        response = await c.get(f"/v/{token}/events")
        stream = events(response)
        first = await asyncio.wait_for(next_snapshot(stream), 5)
        assert first["data"]["round"]["tables"][0]["clock"]["status"] == "running"
        assert await response.content.readline() == b"\n"  # the end of the snapshot's event
        builds = hub.builds
        await services.clocks.start(REFEREE, tournament=other.name)  # the server's counter moves: not this page
        received = 0

        async def count() -> None:
            nonlocal received
            async for chunk in response.content.iter_any():
                received += len(chunk)

        reader = asyncio.create_task(count())
        for _ in range(15):  # time passes: the clock runs, the page is rebuilt at every refresh
            clock.advance(seconds=10)
            await asyncio.sleep(0.1)
        reader.cancel()
        assert hub.builds > builds  # the page was read again (the refresh, the counter) ...
        assert received == 0  # ... and nothing was sent: it had not changed
        response.close()


async def test_two_hundred_viewers_cost_one_snapshot(services: Services):
    await build_tournament(services, rounds=ROUNDS)
    token = await token_of(services)
    hub = VenueHub(services.venue, poll_seconds=0.2)
    async with TestClient(TestServer(make_app(services.venue, hub=hub))) as c:
        responses = await asyncio.gather(*(c.get(f"/v/{token}/data") for _ in range(200)))
        assert {r.status for r in responses} == {200}
        assert hub.builds == 1
        await asyncio.sleep(1.0)  # the hub polls the counter: nothing changed, nothing rebuilt
        assert hub.builds == 1 and hub.polls >= 2
        wrong = await asyncio.gather(*(c.get("/v/wrong/data") for _ in range(5)))
        assert {r.status for r in wrong} == {404}


async def test_the_data_carries_the_season_s_ranking_and_its_words_in_both_languages(
    services: Services, client: TestClient
):
    from tests.services import test_seasons as s

    await services.setup.set_roles(s.ADMIN, organizer_role_id=s.ORG_ROLE, referee_role_id=s.REF_ROLE,
                                   head_referee_role_id=s.HEAD_ROLE)  # fmt: skip
    await services.seasons.create(s.ORGANIZER, name="Progetto 2026", preset="risiko-nostra-passione-2018")
    await s.run_tournament(services, "Coppa 1", "risiko-nostra-passione-2018", rounds=1, season="Progetto 2026")
    token = (await services.venue.link(s.ORGANIZER, tournament="Coppa 1")).token
    italian = await (await client.get(f"/v/{token}/data")).json()
    response = await client.get(f"/v/{token}/data?lang=en")
    strict(response)
    english = await response.json()
    assert italian["words"]["season"] == "Stagione" and english["words"]["season"] == "Season"
    for name in ("season_new", "season_tournament", "season_empty", "season_place", "season_legend", "total"):
        assert italian["words"][name] and english["words"][name], name
    assert english["words"]["season_tournament"] == "T{number}" and "{rank}" in italian["words"]["season_place"]
    season = english["data"]["season"]
    view = await services.seasons.show(s.GUILD, "Progetto 2026")
    assert season["name"] == "Progetto 2026" and season["points_kind"] == "project"
    assert season["tournaments"] == ["Coppa 1"] and season["current"] == 0
    assert [(x["rank"], x["name"], x["points"]) for x in season["lines"]] == [
        (line.rank, line.name, line.points) for line in view.lines
    ]
    assert sorted(x["by_tournament"][0] for x in season["lines"]) == [3, 3, 6, 6, 9, 9, 12, 12]  # NP: 12/9/6/3
    assert all(x["previous_rank"] is None for x in season["lines"])  # one tournament: no movement yet
    assert italian["data"]["season"] == season  # one snapshot, the words alone differ
    await services.tournaments.create(s.ORGANIZER, name="Amichevole", preset="risiko-nostra-passione-2018")
    other = (await services.venue.link(s.ORGANIZER, tournament="Amichevole")).token
    assert (await (await client.get(f"/v/{other}/data")).json())["data"]["season"] is None
