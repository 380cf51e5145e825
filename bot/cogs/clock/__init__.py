"""Game clocks (BOT-SCH-2): ``/clock start|pause|resume|status`` for referees and ``/endgame turn|roll|pass|out``
for the table (``commands``), and how a clock and the end-of-game tracker read (``texts``)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.clock.commands import ClockCog, EndgameCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(ClockCog(bot))
    await bot.add_cog(EndgameCog(bot))
