"""The table's report page (issue 42): the final situation entered on a map by the table's phones, live between
them, and submitted as ``/report situation`` would enter it (``bot.services.report_page``).

Routes (``{token}`` is ``<table id>-<mac>``, :func:`bot.services.report_page.page_token`):

* ``GET  /r/{token}``         the page (HTML skeleton; ``report.js`` draws it from the state);
* ``GET  /r/{token}/state``   the state: the table, its seats and colours, the board, the objectives, the draft and
                               its preview (``?lang=``);
* ``GET  /r/{token}/events``  server-sent events: the state at every change, ``closed`` when the round closes;
* ``POST /r/{token}/edit``    ``{"ops": [...]}``: edits applied in arrival order (the last write of a territory wins);
* ``POST /r/{token}/submit``  ``{"kind": "situation" | "points"}``: the report entered; the players sign in Discord.

The draft lives in this process's memory, one per table, shared by every phone of the table (what each phone sends
is applied here, in order), and is stored in the database a second after it changes and when the server stops: a
restart of the bot loses no tap older than that.
A closed round answers 410 with "closed" (a page in the server's language for the HTML route); a wrong token is a
plain 404. Every answer carries the venue pages' strict headers (``app.py``). Each token has its own rate limit
(:class:`Bucket`), and so has each address's supply of wrong tokens (a wrong token costs a query)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from aiohttp import web

from bot.errors import Conflict, UserFacingError
from bot.i18n import render_error, t
from bot.rules.risiko.errors import RisikoError
from bot.rules.risiko.situation_draft import SituationDraft, apply_edit
from bot.services.report_page import PageClosed, Preview, ReportPageService, TablePage
from bot.web.hub import lang_of
from bot.web.keys import LIMITS, STREAMS
from bot.web.limits import viewer_address
from bot.web.pages import NOT_FOUND
from bot.web.sse import event, open_stream
from renderer import _style as style
from renderer.risiko_map import CONTINENT_FILL, MAP_H, MAP_W, POSITIONS

log = logging.getLogger(__name__)

PAGE_REFRESH_SECONDS = 3.0  # the table's row (its report's state, the round's) is re-read at most this often
HEARTBEAT_SECONDS = 10.0
FLUSH_SECONDS = 1.0  # the drafts the phones change are stored this long after (a restart loses no older tap)
IDLE_SECONDS = 6 * 3600.0  # a draft nobody touched for this long and nobody watches is let go
MAX_DRAFTS = 5000
MAX_OPS = 50  # edits in one request
MAX_BODY = 16 * 1024
SEAT_COLOURS = ("red", "blue", "yellow", "green", "black", "purple")  # the report map's order (renderer.risiko_map)

# every word the script draws with: its name in the script → the catalogue key
WORD_KEYS: dict[str, str] = {
    name: f"report_page.{name}"
    for name in (
        "map", "points", "tokens", "submit", "submit_points", "owner_hint", "armies_hint", "clear_territory",
        "start_over", "confirm_start_over", "objective", "no_objective", "status_active", "status_withdrawn",
        "status_disqualified", "achieved", "frozen", "cards", "territories", "armies", "limit", "over_limit",
        "continents", "strip", "objective_held", "table_points", "place", "tournament_points", "missing", "complete",
        "entered", "locked", "closed", "live", "reconnecting", "saved", "sent", "problems", "seat_points",
        "seat_tokens", "numpad_ok", "backspace", "unowned", "table", "all",
    )
}  # fmt: skip
PROBLEM_KEYS = {
    "missing": "report_page.problem.missing",
    "over_limit": "report_page.problem.over_limit",
    "objective_missing": "report_page.problem.objective_missing",
    "objective_taken": "report_page.problem.objective_taken",
}


def words(lang: str) -> dict[str, str]:
    placeholders = {k: "{" + k + "}" for k in ("number", "held", "total", "place", "name", "table", "round")}
    return {name: t(key, lang, **placeholders) for name, key in WORD_KEYS.items()}


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def board_json(page: TablePage) -> dict[str, Any] | None:
    """The board the page draws: the territories at the report map's positions, the borders, the continents."""
    rules = page.risiko
    if rules is None:
        return None
    board = rules.board
    names = list(board.territories)
    index = {n: i for i, n in enumerate(names)}
    links = sorted([index[a], index[b]] for a, b in board.borders if {a, b} != {"Alaska", "Kamchatka"})
    return {
        "width": MAP_W,
        "height": MAP_H,
        "territories": [
            {
                "name": n,
                "x": POSITIONS[n][0],
                "y": POSITIONS[n][1],
                "continent": board.continent_of(n).name,
                "value": board.degree(n),
            }
            for n in names
        ],
        "links": links,
        "continents": [{"name": c.name, "colour": _hex(CONTINENT_FILL[c.name])} for c in board.continents],
    }


def _number(value: float | None) -> str | None:
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def problem_text(code: str, lang: str, page: TablePage, number: int | None, other: int | None, seat: int | None) -> str:
    name = page.seats[seat].name if seat is not None and seat < len(page.seats) else ""
    other_name = page.seats[other].name if code == "objective_taken" and other is not None else ""
    return t(PROBLEM_KEYS[code], lang, number=number or 0, limit=other or 0, name=name, other=other_name)


def plain(text: str) -> str:
    """A catalogue sentence written for Discord, for a page that shows text as text (no markdown)."""
    return text.replace("**", "").replace("`", "")


def preview_json(page: TablePage, preview: Preview, lang: str) -> dict[str, Any]:
    problems = [
        {"code": p.code, "seat": p.seat, "territory": p.territory,
         "text": problem_text(p.code, lang, page, p.number, p.other, p.seat)}
        for p in preview.problems
    ]  # fmt: skip
    if preview.refusal is not None:
        problems.append({"code": "refused", "text": plain(_refusal_text(preview.refusal, lang))})
    scores = {s.seat: s for s in preview.scores}
    seats = []
    for f in preview.figures:
        s = scores.get(f.seat)
        seats.append(
            {
                "seat": f.seat, "territories": f.territories, "armies": f.armies, "limit": f.limit,
                "over_limit": f.over_limit, "continents": list(f.continents), "strip": list(f.strip),
                "objective": f.objective, "objective_held": f.objective_held, "objective_total": f.objective_total,
                "table_points": _number(s.table_points) if s else None, "rank": s.rank if s else None,
                "tournament_points": _number(s.tournament_points) if s else None,
            }
        )  # fmt: skip
    return {"complete": preview.complete, "problems": problems, "seats": seats}


def _refusal_text(exc: UserFacingError, lang: str) -> str:
    return render_error(exc.key, dict(exc.params), lang)


def round_label(page: TablePage, lang: str) -> str:
    if page.round_kind in ("semifinal", "final"):
        return t(f"venue.round.{page.round_kind}", lang)
    return t("venue.round", lang, number=page.round_number)


@dataclass(eq=False)
class TableDraft:
    """One table's draft, shared by every phone of the table."""

    page: TablePage
    read_at: float
    draft: SituationDraft = field(default_factory=SituationDraft)
    version: int = 1
    closed: bool = False
    watchers: int = 0
    last_used: float = 0.0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    dirty: bool = False  # changed since it was last stored
    _preview: tuple[int, Preview] | None = None
    _payloads: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def bump(self) -> None:
        """The state changed: a new version, and every open stream hears of it."""
        self.version += 1
        self.wake()

    def wake(self) -> None:
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    async def preview(self, service: ReportPageService) -> Preview:
        """The preview of the current version, computed once (off the event loop) whoever asks."""
        async with self._lock:
            if self._preview is None or self._preview[0] != self.version:
                version, page, draft = self.version, self.page, self.draft
                result = await asyncio.to_thread(service.preview, page, draft)
                self._preview = (version, result)
            return self._preview[1]

    async def payload(self, service: ReportPageService, lang: str) -> bytes:
        cached = self._payloads.get(lang)
        if cached is not None and cached[0] == self.version:
            return cached[1]
        version = self.version
        preview = await self.preview(service)
        body = json.dumps(state_json(self.page, self.draft, preview, version, lang), ensure_ascii=False,
                          separators=(",", ":")).encode()  # fmt: skip
        if version == self.version:
            self._payloads[lang] = (version, body)
        return body


def state_json(page: TablePage, draft: SituationDraft, preview: Preview, version: int, lang: str) -> dict[str, Any]:
    rules = page.risiko
    seats = []
    for s in page.seats:
        rgb = style.ARMY_RGB[SEAT_COLOURS[s.seat % len(SEAT_COLOURS)]]
        seats.append({"seat": s.seat, "name": s.name, "colour": _hex(rgb), "text": _hex(style.text_on(rgb))})
    return {
        "version": version,
        "lang": lang,
        "words": words(lang),
        "table": {
            "tournament": page.tournament,
            "round": page.round_number,
            "round_label": round_label(page, lang),
            "number": page.table_number,
            "game": page.game,
            "status": page.status,
            "kinds": list(page.kinds),
        },
        "seats": seats,
        "board": board_json(page),
        "objectives": list(page.objectives),
        "options": {
            "achieved": rules is not None and bool(page.objectives),
            "frozen": rules is not None and rules.scoring.method == "firk" and rules.scoring.freeze_min_territories > 0,
            "cards": rules is not None and rules.scoring.card_army_value > 0,
        },
        "army_limit": (rules.limits.army_limit or None) if rules is not None else None,
        "draft": draft.as_json(),
        "preview": preview_json(page, preview, lang),
        "report": {
            "entered": page.status != "open",
            "kind": page.report_kind,
            "signed": page.signed,
            "seats": len(page.seats),
        },
    }


class Bucket:
    """A token bucket: ``burst`` requests at once, ``rate`` a second after that."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.level, self.stamp = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class RateLimits:
    """Per token (a table's phones share it) and, for wrong tokens, per address; both bounded in memory."""

    def __init__(self, *, rate: float = 20.0, burst: float = 120.0, miss_rate: float = 2.0, miss_burst: float = 20.0,
                 monotonic: Callable[[], float] = time.monotonic, max_keys: int = 20000) -> None:  # fmt: skip
        self.rate, self.burst, self.miss_rate, self.miss_burst = rate, burst, miss_rate, miss_burst
        self.now = monotonic
        self.max_keys = max_keys
        self._tokens: dict[str, Bucket] = {}
        self._misses: dict[str, Bucket] = {}
        self.refused = 0

    def _take(self, table: dict[str, Bucket], key: str, rate: float, burst: float) -> bool:
        now = self.now()
        bucket = table.get(key)
        if bucket is None:
            if len(table) >= self.max_keys:
                table.clear()  # a flood of keys: start again rather than grow
            bucket = table[key] = Bucket(rate, burst, now)
        ok = bucket.take(now)
        if not ok:
            self.refused += 1
        return ok

    def token(self, token: str) -> bool:
        return self._take(self._tokens, token, self.rate, self.burst)

    def miss(self, address: str) -> bool:
        """May this address have another token looked up that may be wrong?"""
        return self._take(self._misses, address, self.miss_rate, self.miss_burst)


class DraftBook:
    """The drafts of the tables whose pages are open, by token."""

    def __init__(self, service: ReportPageService, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.now = monotonic
        self._drafts: dict[str, TableDraft] = {}
        self._flusher: asyncio.Task[None] | None = None
        self.closing = False

    def __len__(self) -> int:
        return len(self._drafts)

    def has(self, token: str) -> bool:
        return token in self._drafts

    async def get(self, token: str) -> TableDraft | None:
        """The token's draft, its table re-read when older than ``PAGE_REFRESH_SECONDS``; None: a wrong token.
        Raises :class:`PageClosed` once the round is closed."""
        found = self._drafts.get(token)
        if found is not None:
            if found.closed:
                raise PageClosed
            found.last_used = self.now()
            if self.now() - found.read_at >= PAGE_REFRESH_SECONDS:
                await self.refresh(found)
                if found.closed:
                    raise PageClosed
            return found
        page = await self.service.open(token)  # PageClosed passes through
        if page is None:
            return None
        found = self._drafts.get(token)  # opened meanwhile by another request
        if found is None:
            self._evict()
            found = self._drafts[token] = TableDraft(page, self.now(), last_used=self.now())
            if page.stored is not None:  # what the phones entered before a restart
                found.draft, found.version = page.stored
        return found

    def changed(self, entry: TableDraft) -> None:
        """An edit: the phones hear of it now, the database a moment later (:meth:`flush`)."""
        entry.bump()
        entry.dirty = True
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_soon(), name="report-drafts")

    async def _flush_soon(self) -> None:
        while any(e.dirty for e in self._drafts.values()):
            await asyncio.sleep(FLUSH_SECONDS)
            with contextlib.suppress(Exception):  # logged by flush; the next round tries again
                await self.flush()

    async def flush(self) -> None:
        """Store every draft changed since it was last stored (one transaction)."""
        dirty = [e for e in self._drafts.values() if e.dirty]
        for entry in dirty:
            entry.dirty = False
        try:
            await self.service.save_drafts([(e.page, e.draft, e.version) for e in dirty])
        except Exception:  # the database is away: they stay in memory and are tried again
            log.warning("report pages: %d drafts not stored, tried again", len(dirty), exc_info=True)
            for entry in dirty:
                entry.dirty = True
            raise

    async def stop(self) -> None:
        """The server stops: what the phones entered is stored before it goes."""
        task, self._flusher = self._flusher, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.flush()

    async def refresh(self, entry: TableDraft) -> None:
        entry.read_at = self.now()
        try:
            page = await self.service.open(entry.page.token)
        except PageClosed:
            page = None
        if page is None:
            entry.closed = True
            entry.wake()
            self._drafts.pop(entry.page.token, None)
            return
        if (page.status, page.signed, page.stamp, page.adjustments) != (
            entry.page.status, entry.page.signed, entry.page.stamp, entry.page.adjustments
        ):  # fmt: skip
            entry.page = page
            entry.bump()
        else:
            entry.page = page

    def _evict(self) -> None:
        now = self.now()
        for token, entry in list(self._drafts.items()):
            if entry.watchers == 0 and now - entry.last_used > IDLE_SECONDS:
                del self._drafts[token]
        if len(self._drafts) >= MAX_DRAFTS:
            idle = sorted((e.last_used, k) for k, e in self._drafts.items() if e.watchers == 0)
            for _, token in idle[: len(self._drafts) - MAX_DRAFTS + 1]:
                del self._drafts[token]

    def wake_all(self) -> None:
        self.closing = True
        for entry in self._drafts.values():
            entry.wake()


REPORTS: web.AppKey[DraftBook] = web.AppKey("report_drafts", DraftBook)
RATES: web.AppKey[RateLimits] = web.AppKey("report_rates", RateLimits)


def _json(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(body, status=status, headers={"Cache-Control": "no-store"})


def _error(status: int, text: str) -> web.Response:
    return _json({"error": text}, status=status)


def _lang(request: web.Request, page: TablePage | None) -> str:
    return lang_of(request.query.get("lang"), page.locale if page is not None else "it")


async def _entry(request: web.Request) -> TableDraft | web.Response:
    """The request's table draft, or the answer to give instead (404, 410 closed, 429 too fast)."""
    token = request.match_info["token"]
    rates = request.app[RATES]
    book = request.app[REPORTS]
    if not book.has(token):
        viewer = viewer_address(request.remote, request.headers.get("X-Forwarded-For"),
                                request.app[LIMITS].trusted_proxies)  # fmt: skip
        if not rates.miss(viewer):
            return _too_fast()
    elif not rates.token(token):
        return _too_fast()
    try:
        entry = await book.get(token)
    except PageClosed:
        return _closed(request)
    if entry is None:
        return web.Response(status=404, text=NOT_FOUND)
    return entry


def _too_fast() -> web.Response:
    response = _error(429, "429: Too Many Requests")
    response.headers["Retry-After"] = "1"
    return response


def _closed(request: web.Request) -> web.Response:
    lang = lang_of(request.query.get("lang"), "it")
    return _error(410, t("report_page.closed", lang))


async def page(request: web.Request) -> web.StreamResponse:
    found = await _entry(request)
    if isinstance(found, web.Response):
        if found.status == 410:
            lang = lang_of(request.query.get("lang"), "it")
            return web.Response(status=410, text=closed_html(lang), content_type="text/html",
                                headers={"Cache-Control": "no-store"})  # fmt: skip
        return found
    lang = _lang(request, found.page)
    title = f"{found.page.tournament} · {t('report_page.table', lang, number=found.page.table_number)}"
    return web.Response(text=report_html(title, lang), content_type="text/html", headers={"Cache-Control": "no-store"})


async def state(request: web.Request) -> web.StreamResponse:
    found = await _entry(request)
    if isinstance(found, web.Response):
        return found
    body = await found.payload(request.app[REPORTS].service, _lang(request, found.page))
    return web.Response(body=body, content_type="application/json", headers={"Cache-Control": "no-store"})


async def _body(request: web.Request) -> Any:
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType()
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(raw))
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest() from None


async def edit(request: web.Request) -> web.StreamResponse:
    found = await _entry(request)
    if isinstance(found, web.Response):
        return found
    lang = _lang(request, found.page)
    body = await _body(request)
    ops = body.get("ops") if isinstance(body, dict) else None
    if not isinstance(ops, list) or not 0 < len(ops) <= MAX_OPS:
        return _error(400, t("report_page.error.edit", lang))
    if found.page.status == "locked":
        return _error(409, t("report_page.locked", lang))
    rules = found.page.risiko
    board = rules.board if rules is not None else None
    draft = found.draft
    try:
        for op in ops:
            draft = apply_edit(draft, op, board=board, seats=len(found.page.seats), rules=rules)  # type: ignore[arg-type]
    except RisikoError as exc:
        log.info("report page: an edit refused (%s)", exc.code)
        return _error(400, t("report_page.error.edit", lang))
    if draft != found.draft:
        found.draft = draft
        request.app[REPORTS].changed(found)
    found.last_used = request.app[REPORTS].now()
    body_out = await found.payload(request.app[REPORTS].service, lang)
    return web.Response(body=body_out, content_type="application/json", headers={"Cache-Control": "no-store"})


async def submit(request: web.Request) -> web.StreamResponse:
    found = await _entry(request)
    if isinstance(found, web.Response):
        return found
    lang = _lang(request, found.page)
    body = await _body(request)
    kind = body.get("kind") if isinstance(body, dict) else None
    if kind not in found.page.kinds:
        return _json({"ok": False, "error": t("report_page.error.edit", lang)}, status=400)
    book = request.app[REPORTS]
    await book.refresh(found)  # the table as it is now: its lock, its seats, a report entered meanwhile
    if found.closed:
        return _closed(request)
    if found.page.status == "locked":
        return _json({"ok": False, "error": plain(_refusal_text(Conflict("error.report.locked"), lang))}, status=409)
    try:
        await book.service.submit(found.page, found.draft, kind)
    except UserFacingError as exc:
        await book.refresh(found)  # the table as it now is (locked, re-seated, entered by someone else)
        status = 409 if isinstance(exc, Conflict) else 400
        return _json({"ok": False, "error": plain(_refusal_text(exc, lang))}, status=status)
    await book.refresh(found)
    found.bump()
    state_body = json.loads(await found.payload(book.service, lang))
    return _json({"ok": True, "message": t("report_page.entered", lang), "state": state_body})


async def events(request: web.Request) -> web.StreamResponse:
    found = await _entry(request)
    if isinstance(found, web.Response):
        return found
    limits, streams = request.app[LIMITS], request.app[STREAMS]
    viewer = viewer_address(request.remote, request.headers.get("X-Forwarded-For"), limits.trusted_proxies)
    if not streams.enter(viewer):
        refused = _error(503, "503: Service Unavailable")
        refused.headers["Retry-After"] = "10"
        refused.force_close()
        return refused
    try:
        return await _stream(request, found, limits.stream_write_timeout)
    finally:
        streams.leave(viewer)


async def _stream(request: web.Request, entry: TableDraft, write_timeout: float) -> web.StreamResponse:
    book = request.app[REPORTS]
    lang = _lang(request, entry.page)
    response, send = await open_stream(request, write_timeout)
    entry.watchers += 1
    try:
        await send(b"retry: 2000\n\n")
        sent: int | None = None
        while not book.closing:
            if entry.closed:
                await send(event("closed", b"{}"))
                break
            changed = entry.changed
            if entry.version != sent:
                sent = entry.version
                await send(event("state", await entry.payload(book.service, lang)))
            else:
                await send(event("time", str(int(time.time() * 1000)).encode()))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=HEARTBEAT_SECONDS)
            if book.now() - entry.read_at >= PAGE_REFRESH_SECONDS * 2:
                await book.refresh(entry)  # the round closed, the report was signed: the phones learn it
    except ConnectionResetError:
        pass
    except TimeoutError:
        if request.transport is not None:
            request.transport.abort()
    finally:
        entry.watchers -= 1
    return response


def _html(title: str, lang: str, body: str, *, script: bool) -> str:
    """A report page's HTML: the strict head (the style sheet, the script when there is one) around ``body``."""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{escape(title)}</title>\n"
        '<link rel="stylesheet" href="/static/report.css">\n'
        + ('<script src="/static/report.js" defer></script>\n' if script else "")
        + f"</head>\n{body}\n</html>\n"
    )


def report_html(title: str, lang: str) -> str:
    """The report page's skeleton; the script draws the rest from the state."""
    body = (
        '<body class="report" data-view="report">\n'
        f'<header class="top"><h1 id="name">{escape(title)}</h1><span id="round-label" class="round-label"></span>'
        '<span id="status" class="status"></span></header>\n'
        '<main id="main" class="main"></main>\n</body>'
    )
    return _html(title, lang, body, script=True)


def closed_html(lang: str) -> str:
    """What a closed round's link shows: one line, no script."""
    text = t("report_page.closed", lang)
    banner = f'<p id="banner" class="banner">{escape(text)}</p>'
    body = f'<body class="report closed">\n<main class="main">{banner}</main>\n</body>'
    return _html(text, lang, body, script=False)


def add_routes(app: web.Application, service: ReportPageService | None) -> None:
    """The report page's routes on the venue application (none without the service: a 404 as any path)."""
    if service is None:
        return
    app[REPORTS] = DraftBook(service)
    app[RATES] = RateLimits()

    async def shutting_down(app: web.Application) -> None:
        app[REPORTS].wake_all()
        await app[REPORTS].stop()

    app.on_shutdown.append(shutting_down)
    app.router.add_get("/r/{token}", page)
    app.router.add_get("/r/{token}/state", state)
    app.router.add_get("/r/{token}/events", events)
    app.router.add_post("/r/{token}/edit", edit)
    app.router.add_post("/r/{token}/submit", submit)


def report_url(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/r/{token}"
