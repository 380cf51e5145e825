"""/publishing … — a tournament that publishes to the national RisiKo! ranking (the ModuloTorneo workbook):
its settings, each player's identity for the ranking (asked only here, only when publishing), and the check of what
the national side's validator would refuse. The workbook itself: ``/tournament export format: modulo``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, send, tr
from bot.cogs._params import Player, Tournament
from bot.i18n import join_names
from bot.present.markup import safe
from bot.present.modulo import problems_text
from bot.rules.tournament.modulo import TYPE_CODES, TYPES
from bot.services.publishing import IdentityView

TYPE_CHOICES = [app_commands.Choice(name=label, value=code) for code, label in zip(TYPE_CODES, TYPES, strict=True)]
LABEL_OF = dict(zip(TYPE_CODES, TYPES, strict=True))


def identity_text(interaction: discord.Interaction[StewardBot], view: IdentityView) -> str:
    dash = "—"
    line = tr(
        interaction,
        "publishing.identity",
        name=safe(view.name),
        first_name=safe(view.first_name) or dash,
        surname=safe(view.surname) or dash,
        birth=view.birth_date.strftime("%d/%m/%Y") if view.birth_date else dash,
        national_id=view.national_id or dash,
        region=safe(view.region) or dash,
    )
    if view.duplicates:
        names = join_names(map(safe, view.duplicates), locale_of(interaction))
        line += "\n" + tr(interaction, "publishing.duplicate", names=names, count=len(view.duplicates))
    return line


class PublishingCog(commands.Cog):
    publishing = app_commands.Group(
        name="publishing",
        description="Publishing to the national RisiKo! ranking (ModuloTorneo)",
        guild_only=True,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @publishing.command(name="settings")
    @app_commands.describe(
        tournament="The tournament",
        organiser="The organising club, as CITY [Club]",
        type="The tournament type of the national ranking",
        venue="Where it is played",
        off="Stop publishing this tournament",
    )
    @app_commands.choices(type=TYPE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        organiser: app_commands.Range[str, 1, 100] | None = None,
        type: app_commands.Choice[str] | None = None,
        venue: app_commands.Range[str, 1, 200] | None = None,
        off: bool = False,
    ) -> None:
        """Publish a tournament to the national ranking: organiser, type, venue (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.publishing.settings(
            actor,
            tournament=tournament,
            organiser=organiser,
            type=LABEL_OF[type.value] if type else None,
            venue=venue,
            off=off,
        )
        if not view.on:
            await send(interaction, tr(interaction, "publishing.off", tournament=safe(view.tournament_name)))
            return
        dash = "—"
        await send(
            interaction,
            tr(
                interaction,
                "publishing.on",
                tournament=safe(view.tournament_name),
                organiser=safe(view.organiser) or dash,
                type=safe(view.type) or dash,
                venue=safe(view.venue) or dash,
            ),
        )

    @publishing.command(name="player")
    @app_commands.describe(
        tournament="The tournament",
        player="The player",
        first_name="First name (- to clear)",
        surname="Surname (- to clear)",
        birth_date="Birth date, DD/MM/YYYY (- to clear)",
        national_id="The player's id in the national ranking (0 to clear)",
        region="Region, e.g. LAZIO (- to clear)",
    )
    async def player(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player,
        first_name: app_commands.Range[str, 1, 64] | None = None,
        surname: app_commands.Range[str, 1, 64] | None = None,
        birth_date: app_commands.Range[str, 1, 20] | None = None,
        national_id: app_commands.Range[int, 0, 2**52] | None = None,
        region: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        """Set a player's identity for the national ranking (organizers)."""
        await self._identity(interaction, tournament, player, first_name=first_name, surname=surname,
                             birth_date=birth_date, national_id=national_id, region=region)  # fmt: skip

    @publishing.command(name="me")
    @app_commands.describe(
        tournament="The tournament",
        first_name="Your first name",
        surname="Your surname",
        birth_date="Your birth date, DD/MM/YYYY",
        national_id="Your id in the national ranking, if you have one",
        region="Your region, e.g. LAZIO",
    )
    async def me(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        first_name: app_commands.Range[str, 1, 64] | None = None,
        surname: app_commands.Range[str, 1, 64] | None = None,
        birth_date: app_commands.Range[str, 1, 20] | None = None,
        national_id: app_commands.Range[int, 0, 2**52] | None = None,
        region: app_commands.Range[str, 1, 32] | None = None,
    ) -> None:
        """Your identity for the national ranking (asked when the tournament publishes)."""
        await self._identity(interaction, tournament, None, first_name=first_name, surname=surname,
                             birth_date=birth_date, national_id=national_id, region=region)  # fmt: skip

    async def _identity(
        self, interaction: discord.Interaction[StewardBot], tournament: str, player: str | None, **fields: Any
    ) -> None:
        """``/publishing player`` (an organizer, anyone's) and ``/publishing me`` (a player's own): one use case."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        view = await self.bot.services.publishing.identity(actor, tournament=tournament, player=player, **fields)
        await send(interaction, identity_text(interaction, view), ephemeral=True)

    @publishing.command(name="check")
    @app_commands.describe(tournament="The tournament")
    async def check(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """What the national ranking's check would refuse, before the evening ends (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        view, problems = await self.bot.services.publishing.check(actor, tournament=tournament)
        lines = []
        if not view.on:
            lines.append(tr(interaction, "publishing.not_on", tournament=safe(view.tournament_name)))
        if problems:
            lines.append(tr(interaction, "publishing.problems", tournament=safe(view.tournament_name)))
            lines += problems_text(problems, locale_of(interaction))
        else:
            lines.append(tr(interaction, "publishing.ready", tournament=safe(view.tournament_name)))
        await send(interaction, "\n".join(lines)[:1900], ephemeral=True)
