"""/history import — a club's past tournaments into the bot: the bot's own whole-tournament export (JSON) or a
ModuloTorneo workbook (.xlsx) becomes a finished tournament of this server, all or nothing, so standings, seasons
and FIRK's round 1 continue from it. (Its own group: /tournament is at Discord's size limit for one command.)"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, send, tr
from bot.cogs._params import ORGANIZER_COMMANDS
from bot.errors import InvalidInput
from bot.present.markup import safe
from bot.rules.jsondoc import DocumentError, loads_bounded
from bot.rules.risiko.config import RISIKO_PRESETS

IMPORT_MAX_BYTES = 8 * 1024 * 1024
XLSX_MAGIC = b"PK\x03\x04"
PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in RISIKO_PRESETS]


class HistoryCog(commands.Cog):
    history = app_commands.Group(
        name="history",
        description="A club's past tournaments into the bot (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @history.command(name="import")
    @app_commands.describe(
        file="The bot's tournament export (.json) or a ModuloTorneo workbook (.xlsx)",
        preset="A workbook's rulebook (default: official tournaments 2018)",
        name="The tournament's name here (default: the file's)",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def import_(
        self,
        interaction: discord.Interaction[StewardBot],
        file: discord.Attachment,
        preset: app_commands.Choice[str] | None = None,
        name: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Import a finished tournament: the bot's export or a ModuloTorneo workbook (organizers)."""
        actor = actor_of(interaction)
        if file.size > IMPORT_MAX_BYTES:
            raise InvalidInput("error.import.too_big", max=IMPORT_MAX_BYTES // 1024, size=file.size // 1024)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await file.read()
        imports = self.bot.services.imports
        if file.filename.lower().endswith(".xlsx") or data.startswith(XLSX_MAGIC):
            chosen = preset.value if preset else "risiko-ufficiali-2018"
            view = await imports.modulo(actor, data=data, preset=chosen, name=name)
        else:
            try:
                document = loads_bounded(data.decode("utf-8-sig", errors="replace"), max_chars=IMPORT_MAX_BYTES)
            except DocumentError as exc:
                raise InvalidInput("error.import.bad_document", detail=str(exc)[:300]) from None
            view = await imports.tournament(actor, document=document, name=name)
        await send(
            interaction,
            tr(
                interaction,
                "history.imported",
                tournament=safe(view.tournament_name),
                players=view.players,
                rounds=view.rounds,
                tables=view.tables,
            ),
            ephemeral=True,
        )
