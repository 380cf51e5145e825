"""/tables and /my-table — everyone reads a round's tables (organizers also the unpublished draft), as a CSV or
XLSX file too, and their own table (BOT-TAB-1)."""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, send, server_locale, tr
from bot.cogs._params import Tournament
from bot.files.sheets import file_stem
from bot.present.exports import export_file, round_tables_table
from bot.present.markup import safe
from bot.present.rounds import round_label, tables_text


class TablesCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="tables")
    @app_commands.guild_only()
    @app_commands.describe(
        tournament="The tournament",
        number="Round number (default: the latest round)",
        format="Also as a file: CSV or an Excel workbook (XLSX)",
    )
    async def show(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        number: app_commands.Range[int, 1, 50] | None = None,
        format: Literal["csv", "xlsx"] | None = None,
    ) -> None:
        """List the tables of a round (and, with a format, as a spreadsheet file)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        view = await self.bot.services.rounds.show(actor, tournament=tournament, number=number)
        title = tr(
            interaction,
            "round.show.title",
            round=round_label(locale_of(interaction), view),
            tournament=safe(view.tournament_name),
        )
        card = embed(title, tables_text(locale_of(interaction), view))
        footer = [tr(interaction, f"round.status.{view.status}")]
        if view.seed is not None:
            footer.append(tr(interaction, "round.seed", seed=view.seed))
        card.set_footer(text=" · ".join(footer)[:2048])
        if format is None:
            await send(interaction, embed=card, ephemeral=True)
            return
        locale = locale_of(interaction)
        stem = file_stem(view.tournament_name, f"turno-{view.number}", limit=40)
        sheet_locale = await server_locale(interaction) if format == "xlsx" else locale
        filename, data = export_file(round_tables_table(view, locale), stem, format, locale=sheet_locale)
        await interaction.followup.send(
            embed=card, file=discord.File(io.BytesIO(data), filename=filename), ephemeral=True
        )

    @app_commands.command(name="my-table")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament")
    async def my_table(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Your table in the latest published round."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = await self.bot.services.rounds.my_table(actor, tournament=tournament)
        label = round_label(locale_of(interaction), mine.round)
        lines = [f"{s.position}. {safe(s.name)}" + (f" ({safe(s.club)})" if s.club else "") for s in mine.table.seats]
        if mine.table.thread_id:
            lines.append(tr(interaction, "round.my_table.thread", thread=f"<#{mine.table.thread_id}>"))
        title = tr(
            interaction,
            "round.my_table.title",
            number=mine.table.number,
            round=label,
            tournament=safe(mine.round.tournament_name),
        )
        await send(interaction, embed=embed(title, "\n".join(lines)), ephemeral=True)
