"""/tournament … — organizers create tournaments (BOT-REG-1, BOT-ROLE-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._common import actor_of, discord_timestamp, embed, parse_local_datetime, safe, send, tr
from bot.rules.presets import PRESET_NAMES

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Create and manage tournaments", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @tournament.command(name="create")
    @app_commands.describe(
        name="Name of the tournament (unique in this server)",
        preset="The rulebook the tournament follows",
        cap="Maximum number of players; later registrations go to the waitlist",
        deadline="Registration deadline, Italian time: YYYY-MM-DD HH:MM",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[StewardBot],
        name: app_commands.Range[str, 1, 100],
        preset: app_commands.Choice[str],
        cap: app_commands.Range[int, 2, 2000] | None = None,
        deadline: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Create a tournament with a ruleset preset (organizers)."""
        actor = actor_of(interaction)
        when = parse_local_datetime(deadline)
        await interaction.response.defer(thinking=True)
        created = await self.bot.services.tournaments.create(
            actor, name=name, preset=preset.value, cap=cap, registration_deadline=when
        )
        lines = [
            tr(interaction, "tournament.created.preset", preset=tr(interaction, f"choice.{created.preset}")),
            tr(interaction, "tournament.created.cap", cap=created.cap)
            if created.cap
            else tr(interaction, "tournament.created.no_cap"),
        ]
        if created.registration_deadline:
            lines.append(
                tr(interaction, "tournament.created.deadline", when=discord_timestamp(created.registration_deadline))
            )
        lines.append(tr(interaction, "tournament.created.next", name=safe(created.name)))
        await send(
            interaction,
            embed=embed(tr(interaction, "tournament.created.title", name=safe(created.name)), "\n".join(lines)),
        )


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(TournamentCog(bot))
