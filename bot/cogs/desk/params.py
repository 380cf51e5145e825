"""The desk's own parameter: an infraction of the tournament's ruleset, suggested in the user's language from the
preset *and the overrides* of the tournament chosen in the same command (a tournament may add or change
infractions)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.cogs._common import locale_of
from bot.cogs._params import CHOICES_MAX
from bot.errors import UserFacingError
from bot.i18n import t
from bot.rules.ruleset import Ruleset, load_ruleset
from bot.rules.sanctions import infractions


async def _ruleset(interaction: discord.Interaction[Any]) -> Ruleset | None:
    """The ruleset of the tournament named in the command, as the desk applies it: its preset with its overrides."""
    name = getattr(interaction.namespace, "tournament", None)
    if interaction.guild_id is None or not name:
        return None
    try:
        detail = await interaction.client.services.tournaments.show(interaction.guild_id, str(name))
    except UserFacingError:
        return None
    view = detail.tournament
    return load_ruleset(str(view.preset), dict(view.overrides) or None)


class _CodeTransformer(app_commands.Transformer):
    key = ""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def max_value(self) -> int:
        return 40

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        return str(value).strip()

    def codes(self, ruleset: Ruleset) -> tuple[str, ...]:
        raise NotImplementedError

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        ruleset = await _ruleset(interaction)
        if ruleset is None:
            return []
        locale = locale_of(interaction)
        typed = str(value).casefold()
        out = []
        for code in self.codes(ruleset):
            label = t(f"{self.key}.{code}", locale)
            if typed in label.casefold() or typed in code:
                out.append(app_commands.Choice(name=label[:100], value=code))
        return out[:CHOICES_MAX]


class InfractionTransformer(_CodeTransformer):
    key = "sanction.infraction"

    def codes(self, ruleset: Ruleset) -> tuple[str, ...]:
        return tuple(i.code for i in infractions(ruleset))


InfractionCode = app_commands.Transform[str, InfractionTransformer]
