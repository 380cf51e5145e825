"""Presence: players check in or forfeit a game (/checkin, /forfeit); referees record a late arrival (/arrival)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.checkin.commands import CheckInCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(CheckInCog(bot))
