"""Seasons: /season create, attach, show, export and sanction (NP project points, FIRK's annual ranking); a club's own
point scheme and ranked one-off games: /season scheme, event, game and void."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.season.commands import SeasonCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(SeasonCog(bot))
