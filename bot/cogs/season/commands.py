"""/season … — organizers group tournaments of one preset into a season; anyone reads its ranking as an image or a
CSV file; a referee gives a FIRK sanction's standings points to the season's ranking (NP-PTS-1, FIRK-PEN-1); an
organizer gives the season the club's own point scheme (/season scheme, /season event), records ranked one-off games
into it (/season game) and voids one (/season void) — issue 47."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, server_locale
from bot.cogs._params import CHOICES_MAX, Tournament, _NameTransformer, player_ref
from bot.errors import UserFacingError
from bot.i18n import format_number, join_names, t
from bot.i18n.numbers import format_data_number
from bot.present.exports import export_file
from bot.present.markup import safe
from bot.present.season import scheme_text, season_file_stem, season_image, season_table, season_text
from bot.rules.presets import PRESET_NAMES
from bot.services import Services
from bot.services.season_games import GameView, finish_order
from bot.services.season_views import SchemeView

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


async def _offered(
    interaction: discord.Interaction[StewardBot],
    fetch: Callable[[Services, int, str], Awaitable[Sequence[str]]],
) -> Sequence[str]:
    """What the season named in the command's options offers for autocomplete: nothing while no season is named or
    the named one does not exist yet (never an error while typing)."""
    season = getattr(interaction.namespace, "season", None)
    if interaction.guild_id is None or not season:
        return ()
    try:
        return await fetch(interaction.client.services, interaction.guild_id, str(season))
    except UserFacingError:
        return ()


async def infraction_choices(
    interaction: discord.Interaction[StewardBot], current: str
) -> list[app_commands.Choice[str]]:
    """The season preset's infractions that take standings points (FIRK: disturbing a table, −7)."""
    codes = await _offered(interaction, lambda services, guild, name: services.seasons.season_infractions(
        guild, season=name))  # fmt: skip
    locale = locale_of(interaction)
    found = [(c, t(f"sanction.infraction.{c}", locale)) for c in codes]
    wanted = current.casefold()
    return [app_commands.Choice(name=label[:100], value=code) for code, label in found
            if wanted in code.casefold() or wanted in label.casefold()][:CHOICES_MAX]  # fmt: skip


async def event_type_choices(
    interaction: discord.Interaction[StewardBot], current: str
) -> list[app_commands.Choice[str]]:
    """The event types of the season's point scheme."""
    types = await _offered(interaction, lambda services, guild, name: services.season_games.event_types(
        guild, season=name))  # fmt: skip
    wanted = current.casefold()
    return [app_commands.Choice(name=n, value=n) for n in types if wanted in n][:CHOICES_MAX]


def game_text(game: GameView, locale: str) -> str:
    """A recorded one-off game: its number, each player's place and the points it gives them."""
    lines = [t("season.game_recorded", locale, number=game.number, season=safe(game.season))]
    lines += [
        t("season.game_line", locale, place=place, name=safe(name), points=format_number(points, locale))
        for (name, place), points in zip(game.players, game.points, strict=True)
    ]
    if game.newcomers:
        lines.append(t("season.game_newcomers", locale, names=join_names(map(safe, game.newcomers), locale)))
    return "\n".join(lines)


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

    @season.command(name="scheme")
    @app_commands.describe(
        season="The season",
        per_game="Points for every game played (each table a player sits at)",
        event_type="An event type of the scheme (e.g. master, open)",
        places='That type\'s points by final place: "2000, 1000x3, 500x12" ("-" removes the type)',
        one_off="That type also scores the ranked one-off games by their places",
    )
    @app_commands.autocomplete(event_type=event_type_choices)
    async def scheme(
        self,
        interaction: discord.Interaction[StewardBot],
        season: Season,
        per_game: app_commands.Range[float, 0, 1_000_000] | None = None,
        event_type: app_commands.Range[str, 1, 32] | None = None,
        places: app_commands.Range[str, 1, 1000] | None = None,
        one_off: bool | None = None,
    ) -> None:
        """The season's own point scheme: points by event type and final place, points per game (organizers)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        view: SchemeView = await self.bot.services.season_games.set_scheme(
            actor, season=season, per_game=per_game, event_type=event_type, places=places, one_off=one_off
        )
        await interaction.followup.send(scheme_text(view, locale))

    @season.command(name="event")
    @app_commands.describe(
        season="The season",
        tournament="A tournament of the season",
        event_type='Its event type in the season\'s scheme ("-" clears it)',
    )
    @app_commands.autocomplete(event_type=event_type_choices)
    async def event(
        self,
        interaction: discord.Interaction[StewardBot],
        season: Season,
        tournament: Tournament,
        event_type: app_commands.Range[str, 1, 32],
    ) -> None:
        """Give a tournament of the season its event type in the point scheme (organizers)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.season_games.set_event_type(
            actor, season=season, tournament=tournament, event_type=event_type
        )
        await interaction.followup.send(scheme_text(view, locale))

    @season.command(name="game")
    @app_commands.describe(
        season="The season",
        players='The players in finish order: "Anna, Bruno = Carla, Dario" (= a shared place; @member too)',
        newcomers="Names the season does not know yet are new players (otherwise they are refused)",
    )
    async def game(
        self,
        interaction: discord.Interaction[StewardBot],
        season: Season,
        players: app_commands.Range[str, 3, 1000],
        newcomers: bool = False,
    ) -> None:
        """Record a ranked one-off game into the season, without a tournament (organizers)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        named = finish_order(players)
        guild = interaction.guild
        for k, p in enumerate(named):  # a mention: the member's name on this server, for a newcomer's line
            member = guild.get_member(p.user_id) if guild is not None and p.user_id is not None else None
            if member is not None:
                named[k] = replace(p, name=member.display_name[:64])
        recorded = await self.bot.services.season_games.record_game(
            actor, season=season, players=named, newcomers=newcomers
        )
        await interaction.followup.send(game_text(recorded, locale))

    @season.command(name="void")
    @app_commands.describe(season="The season", number="The one-off game's number")
    async def void(
        self, interaction: discord.Interaction[StewardBot], season: Season, number: app_commands.Range[int, 1, 100_000]
    ) -> None:
        """Void a ranked one-off game of the season: it no longer counts (organizers)."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        voided = await self.bot.services.season_games.void_game(actor, season=season, number=number)
        await interaction.followup.send(
            t("season.game_voided", locale, number=voided.number, season=safe(voided.season))
        )
