"""Text for Discord's markdown, without a client: user text made inert (no markdown, no pings) and instants as
Discord timestamps (every reader sees their own time zone). The cogs, the scheduler and the present modules share
these, so a name reads the same in a reply, an announcement and a reminder."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from discord.utils import escape_markdown, escape_mentions

ROME = ZoneInfo("Europe/Rome")  # the clubs' wall clock, where a date is printed without Discord's help


def safe(text: str | None) -> str:
    """User text shown in a message: markdown and mentions neutralised (pings are also off bot-wide)."""
    if not text:
        return ""
    return escape_mentions(escape_markdown(text))


def no_pings(text: str) -> str:
    """Text whose markdown is the author's own (an organizer's announcement) but whose mentions ping nobody."""
    return escape_mentions(text)


def discord_timestamp(when: datetime, style: str = "f") -> str:
    """``<t:…:style>``: Discord shows the instant in each reader's own time zone and language."""
    return f"<t:{int(when.timestamp())}:{style}>"


def when(dt: datetime) -> str:
    """Absolute and relative Discord timestamps: every reader sees their own time zone."""
    return f"{discord_timestamp(dt, 'F')} ({discord_timestamp(dt, 'R')})"
