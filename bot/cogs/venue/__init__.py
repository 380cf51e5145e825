"""The venue page: /venue link posts the tournament's live page, /venue revoke makes a new link (organizers)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.venue.commands import VenueCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(VenueCog(bot))
