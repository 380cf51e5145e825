"""discord.py Translator: Italian (and English) names/descriptions of commands, options and choices.

Keys are derived from where a string sits, so a command needs no extra markup:
``cmd.<qualified name>.name`` / ``.description``, ``cmd.<qualified name>.opt.<option>.name`` /
``.description``, ``choice.<value>`` for choices. English is the code's default text; the English
catalogue may still override it (e.g. a nicer description).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Loc

from bot.i18n import catalogue

DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.italian: "it",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]) -> str | None:
    data = context.data
    loc = context.location
    if loc in (Loc.command_name, Loc.group_name):
        return f"cmd.{data.qualified_name}.name"
    if loc in (Loc.command_description, Loc.group_description):
        return f"cmd.{data.qualified_name}.description"
    if loc is Loc.parameter_name:
        return f"cmd.{data.command.qualified_name}.opt.{data.name}.name"
    if loc is Loc.parameter_description:
        return f"cmd.{data.command.qualified_name}.opt.{data.name}.description"
    if loc is Loc.choice_name:
        return f"choice.{data.value}"
    return string.extras.get("key")


class StewardTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = DISCORD_LOCALES.get(locale)
        if lang is None:
            return None
        key = key_for(string, context)
        if key is None:
            return None
        return catalogue(lang).get(key)
