"""/register and /players — players sign up; anyone lists a tournament's players (BOT-REG-1)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._common import actor_of, embed, safe, send, tr

PLAYER_LIST_BUDGET = 3900  # characters of one embed description we allow ourselves (Discord max 4096)


async def tournament_autocomplete(
    interaction: discord.Interaction[StewardBot], current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    found = await interaction.client.services.tournaments.list(interaction.guild_id, name_prefix=current, limit=25)
    return [app_commands.Choice(name=t.name[:100], value=t.name[:100]) for t in found]


class RegistrationCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="register")
    @app_commands.guild_only()
    @app_commands.describe(
        tournament="The tournament to join",
        name="Your name as it will appear in tables and standings",
        club="Your club (players of the same club are kept apart in draws)",
        team="Your team, where the tournament plays in teams",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def register(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: app_commands.Range[str, 1, 100],
        name: app_commands.Range[str, 1, 64],
        club: app_commands.Range[str, 1, 64] | None = None,
        team: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Register for a tournament."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.bot.services.registrations.register(
            actor, tournament=tournament, display_name=name, club=club, team=team
        )
        key = "register.waitlisted" if outcome.waitlisted else "register.done"
        text = tr(
            interaction,
            key,
            name=safe(outcome.registration.display_name),
            tournament=safe(outcome.tournament_name),
            count=outcome.active_count,
            cap=outcome.cap or "∞",
        )
        await send(interaction, text, ephemeral=True)

    @app_commands.command(name="players")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament whose players to list")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def players(
        self, interaction: discord.Interaction[StewardBot], tournament: app_commands.Range[str, 1, 100]
    ) -> None:
        """List the players registered to a tournament."""
        guild_id = actor_of(interaction).guild_id
        await interaction.response.defer(thinking=True)
        listing = await self.bot.services.registrations.list_players(guild_id, tournament=tournament)
        lines: list[str] = []
        shown = 0
        used = 0
        for index, p in enumerate(listing.players, start=1):
            extra = " · ".join(safe(x) for x in (p.club, p.team) if x)
            status = tr(interaction, f"status.{p.status}")
            line = f"`{index:>3}` **{safe(p.display_name)}**" + (f" — {extra}" if extra else "") + f" · {status}"
            if used + len(line) + 1 > PLAYER_LIST_BUDGET:
                break
            lines.append(line)
            used += len(line) + 1
            shown += 1
        if shown < len(listing.players):
            lines.append(tr(interaction, "players.more", count=len(listing.players) - shown))
        if not listing.players:
            lines.append(tr(interaction, "players.none"))
        summary = ", ".join(
            f"{tr(interaction, f'status.{status}')}: {count}" for status, count in sorted(listing.counts.items())
        )
        card = embed(tr(interaction, "players.title", tournament=safe(listing.tournament_name)), "\n".join(lines))
        if summary:
            card.set_footer(text=summary[:2048])
        await send(interaction, embed=card)


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(RegistrationCog(bot))
