"""The venue page's JSON as the web layer writes it, for tests that read a tournament's page by its token."""

from __future__ import annotations

from typing import Any

from bot.web.venue_data import VenueSnapshot, snapshot_of


async def venue_snapshot(services: Any, token: str) -> VenueSnapshot | None:
    """What ``VenueHub`` builds for ``token``: the service's page view written as the page's JSON (None: no page)."""
    page = await services.venue.page(token)
    return snapshot_of(page) if page is not None else None
