"""/about (anyone): the version (``steward --version``'s text: plus the ``git describe`` of a checkout), every
preset by its name in the member's language, and where the project and its documentation live. Nothing secret: no
setting is read but the version, and the reply is private."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

import bot as package
from bot.cogs._bot import StewardBot
from bot.cogs._common import EMBED_COLOUR, locale_of, send
from bot.i18n import t
from bot.rules.presets import PRESET_NAMES


def about_embed(version: str, home: str, locale: str) -> discord.Embed:
    out = discord.Embed(title=t("about.title", locale), description=t("about.summary", locale), colour=EMBED_COLOUR)
    out.add_field(name=t("about.version", locale), value=f"`{version}`"[:1024], inline=False)
    presets = "\n".join(f"`{name}` — {t(f'choice.{name}', locale)}" for name in PRESET_NAMES)
    out.add_field(name=t("about.presets", locale), value=presets[:1024], inline=False)
    out.add_field(name=t("about.home", locale), value=home[:1024], inline=False)
    return out


class AboutCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot
        self.version = package.installed_version()
        self.home = package.project_home()

    async def cog_load(self) -> None:
        """Ask git (a checkout's ``describe``) once, off the event loop."""
        self.version = await asyncio.to_thread(package.version_text)

    @app_commands.command(name="about")
    async def about(self, interaction: discord.Interaction[StewardBot]) -> None:
        """The bot's version, presets and home page (anyone)"""
        await send(interaction, embed=about_embed(self.version, self.home, locale_of(interaction)), ephemeral=True)
