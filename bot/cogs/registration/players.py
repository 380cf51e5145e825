"""/register, /players, /withdraw — players sign up, read the list and withdraw (BOT-REG-1, BOT-REG-3; the
waitlist of BOT-REG-2)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, send, tr
from bot.cogs._errors import slash
from bot.cogs._params import Tournament
from bot.present.markup import safe
from bot.services.registrations import WithdrawalOutcome

PLAYER_LIST_BUDGET = 3900  # characters of one embed description we allow ourselves (Discord max 4096)


async def announce_promotion(interaction: discord.Interaction[StewardBot], outcome: WithdrawalOutcome) -> None:
    """Tell the waitlisted player who took the freed place (a ping is wanted here)."""
    promoted = outcome.promoted
    if promoted is None:
        return
    who = f"<@{promoted.user_id}>" if promoted.user_id else f"**{safe(promoted.display_name)}**"
    await interaction.followup.send(
        tr(interaction, "withdraw.promoted", who=who, tournament=safe(outcome.tournament_name)),
        allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
    )


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
    async def register(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
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
        if outcome.late_from_round and outcome.late_from_round > 1:  # a late entry (issue 47)
            text += "\n" + tr(interaction, "register.late", round=outcome.late_from_round,
                               count=outcome.late_from_round - 1)  # fmt: skip
        if outcome.identity_wanted:  # asked only when the organizer turned national publishing on (ModuloTorneo)
            command = slash("publishing me", locale_of(interaction))
            text += "\n" + tr(interaction, "register.identity_wanted", command=command)
        await send(interaction, text, ephemeral=True)

    @app_commands.command(name="players")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament whose players to list")
    async def players(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """List the players registered to a tournament."""
        guild_id = actor_of(interaction).guild_id
        await interaction.response.defer(thinking=True)
        listing = await self.bot.services.registrations.list_players(guild_id, tournament=tournament)
        lines: list[str] = []
        if listing.teams:  # NP-TAB-1: the teams as teams, each with the players holding a place
            teams = " · ".join(f"{safe(team)} ({count})" for team, count in listing.teams)
            lines.append(tr(interaction, "players.teams", count=len(listing.teams), teams=teams[:1500]) + "\n")
        shown = 0
        used = sum(len(line) + 1 for line in lines)
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

    @app_commands.command(name="withdraw")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament to withdraw from")
    async def withdraw(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Withdraw from a tournament (your place goes to the waitlist)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.bot.services.registrations.withdraw(actor, tournament=tournament)
        await send(
            interaction,
            tr(interaction, "withdraw.done", tournament=safe(outcome.tournament_name)),
            ephemeral=True,
        )
        await announce_promotion(interaction, outcome)
