"""ISSUE-40.7 (the web part) — every answer of the venue server carries the security headers, none names a version,
and an error answer never quotes the request. ISSUE-40.1's time-outs and caps, one at a time.

As found: the 400 and 500 answers lacked the Content-Security-Policy and the other headers, the 400 echoed the
malformed request, and every answer's ``Server`` header named the Python and aiohttp versions. Here the real server
(``VenueServer``: its own accept loop and connection handler, not aiohttp's test server) is asked with raw sockets,
so malformed requests reach it as a client would send them."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest

from bot.services import Services
from bot.web.app import CSP, SERVER, VenueServer
from bot.web.limits import ConnectionGate, Descriptors, WebLimits, viewer_address
from tests.support.reports_fixtures import ORGANIZER, build_tournament

VERSIONED = re.compile(r"python|aiohttp|\d", re.IGNORECASE)


@asynccontextmanager
async def served(services: Services, limits: WebLimits | None = None) -> AsyncIterator[VenueServer]:
    server = VenueServer(services.venue, host="127.0.0.1", port=0, limits=limits or WebLimits())
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


class Answer:
    def __init__(self, raw: bytes) -> None:
        head, _, self.body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()

    def assert_strict(self) -> None:
        h = self.headers
        assert h["content-security-policy"] == CSP, h
        assert h["x-content-type-options"] == "nosniff" and h["referrer-policy"] == "no-referrer", h
        assert h["x-frame-options"] == "DENY" and h["cross-origin-resource-policy"] == "same-origin", h
        assert h["server"] == SERVER and not VERSIONED.search(h["server"]), h


async def ask(server: VenueServer, request: bytes, *, source: str = "127.0.0.1") -> Answer:
    reader, writer = await asyncio.open_connection(server.host, server.port, local_addr=(source, 0))
    try:
        writer.write(request)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), 30)  # every error answer closes the connection
    finally:
        writer.transport.abort()
    return Answer(raw)


def get(path: str, *extra: str) -> bytes:
    return "\r\n".join([f"GET {path} HTTP/1.1", "Host: venue", "Connection: close", *extra, "", ""]).encode()


async def test_issue_40_7_a_404_a_405_and_the_pages_carry_the_headers_and_no_version(services: Services):
    await build_tournament(services)
    token = (await services.venue.link(ORGANIZER, tournament="Coppa Test")).token
    async with served(services) as server:
        for request, status in [
            (get(f"/v/{token}"), 200),
            (get(f"/v/{token}/data"), 200),
            (get("/static/venue.js"), 200),
            (get("/v/" + "x" * 32 + "/data"), 404),
            (get("/nothing/here"), 404),
            (b"POST /v/x HTTP/1.1\r\nHost: venue\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 405),
        ]:
            answer = await ask(server, request)
            assert answer.status == status, (request, answer.status)
            answer.assert_strict()


@pytest.mark.parametrize(
    "request_",
    [
        b"GET /v/<script>alert(1)</script> HTTP/1.1\r\nHost: venue\r\nBroken header line\r\n\r\n",
        b"G<script>ET / HTTP/1.1\r\nHost: venue\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: venue\r\nX-Long: " + b"<script>" * 2000 + b"\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03<script>\r\n\r\n",  # TLS to a plain port
    ],
    ids=["broken-header", "bad-method", "header-too-long", "tls-hello"],
)
async def test_issue_40_7_a_malformed_request_is_a_plain_400_with_the_headers_that_quotes_nothing(
    services: Services, request_: bytes, caplog: pytest.LogCaptureFixture
):
    async with served(services) as server:
        with caplog.at_level(logging.INFO):
            answer = await ask(server, request_)
    assert answer.status == 400
    answer.assert_strict()
    assert answer.body == b"400: Bad Request"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # a client's mistake: no error log


async def test_issue_40_7_a_failure_is_a_plain_500_with_the_headers_and_no_detail(
    services: Services, caplog: pytest.LogCaptureFixture
):
    await build_tournament(services)
    token = (await services.venue.link(ORGANIZER, tournament="Coppa Test")).token
    async with served(services) as server:

        async def broken(token: str) -> None:
            raise RuntimeError("secret detail of the failure")

        server.hub.page = broken  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR):
            answer = await ask(server, get(f"/v/{token}/data"))
    assert answer.status == 500 and answer.body == b"500: Internal Server Error"
    answer.assert_strict()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "/v/{token}/data" in logged and token not in logged  # the route is logged, never the page's key


async def test_issue_40_7_the_tokens_unreadable_is_a_503_with_the_headers(services: Services):
    async with served(services) as server:

        async def unreadable() -> list[str]:
            raise OSError("database unreachable")

        server.hub.tokens._load = unreadable
        answer = await ask(server, get("/v/" + "y" * 32 + "/data"))
    assert answer.status == 503 and answer.headers["retry-after"]
    answer.assert_strict()


async def test_issue_40_1_past_the_streams_cap_the_stream_is_a_503_and_the_page_s_data_still_answers(
    services: Services,
):
    await build_tournament(services)
    token = (await services.venue.link(ORGANIZER, tournament="Coppa Test")).token
    limits = replace(WebLimits(), max_streams=3, max_streams_per_address=1, trusted_proxies=frozenset({"127.0.0.1"}))
    async with served(services, limits) as server:
        held = []

        async def hold(source: str) -> None:
            reader, writer = await asyncio.open_connection(server.host, server.port, local_addr=(source, 0))
            held.append(writer)
            writer.write(get(f"/v/{token}/events"))
            assert (await asyncio.wait_for(reader.readline(), 30)).startswith(b"HTTP/1.1 200")

        try:
            await hold("127.0.0.21")
            await hold("127.0.0.22")
            again = await ask(server, get(f"/v/{token}/events"), source="127.0.0.21")  # that viewer has one
            # behind the trusted proxy, the viewer is the address it forwards (that one streams already)
            proxied = await ask(server, get(f"/v/{token}/events", "X-Forwarded-For: 10.0.0.1, 127.0.0.22"))
            await hold("127.0.0.23")
            full = await ask(server, get(f"/v/{token}/events"), source="127.0.0.24")  # the total is reached
            data = await ask(server, get(f"/v/{token}/data"), source="127.0.0.24")
        finally:
            for writer in held:
                writer.transport.abort()
        stats = server.stats()
    for answer in (again, proxied, full):
        assert answer.status == 503 and answer.headers["retry-after"] and answer.headers["connection"] == "close"
        answer.assert_strict()
    assert data.status == 200  # what the page polls instead
    assert stats["streams"]["refused"] == 3 and stats["streams"]["peak"] == 3


async def test_issue_40_1_connections_past_the_caps_get_the_fixed_503_with_the_headers(services: Services):
    limits = replace(WebLimits(), max_connections=3, max_connections_per_address=2)
    async with served(services, limits) as server:
        held = [await asyncio.open_connection(server.host, server.port, local_addr=("127.0.0.31", 0)) for _ in "ab"]
        try:
            per_address = await ask(server, get("/v/x"), source="127.0.0.31")
            held.append(await asyncio.open_connection(server.host, server.port, local_addr=("127.0.0.32", 0)))
            total = await ask(server, get("/v/x"), source="127.0.0.33")
        finally:
            for _, writer in held:
                writer.transport.abort()
        refused = server.gate.stats()["refused"]
    for answer in (per_address, total):
        assert answer.status == 503 and answer.headers["retry-after"] == "5"
        answer.assert_strict()
        assert answer.body == b"503: Service Unavailable"
    assert refused == {"address": 1, "connections": 1}


async def test_issue_40_1_a_request_never_finished_is_closed_by_the_header_time_out(services: Services):
    limits = replace(WebLimits(), header_timeout=0.5, idle_timeout=1.0)
    async with served(services, limits) as server:
        # nothing at all, then a half-sent request: both closed (the waits are backstops, the outcome is the close)
        silent = await asyncio.open_connection(server.host, server.port)
        half = await asyncio.open_connection(server.host, server.port)
        half[1].write(b"GET /v/x HTTP/1.1\r\nHost: venue\r\nX-Slow: ")
        # a kept-alive connection whose next request never ends: closed by the idle time-out
        kept = await asyncio.open_connection(server.host, server.port)
        kept[1].write(b"GET /v/x HTTP/1.1\r\nHost: venue\r\n\r\n")
        assert (await asyncio.wait_for(kept[0].readline(), 30)).startswith(b"HTTP/1.1 404")
        kept[1].write(b"GET /v/x HTTP/1.1\r\nHost: ven")
        began = time.monotonic()
        for reader, writer in (silent, half, kept):
            await asyncio.wait_for(reader.read(), 60)  # EOF: the server closed it
            assert reader.at_eof()
            writer.transport.abort()
        assert time.monotonic() - began < 60
        assert server.gate.open == 0


# ------------------------------------------------------------------------------------------------ the parts


def test_the_gate_counts_per_address_exempts_the_proxy_and_keeps_the_descriptor_reserve():
    counts = [100]
    descriptors = Descriptors(reserve=50, count=lambda: counts[0], limit=lambda: 160, monotonic=lambda: 0.0)
    gate = ConnectionGate(
        replace(WebLimits(), max_connections=20, max_connections_per_address=2), descriptors=descriptors
    )
    assert gate.admit("10.0.0.1") is None and gate.admit("10.0.0.1") is None
    assert gate.admit("10.0.0.1") == "address"
    assert [gate.admit("127.0.0.1") for _ in range(5)] == [None] * 5  # the proxy: the total only
    gate.release("10.0.0.1")
    assert gate.admit("10.0.0.1") is None
    # 100 open at the first count (that connection's included), 7 admitted and 1 closed since: 106 of the ceiling
    # 160 - 50 = 110, so four more fit and the fifth is refused
    assert [gate.admit(f"10.1.0.{i}") for i in range(5)] == [None] * 4 + ["descriptors"]
    assert gate.refused == {"address": 1, "descriptors": 1}
    gate.release("10.1.0.0")  # a web connection closed: its descriptor is counted back
    assert gate.admit("10.1.0.9") is None and gate.admit("10.1.0.8") == "descriptors"


def test_without_a_reserve_or_a_known_limit_the_descriptors_never_refuse():
    assert Descriptors(reserve=0, count=lambda: 10**6, limit=lambda: 1024).room()
    assert Descriptors(reserve=256, count=lambda: 10**6, limit=lambda: None).room()


@pytest.mark.parametrize(
    ("peer", "forwarded", "viewer"),
    [
        ("203.0.113.5", "10.0.0.1", "203.0.113.5"),  # not a proxy: its forwarding is not believed
        ("127.0.0.1", "10.0.0.1, 198.51.100.7", "198.51.100.7"),  # the proxy's own append is the last
        ("127.0.0.1", "not an address", "127.0.0.1"),
        ("127.0.0.1", None, "127.0.0.1"),
        (None, None, "?"),
    ],
)
def test_the_viewer_is_the_peer_or_what_a_trusted_proxy_forwards(peer, forwarded, viewer):
    assert viewer_address(peer, forwarded, frozenset({"127.0.0.1"})) == viewer
