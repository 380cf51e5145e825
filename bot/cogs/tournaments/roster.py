"""/roster import|export — a tournament's player list as a CSV file or an Excel workbook (organizers; BOT-REG-2)."""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, send, server_locale, tr
from bot.cogs._params import ORGANIZER_COMMANDS, Tournament
from bot.errors import InvalidInput
from bot.files.players import MAX_ROWS, RowProblem
from bot.present.exports import export_file
from bot.present.markup import safe
from bot.present.roster import roster_stem, roster_table
from bot.services.roster import CSV_MAX_BYTES

PROBLEM_BUDGET = 1600  # characters of problem lines in one message (Discord max 2000, with the head and rows lines)


def problem_lines(interaction: discord.Interaction[StewardBot], problems: tuple[RowProblem, ...]) -> list[str]:
    """Every bad row with its line number, as many as fit in one message."""
    lines: list[str] = []
    used = 0
    for index, p in enumerate(problems):
        params = dict(p.params)
        if isinstance(params.get("field"), str):
            params["field"] = tr(interaction, f"field.{params['field']}")
        for key in ("name", "column", "value"):
            if isinstance(params.get(key), str):
                params[key] = safe(params[key])
        message = tr(interaction, p.key, **params)
        # a refusal of the whole file (unreadable, too big, not UTF-8) has no line: never "Line 0" (issue 44)
        line = (
            tr(interaction, "csv.line", line=p.line, message=message)
            if p.line > 0
            else message[:1].upper() + message[1:]
        )
        if used + len(line) + 1 > PROBLEM_BUDGET:
            lines.append(tr(interaction, "csv.more_problems", count=len(problems) - index))
            break
        lines.append(line)
        used += len(line) + 1
    return lines


def rows_line(interaction: discord.Interaction[StewardBot], rows: int) -> str:
    """How many rows of the file were read (every row it holds, whatever it declares), or that it holds too many."""
    if rows > MAX_ROWS:
        return tr(interaction, "imports.rows_over", max=MAX_ROWS)
    return tr(interaction, "imports.rows_read", count=rows)


XLSX_MAGIC = b"PK\x03\x04"  # an XLSX file is a zip archive


class RosterCog(commands.Cog):
    # Import/export live in their own group: /tournament would pass Discord's 8000-character command limit.
    roster = app_commands.Group(
        name="roster",
        description="A tournament's player list as a CSV file or an Excel workbook (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @roster.command(name="import")
    @app_commands.describe(
        tournament="The tournament to add the players to",
        file="CSV or Excel (.xlsx): nome/name, club, squadra/team, famiglia/family, discord id",
    )
    async def import_(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        file: discord.Attachment,
    ) -> None:
        """Import players from a CSV file or an Excel workbook (organizers); a bad row and nothing is imported."""
        actor = actor_of(interaction)
        if file.size > CSV_MAX_BYTES:
            raise InvalidInput("error.csv_too_big", max=CSV_MAX_BYTES // 1024, size=file.size // 1024)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await file.read()
        workbook = file.filename.lower().endswith((".xlsx", ".xlsm")) or data.startswith(XLSX_MAGIC)
        outcome = await self.bot.services.roster.import_csv(actor, tournament=tournament, data=data, workbook=workbook)
        if outcome.problems:
            head = tr(interaction, "csv.rejected", count=len(outcome.problems), file=safe(file.filename)[:100])
            rows = [rows_line(interaction, outcome.rows_read)] if outcome.rows_read else []  # none: the file refused
            await send(
                interaction, "\n".join([head, *rows, *problem_lines(interaction, outcome.problems)]), ephemeral=True
            )
            return
        text = tr(interaction, "csv.imported", count=outcome.imported, tournament=safe(outcome.tournament_name))
        text += "\n" + rows_line(interaction, outcome.rows_read)
        if outcome.waitlisted:
            text += "\n" + tr(interaction, "csv.imported_waitlisted", count=outcome.waitlisted)
        await send(interaction, text, ephemeral=True)

    @roster.command(name="export")
    @app_commands.describe(
        tournament="The tournament whose players to export", format="CSV (default) or an Excel workbook (XLSX)"
    )
    async def export(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        format: Literal["csv", "xlsx"] = "csv",
    ) -> None:
        """Export the players as a CSV file or an Excel workbook for spreadsheets (organizers, referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = await self.bot.services.roster.export(actor, tournament=tournament)
        locale = await server_locale(interaction) if format == "xlsx" else locale_of(interaction)
        filename, data = export_file(roster_table(export), roster_stem(export), format, locale=locale)
        text = tr(interaction, "csv.exported", count=export.rows, tournament=safe(export.tournament_name))
        await interaction.followup.send(text, file=discord.File(io.BytesIO(data), filename=filename), ephemeral=True)
