"""The venue pages' aiohttp application and how it is served (inside the bot, by ``steward web``, by the demo).

Routes (``{token}`` is the tournament's venue token; for any other string the pages answer a small 404 page in the
visitor's language saying the link is wrong or was replaced — ``pages.not_found_html`` — and ``/data``, ``/events``
and ``/static/…`` a plain 404):

* ``/v/{token}``         the phone view: find your table by name, the tables, the standings, the season, the final
                         phase;
* ``/v/{token}/screen``  the projector view: the same and the season's ranking, cycling, sized for 1920×1080 without
                         scrolling (``?only=season``, ``tables``, ``standings`` or ``bracket``: those panels alone);
* ``/v/{token}/data``    the page's JSON (a light poll, and what the script reads when its stream cannot open);
* ``/v/{token}/events``  server-sent events: the JSON again at every change, a heartbeat, the server's time;
* ``/static/…``          the script and the style sheet;
* ``/healthz``            200 while the process runs; ``/readyz``: 200 when ready, else 503, with a JSON body naming
                         each check and its state (``health.py``); ``/metrics``: the Prometheus text
                         (``bot.metrics``) when ``METRICS_ENABLED=true``, else a plain 404;
* any other path         the 404 page, as a wrong token's.

Every answer — the pages, the 404s, a 400 for a malformed request, a 500, the 503 of a refused connection — carries a
strict Content-Security-Policy (``default-src 'none'``; the script and the style sheet from this server only; no
inline script or style), ``no-referrer`` (the URL is the key: it must not leak to another site) and ``nosniff``, and
a ``Server`` header without versions; an error answer never quotes the request.

The server's limits (connections, time-outs, live streams, a reserve of file descriptors for the bot) are
``limits.py``'s; past the streams' cap ``/events`` answers ``503`` with ``Retry-After`` and the page polls ``/data``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import metrics as process_metrics
from bot.services.venue import VenueService
from bot.web.health import HealthProbe
from bot.web.hub import Page, VenueHub, lang_of
from bot.web.keys import LIMITS, STREAMS
from bot.web.limits import ConnectionGate, GuardedConnection, GuardedSite, StreamGate, WebLimits, viewer_address
from bot.web.pages import NOT_FOUND, accepted_lang, not_found_html, page_html
from bot.web.report import add_routes as add_report_routes
from bot.web.sse import event, open_stream
from bot.web.tokens import TokensUnavailable

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
HEARTBEAT_SECONDS = 15.0  # a comment line this often keeps proxies from closing an idle stream
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream (a restart of the bot)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SERVER = "steward"  # the Server header: no product, no version (aiohttp's default names Python's and its own)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
ANSWER_HEADERS = {**SECURITY_HEADERS, "Server": SERVER}  # on every answer, errors and refusals included
STREAM_RETRY_AFTER = 10  # seconds a stream refused (the cap is reached) is told to wait; the page polls meanwhile
STATIC_TYPES = {
    "venue.js": "text/javascript; charset=utf-8",
    "venue.css": "text/css; charset=utf-8",
    "report.js": "text/javascript; charset=utf-8",
    "report.css": "text/css; charset=utf-8",
}

HUB: web.AppKey[VenueHub] = web.AppKey("venue_hub", VenueHub)
PROBE: web.AppKey[HealthProbe] = web.AppKey("health_probe", HealthProbe)


def _route(request: web.Request) -> str:
    """The route's pattern (``/v/{token}/data``): what a log line may name (a path would carry the token)."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else "?"


@web.middleware
async def _answers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every failure is a short plain answer that quotes nothing of the request; the headers are added when any
    answer is prepared (:func:`_headers`)."""
    if isinstance(request.protocol, GuardedConnection):
        request.protocol.request_seen()
    try:
        return await handler(request)
    except web.HTTPException as exc:
        return _plain(exc.status, NOT_FOUND if exc.status == 404 else None)
    except TokensUnavailable:
        return _unavailable(retry_after=5)
    except Exception:
        log.exception("venue pages: %s %s failed", request.method, _route(request))
        return _plain(500)


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in ANSWER_HEADERS.items():
        response.headers[name] = value


def _plain(status: int, text: str | None = None) -> web.Response:
    return web.Response(status=status, text=text or f"{status}: {HTTPStatus(status).phrase}")


def _unavailable(*, retry_after: int) -> web.Response:
    response = _plain(503)
    response.headers["Retry-After"] = str(retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


def _not_found() -> web.Response:
    return _plain(404, NOT_FOUND)


def _missing(request: web.Request) -> web.Response:
    """A wrong or revoked link opened in a browser: the 404 page, in ``?lang=`` or the browser's language (the
    token names no tournament, so the server's language is unknown)."""
    lang = accepted_lang(request.query.get("lang"), request.headers.get("Accept-Language"))
    return web.Response(status=404, text=not_found_html(lang), content_type="text/html",
                        headers={"Cache-Control": "no-store", "Content-Language": lang})  # fmt: skip


async def _page(request: web.Request, view: str) -> web.StreamResponse:
    page = await request.app[HUB].page(request.match_info["token"])
    if page is None:
        return _missing(request)
    lang = lang_of(request.query.get("lang"), page.snapshot.locale)
    html = page_html(view=view, tournament=str(page.snapshot.data["tournament"]["name"]), lang=lang)
    return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})


async def phone(request: web.Request) -> web.StreamResponse:
    return await _page(request, "phone")


async def screen(request: web.Request) -> web.StreamResponse:
    return await _page(request, "screen")


async def data(request: web.Request) -> web.StreamResponse:
    page = await request.app[HUB].page(request.match_info["token"])
    if page is None:
        return _not_found()
    lang = lang_of(request.query.get("lang"), page.snapshot.locale)
    return web.Response(
        body=page.payload(lang),
        content_type="application/json",
        headers={"Cache-Control": "no-store", "X-Server-Time": str(request.app[HUB].venue.now_ms())},
    )


async def events(request: web.Request) -> web.StreamResponse:
    """The page's JSON at once and at every change, the server's time with each heartbeat; ``gone`` when the token
    is revoked. The stream ends when the server stops: the browser's EventSource reconnects by itself."""
    hub = request.app[HUB]
    page = await hub.page(request.match_info["token"])
    if page is None:
        return _not_found()
    limits, streams = request.app[LIMITS], request.app[STREAMS]
    viewer = viewer_address(request.remote, request.headers.get("X-Forwarded-For"), limits.trusted_proxies)
    if not streams.enter(viewer):  # full: the page polls /data instead and tries the stream again later
        refused = _unavailable(retry_after=STREAM_RETRY_AFTER)
        refused.force_close()  # the browser gives the stream up: its connection is not kept alive either
        return refused
    try:
        return await _stream(request, hub, page, limits.stream_write_timeout)
    finally:
        streams.leave(viewer)


async def _stream(request: web.Request, hub: VenueHub, page: Page, write_timeout: float) -> web.StreamResponse:
    lang = lang_of(request.query.get("lang"), page.snapshot.locale)
    response, send = await open_stream(request, write_timeout)
    page.watchers += 1
    try:
        await send(f"retry: {RETRY_MS}\n\n".encode())
        sent: int | None = None
        while not hub.closing:
            if page.gone:
                await send(event("gone", b"{}"))
                break
            changed = page.changed  # taken before sending: a change while writing is not missed
            await send(event("time", str(hub.venue.now_ms())))
            if page.generation != sent:
                sent = page.generation
                await send(event("snapshot", page.payload(lang)))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=HEARTBEAT_SECONDS)
    except ConnectionResetError:  # the viewer left
        pass
    except TimeoutError:  # the viewer stopped reading: its socket is let go
        if request.transport is not None:
            request.transport.abort()
    finally:
        page.watchers -= 1
    return response


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in STATIC_TYPES:
        return _not_found()
    return web.Response(
        body=(STATIC / name).read_bytes(),
        headers={"Content-Type": STATIC_TYPES[name], "Cache-Control": "no-cache"},
    )


async def _missing_route(request: web.Request) -> web.StreamResponse:
    return _missing(request)


async def _not_found_route(request: web.Request) -> web.StreamResponse:
    return _not_found()


async def healthz(request: web.Request) -> web.StreamResponse:
    """The process runs (and its loop answers): nothing else is looked at."""
    return web.Response(text="ok", headers={"Cache-Control": "no-store"})


async def readyz(request: web.Request) -> web.StreamResponse:
    """200 when every check passes, else 503; the body names each check and its state (never a stream: the
    streams' cap does not apply)."""
    found = await request.app[PROBE].readiness()
    return web.json_response(found.as_json(), status=200 if found.ready else 503, headers={"Cache-Control": "no-store"})


async def metrics_text(request: web.Request) -> web.StreamResponse:
    body, content_type = process_metrics.exposition()
    return web.Response(body=body, headers={"Content-Type": content_type, "Cache-Control": "no-store"})


def settings_metrics() -> bool:
    """``METRICS_ENABLED`` (off when the settings cannot be read)."""
    from bot.settings import get_settings

    try:
        return get_settings().metrics_enabled
    except ValueError:
        return False


def make_app(venue: VenueService, *, hub: VenueHub | None = None, limits: WebLimits | None = None,
             probe: HealthProbe | None = None, metrics: bool = False) -> web.Application:  # fmt: skip
    """The venue pages' application; its hub polls for changes while the application runs. ``probe``: the
    readiness checks of ``/readyz`` (none: ready while the process runs); ``metrics``: serve ``/metrics``."""
    app = web.Application(middlewares=[_answers])
    app[HUB] = hub or VenueHub(venue)
    app[LIMITS] = limits or WebLimits()
    app[STREAMS] = StreamGate(app[LIMITS])
    app[PROBE] = probe or HealthProbe()
    app.on_response_prepare.append(_headers)

    async def running(app: web.Application) -> AsyncIterator[None]:
        app[HUB].start()
        yield
        await app[HUB].stop()

    async def shutting_down(app: web.Application) -> None:
        app[HUB].close_streams()

    app.cleanup_ctx.append(running)
    app.on_shutdown.append(shutting_down)
    app.router.add_get("/v/{token}", phone)
    app.router.add_get("/v/{token}/screen", screen)
    app.router.add_get("/v/{token}/data", data)
    app.router.add_get("/v/{token}/events", events)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_text if metrics else _not_found_route)
    add_report_routes(app, venue.report_pages)  # the tables' report pages (issue 42)
    app.router.add_get("/{tail:.*}", _missing_route)
    return app


def page_url(base_url: str, token: str, view: str = "") -> str:
    """The absolute URL of a tournament's page (``view``: ``screen`` for the projector)."""
    return f"{base_url.rstrip('/')}/v/{token}" + (f"/{view}" if view else "")


def settings_limits() -> WebLimits:
    """The limits the ``WEB_*`` settings give (their defaults when the settings cannot be read)."""
    from bot.settings import get_settings

    try:
        return WebLimits.from_settings(get_settings())
    except ValueError as exc:  # a malformed setting elsewhere: the bot reports it at start-up, not here
        log.warning("venue pages: default limits (the settings could not be read: %s)", exc)
        return WebLimits()


class VenueServer:
    """The application on a host and port, started and stopped inside a running event loop (the bot's, the
    demo's, ``steward web``'s), with the limits of ``limits`` (by default the ``WEB_*`` settings'), the readiness
    checks of ``probe`` and ``/metrics`` when ``metrics`` (by default ``METRICS_ENABLED``)."""

    def __init__(self, venue: VenueService, *, host: str = "127.0.0.1", port: int = 8080, base_url: str | None = None,
                 limits: WebLimits | None = None, probe: HealthProbe | None = None,
                 metrics: bool | None = None):  # fmt: skip
        self.limits = limits or settings_limits()
        self.app = make_app(venue, limits=self.limits, probe=probe,
                            metrics=settings_metrics() if metrics is None else metrics)  # fmt: skip
        self.gate = ConnectionGate(self.limits)
        self.host, self.port = host, port
        self._base_url = base_url
        self._runner: web.AppRunner | None = None

    @property
    def hub(self) -> VenueHub:
        return self.app[HUB]

    @property
    def base_url(self) -> str:
        if self._base_url:
            return self._base_url.rstrip("/")
        host = "127.0.0.1" if self.host in ("0.0.0.0", "", "::") else self.host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    @property
    def streams(self) -> StreamGate:
        return self.app[STREAMS]

    @property
    def probe(self) -> HealthProbe:
        return self.app[PROBE]

    def stats(self) -> dict[str, Any]:
        """Connections (open, peak, refused by reason), streams, the hub's work and the tokens' reads."""
        return {"connections": self.gate.stats(), "streams": self.streams.stats(), "hub": self.hub.stats()}

    async def start(self) -> None:
        limits = self.limits
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0,
                                     keepalive_timeout=limits.idle_timeout)  # fmt: skip
        await self._runner.setup()
        site = GuardedSite(self._runner, self.host, self.port, gate=self.gate, headers=ANSWER_HEADERS)
        try:
            await site.start()
        except OSError:
            await self.stop()
            raise
        self.port = site.port  # an ephemeral port (tests): the one the system gave
        ceiling = self.gate.descriptors.ceiling()
        if ceiling is not None and ceiling < 64:
            log.warning("venue pages: the descriptor limit minus WEB_FD_RESERVE=%d leaves %d descriptors: the pages "
                        "will refuse most connections; raise `ulimit -n` or lower the reserve", limits.fd_reserve,
                        max(ceiling, 0))  # fmt: skip
        log.info("venue pages on %s", self.base_url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def serve_until_stopped(venue: VenueService, *, host: str, port: int, base_url: str | None,
                              announce: Callable[[str], None], probe: HealthProbe | None = None) -> int:  # fmt: skip
    """``steward web`` and ``steward demo --web``: listen, print ``venue <name> <URL>`` per tournament, serve until
    SIGINT or SIGTERM, exit 0 (``probe``: the readiness checks of ``/readyz``)."""
    import signal

    server = VenueServer(venue, host=host, port=port, base_url=base_url, probe=probe)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        for link in await venue.pages():
            announce(f"venue {link.tournament_name} {page_url(server.base_url, link.token)}")
        await stop.wait()
    finally:
        await server.stop()
    return 0
