"""How much of the process the venue pages may take: connections in total and per address, the time a request's
headers may take, idle keep-alive, live streams, and a reserve of file descriptors the web never touches.

The pages run inside the bot's process (``WEB_PORT``), so every socket they hold is a descriptor the bot's own
Discord traffic, database and files cannot have. The web server therefore admits a connection only while

* the process's open descriptors, the new socket included, stay within its ``RLIMIT_NOFILE`` soft limit minus
  ``fd_reserve`` (counted in ``/proc/self/fd`` at most every :data:`RECOUNT_SECONDS`, kept up to date in between
  with the web's own opens and closes: a flood costs no listing per connection);
* fewer than ``max_connections`` are open, and fewer than ``max_connections_per_address`` from its address
  (the club's reverse proxy, a trusted address, is bounded by the total only: its own ``limit_conn`` counts the
  phones);

and a connection must deliver its first request's headers within ``header_timeout`` (after a response, aiohttp's
keep-alive closes it after ``idle_timeout`` without a complete next request). The server accepts its sockets itself
(:class:`GuardedSite`): a connection refused is answered a fixed ``503`` with the security headers and
``Retry-After`` and closed in the same call, before asyncio or aiohttp hold anything for it, so the count of
descriptors is exact; nothing is logged per connection (one warning a minute says how many were refused and why).
The live streams have their own cap (:class:`StreamGate`): past it the page falls back to polling its JSON.

``steward web`` runs the same server alone; it applies the same limits to its own process."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import os
import socket
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

if TYPE_CHECKING:
    from aiohttp.web_request import BaseRequest

    from bot.settings import Settings

log = logging.getLogger(__name__)

RECOUNT_SECONDS = 0.25  # the descriptor count is re-read this often; the web's own opens and closes in between
WARN_EVERY_SECONDS = 60.0  # refusals are logged once a minute, with their count: never a line per connection
RETRY_AFTER_SECONDS = 5  # what a refused connection is told
BACKLOG = 128  # connections the system queues for accepting (and the most accepted in one go)
PAUSE_SECONDS = 0.1  # accepting pauses this long when the system has no descriptor left to accept with
DESCRIPTOR_DIRS = ("/proc/self/fd", "/dev/fd")


@dataclass(frozen=True, slots=True)
class WebLimits:
    """The venue server's limits (``WEB_*`` settings; see :meth:`from_settings`). A value ``0`` disables a cap."""

    max_connections: int = 512
    max_connections_per_address: int = 128
    max_streams: int = 256
    max_streams_per_address: int = 64
    header_timeout: float = 10.0
    idle_timeout: float = 15.0
    stream_write_timeout: float = 30.0
    fd_reserve: int = 512
    trusted_proxies: frozenset[str] = field(default_factory=lambda: frozenset({"127.0.0.1", "::1"}))

    @classmethod
    def from_settings(cls, settings: Settings) -> WebLimits:
        proxies = frozenset(p.strip() for p in settings.web_trusted_proxies.split(",") if p.strip())
        return cls(
            max_connections=settings.web_max_connections,
            max_connections_per_address=settings.web_max_connections_per_address,
            max_streams=settings.web_max_streams,
            max_streams_per_address=settings.web_max_streams_per_address,
            header_timeout=settings.web_header_timeout,
            idle_timeout=settings.web_idle_timeout,
            fd_reserve=settings.web_fd_reserve,
            trusted_proxies=proxies,
        )

    @classmethod
    def unlimited(cls) -> WebLimits:
        """No cap, no reserve, no header time-out, aiohttp's 75 s keep-alive (the tests' and benchmark's "as
        found" server)."""
        return cls(0, 0, 0, 0, header_timeout=0.0, idle_timeout=75.0, stream_write_timeout=0.0, fd_reserve=0,
                   trusted_proxies=frozenset())  # fmt: skip


def open_descriptors() -> int | None:
    """The process's open file descriptors (None where the system does not list them). Listing them needs a
    descriptor too: when none is left, that is the answer (the limit)."""
    for path in DESCRIPTOR_DIRS:
        try:
            return len(os.listdir(path)) - 1  # the listing's own descriptor
        except FileNotFoundError:
            continue
        except OSError:  # EMFILE: not even one left
            return descriptor_limit()
    return None


def descriptor_limit() -> int | None:
    """The ``RLIMIT_NOFILE`` soft limit (None: unlimited or unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


class Descriptors:
    """Whether one more connection leaves ``reserve`` descriptors free. Between re-counts the count follows the
    web's own connections (admitted: +1, closed: -1); what the rest of the process opens meanwhile is seen at the
    next re-count, a quarter of a second later at most — the reserve is there for it."""

    def __init__(
        self,
        reserve: int,
        *,
        count: Callable[[], int | None] = open_descriptors,
        limit: Callable[[], int | None] = descriptor_limit,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reserve = reserve
        self._count, self._limit, self._now = count, limit, monotonic
        self._estimate: int | None = None
        self._counted_at = -1e9
        self.peak = 0  # the highest count read (the measurements report it)

    def ceiling(self) -> int | None:
        """The most descriptors the process may hold with the web's connections (None: no reserve applies)."""
        limit = self._limit()
        if self.reserve <= 0 or limit is None:
            return None
        return limit - self.reserve

    def room(self) -> bool:
        """Whether the socket just accepted may stay: the process's descriptors, it included, within the ceiling.
        Refused, it is closed at once (the caller's part)."""
        ceiling = self.ceiling()
        if ceiling is None:
            return True
        now = self._now()
        if self._estimate is None or now - self._counted_at >= RECOUNT_SECONDS:
            counted = self._count()
            if counted is None:
                return True
            self._estimate, self._counted_at = counted, now  # the new socket included
            self.peak = max(self.peak, counted)
        else:
            self._estimate += 1
        if self._estimate > ceiling:
            self._estimate -= 1
            return False
        return True

    def closed(self) -> None:
        """A connection admitted by :meth:`room` was closed."""
        if self._estimate is not None:
            self._estimate -= 1


class ConnectionGate:
    """Admission of the server's connections: the descriptor reserve first, then the total and per-address caps."""

    def __init__(self, limits: WebLimits, *, descriptors: Descriptors | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.limits = limits
        self.descriptors = descriptors or Descriptors(limits.fd_reserve)
        self._now = monotonic
        self.open = 0
        self.peak = 0
        self._by_address: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()  # reason → connections refused since start
        self._unreported: Counter[str] = Counter()
        self._warned_at = -1e9

    def admit(self, address: str) -> str | None:
        """None when the connection is admitted (then :meth:`release` it once), else why it is refused:
        ``descriptors``, ``connections`` or ``address``."""
        limits = self.limits
        reason: str | None = None
        counted = address not in limits.trusted_proxies
        if limits.max_connections and self.open >= limits.max_connections:
            reason = "connections"
        elif (
            counted
            and limits.max_connections_per_address
            and (self._by_address[address] >= limits.max_connections_per_address)
        ):
            reason = "address"
        elif not self.descriptors.room():
            reason = "descriptors"
        if reason is not None:
            self._refuse(reason)
            return reason
        self.open += 1
        self.peak = max(self.peak, self.open)
        if counted:
            self._by_address[address] += 1
        return None

    def no_descriptor(self) -> None:
        """The system had no descriptor to accept a connection with (another part of the process took them)."""
        self._refuse("descriptors")

    def release(self, address: str) -> None:
        self.open -= 1
        self.descriptors.closed()
        if address in self._by_address:
            self._by_address[address] -= 1
            if self._by_address[address] <= 0:
                del self._by_address[address]

    def _refuse(self, reason: str) -> None:
        self.refused[reason] += 1
        self._unreported[reason] += 1
        now = self._now()
        if now - self._warned_at >= WARN_EVERY_SECONDS:
            self._warned_at = now
            counts = ", ".join(f"{n} ({why})" for why, n in sorted(self._unreported.items()))
            self._unreported.clear()
            log.warning("venue pages: connections refused: %s; %d open (limits: WEB_MAX_CONNECTIONS=%d, "
                        "WEB_MAX_CONNECTIONS_PER_ADDRESS=%d, WEB_FD_RESERVE=%d)", counts, self.open,
                        self.limits.max_connections, self.limits.max_connections_per_address,
                        self.limits.fd_reserve)  # fmt: skip

    def stats(self) -> dict[str, Any]:
        return {"open": self.open, "peak": self.peak, "refused": dict(self.refused),
                "descriptors_peak": self.descriptors.peak}  # fmt: skip


class StreamGate:
    """The live streams' cap, in total and per viewer address (behind a trusted proxy: the address it forwards)."""

    def __init__(self, limits: WebLimits) -> None:
        self.limits = limits
        self.open = 0
        self.peak = 0
        self.refused = 0
        self._by_address: Counter[str] = Counter()

    def enter(self, address: str) -> bool:
        limits = self.limits
        full = bool(limits.max_streams) and self.open >= limits.max_streams
        if not full and limits.max_streams_per_address:
            full = self._by_address[address] >= limits.max_streams_per_address
        if full:
            self.refused += 1
            return False
        self.open += 1
        self.peak = max(self.peak, self.open)
        self._by_address[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open -= 1
        self._by_address[address] -= 1
        if self._by_address[address] <= 0:
            del self._by_address[address]

    def stats(self) -> dict[str, int]:
        return {"open": self.open, "peak": self.peak, "refused": self.refused}


def viewer_address(peer: str | None, forwarded_for: str | None, trusted: frozenset[str]) -> str:
    """Who a request comes from: the peer, or the last address a trusted proxy appended to ``X-Forwarded-For``."""
    peer = peer or "?"
    if peer in trusted and forwarded_for:
        last = forwarded_for.rsplit(",", 1)[-1].strip()
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_address(last))
    return peer


def plain_answer(status: int, headers: Mapping[str, str], *, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer, written before any request is read: ``503: Service Unavailable`` and the headers."""
    phrase = HTTPStatus(status).phrase
    body = f"{status}: {phrase}".encode()
    lines = [f"HTTP/1.1 {status} {phrase}", "Content-Type: text/plain; charset=utf-8",
             f"Content-Length: {len(body)}", "Cache-Control: no-store", "Connection: close"]  # fmt: skip
    if retry_after is not None:
        lines.append(f"Retry-After: {retry_after}")
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class GuardedConnection(RequestHandler):
    """aiohttp's connection handler, counted by the gate, with a deadline for its first request's headers and an
    error answer (400, 500) that carries the security headers and never echoes the request."""

    def __init__(self, manager: web.Server, *, gate: ConnectionGate, address: str, headers: Mapping[str, str],
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(manager, **kwargs)
        self._gate, self._address, self._headers = gate, address, headers
        self._deadline: asyncio.TimerHandle | None = None
        self._released = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        timeout = self._gate.limits.header_timeout
        if timeout > 0:
            self._deadline = asyncio.get_running_loop().call_later(timeout, self._too_slow)

    def request_seen(self) -> None:
        """A whole request reached the application: the header deadline is met."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        log.debug("venue pages: %s sent no whole request in %.0f s; closed", self._address,
                  self._gate.limits.header_timeout)  # fmt: skip
        self.force_close()

    def give_back(self) -> None:
        """The connection's place in the gate, given back once."""
        if not self._released:
            self._released = True
            self._gate.release(self._address)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.give_back()
        super().connection_lost(exc)

    def handle_error(
        self, request: BaseRequest, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        if status >= 500:
            log.error("venue pages: a %s request failed", request.method, exc_info=exc)  # no path: it holds the key
        else:  # a malformed request: the client's doing, one debug line (never the request's text in the answer)
            log.debug("venue pages: bad request from %s: %s", request.remote, exc)
        if request.writer.output_size > 0:
            raise ConnectionError("the answer had begun: the connection is closed instead")
        response = web.Response(status=status, text=f"{status}: {HTTPStatus(status).phrase}", headers=self._headers)
        response.force_close()
        return response


class GuardedSite(web.BaseSite):
    """A TCP site with its own accept loop: each accepted socket passes the :class:`ConnectionGate` before asyncio
    sees it. Admitted, it is served by a :class:`GuardedConnection`; refused, it is answered the fixed 503 and closed
    at once, in the same call (no socket waits in the loop to be refused: the descriptor count is exact). When the
    system has no descriptor even to accept with, accepting pauses for :data:`PAUSE_SECONDS`."""

    __slots__ = ("_bound", "_host", "_listening", "_port", "_starting", "gate", "headers", "refusal")

    def __init__(self, runner: web.BaseRunner, host: str, port: int, *, gate: ConnectionGate,
                 headers: Mapping[str, str], backlog: int = BACKLOG) -> None:  # fmt: skip
        super().__init__(runner, backlog=backlog)
        self._host, self._port = host, port
        self._bound: int | None = None
        self._listening: list[socket.socket] = []
        self._starting: set[asyncio.Task[None]] = set()  # admitted sockets being handed to asyncio
        self.gate = gate
        self.headers = dict(headers)
        self.refusal = plain_answer(503, self.headers, retry_after=RETRY_AFTER_SECONDS)

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def port(self) -> int:
        return self._bound if self._bound is not None else self._port

    def _handler(self, address: str) -> GuardedConnection:
        server = self._runner.server
        assert server is not None
        # as aiohttp's Server.__call__ builds its handler, with the runner's keyword arguments (time-outs, logs)
        return GuardedConnection(server, gate=self.gate, address=address, headers=self.headers,
                                 loop=server._loop, **server._kwargs)  # fmt: skip

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(self._host or None, self._port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)  # fmt: skip
        seen = set()
        try:
            for family, kind, proto, _, address in infos:
                if (family, address) in seen:
                    continue
                seen.add((family, address))
                sock = socket.socket(family, kind, proto)
                self._listening.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
                sock.listen(self._backlog)
                sock.setblocking(False)
        except OSError:
            self._close_listening()
            raise
        for sock in self._listening:
            loop.add_reader(sock.fileno(), self._accept, sock)
        if self._listening:
            self._bound = int(self._listening[0].getsockname()[1])

    def _accept(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(self._backlog):
            try:
                conn, peer = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    self.gate.no_descriptor()
                    loop.remove_reader(sock.fileno())
                    loop.call_later(PAUSE_SECONDS, self._resume, sock)
                    return
                continue  # ECONNABORTED and the like: that client is gone
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if self.gate.admit(address) is not None:
                self._refuse(conn)
                continue
            conn.setblocking(False)
            task = loop.create_task(self._serve(conn, address))
            self._starting.add(task)
            task.add_done_callback(self._starting.discard)

    def _resume(self, sock: socket.socket) -> None:
        if sock in self._listening:
            asyncio.get_running_loop().add_reader(sock.fileno(), self._accept, sock)

    def _refuse(self, conn: socket.socket) -> None:
        """The fixed 503, and the socket closed now (its request, when already here, read first: closing on unread
        data would reset the connection before the client reads the answer)."""
        with contextlib.suppress(OSError):
            conn.setblocking(False)
            conn.recv(65536)
        with contextlib.suppress(OSError):
            conn.send(self.refusal)
        conn.close()

    async def _serve(self, conn: socket.socket, address: str) -> None:
        handler = self._handler(address)
        try:
            await asyncio.get_running_loop().connect_accepted_socket(lambda: handler, conn)
        except OSError:
            conn.close()
            handler.give_back()

    def _close_listening(self) -> None:
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            for sock in self._listening:
                loop.remove_reader(sock.fileno())
        for sock in self._listening:
            sock.close()
        self._listening = []

    async def stop(self) -> None:
        self._close_listening()
        await super().stop()
