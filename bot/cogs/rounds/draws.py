"""/round … — the organizer opens (for check-in), draws, redraws, adjusts, publishes and closes the qualifying rounds
(BOT-TAB-1, BOT-TAB-2, BOT-ROLE-1, BOT-I18N-1); a round's start is set in one place, /schedule round. The service
decides and stores; this cog replies."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, send, tr
from bot.cogs._params import ORGANIZER_COMMANDS, Player, TableNumber, Tournament
from bot.cogs.rounds.publishing import announce
from bot.cogs.rounds.replies import adjusted, preview
from bot.cogs.schedule.events import round_event
from bot.present.markup import discord_timestamp, safe
from bot.present.rounds import knockout_text, round_label


class RoundCog(commands.Cog):
    round = app_commands.Group(
        name="round",
        description="Table draws of the rounds (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @round.command(name="draw")
    @app_commands.describe(tournament="The tournament")
    async def draw(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Draw the next round's tables (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.draw(actor, tournament=tournament)
        await preview(interaction, view, "round.drawn.title")

    @round.command(name="redraw")
    @app_commands.describe(tournament="The tournament")
    async def redraw(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
    ) -> None:
        """Draw the unpublished round again, new seed (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.redraw(actor, tournament=tournament)
        await preview(interaction, view, "round.redrawn.title")

    @round.command(name="swap")
    @app_commands.describe(
        tournament="The tournament",
        player_a="A player",
        player_b="The other player",
    )
    async def swap(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player_a: Player,
        player_b: Player,
    ) -> None:
        """Swap two players of the drawn round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        adj = await self.bot.services.rounds.swap(actor, tournament=tournament, a=player_a, b=player_b)
        await adjusted(interaction, adj)

    @round.command(name="move")
    @app_commands.describe(
        tournament="The tournament",
        player="A player",
        table="Target table",
    )
    async def move(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player,
        table: TableNumber,
    ) -> None:
        """Move a player to another table (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        adj = await self.bot.services.rounds.move(actor, tournament=tournament, player=player, table=table)
        await adjusted(interaction, adj)

    @round.command(name="publish")
    @app_commands.describe(tournament="The tournament")
    async def publish(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Publish the drawn round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        job = await self.bot.services.rounds.publish(actor, tournament=tournament)
        outcome = await announce(interaction, job)
        await self.bot.services.rounds.record_publication(
            actor,
            round_id=job.round.round_id,
            announcement_message_id=outcome.announcement_id if job.round.announcement_message_id is None else None,
            thread_ids=outcome.threads,
            failures=outcome.failures,
        )
        note = await round_event(interaction, job.round)
        await send(interaction, outcome.summary(interaction, job) + note, ephemeral=True)

    @round.command(name="plan")
    @app_commands.describe(tournament="The tournament")
    async def plan(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Open the next round for check-in; its start is set with /schedule round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.plan(actor, tournament=tournament)
        text = tr(
            interaction,
            "round.planned",
            round=round_label(locale_of(interaction), view),
            tournament=safe(view.tournament_name),
        )
        if view.scheduled_start:
            text += "\n" + tr(interaction, "round.planned.start", when=discord_timestamp(view.scheduled_start))
        else:
            text += "\n" + tr(interaction, "round.planned.no_start")
        if view.knockout is not None:  # NP-FMT-1: the plan is said before the draw
            text += "\n" + knockout_text(locale_of(interaction), view)
        await send(interaction, text, ephemeral=True)

    @round.command(name="close")
    @app_commands.describe(tournament="The tournament")
    async def close(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Close the published round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.close(actor, tournament=tournament)
        text = tr(
            interaction,
            "round.closed",
            round=round_label(locale_of(interaction), view),
            tournament=safe(view.tournament_name),
        )
        await send(interaction, text, ephemeral=True)
