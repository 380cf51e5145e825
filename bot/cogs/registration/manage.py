"""/player add|remove|edit — organizers manage a tournament's players (BOT-REG-1, BOT-REG-2); /replace: a player
not at the table at the start gives the seat to a substitute (ARB 3)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, send, server_locale, tr
from bot.cogs._params import ORGANIZER_COMMANDS, Player, Tournament, player_ref
from bot.cogs.registration.players import announce_promotion
from bot.i18n import t
from bot.present.markup import safe

log = logging.getLogger(__name__)


class PlayerCog(commands.Cog):
    player = app_commands.Group(
        name="player",
        description="Organizers manage a tournament's players",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @player.command(name="add")
    @app_commands.describe(
        tournament="The tournament",
        member="The server member to register (leave empty for a player without Discord)",
        name="Name in tables and standings (default: the member's name)",
        club="The player's club",
        team="The player's team",
        family="Family group: players of the same group are kept apart where the rules say so",
    )
    async def player_add(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        member: discord.Member | None = None,
        name: app_commands.Range[str, 1, 64] | None = None,
        club: app_commands.Range[str, 1, 64] | None = None,
        team: app_commands.Range[str, 1, 64] | None = None,
        family: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Register a player: a member or a name without Discord (organizers)."""
        actor = actor_of(interaction)
        ref = player_ref(name, member)
        display = ref.name or (member.display_name if member else "")
        await interaction.response.defer(thinking=True)
        outcome = await self.bot.services.registrations.add_player(
            actor,
            tournament=tournament,
            display_name=display,
            user_id=ref.user_id,
            club=club,
            team=team,
            family_group=family,
        )
        key = "player.added_waitlisted" if outcome.waitlisted else "player.added"
        text = tr(
            interaction,
            key,
            name=safe(outcome.registration.display_name),
            tournament=safe(outcome.tournament_name),
            count=outcome.active_count,
            cap=outcome.cap or "∞",
        )
        if outcome.late_from_round and outcome.late_from_round > 1:  # a late entry (issue 47)
            text += "\n" + tr(interaction, "player.added_late", round=outcome.late_from_round,
                               count=outcome.late_from_round - 1)  # fmt: skip
        await send(interaction, text)

    @player.command(name="remove")
    @app_commands.describe(
        tournament="The tournament",
        player="The player's name",
        member="Or the server member",
    )
    async def player_remove(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player | None = None,
        member: discord.Member | None = None,
    ) -> None:
        """Remove a player from a tournament (organizers)."""
        actor = actor_of(interaction)
        ref = player_ref(player, member)
        await interaction.response.defer(thinking=True)
        outcome = await self.bot.services.registrations.remove_player(
            actor, tournament=tournament, name=ref.name, user_id=ref.user_id
        )
        key = "player.removed" if outcome.deleted else "player.removed_withdrawn"
        await send(
            interaction,
            tr(
                interaction,
                key,
                name=safe(outcome.registration.display_name),
                tournament=safe(outcome.tournament_name),
            ),
        )
        await announce_promotion(interaction, outcome)

    @player.command(name="edit")
    @app_commands.describe(
        tournament="The tournament",
        player="The player's current name",
        name="New name",
        club="New club (- to clear)",
        team="New team (- to clear)",
        family="New family group (- to clear)",
    )
    async def player_edit(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player,
        name: app_commands.Range[str, 1, 64] | None = None,
        club: app_commands.Range[str, 1, 64] | None = None,
        team: app_commands.Range[str, 1, 64] | None = None,
        family: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Correct a player's name, club, team or family group (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.registrations.edit_player(
            actor, tournament=tournament, player=player, name=name, club=club, team=team, family_group=family
        )
        dash = "—"
        await send(
            interaction,
            tr(
                interaction,
                "player.edited",
                name=safe(view.display_name),
                club=safe(view.club) or dash,
                team=safe(view.team) or dash,
                family=safe(view.family_group) or dash,
            ),
        )


class ReplaceCog(commands.Cog):
    """``/replace``: its own command (the /player group is at Discord's size limit for one command)."""

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="replace")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_events=True)
    @app_commands.describe(
        tournament="The tournament",
        player="The player not at the table at the start",
        by="The substitute: a waitlisted or reserve player",
    )
    async def replace(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player,
        by: Player,
    ) -> None:
        """Replace a late player at their table, before it reports (organizers; ARB 3)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        done = await self.bot.services.rounds.replace_player(actor, tournament=tournament, player=player, by=by)
        names = {"replaced": safe(done.replaced), "substitute": safe(done.substitute), "table": done.table_number}
        if done.thread_id is not None:  # the table hears of it in its thread; the substitute is the one ping
            public = await server_locale(interaction)
            who = f"<@{done.substitute_user_id}>" if done.substitute_user_id else safe(done.substitute)
            thread = self.bot.get_partial_messageable(done.thread_id, guild_id=actor.guild_id)
            mentions = discord.AllowedMentions(users=[discord.Object(done.substitute_user_id)]) \
                if done.substitute_user_id else discord.AllowedMentions.none()  # fmt: skip
            try:
                await thread.send(t("round.replaced.thread", public, **(names | {"substitute": who})),
                                  allowed_mentions=mentions)  # fmt: skip
            except discord.HTTPException:  # the replacement stands; the organizer can tell the table
                log.warning("could not tell table %s's thread of the replacement", done.table_number)
        await send(interaction, tr(interaction, "round.replaced.done", **names), ephemeral=True)
