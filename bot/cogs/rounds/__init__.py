"""Rounds: draws and their changes, publication, semifinals and final, and reading the tables.

- ``draws``: /round (organizers) — draw, redraw, swap, move, publish, plan, close
- ``finals``: /finals (organizers) — semifinals, final, decline
- ``tables``: /tables and /my-table (everyone)
- ``publishing``, ``replies``, ``text``: the Discord side of publication and the texts and images of a round
"""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.rounds.draws import RoundCog
from bot.cogs.rounds.finals import FinalsCog
from bot.cogs.rounds.tables import TablesCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(RoundCog(bot))
    await bot.add_cog(FinalsCog(bot))
    await bot.add_cog(TablesCog(bot))
