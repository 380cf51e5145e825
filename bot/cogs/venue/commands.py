"""/venue link|revoke — the tournament's live, read-only page for the projector and the players' phones.

The page lives at an unguessable URL (the tournament's venue token); ``link`` posts it in the channel, ``revoke``
replaces it (every page open on the old link stops). The pages are served by the bot when its host sets WEB_PORT
(``bot.web``); otherwise the command says they are off."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, send, server_locale
from bot.cogs._params import ORGANIZER_COMMANDS, Tournament
from bot.i18n import t
from bot.present.markup import safe
from bot.services.venue import VenueLink


def _urls(base: str, link: VenueLink) -> dict[str, str]:
    page = f"{base}/v/{link.token}"
    return {"url": page, "screen": f"{page}/screen"}


class VenueCog(commands.Cog):
    venue = app_commands.Group(
        name="venue",
        description="The tournament's live page for the projector and the phones (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    async def _post(self, interaction: discord.Interaction[StewardBot], link: VenueLink, key: str) -> None:
        locale = await server_locale(interaction)
        base = self.bot.settings.venue_base_url()
        if base is None:
            await send(interaction, t("venue.link.off", locale), ephemeral=True)
            return
        text = t(key, locale, tournament=safe(link.tournament_name), **_urls(base, link))
        await send(interaction, text[:2000])

    @venue.command(name="link")
    @app_commands.describe(tournament="The tournament")
    async def link(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Post the tournament's live page: tables, clocks, standings (organizers)"""
        found = await self.bot.services.venue.link(actor_of(interaction), tournament=tournament)
        await self._post(interaction, found, "venue.link.posted")

    @venue.command(name="revoke")
    @app_commands.describe(tournament="The tournament")
    async def revoke(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Make a new link for the live page: the old one stops working (organizers)"""
        found = await self.bot.services.venue.revoke(actor_of(interaction), tournament=tournament)
        await self._post(interaction, found, "venue.link.revoked")
