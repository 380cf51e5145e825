"""/rule — a question in Italian or English → the best three articles of the preset, summarised in our own words in
the reader's language with the rulebook's reference (BOT-RUL-1). The same search as ``steward rule``.

The answer is private; its "More" button pages through the next matches and reads the question back from the
message itself, so it keeps working after a restart. A referee naming a table posts the best answer in that table's
thread and pins it there."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import EMBED_COLOUR, actor_of, bot_of, locale_of, one_heavy_call, send, server_locale, tr
from bot.cogs._errors import guarded
from bot.cogs._params import TableNumber, Tournament
from bot.errors import InvalidInput
from bot.i18n import LOCALES, preset_name, t
from bot.present.markup import safe
from bot.rules.presets import PRESET_NAMES
from bot.rules.rulebook.search import warm_indexes
from bot.services.rulebook import Ruling

log = logging.getLogger(__name__)

PAGE = 3
PAGES_MAX = 4  # at most twelve articles through "More"
PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
FOOTER = re.compile(r"^(?P<preset>.+?) · (?P<question>.+)$", re.S)


def footer_preset(shown: str) -> str | None:
    """The preset a footer names: by its name in either language (issue 44: never its id), or by its id (older
    messages)."""
    for preset in PRESET_NAMES:
        if shown == preset or shown in (preset_name(preset, locale) for locale in LOCALES):
            return preset
    return None


def ruling_embed(ruling: Ruling, locale: str, *, offset: int = 0) -> discord.Embed:
    """The matches as embed fields (reference — title: summary); the footer keeps the preset and the question."""
    out = discord.Embed(
        title=t("rule.title", locale, preset=t(f"choice.{ruling.preset}", locale))[:256], colour=EMBED_COLOUR
    )
    if not ruling.matches:
        out.description = t("rule.none", locale)
    for i, (article, _score) in enumerate(ruling.matches, start=offset + 1):
        out.add_field(name=f"{i}. {article.reference} — {article.title[locale]}"[:256],
                      value=article.summary[locale][:1024], inline=False)  # fmt: skip
    out.set_footer(text=f"{preset_name(ruling.preset, locale)} · {ruling.query}"[:2048])
    return out


def more_view(offset: int, has_more: bool, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if has_more and offset < PAGE * PAGES_MAX:
        view.add_item(MoreArticles(offset, label=t("rule.more", locale)))
    return view


class MoreArticles(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rule:more:(?P<offset>[0-9]{1,2})"):
    """The next matches of the question in the message's footer."""

    def __init__(self, offset: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80] if label else None, style=discord.ButtonStyle.secondary,
                                           custom_id=f"rule:more:{offset}", emoji="📖"))  # fmt: skip
        self.offset = offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoreArticles:
        return cls(int(match["offset"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first
        embeds = interaction.message.embeds if interaction.message else []
        found = FOOTER.match(embeds[0].footer.text or "") if embeds and embeds[0].footer else None
        preset = footer_preset(found["preset"]) if found is not None else None
        if found is None or preset is None:
            raise InvalidInput("error.rule.question_lost")
        locale = locale_of(interaction)
        ruling = await bot_of(interaction).services.rulebook.ask(preset, found["question"], limit=PAGE + 1,
                                                        offset=self.offset)  # fmt: skip
        shown = Ruling(ruling.preset, ruling.query, ruling.language, ruling.matches[:PAGE])
        await interaction.edit_original_response(
            embed=ruling_embed(shown, locale, offset=self.offset),
            view=more_view(self.offset + PAGE, len(ruling.matches) > PAGE, locale),
        )


class RuleCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Build the search indexes off the event loop at start-up, so the first question is as fast as the rest."""
        stale = await asyncio.to_thread(warm_indexes)
        if stale:
            log.warning("rules desk: no current learned ranker for %s; run python -m scripts.train_rules_desk", stale)

    @app_commands.command(name="rule")
    @app_commands.guild_only()
    @app_commands.describe(
        question="Your question, in Italian or English",
        preset="The rulebook (default: the tournament's, or the server's latest tournament's)",
        tournament="The tournament whose rulebook applies",
        table="Referees: post the best answer in this table's thread and pin it",
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rule(
        self,
        interaction: discord.Interaction[StewardBot],
        question: app_commands.Range[str, 1, 500],
        preset: app_commands.Choice[str] | None = None,
        tournament: Tournament | None = None,
        table: TableNumber | None = None,
    ) -> None:
        """Find the rulebook articles that answer a question (anyone)."""
        actor = actor_of(interaction)
        if table is not None and tournament is None:
            raise InvalidInput("error.rule.table_needs_tournament")
        await interaction.response.defer(ephemeral=True, thinking=True)
        services = self.bot.services
        name = await services.rulebook.preset_for(actor.guild_id, preset=preset.value if preset else None,
                                               tournament=tournament)  # fmt: skip
        async with one_heavy_call(interaction):
            ruling = await services.rulebook.ask(name, question, limit=PAGE + 1)
        locale = locale_of(interaction)
        shown = Ruling(ruling.preset, ruling.query, ruling.language, ruling.matches[:PAGE])
        if table is not None and tournament is not None and shown.matches:
            thread_id = await services.rulebook.table_thread(actor, tournament=tournament, table=table)
            public = await server_locale(interaction)
            best = Ruling(shown.preset, shown.query, shown.language, shown.matches[:1])
            thread = self.bot.get_partial_messageable(thread_id, guild_id=actor.guild_id)
            posted = await thread.send(content=t("rule.posted_by", public, referee=f"<@{actor.user_id}>"),
                                       embed=ruling_embed(best, public),
                                       allowed_mentions=discord.AllowedMentions.none())  # fmt: skip
            try:
                await posted.pin(reason=t("rule.pin_reason", public))
            except discord.HTTPException:
                await send(interaction, tr(interaction, "rule.pin_failed", table=table), ephemeral=True)
            await send(interaction, tr(interaction, "rule.posted", table=table, tournament=safe(tournament)),
                       ephemeral=True)  # fmt: skip
            return
        await interaction.followup.send(
            embed=ruling_embed(shown, locale), view=more_view(PAGE, len(ruling.matches) > PAGE, locale), ephemeral=True
        )
