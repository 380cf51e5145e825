"""The referee's desk: sanctions with the preset's ladder (/sanction, referees and the head referee), a player's
record and appeals (/record, /appeal).

- ``sanctions``: /sanction give|revoke|decide, /sanctions list|export and the confirmation view
- ``records``: /record, /appeal
- ``params``: the infraction and sanction-kind options; ``texts``: how a proposal and a case read
"""

from __future__ import annotations

from bot.app import StewardBot
from bot.cogs.desk.records import RecordCog
from bot.cogs.desk.sanctions import SanctionCog, SanctionsLogCog


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(SanctionCog(bot))
    await bot.add_cog(SanctionsLogCog(bot))
    await bot.add_cog(RecordCog(bot))
