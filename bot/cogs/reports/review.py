"""/review countersign|correct — referees countersign a signed report (the table locks) and correct reports,
also locked ones, with the reason audited (TOUR-REF-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._common import actor_of, locale_of, send
from bot.cogs._params import REFEREE_COMMANDS, RoundNumber, TableNumber, Tournament
from bot.cogs.reports.buttons import publish_report
from bot.cogs.reports.embeds import report_embed
from bot.cogs.reports.modal import ReportModal
from bot.services.reports import TableRef


class ReviewCog(commands.Cog):
    review = app_commands.Group(
        name="review",
        description="Referees countersign and correct match reports",
        guild_only=True,
        default_permissions=REFEREE_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @review.command(name="countersign")
    @app_commands.describe(tournament="The tournament", table="Table number", round="Round (default: the latest)")
    async def countersign(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        round: RoundNumber | None = None,
    ) -> None:
        """Countersign a report signed by every player; the table locks (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.reports.countersign(actor, TableRef(tournament, table, round))
        await send(interaction, embed=report_embed(view, locale_of(interaction)))

    @review.command(name="correct")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        reason="Why (kept in the audit log)",
        situation="Final situation as JSON (players, territories)",
        round="Round (default: the latest)",
    )
    async def correct(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        reason: app_commands.Range[str, 1, 500],
        situation: app_commands.Range[str, 2, 6000] | None = None,
        round: RoundNumber | None = None,
    ) -> None:
        """Correct a report, also a locked one; logged with before/after (referees)."""
        actor = actor_of(interaction)
        ref = TableRef(tournament, table, round)
        reports = self.bot.services.reports
        if situation is None:
            view = await reports.correction_sheet(actor, ref)
            await interaction.response.send_modal(ReportModal(view, locale_of(interaction), reason=reason))
            return
        await interaction.response.defer(thinking=True)
        view = await reports.correct(actor, ref, reason=reason, situation=situation)
        await publish_report(interaction, view)
