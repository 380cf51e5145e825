"""Server-sent events, as the venue pages and the report pages stream them: the response's headers, one event's
bytes, and a writer that lets a viewer who stops reading hold its socket no longer than the limits say."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiohttp import web

HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}


def event(name: str, body: bytes | str) -> bytes:
    """One event: its name and one line of data."""
    raw = body if isinstance(body, bytes) else body.encode()
    return b"event: " + name.encode() + b"\ndata: " + raw + b"\n\n"


async def open_stream(
    request: web.Request, write_timeout: float
) -> tuple[web.StreamResponse, Callable[[bytes], Awaitable[None]]]:
    """The prepared stream and its writer: a write waits at most ``write_timeout`` seconds (0: no limit), then
    raises ``TimeoutError`` (the caller lets the socket go)."""
    response = web.StreamResponse(headers=HEADERS)
    await response.prepare(request)

    async def send(chunk: bytes) -> None:
        if write_timeout > 0:
            await asyncio.wait_for(response.write(chunk), timeout=write_timeout)
        else:
            await response.write(chunk)

    return response, send
