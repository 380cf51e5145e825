"""The final phase as a bracket image (BOT-IMG-1, TOUR-SF-1, TOUR-FIN-1), posted with the final's announcement: the
semifinal tables with their winners, the final's players and seeds (ranks in the standings)."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.errors import UserFacingError
from bot.present.bracket import bracket_file_names, bracket_pages, bracket_render_data
from bot.services.access import Actor
from bot.services.reports import ReportView, TableRef
from bot.services.rounds import RoundView

if TYPE_CHECKING:
    from bot.cogs._bot import StewardBot

log = logging.getLogger(__name__)


async def final_bracket(bot: StewardBot, guild_id: int, final: RoundView, locale: str) -> list[discord.File]:
    """The bracket's pages (the phone rule of ``renderer.pages``) for a final round; none when there are no
    semifinals to show (a final without them)."""
    reader = Actor(guild_id=guild_id, user_id=0, locale=locale)  # reads what any player may read
    services = bot.services
    try:
        semis = await services.rounds.show(reader, tournament=final.tournament_name, number=final.number - 1)
        if semis.kind != "semifinal":
            return []
        reports: list[ReportView | None] = [
            await services.reports.lookup(reader, TableRef(final.tournament_name, tb.number, semis.number))
            for tb in semis.tables
        ]
        standings = await services.standings.compute(guild_id, final.tournament_name)
    except UserFacingError as exc:  # no semifinal round to draw: the announcement goes out without a bracket
        log.info("no bracket for %s: %s", final.tournament_name, exc)
        return []
    seeds = {line.name: line.rank for line in standings.lines}
    date = services.clock().date().isoformat()
    data = bracket_render_data(semis, reports, final, None, seeds, date=date)
    pages = await bracket_pages(data, locale)
    names = bracket_file_names(final.number, len(pages))
    return [discord.File(io.BytesIO(png), filename=name) for name, png in zip(names, pages, strict=True)]
