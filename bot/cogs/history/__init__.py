"""A club's past in: /history import (a whole-tournament export or a ModuloTorneo workbook as a finished tournament)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.history.commands import HistoryCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(HistoryCog(bot))
