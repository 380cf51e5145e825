"""/season … — organizers group tournaments of one preset into a season; anyone reads its ranking as an image or a
CSV file; a referee gives a FIRK sanction's standings points to the season's ranking (NP-PTS-1, FIRK-PEN-1)."""

from __future__ import annotations

import io
from functools import partial
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, server_locale
from bot.cogs._params import CHOICES_MAX, Tournament, _NameTransformer, player_ref
from bot.errors import UserFacingError
from bot.i18n import format_number, t
from bot.i18n.numbers import format_data_number
from bot.present.exports import export_file
from bot.present.markup import safe
from bot.present.season import season_file_stem, season_image, season_table, season_text
from bot.rules.presets import PRESET_NAMES

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]


class SeasonTransformer(_NameTransformer):
    """A season of this server by name; suggestions are this server's seasons."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        names = await interaction.client.services.seasons.names(interaction.guild_id, name_prefix=str(value))
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:CHOICES_MAX]]


Season = app_commands.Transform[str, SeasonTransformer]


async def infraction_choices(
    interaction: discord.Interaction[StewardBot], current: str
) -> list[app_commands.Choice[str]]:
    """The season preset's infractions that take standings points (FIRK: disturbing a table, −7)."""
    season = getattr(interaction.namespace, "season", None)
    if interaction.guild_id is None or not season:
        return []
    try:
        codes = await interaction.client.services.seasons.season_infractions(interaction.guild_id, season=str(season))
    except UserFacingError:  # no such season yet: no suggestions, never an error
        return []
    locale = locale_of(interaction)
    found = [(c, t(f"sanction.infraction.{c}", locale)) for c in codes]
    wanted = current.casefold()
    return [app_commands.Choice(name=label[:100], value=code) for code, label in found
            if wanted in code.casefold() or wanted in label.casefold()][:CHOICES_MAX]  # fmt: skip


class SeasonCog(commands.Cog):
    season = app_commands.Group(name="season", description="Seasons: one ranking across tournaments", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @season.command(name="create")
    @app_commands.describe(
        name="Name of the season (unique in this server)",
        preset="The rulebook of its tournaments (default: the tournament's)",
        tournament="A first tournament to put in the season",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[StewardBot],
        name: app_commands.Range[str, 1, 100],
        preset: app_commands.Choice[str] | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        """Create a season of tournaments of one rulebook (organizers)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        info = await self.bot.services.seasons.create(
            actor, name=name, preset=preset.value if preset else None, tournament=tournament
        )
        text = t("season.created", locale, season=safe(info.name), preset=t(f"choice.{info.preset}", locale))
        if info.attached:
            text += "\n" + t("season.attached", locale, tournament=safe(info.attached), season=safe(info.name),
                             position=len(info.tournaments))  # fmt: skip
        await interaction.followup.send(text)

    @season.command(name="attach")
    @app_commands.describe(season="The season", tournament="The tournament to put last in the season")
    async def attach(
        self, interaction: discord.Interaction[StewardBot], season: Season, tournament: Tournament
    ) -> None:
        """Put a tournament in a season, after the others (organizers)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        info = await self.bot.services.seasons.attach(actor, season=season, tournament=tournament)
        text = t("season.attached", locale, tournament=safe(info.attached or tournament), season=safe(info.name),
                 position=len(info.tournaments))  # fmt: skip
        order = " → ".join(safe(n) for n in info.tournaments)
        await interaction.followup.send(f"{text}\n{order}")

    @season.command(name="show")
    @app_commands.describe(season="The season")
    async def show(self, interaction: discord.Interaction[StewardBot], season: Season) -> None:
        """The season's ranking as an image, with each tournament's points and the tie-breaks explained."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        limit = getattr(interaction, "attachment_size_limit", 10 * 1024 * 1024)
        view = await self.bot.services.seasons.show(actor.guild_id, season)
        date = self.bot.services.clock().date().isoformat()
        image = await season_image(view, date=date, locale=locale, max_bytes=limit)
        title = t("season.title", locale, season=safe(view.name), count=len(view.tournaments))
        out = embed(title, season_text(view, locale))
        if view.tournaments:
            out.add_field(name=t("season.tournaments", locale),
                          value=" → ".join(safe(n) for n in view.tournaments)[:1000], inline=False)  # fmt: skip
        files = [discord.File(io.BytesIO(page), filename=f"season-{i}.png") for i, page in enumerate(image.pages, 1)]
        if files:
            out.set_image(url="attachment://season-1.png")
        if image.total_pages > len(image.pages):
            out.set_footer(text=t("standings.pages_cut", locale, shown=len(image.pages), total=image.total_pages))
        await interaction.followup.send(embed=out, files=files)

    @season.command(name="export")
    @app_commands.describe(season="The season", format="CSV (default) or an Excel workbook (XLSX)")
    async def export(
        self,
        interaction: discord.Interaction[StewardBot],
        season: Season,
        format: Literal["csv", "xlsx"] = "csv",
    ) -> None:
        """The season's ranking with each tournament's points, as a CSV file or an Excel workbook."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        view = await self.bot.services.seasons.show(actor.guild_id, season)
        filename, data = export_file(  # the same rows as the CSV (bot.present.season.season_table)
            season_table(view, locale),
            season_file_stem(view),
            format,
            locale=await server_locale(interaction) if format == "xlsx" else locale,
            csv_number=partial(format_data_number, locale=locale),
        )
        await interaction.followup.send(
            t("season.exported", locale, season=safe(view.name), count=len(view.lines)),
            file=discord.File(io.BytesIO(data), filename=filename),
            ephemeral=True,
        )

    @season.command(name="sanction")
    @app_commands.describe(
        season="The season",
        infraction="What happened (an infraction that takes standings points)",
        player="The player's name",
        member="Or the server member",
        tournament="The season's tournament to log the case in (default: the player's latest)",
        details="What you saw (kept in the log)",
    )
    @app_commands.autocomplete(infraction=infraction_choices)
    async def sanction(
        self,
        interaction: discord.Interaction[StewardBot],
        season: Season,
        infraction: app_commands.Range[str, 1, 48],
        player: app_commands.Range[str, 1, 64] | None = None,
        member: discord.Member | None = None,
        tournament: Tournament | None = None,
        details: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Give a sanction's standings points to the season's ranking instead of the tournament's (referees)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        who = player_ref(player, member)
        await interaction.response.defer(thinking=True)
        given = await self.bot.services.seasons.sanction(
            actor, season=season, infraction=infraction, player=who.name, user_id=who.user_id, tournament=tournament,
            details=details,
        )  # fmt: skip
        s = given.sanction
        await interaction.followup.send(
            t(
                "season.sanctioned",
                locale,
                case=s.case_number,
                name=safe(s.player_name),
                points=format_number(s.points or 0, locale),
                season=safe(given.season),
                tournament=safe(s.tournament_name),
            )
        )
