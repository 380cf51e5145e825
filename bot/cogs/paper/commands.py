"""/print round|standings — the A4 paper kit as PDF files (organizers and referees).

The command is a thin shell: the whole-tournament export (``services.exports.tournament``, the same document
``/tournament export`` writes and ``steward print`` reads) goes to ``bot.present.paper`` in the bot's worker
threads. The paper speaks the server's language (it hangs in the venue); the reply, private, the member's. Each
table's QR code links to its card on the venue page (``/venue link``'s page, ``#table-<n>``): without the web
server, or for a referee (only organizers can link the page), the sheets have none and the reply says why.
"""

from __future__ import annotations

import io
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, server_locale, tr
from bot.cogs._params import ORGANIZER_COMMANDS, RoundNumber, Tournament
from bot.errors import InvalidInput, PermissionDenied
from bot.files.sheets import file_stem
from bot.i18n import t
from bot.present.markup import safe
from bot.present.paper import PaperError, latest_round, pairings, round_of, standings, table_sheets
from bot.rules.tournament.export import ExportDocument, read_export
from bot.services.access import Actor
from bot.web.app import page_url
from bot.workers import default_workers


def _refusal(exc: PaperError, tournament: str) -> InvalidInput:
    """What the export cannot print, as the member reads it."""
    name = safe(tournament)
    if exc.code == "no_round":
        return InvalidInput("error.paper.no_round", tournament=name, round=exc.params.get("round", "?"))
    if exc.code == "no_standings":
        return InvalidInput("error.paper.no_standings", tournament=name)
    return InvalidInput("error.paper.no_rounds", tournament=name)


def _pdf(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=f"{name}.pdf")


class PaperCog(commands.Cog):
    print_ = app_commands.Group(
        name="print",
        description="Paper for the tables: table sheets, door pairings, standings as PDF (organizers, referees)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    async def _export(self, actor: Actor, tournament: str) -> ExportDocument:
        return read_export(await self.bot.services.exports.tournament(actor, tournament=tournament))

    async def _venue_url(self, actor: Actor, tournament: str) -> tuple[str | None, str | None]:
        """The venue page's URL for the QR codes, or None and the key of the reason there is none."""
        base = self.bot.settings.venue_base_url()
        if base is None:
            return None, "paper.qr.off"
        try:
            link = await self.bot.services.venue.link(actor, tournament=tournament)
        except PermissionDenied:  # a referee: the page's link is the organizers' to give
            return None, "paper.qr.organizers"
        return page_url(base, link.token), None

    @print_.command(name="round")
    @app_commands.describe(tournament="The tournament", number="The round (default: the latest one drawn)")
    async def round_(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, number: RoundNumber | None = None
    ) -> None:
        """A round's table sheets and door pairings as a PDF to print (organizers, referees)"""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        paper_locale = await server_locale(interaction)
        export = await self._export(actor, tournament)
        name = export.tournament.name
        try:
            chosen = number if number is not None else latest_round(export)
            rnd = round_of(export, chosen)
        except PaperError as exc:
            raise _refusal(exc, name) from None
        venue_url, why_not = await self._venue_url(actor, name)
        workers = default_workers()
        sheets = await workers.thread(partial(table_sheets, export, chosen, locale=paper_locale, venue_url=venue_url))
        door = await workers.thread(partial(pairings, export, chosen, locale=paper_locale))
        text = tr(interaction, "paper.round.sent", round=chosen, tournament=safe(name), count=len(rnd.tables))
        if why_not is not None:
            text += "\n" + tr(interaction, why_not)
        files = [
            _pdf(sheets, file_stem(name, t("paper.file.round", paper_locale, round=chosen))),
            _pdf(door, file_stem(name, t("paper.file.pairings", paper_locale, round=chosen))),
        ]
        await interaction.followup.send(text[:2000], files=files, ephemeral=True)

    @print_.command(name="standings")
    @app_commands.describe(tournament="The tournament")
    async def standings_(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """The standings, or the final classification, as a PDF to print (organizers, referees)"""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        paper_locale = await server_locale(interaction)
        export = await self._export(actor, tournament)
        name = export.tournament.name
        try:
            data = await default_workers().thread(partial(standings, export, locale=paper_locale))
        except PaperError as exc:
            raise _refusal(exc, name) from None
        if export.final_classification:
            text = tr(interaction, "paper.final.sent", tournament=safe(name))
            stem = file_stem(name, t("paper.file.final", paper_locale))
        else:
            text = tr(interaction, "paper.standings.sent", tournament=safe(name))
            stem = file_stem(name, t("paper.file.standings", paper_locale))
        await interaction.followup.send(text[:2000], file=_pdf(data, stem), ephemeral=True)
