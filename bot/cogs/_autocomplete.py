"""Autocomplete callbacks shared by the cogs: tournament names and the players of the chosen tournament."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import StewardBot
from bot.errors import UserFacingError

CHOICES_MAX = 25  # Discord: at most 25 suggestions


async def tournament_autocomplete(
    interaction: discord.Interaction[StewardBot], current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    found = await interaction.client.services.tournaments.list(
        interaction.guild_id, name_prefix=current, limit=CHOICES_MAX
    )
    return [app_commands.Choice(name=t.name[:100], value=t.name[:100]) for t in found]


async def player_autocomplete(
    interaction: discord.Interaction[StewardBot], current: str
) -> list[app_commands.Choice[str]]:
    """Players of the tournament chosen in the same command; no suggestions (never an error) otherwise."""
    tournament = getattr(interaction.namespace, "tournament", None)
    if interaction.guild_id is None or not tournament:
        return []
    try:
        names = await interaction.client.services.registrations.player_names(
            interaction.guild_id, tournament=str(tournament), prefix=current
        )
    except UserFacingError:
        return []
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:CHOICES_MAX]]
