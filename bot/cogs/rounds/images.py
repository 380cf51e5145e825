"""A round's table cards as Discord attachments (the words are in ``bot.present.rounds``)."""

from __future__ import annotations

import io
from datetime import datetime

import discord

from bot.present.tables import table_pages
from bot.services.rounds import RoundView


async def table_images(view: RoundView, locale: str, *, now: datetime) -> list[discord.File]:
    """The table cards as PNG attachments, rendered off the event loop."""
    pages = await table_pages(view, locale, now=now)
    return [discord.File(io.BytesIO(png), filename=f"tavoli-{view.number}-{i}.png") for i, png in enumerate(pages, 1)]
