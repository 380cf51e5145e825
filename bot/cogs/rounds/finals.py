"""/finals … — the organizer seeds the semifinals, composes the final and records a finalist's decline
(TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, server_locale, tr
from bot.cogs._params import ORGANIZER_COMMANDS, Player, Tournament
from bot.cogs.rounds.publishing import announce
from bot.cogs.rounds.replies import preview
from bot.i18n import t
from bot.present.markup import safe
from bot.services.access import Actor
from bot.services.rounds import RoundView


async def _set_up(
    interaction: discord.Interaction[StewardBot],
    title: str,
    compose: Callable[[Actor, list[str]], Awaitable[RoundView]],
    tie_order: str | None,
) -> None:
    """The semifinals' and the final's set-up alike: the organizer's tie order (names, best first, comma-separated)
    handed to the service, and the drawn round previewed privately."""
    actor = actor_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    order = [n.strip() for n in (tie_order or "").split(",") if n.strip()]
    await preview(interaction, await compose(actor, order), title)


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
        tournament="The tournament",
        tables="Semifinal tables, 2–4 (the final's other seats go to the top of the standings; with 3, rank 1)",
        tie_order="Players level where a seat is decided, best first, comma-separated (default: a lot)",
    )
    async def semifinals(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        tables: app_commands.Range[int, 2, 4] | None = None,
        tie_order: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Seed the semifinals from the standings in bands (organizers)."""
        rounds = self.bot.services.rounds
        await _set_up(interaction, "round.semifinals.title",
                      lambda actor, order: rounds.seed_semifinals(actor, tournament=tournament, tables=tables,
                                                                  tie_order=order),
                      tie_order)  # fmt: skip

    @finals.command(name="final")
    @app_commands.describe(
        tournament="The tournament",
        tie_order="Players level where a seat is decided, best first, comma-separated (default: a lot)",
    )
    async def final(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        tie_order: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Compose the final from the semifinal results (organizers)."""
        rounds = self.bot.services.rounds
        await _set_up(interaction, "round.final.title",
                      lambda actor, order: rounds.compose_final(actor, tournament=tournament, tie_order=order),
                      tie_order)  # fmt: skip

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
        outcome = await self.bot.services.rounds.decline(actor, tournament=tournament, player=player)
        notes: list[str] = []
        if outcome.round.kind == "semifinal" and outcome.round.status != "drawn":
            notes.append(tr(interaction, "round.declined.recorded", player=safe(outcome.player)))
        if outcome.republish:  # TOUR-FIN-1 after the final was published: a new announcement and thread
            job = await self.bot.services.rounds.publish(actor, tournament=tournament, number=outcome.round.number)
            published = await announce(interaction, job)
            await self.bot.services.rounds.record_publication(
                actor,
                round_id=job.round.round_id,
                announcement_message_id=published.announcement_id,
                thread_ids=published.threads,
                failures=published.failures,
            )
            notes.append(tr(interaction, "round.declined.republished"))
            notes.append(published.summary(interaction, job))
            await self._supersede(interaction, outcome.superseded_threads)
        if outcome.player_user_id and not await self._tell(interaction, outcome.player_user_id, tournament):
            notes.append(tr(interaction, "round.declined.dm_failed", player=safe(outcome.player)))
        await preview(interaction, outcome.round, "round.declined.title", extra="\n".join(notes))

    async def _supersede(self, interaction: discord.Interaction[StewardBot], threads: tuple[int, ...]) -> None:
        """The old final's thread says it no longer stands (players there were pinged for it); a thread Discord
        refuses (deleted, archived and locked) is left alone — the new announcement is what counts."""
        text = t("round.final.superseded", await server_locale(interaction))
        for thread_id in threads:
            try:
                await self.bot.get_partial_messageable(thread_id).send(
                    text[:2000], allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                continue

    async def _tell(self, interaction: discord.Interaction[StewardBot], user_id: int, tournament: str) -> bool:
        """The player who declined is told by direct message, in their own language (the server's when none of
        their interactions was seen); False when Discord refuses."""
        assert interaction.guild_id is not None
        locale = await self.bot.services.members.locale(
            interaction.guild_id, user_id, default=await server_locale(interaction)
        )
        text = t("round.declined.dm", locale, tournament=safe(tournament))
        try:  # the same DM path as the reminders: no user fetch, no cache needed
            data = await self.bot.http.start_private_message(user_id)
            await self.bot.get_partial_messageable(int(data["id"])).send(
                text[:2000], allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.HTTPException, KeyError, ValueError):
            return False
        return True
