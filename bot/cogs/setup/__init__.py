"""Server setup (administrators): /setup roles maps the staff roles and the announcement channel."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.setup.commands import SetupCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(SetupCog(bot))
