"""The application's shared keys: the venue pages' limits and live streams, which the report page uses too."""

from __future__ import annotations

from aiohttp import web

from bot.web.limits import StreamGate, WebLimits

LIMITS: web.AppKey[WebLimits] = web.AppKey("venue_limits", WebLimits)
STREAMS: web.AppKey[StreamGate] = web.AppKey("venue_streams", StreamGate)
