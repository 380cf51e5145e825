"""Standings: /standings show (image and text) and /standings export (CSV)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.standings.commands import StandingsCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(StandingsCog(bot))
