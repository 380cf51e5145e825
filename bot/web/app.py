"""The venue pages' aiohttp application and how it is served (inside the bot, by ``steward web``, by the demo).

Routes (``{token}`` is the tournament's venue token; any other string is a plain 404):

* ``/v/{token}``         the phone view: find your table by name, the tables, the standings, the season, the final
                         phase;
* ``/v/{token}/screen``  the projector view: the same and the season's ranking, cycling, sized for 1920×1080 without
                         scrolling (``?only=season``, ``tables``, ``standings`` or ``bracket``: those panels alone);
* ``/v/{token}/data``    the page's JSON (a light poll, and what the script reads when its stream cannot open);
* ``/v/{token}/events``  server-sent events: the JSON again at every change, a heartbeat, the server's time;
* ``/static/…``          the script and the style sheet.

Every response carries a strict Content-Security-Policy (``default-src 'none'``; the script and the style sheet
from this server only; no inline script or style), ``no-referrer`` (the URL is the key: it must not leak to another
site) and ``nosniff``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from aiohttp import web

from bot.services.venue import VenueService
from bot.web.hub import VenueHub, lang_of
from bot.web.pages import NOT_FOUND, page_html

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
HEARTBEAT_SECONDS = 15.0  # a comment line this often keeps proxies from closing an idle stream
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream (a restart of the bot)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
STATIC_TYPES = {"venue.js": "text/javascript; charset=utf-8", "venue.css": "text/css; charset=utf-8"}

HUB: web.AppKey[VenueHub] = web.AppKey("venue_hub", VenueHub)


@web.middleware
async def _security(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = web.Response(status=exc.status, text=NOT_FOUND if exc.status == 404 else exc.reason)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _not_found() -> web.Response:
    return web.Response(status=404, text=NOT_FOUND)


async def _page(request: web.Request, view: str) -> web.StreamResponse:
    page = await request.app[HUB].page(request.match_info["token"])
    if page is None:
        return _not_found()
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


def _event(name: str, body: bytes | str) -> bytes:
    raw = body if isinstance(body, bytes) else body.encode()
    return b"event: " + name.encode() + b"\ndata: " + raw + b"\n\n"


async def events(request: web.Request) -> web.StreamResponse:
    """The page's JSON at once and at every change, the server's time with each heartbeat; ``gone`` when the token
    is revoked. The stream ends when the server stops: the browser's EventSource reconnects by itself."""
    hub = request.app[HUB]
    page = await hub.page(request.match_info["token"])
    if page is None:
        return _not_found()
    lang = lang_of(request.query.get("lang"), page.snapshot.locale)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    )
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value
    await response.prepare(request)
    page.watchers += 1
    try:
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        sent: int | None = None
        while not hub.closing:
            if page.gone:
                await response.write(_event("gone", b"{}"))
                break
            changed = page.changed  # taken before sending: a change while writing is not missed
            await response.write(_event("time", str(hub.venue.now_ms())))
            if page.generation != sent:
                sent = page.generation
                await response.write(_event("snapshot", page.payload(lang)))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=HEARTBEAT_SECONDS)
    except ConnectionResetError:  # the viewer left
        pass
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


async def _not_found_route(request: web.Request) -> web.StreamResponse:
    return _not_found()


def make_app(venue: VenueService, *, hub: VenueHub | None = None) -> web.Application:
    """The venue pages' application; its hub polls for changes while the application runs."""
    app = web.Application(middlewares=[_security])
    app[HUB] = hub or VenueHub(venue)

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
    app.router.add_get("/{tail:.*}", _not_found_route)
    return app


def page_url(base_url: str, token: str, view: str = "") -> str:
    """The absolute URL of a tournament's page (``view``: ``screen`` for the projector)."""
    return f"{base_url.rstrip('/')}/v/{token}" + (f"/{view}" if view else "")


class VenueServer:
    """The application on a host and port, started and stopped inside a running event loop (the bot's, the
    demo's, ``steward web``'s)."""

    def __init__(self, venue: VenueService, *, host: str = "127.0.0.1", port: int = 8080, base_url: str | None = None):
        self.app = make_app(venue)
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

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await self.stop()
            raise
        if self.port == 0:  # an ephemeral port (tests): the one the system gave
            server = site._server
            sockets = getattr(server, "sockets", None) or []
            if sockets:
                self.port = int(sockets[0].getsockname()[1])
        log.info("venue pages on %s", self.base_url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def serve_until_stopped(venue: VenueService, *, host: str, port: int, base_url: str | None,
                              announce: Callable[[str], None]) -> int:  # fmt: skip
    """``steward web`` and ``steward demo --web``: listen, print ``venue <name> <URL>`` per tournament, serve until
    SIGINT or SIGTERM, exit 0."""
    import signal

    server = VenueServer(venue, host=host, port=port, base_url=base_url)
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
