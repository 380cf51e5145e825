"""Paper: /print round and /print standings — the A4 PDF kit for the venue (organizers and referees)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.paper.commands import PaperCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(PaperCog(bot))
