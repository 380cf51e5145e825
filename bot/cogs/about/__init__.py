"""/about: the bot's version, its presets and the project's home, privately, in the member's language."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.about.commands import AboutCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(AboutCog(bot))
