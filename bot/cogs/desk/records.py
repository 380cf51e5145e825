"""/record and /appeal — a player reads their own sanctions (referees: anyone's) and appeals one to the head
referee within the preset's window (BOT-SAN-1, BOT-SAN-3, RR-REF-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, send, tr
from bot.cogs._params import Player, Tournament
from bot.cogs._transformers import CaseNumber
from bot.cogs.desk.embeds import case_embed
from bot.present.markup import safe
from bot.present.sanctions import case_line

RECORD_BUDGET = 3900


class RecordCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="record")
    @app_commands.guild_only()
    @app_commands.describe(
        tournament="The tournament",
        player="Another player's record (referees)",
        member="Or the server member (referees)",
    )
    async def record(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player | None = None,
        member: discord.Member | None = None,
    ) -> None:
        """Your sanctions in a tournament (referees can read anyone's)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        views = await self.bot.services.sanctions.record_of(
            actor, tournament=tournament, player=player, user_id=member.id if member else None
        )
        locale = locale_of(interaction)
        lines = [case_line(v, locale) for v in views]
        text = "\n".join(lines)[:RECORD_BUDGET] or tr(interaction, "sanction.record_clean")
        name = views[0].player_name if views else (player or (member.display_name if member else actor.display_name))
        title = tr(interaction, "sanction.record_title", player=safe(name), tournament=safe(tournament))
        await send(interaction, embed=embed(title, text), ephemeral=True)

    @app_commands.command(name="appeal")
    @app_commands.guild_only()
    @app_commands.describe(case="The case number of your sanction", reason="Why the decision should change")
    async def appeal(
        self,
        interaction: discord.Interaction[StewardBot],
        case: CaseNumber,
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        """Appeal one of your sanctions to the head referee."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.sanctions.appeal(actor, case_number=case, reason=reason)
        card = case_embed(view, locale_of(interaction))
        await send(interaction, tr(interaction, "sanction.appealed", case=view.case_number), embed=card, ephemeral=True)
