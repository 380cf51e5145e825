"""/checkin, /forfeit and /arrival — presence at each game, lateness and one-game forfeits (BOT-REG-4,
BOT-REG-3, RR-LATE-1, FIRK-LATE-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, send, tr
from bot.cogs._params import Player, Tournament, player_ref
from bot.present.markup import discord_timestamp, safe
from bot.services.checkins import CheckInView


def describe(interaction: discord.Interaction[StewardBot], view: CheckInView) -> str:
    params = {
        "name": safe(view.player_name),
        "tournament": safe(view.tournament_name),
        "round": view.round_number,
        "minutes": view.minutes_late,
        "when": discord_timestamp(view.at, "t"),
        "cards": view.cards_forfeited,
        "limit": view.limit_minutes,
    }
    line = tr(interaction, f"checkin.{view.status}", **params)
    if view.consequence:
        line += "\n" + tr(interaction, f"checkin.consequence.{view.consequence}", **params)
    if view.case_number is not None:
        line += "\n" + tr(interaction, "checkin.sanction_logged", case=view.case_number)
    return line


class CheckInCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="checkin")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament you are playing")
    async def checkin(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Check in for the current game of a tournament."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.checkins.check_in(actor, tournament=tournament)
        await send(interaction, describe(interaction, view), ephemeral=True)

    @app_commands.command(name="forfeit")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament whose current game you give up")
    async def forfeit(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Forfeit the current game (you stay in the tournament)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.checkins.forfeit(actor, tournament=tournament)
        await send(interaction, describe(interaction, view), ephemeral=True)

    @app_commands.command(name="arrival")
    @app_commands.guild_only()
    @app_commands.default_permissions(moderate_members=True)  # referees; the service checks the role
    @app_commands.describe(
        tournament="The tournament",
        player="The player's name",
        member="Or the server member",
    )
    async def arrival(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player | None = None,
        member: discord.Member | None = None,
    ) -> None:
        """Mark a player arrived; lateness is computed from the game's start (organizers, referees)."""
        actor = actor_of(interaction)
        ref = player_ref(player, member)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.checkins.mark_arrival(
            actor, tournament=tournament, name=ref.name, user_id=ref.user_id
        )
        await send(interaction, describe(interaction, view))
