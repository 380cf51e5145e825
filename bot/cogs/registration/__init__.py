"""Registration: players sign up and withdraw (/register, /players, /withdraw); organizers manage the list
(/player)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.registration.manage import PlayerCog, ReplaceCog
from bot.cogs.registration.players import RegistrationCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(RegistrationCog(bot))
    await bot.add_cog(PlayerCog(bot))
    await bot.add_cog(ReplaceCog(bot))
