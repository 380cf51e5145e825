"""The desk's own parameters: an infraction of the tournament's preset, and a sanction kind, each suggested in
the user's language from the preset of the tournament chosen in the same command."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.cogs._common import locale_of
from bot.cogs._params import CHOICES_MAX
from bot.errors import UserFacingError
from bot.i18n import t
from bot.rules.ruleset import load_ruleset
from bot.rules.sanctions import infractions, sanction_kinds


async def _preset(interaction: discord.Interaction[Any]) -> str | None:
    name = getattr(interaction.namespace, "tournament", None)
    if interaction.guild_id is None or not name:
        return None
    try:
        detail = await interaction.client.services.tournaments.show(interaction.guild_id, str(name))
    except UserFacingError:
        return None
    return str(detail.tournament.preset)


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

    def codes(self, preset: str) -> tuple[str, ...]:
        raise NotImplementedError

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        preset = await _preset(interaction)
        if preset is None:
            return []
        locale = locale_of(interaction)
        typed = str(value).casefold()
        out = []
        for code in self.codes(preset):
            label = t(f"{self.key}.{code}", locale)
            if typed in label.casefold() or typed in code:
                out.append(app_commands.Choice(name=label[:100], value=code))
        return out[:CHOICES_MAX]


class InfractionTransformer(_CodeTransformer):
    key = "sanction.infraction"

    def codes(self, preset: str) -> tuple[str, ...]:
        return tuple(i.code for i in infractions(load_ruleset(preset)))


class KindTransformer(_CodeTransformer):
    key = "sanction.kind"

    def codes(self, preset: str) -> tuple[str, ...]:
        return sanction_kinds(load_ruleset(preset))


InfractionCode = app_commands.Transform[str, InfractionTransformer]
SanctionKind = app_commands.Transform[str, KindTransformer]
