"""The table's report page over HTTP (issue 42), with aiohttp's test client: a wrong link is a plain 404 and a
closed round's link says "closed"; every answer carries the strict policy; edits from two phones converge (the last
write of a territory wins) and reach an open stream; the submission enters the report and a submission after the
lock is refused with the reason; each token has its rate limit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import update

from bot.db.models import Round, RoundStatus
from bot.i18n import render_error
from bot.services import Services
from bot.web.app import CSP, make_app
from bot.web.hub import VenueHub
from bot.web.report import FLUSH_SECONDS, PAGE_REFRESH_SECONDS, RATES, REPORTS, RateLimits, plain
from tests.services.test_report_page import NAMES, NP, venue_token
from tests.support.reports_fixtures import REFEREE, build_tournament, player, results_of
from tests.web.report_situations import edits

EVIL = '<img src=x onerror="alert(1)">'


@pytest.fixture
async def client(services: Services) -> AsyncIterator[TestClient]:
    hub = VenueHub(services.venue, poll_seconds=0.5)
    async with TestClient(TestServer(make_app(services.venue, hub=hub))) as c:
        yield c


async def table_link(services: Services, names: list[str] | None = None, preset: str = NP):
    from bot.services.report_page import page_token
    from tests.services.test_report_page import round_id

    b = await build_tournament(services, preset=preset, rounds={1: [names or NAMES]})
    table_id = b.tables[(1, 1)]
    token = page_token(await venue_token(services, b.tournament_id), table_id, await round_id(services, table_id))
    return b, f"/r/{token}"


def strict(response) -> None:
    assert response.headers["Content-Security-Policy"] == CSP
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


async def post(client: TestClient, path: str, body: object):
    return await client.post(path, data=json.dumps(body), headers={"Content-Type": "application/json"})


async def test_issue_42_a_wrong_link_is_a_plain_404_and_the_page_is_strict(services: Services, client: TestClient):
    b, path = await table_link(services, names=["Anna", "Bruno", EVIL, "@everyone"])
    table_id, mac = path.removeprefix("/r/").split("-", 1)
    for wrong in ("/r/nope", f"/r/{table_id}-{'x' * 22}", f"/r/{int(table_id) + 1}-{mac}", f"/r/{table_id}-{mac}x",
                  f"/r/{table_id}-{'x' * 22}/state"):  # fmt: skip
        response = await client.get(wrong)
        assert response.status == 404, wrong
        strict(response)
    page = await client.get(path)
    assert page.status == 200 and "report.js" in await page.text() and "<script>" not in await page.text()
    strict(page)
    state = await (await client.get(path + "/state")).json()
    assert [s["name"] for s in state["seats"]] == ["Anna", "Bruno", EVIL, "@everyone"]  # text, drawn as text
    assert len(state["board"]["territories"]) == 42 and state["objectives"] and state["table"]["status"] == "open"
    assert "user_id" not in json.dumps(state) and str(b.users["Anna"]) not in json.dumps(state)  # nothing private
    for name in ("report.js", "report.css"):
        static = await client.get(f"/static/{name}")
        assert static.status == 200
        strict(static)


async def test_issue_42_two_phones_editing_one_territory_converge(services: Services, client: TestClient):
    _, path = await table_link(services)
    first = await post(client, path + "/edit", {"ops": [{"t": "territory", "name": "Alaska", "seat": 0, "armies": 3}]})
    second = await post(client, path + "/edit", {"ops": [{"t": "territory", "name": "alaska", "seat": 2, "armies": 7}]})
    a, b = await first.json(), await second.json()
    assert b["version"] > a["version"]
    assert b["draft"]["territories"]["Alaska"] == {"seat": 2, "armies": 7}  # the last write wins
    again = await (await client.get(path + "/state")).json()
    assert again["draft"] == b["draft"] and again["version"] == b["version"]


async def test_issue_42_an_edit_reaches_an_open_stream(services: Services, client: TestClient):
    _, path = await table_link(services)
    stream = await client.get(path + "/events")
    assert stream.headers["Content-Type"].startswith("text/event-stream")

    async def next_state() -> dict:
        event = None
        while True:
            line = (await asyncio.wait_for(stream.content.readline(), 5)).decode().strip()
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "state":
                return json.loads(line[6:])

    first = await next_state()
    await post(client, path + "/edit", {"ops": [{"t": "objective", "seat": 1, "name": "letto"}]})
    changed = await next_state()
    assert changed["version"] > first["version"] and changed["draft"]["objectives"] == {"1": "Letto"}
    stream.close()


async def test_issue_42_a_bad_edit_changes_nothing(services: Services, client: TestClient):
    _, path = await table_link(services)
    before = await (await client.get(path + "/state")).json()
    for ops in ([{"t": "territory", "name": "Atlantide", "seat": 0, "armies": 1}],
                [{"t": "territory", "name": "Alaska", "seat": 9, "armies": 1}],
                [{"t": "territory", "name": "Alaska", "seat": 0, "armies": 0}],
                [{"t": "objective", "seat": 0, "name": "Not a card"}], [], "nope"):  # fmt: skip
        response = await post(client, path + "/edit", {"ops": ops})
        assert response.status == 400 and (await response.json())["error"]
    bad = await client.post(path + "/edit", data=b"{", headers={"Content-Type": "application/json"})
    assert bad.status == 400
    after = await (await client.get(path + "/state")).json()
    assert after["draft"] == before["draft"] and after["version"] == before["version"]


async def test_issue_42_submit_enters_the_report_then_the_lock_refuses_with_the_reason(
    services: Services, client: TestClient
):
    b, path = await table_link(services)
    early = await post(client, path + "/submit", {"kind": "situation"})
    assert early.status == 400 and not (await early.json())["ok"]
    state = await (await post(client, path + "/edit", {"ops": edits()})).json()
    assert state["preview"]["complete"] and all(s["table_points"] is not None for s in state["preview"]["seats"])
    done = await post(client, path + "/submit", {"kind": "situation"})
    body = await done.json()
    assert done.status == 200 and body["ok"] and body["state"]["table"]["status"] == "entered"
    rows = await results_of(services, b.tables[(1, 1)])
    points = {r.registration_id: r.table_points for r in rows}
    by_seat = {s["seat"]: s for s in state["preview"]["seats"]}
    for seat, name in enumerate(NAMES):
        assert str(int(points[b.registrations[name]])) == by_seat[seat]["table_points"]
    for name in NAMES:
        await services.reports.sign(player(b.users[name]), b.tables[(1, 1)])
    await services.reports.countersign(REFEREE, b.tables[(1, 1)])
    late = await post(client, path + "/submit?lang=en", {"kind": "situation"})
    assert late.status == 409
    assert (await late.json())["error"] == plain(render_error("error.report.locked", {}, "en"))
    state = await (await client.get(path + "/state")).json()
    assert state["table"]["status"] == "locked"
    refused = await post(client, path + "/edit", {"ops": [{"t": "territory", "name": "Alaska", "seat": 1}]})
    assert refused.status == 409


async def test_issue_42_a_closed_round_answers_closed(services: Services, client: TestClient):
    b, path = await table_link(services)
    assert (await client.get(path + "/state")).status == 200
    async with services.sessionmaker() as session, session.begin():
        await session.execute(update(Round).where(Round.tournament_id == b.tournament_id).values(
            status=RoundStatus.CLOSED.value))  # fmt: skip
    book = client.app[REPORTS]
    later = book.now() + PAGE_REFRESH_SECONDS
    book.now = lambda: later  # the page re-reads its table every few seconds: they have passed
    for suffix in ("/state", ""):
        response = await client.get(path + suffix + "?lang=en")
        assert response.status == 410, suffix
        assert "closed" in await response.text()
        strict(response)


async def test_issue_42_each_token_has_its_rate_limit(services: Services, client: TestClient):
    """A table's phones share their token's budget; an address's lookups of tokens not yet open (a wrong one costs a
    query) have theirs: the first opening of the right token is one of them."""
    _, path = await table_link(services)
    limits: RateLimits = client.app[RATES]
    limits.rate, limits.burst, limits.miss_rate, limits.miss_burst = 0.001, 5, 0.001, 3
    answers = [(await client.get(path + "/state")).status for _ in range(8)]
    assert answers[:6] == [200] * 6 and set(answers[6:]) == {429}  # one lookup, then five of the token's budget
    wrong = [(await client.get(f"/r/1-{'y' * 22}/state")).status for _ in range(4)]
    assert wrong == [404, 404, 429, 429]


async def test_issue_42_a_restart_loses_nothing_the_phones_entered(services: Services):
    """The draft is stored a moment after each edit and when the server stops: a new server (the bot restarted)
    opens the page where the phones left it, and edits go on from its version."""
    _, path = await table_link(services)
    first = TestClient(TestServer(make_app(services.venue, hub=VenueHub(services.venue, poll_seconds=0.5))))
    await first.start_server()
    await post(first, path + "/edit", {"ops": [{"t": "territory", "name": "Cina", "seat": 1, "armies": 12}]})
    edited = await (
        await post(first, path + "/edit", {"ops": [{"t": "objective", "seat": 1, "name": "Elefante"}]})
    ).json()
    await first.close()  # the server stops: what is not yet stored is stored now
    async with TestClient(TestServer(make_app(services.venue, hub=VenueHub(services.venue)))) as second:
        again = await (await second.get(path + "/state")).json()
        assert again["draft"] == edited["draft"] and again["version"] == edited["version"]
        more = await (
            await post(second, path + "/edit", {"ops": [{"t": "territory", "name": "Siam", "seat": 0}]})
        ).json()
        assert more["version"] > edited["version"]


async def test_issue_42_edits_are_stored_a_second_later_without_a_stop(services: Services, client: TestClient):
    _, path = await table_link(services)
    state = await (
        await post(client, path + "/edit", {"ops": [{"t": "territory", "name": "Perù", "seat": 3, "armies": 4}]})
    ).json()
    await asyncio.sleep(FLUSH_SECONDS + 0.5)
    page = await services.report_pages.open(path.removeprefix("/r/"))
    assert page is not None and page.stored is not None
    stored, version = page.stored
    assert stored.as_json() == state["draft"] and version == state["version"]
