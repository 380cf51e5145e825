"""/standings show|export — the standings as an image with a compact text, or as CSV or XLSX (BOT-STD-1,
BOT-I18N-1)."""

from __future__ import annotations

import io
from functools import partial
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, server_locale
from bot.cogs._params import Tournament
from bot.i18n import format_number, t
from bot.i18n.numbers import format_data_number
from bot.present.exports import export_file
from bot.present.markup import safe
from bot.present.standings import standings_image, standings_table
from bot.services.standings import StandingsView, TieBreakExplanation

TEXT_ROWS = 20  # lines of the compact text under the image
TEXT_BUDGET = 3900  # characters of the embed description we allow ourselves (Discord max 4096)


def explain(decision: TieBreakExplanation, locale: str) -> str:
    names = ", ".join(safe(n) for n in decision.names)
    if decision.tie_breaker is None or not decision.resolved:
        return t("standings.tie.shared", locale, names=names)
    values = ", ".join(
        f"{safe(n)} {format_number(v, locale) if isinstance(v, float | int) else '—'}" for n, v in decision.values
    )
    return t(
        "standings.tie.resolved",
        locale,
        names=names,
        criterion=t(f"standings.tiebreaker.{decision.tie_breaker}", locale),
        values=values,
    )


def standings_text(view: StandingsView, locale: str) -> str:
    lines = []
    for line in view.lines[:TEXT_ROWS]:
        marker = "" if line.standing == "active" else f" ({t(f'standings.standing.{line.standing}', locale)})"
        lines.append(
            t(
                "standings.line",
                locale,
                rank=line.rank,
                name=safe(line.name),
                points=format_number(line.points, locale),
                games=line.games,
                count=line.games,
                marker=marker,
            )
        )
    if len(view.lines) > TEXT_ROWS:
        lines.append(t("standings.more", locale, count=len(view.lines) - TEXT_ROWS))
    if view.explanations:
        lines.append("")
        lines.append(t("standings.ties", locale))
        lines.extend(f"• {explain(d, locale)}" for d in view.explanations)
    if view.teams:
        lines.append("")
        lines.append(t("standings.teams", locale))
        lines.extend(
            t("standings.team_line", locale, rank=tl.rank, team=safe(tl.team), points=format_number(tl.points, locale))
            for tl in view.teams
        )
    if view.penalties:
        lines.append("")
        lines.append(t("standings.penalties", locale))
        lines.extend(
            "• "
            + t(
                "standings.penalty_line",
                locale,
                name=safe(p.name),
                points=format_number(-p.points, locale),
                why=t(f"standings.penalty.{p.code}", locale),
                round=p.round_number or "—",
            )
            for p in view.penalties
        )
    if view.unconfirmed_tables:
        lines.append("")
        lines.append(t("standings.unconfirmed", locale, count=view.unconfirmed_tables))
    text = "\n".join(lines)
    return text if len(text) <= TEXT_BUDGET else text[: TEXT_BUDGET - 1] + "…"


class StandingsCog(commands.Cog):
    standings = app_commands.Group(name="standings", description="Tournament standings", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @standings.command(name="show")
    @app_commands.describe(tournament="The tournament")
    async def show(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """The standings as an image, with tie-breaks explained."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        limit = getattr(interaction, "attachment_size_limit", 10 * 1024 * 1024)
        view = await self.bot.services.standings.compute(actor.guild_id, tournament)
        date = self.bot.services.clock().date().isoformat()
        image = await standings_image(view, date=date, locale=locale, max_bytes=limit)
        title = t("standings.title", locale, tournament=safe(view.tournament_name), rounds=view.rounds)
        out = embed(title, standings_text(view, locale) if view.lines else t("standings.empty", locale))
        files = [discord.File(io.BytesIO(page), filename=f"standings-{i}.png") for i, page in enumerate(image.pages, 1)]
        if files:
            out.set_image(url="attachment://standings-1.png")
        if image.total_pages > len(image.pages):
            out.set_footer(text=t("standings.pages_cut", locale, shown=len(image.pages), total=image.total_pages))
        await interaction.followup.send(embed=out, files=files)

    @standings.command(name="export")
    @app_commands.describe(tournament="The tournament", format="CSV (default) or an Excel workbook (XLSX)")
    async def export(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        format: Literal["csv", "xlsx"] = "csv",
    ) -> None:
        """The standings as a CSV file (semicolons; decimal comma in Italian) or an Excel workbook."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        view = await self.bot.services.standings.compute(actor.guild_id, tournament)
        name = "".join(c if c.isalnum() else "-" for c in tournament.lower()).strip("-")[:40] or "standings"
        filename, data = export_file(
            standings_table(view, locale),
            name,
            format,
            locale=await server_locale(interaction) if format == "xlsx" else locale,
            csv_number=partial(format_data_number, locale=locale),
        )
        await interaction.followup.send(
            t("standings.exported_xlsx" if format == "xlsx" else "standings.exported", locale),
            file=discord.File(io.BytesIO(data), filename=filename),
            ephemeral=True,
        )
