"""The referee's desk: sanctions with the preset's ladder (/sanction, referees and the head referee), a player's
record and appeals (/record, /appeal).

- ``sanctions``: /sanction give|revoke|decide, /sanctions list|export and the proposal's menu and Confirm button
- ``records``: /record, /appeal
- ``latecomers``: /sanctions latecomers and its Apply buttons (the lateness step for the minutes gone by)
- ``calls``: /referee and the table thread's call button, "I'm on it" for referees (BOT-RUL-2)
- ``params``: the infraction and sanction-kind options; ``texts``: how a proposal and a case read
"""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.desk.calls import CallButton, CallCog, ClaimButton
from bot.cogs.desk.latecomers import ApplyLateness
from bot.cogs.desk.records import RecordCog
from bot.cogs.desk.sanctions import ConfirmProposal, PickKind, SanctionCog, SanctionsLogCog


async def setup(bot: StewardBot) -> None:
    bot.add_dynamic_items(CallButton, ClaimButton, ApplyLateness, PickKind, ConfirmProposal)
    await bot.add_cog(SanctionCog(bot))
    await bot.add_cog(SanctionsLogCog(bot))
    await bot.add_cog(RecordCog(bot))
    await bot.add_cog(CallCog(bot))
