"""The rules desk (BOT-RUL-1): ``/rule`` finds the articles that answer a question, in our own words, with the
rulebook's reference; "More" shows the next ones; a referee can post and pin the answer in a table's thread."""

from __future__ import annotations

from bot.cogs._bot import StewardBot
from bot.cogs.rulebook.commands import MoreArticles, RuleCog


async def setup(bot: StewardBot) -> None:
    bot.add_dynamic_items(MoreArticles)
    await bot.add_cog(RuleCog(bot))
