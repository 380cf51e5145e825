"""/finals … — the organizer seeds the semifinals, composes the final and records a finalist's decline
(TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._common import actor_of
from bot.cogs._params import ORGANIZER_COMMANDS, Player, Tournament
from bot.cogs.rounds.replies import preview


class FinalsCog(commands.Cog):
    finals = app_commands.Group(
        name="finals",
        description="Semifinals and final (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @finals.command(name="semifinals")
    @app_commands.describe(
        tournament="The tournament", tables="Number of semifinal tables (3: rank 1 goes to the final)"
    )
    async def semifinals(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        tables: app_commands.Range[int, 3, 4] | None = None,
    ) -> None:
        """Seed the semifinals from the standings in bands (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.seed_semifinals(actor, tournament=tournament, tables=tables)
        await preview(interaction, view, "round.semifinals.title")

    @finals.command(name="final")
    @app_commands.describe(tournament="The tournament")
    async def final(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Compose the final from the semifinal results (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.compose_final(actor, tournament=tournament)
        await preview(interaction, view, "round.final.title")

    @finals.command(name="decline")
    @app_commands.describe(tournament="The tournament", player="The finalist who declines")
    async def decline(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player,
    ) -> None:
        """A finalist declines: the final is recomposed with the replacement chain (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.decline(actor, tournament=tournament, player=player)
        await preview(interaction, view, "round.declined.title")
