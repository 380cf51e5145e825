"""Match reports: entered by the table (/report), signed by every player (buttons), countersigned and corrected
by referees (/review); /my-games lists a player's tables.

- ``commands``: /report enter|situation, /my-games  - ``review``: /review countersign|correct (referees)
- ``buttons``: the report message and its Sign / Countersign buttons  - ``modal``: the result form
- ``embeds``: the report and /my-games as embeds
"""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.reports.buttons import CountersignButton, SignButton
from bot.cogs.reports.commands import ReportCog
from bot.cogs.reports.review import ReviewCog


async def setup(bot: StewardBot) -> None:
    bot.add_dynamic_items(SignButton, CountersignButton)
    await bot.add_cog(ReportCog(bot))
    await bot.add_cog(ReviewCog(bot))
