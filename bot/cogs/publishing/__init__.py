"""National publishing: /publishing settings|player|me|check (ModuloTorneo, the national RisiKo! ranking)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.publishing.commands import PublishingCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(PublishingCog(bot))
