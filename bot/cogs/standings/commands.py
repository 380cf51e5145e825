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
from bot.i18n import format_number, join_names, t
from bot.i18n.numbers import format_data_number
from bot.present.exports import export_file
from bot.present.markup import safe
from bot.present.standings import (
    classification_image,
    classification_table,
    stage_note,
    standings_image,
    standings_table,
)
from bot.services.classification import ClassificationView
from bot.services.standings import StandingsView, TieBreakExplanation

TEXT_ROWS = 20  # lines of the compact text under the image
TEXT_BUDGET = 3900  # characters of the embed description we allow ourselves (Discord max 4096)


def explain(decision: TieBreakExplanation, locale: str) -> str:
    names = join_names(map(safe, decision.names), locale)
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


def classification_text(view: ClassificationView, locale: str) -> str:
    """The final classification in a few lines: who won, the places (where each was decided), the open places."""
    lines = []
    if view.champions:
        names = join_names((safe(line.name) for line in view.champions), locale)
        lines += [t("classification.champion", locale, names=names, count=len(view.champions)), ""]
    shown = [line for line in view.lines if line.place is not None]
    for line in shown[:TEXT_ROWS]:
        note = stage_note(line, locale) if view.format != "standings" else None
        key = "classification.line" if note else "classification.line_plain"
        lines.append(t(key, locale, place=line.place, name=safe(line.name), note=note or ""))
    if len(shown) > TEXT_ROWS:
        lines.append(t("standings.more", locale, count=len(shown) - TEXT_ROWS))
    lines += open_places_text(view, locale)
    lines += ["", t("classification.qualifying_hint", locale)]
    text = "\n".join(lines)
    return text if len(text) <= TEXT_BUDGET else text[: TEXT_BUDGET - 1] + "…"


def open_places_text(view: ClassificationView, locale: str) -> list[str]:
    """The places the final phase has still to decide, and among whom."""
    return [
        t(
            f"classification.open.{block.stage}",
            locale,
            first=block.first,
            last=block.last,
            names=join_names(map(safe, block.names), locale)[:900],
        )
        for block in view.open
    ]


class StandingsCog(commands.Cog):
    standings = app_commands.Group(name="standings", description="Tournament standings", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @standings.command(name="show")
    @app_commands.describe(
        tournament="The tournament", qualifying="Show the qualifying standings instead of the final classification"
    )
    async def show(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, qualifying: bool = False
    ) -> None:
        """The standings as an image, with tie-breaks explained."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True)
        limit = getattr(interaction, "attachment_size_limit", 10 * 1024 * 1024)
        date = self.bot.services.clock().date().isoformat()
        final = None if qualifying else await self.bot.services.classification.show(actor.guild_id, tournament)
        if final is not None and final.complete:  # the prize-giving: the champion first (BOT-STD-1, TOUR-FIN-1)
            pages = await classification_image(final, date=date, locale=locale, max_bytes=limit)
            out = embed(t("classification.title", locale, tournament=safe(final.tournament_name)),
                        classification_text(final, locale))  # fmt: skip
            files = [discord.File(io.BytesIO(p), filename=f"classification-{i}.png") for i, p in enumerate(pages, 1)]
            if files:
                out.set_image(url="attachment://classification-1.png")
            await interaction.followup.send(embed=out, files=files)
            return
        view = await self.bot.services.standings.compute(actor.guild_id, tournament)
        image = await standings_image(view, date=date, locale=locale, max_bytes=limit)
        title = t("standings.title", locale, tournament=safe(view.tournament_name), rounds=view.rounds)
        text = standings_text(view, locale) if view.lines else t("standings.empty", locale)
        if final is not None and final.open:  # the final phase is being played: which places are still open
            text = "\n".join([*open_places_text(final, locale), "", text])[:TEXT_BUDGET]
        out = embed(title, text)
        files = [discord.File(io.BytesIO(page), filename=f"standings-{i}.png") for i, page in enumerate(image.pages, 1)]
        if files:
            out.set_image(url="attachment://standings-1.png")
        if image.total_pages > len(image.pages):
            out.set_footer(text=t("standings.pages_cut", locale, shown=len(image.pages), total=image.total_pages))
        await interaction.followup.send(embed=out, files=files)

    @standings.command(name="export")
    @app_commands.describe(
        tournament="The tournament",
        format="CSV (default) or an Excel workbook (XLSX)",
        qualifying="Export the qualifying standings instead of the final classification",
    )
    async def export(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        format: Literal["csv", "xlsx"] = "csv",
        qualifying: bool = False,
    ) -> None:
        """The standings as a CSV file (semicolons; decimal comma in Italian) or an Excel workbook."""
        actor = actor_of(interaction)
        locale = locale_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        final = None if qualifying else await self.bot.services.classification.show(actor.guild_id, tournament)
        if final is not None and final.complete:
            table = classification_table(final, locale)
        else:
            table = standings_table(await self.bot.services.standings.compute(actor.guild_id, tournament), locale)
        name = "".join(c if c.isalnum() else "-" for c in tournament.lower()).strip("-")[:40] or "standings"
        filename, data = export_file(
            table,
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
