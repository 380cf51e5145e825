"""The adjudicators (BOT-RUL-1): ``/risiko battle|odds|limit|cards`` and ``/rr verify|solve`` (with the board
drawn) answer with the engine's numbers and the article
they apply; during a live round only referees and organizers may ask."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.adjudicators.ricochet import RicochetCog
from bot.cogs.adjudicators.risiko import RisikoCog, ScoreCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(RisikoCog(bot))
    await bot.add_cog(RicochetCog(bot))
    await bot.add_cog(ScoreCog(bot))
