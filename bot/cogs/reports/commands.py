"""/report enter|situation and /my-games — the players of a table (or a referee) enter the result; everyone
sees their own games (BOT-RES-1)."""

from __future__ import annotations

import contextlib
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, attached_text, locale_of, server_locale, tr
from bot.cogs._params import RoundNumber, TableNumber, Tournament
from bot.cogs.reports.buttons import SignButton, post_report, publish_report
from bot.cogs.reports.embeds import my_games_embed
from bot.cogs.reports.modal import ReportModal
from bot.i18n import t
from bot.present.report_map import report_map_pages
from bot.services.report_page import TablePage
from bot.services.reports import ReportView, TableRef
from bot.web.report import report_url

log = logging.getLogger(__name__)

MY_GAMES_BUTTONS = 20  # Discord: at most 25 buttons on a message


class ReportCog(commands.Cog):
    report = app_commands.Group(name="report", description="Match reports: enter a table's result", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.services.report_pages.listeners.append(self.page_entered)

    async def cog_unload(self) -> None:
        with contextlib.suppress(ValueError):
            self.bot.services.report_pages.listeners.remove(self.page_entered)

    async def page_entered(self, page: TablePage, view: ReportView) -> None:
        """A table's report page entered its report: it goes to the table's thread, for the players to sign."""
        if page.thread_id is None:
            log.info("report of table %s entered by its page: the table has no thread", page.table_id)
            return
        await post_report(self.bot.get_partial_messageable(page.thread_id), view, page.locale)

    @report.command(name="enter")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        round="Round (default: the latest)",
    )
    async def enter(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        round: RoundNumber | None = None,
    ) -> None:
        """Enter a table's result: points (or tokens) per player (referee or player of the table)."""
        actor = actor_of(interaction)
        view = await self.bot.services.reports.sheet(actor, TableRef(tournament, table, round))
        await interaction.response.send_modal(ReportModal(view, locale_of(interaction)))

    @report.command(name="situation")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        situation="Final situation as JSON (players, territories)",
        file="Or a .json file, or a .csv: territory;player;armies;objective",
        round="Round (default: the latest)",
    )
    async def situation(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        situation: app_commands.Range[str, 2, 6000] | None = None,
        file: discord.Attachment | None = None,
        round: RoundNumber | None = None,
    ) -> None:
        """Enter a RisiKo! table by its final situation; the engine scores and explains it."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        text = await attached_text(file, situation)
        view = await self.bot.services.reports.enter_situation(actor, TableRef(tournament, table, round), text)
        await publish_report(interaction, view)
        if view.map_owners:  # the table's final map under its report, a page per pair of continents
            await interaction.followup.send(files=await report_map(view, await server_locale(interaction)))

    @report.command(name="page")
    @app_commands.describe(tournament="The tournament", table="Table number", round="Round (default: the latest)")
    async def page(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        round: RoundNumber | None = None,
    ) -> None:
        """The link of your table's report page: enter the final situation from your phones."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        sheet = await self.bot.services.reports.lookup(actor, TableRef(tournament, table, round))
        rnd, number, token = await self.bot.services.report_pages.link_for_player(actor, sheet.table_id)
        base = self.bot.settings.venue_base_url()
        if base is None:
            await interaction.followup.send(tr(interaction, "report_page.off"), ephemeral=True)
            return
        label = t("venue.round", locale_of(interaction), number=rnd)
        text = tr(interaction, "report_page.link", table=number, round=label, url=report_url(base, token))
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="my-games")
    @app_commands.describe(tournament="The tournament")
    @app_commands.guild_only()
    async def my_games(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Your tables in a tournament: points, ranks and the reports you still have to sign."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        games = await self.bot.services.reports.my_games(actor, tournament)
        buttons = discord.ui.View(timeout=None)
        for game in games.to_sign[:MY_GAMES_BUTTONS]:
            label = tr(interaction, "report.button.sign_table", round=game.round_number, table=game.table_number)
            buttons.add_item(SignButton(game.table_id, label=label))
        await interaction.followup.send(
            embed=my_games_embed(games, locale_of(interaction)), view=buttons, ephemeral=True
        )


async def report_map(view: ReportView, locale: str) -> list[discord.File]:
    """The final situation of a reported RisiKo! table on the map, with each player's score (BOT-IMG-1)."""
    pages = await report_map_pages(view, locale)
    stem = f"map-{view.round_number}-{view.table_number}"
    return [discord.File(io.BytesIO(png), filename=f"{stem}-{i}.png") for i, png in enumerate(pages, 1)]
