"""Tournaments: organizers create and manage them (/tournament, /roster), and delete a test one (its Confirm button);
everyone reads them (/tournaments)."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.tournaments.browse import TournamentsCog
from bot.cogs.tournaments.deletion import ConfirmDelete
from bot.cogs.tournaments.manage import TournamentCog
from bot.cogs.tournaments.roster import RosterCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(TournamentCog(bot))
    await bot.add_cog(TournamentsCog(bot))
    await bot.add_cog(RosterCog(bot))
    bot.add_dynamic_items(ConfirmDelete)
