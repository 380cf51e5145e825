"""Schedules (BOT-SCH-1): ``/schedule …`` for organizers, the runner that delivers the rows (``runner``), the round's
Discord event (``events``) and how it all reads (``texts``)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.schedule.commands import AnnounceCog, ScheduleCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(ScheduleCog(bot))
    await bot.add_cog(AnnounceCog(bot))
