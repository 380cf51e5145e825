"""The recurring command parameters, declared once: a tournament, a player, a table and a round.

``Tournament`` and ``Player`` are ``app_commands.Transformer`` s that carry their own length limits and
autocomplete, so a command just annotates ``tournament: Tournament``. A player is named either by name or by a
server member: ``player_ref`` checks that one of the two was given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.errors import InvalidInput, UserFacingError

CHOICES_MAX = 25  # Discord: at most 25 suggestions
NAME_MAX = 100  # tournament names
PLAYER_MAX = 64  # player names


class StringOption(app_commands.Transformer):
    """A string option of 1..``longest`` characters; subclasses say what it becomes (``transform``)."""

    longest = NAME_MAX

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return self.longest


class _NameTransformer(StringOption):
    """A trimmed name of 1..``longest`` characters; subclasses suggest the names."""

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> str:
        return str(value).strip()


class TournamentTransformer(_NameTransformer):
    """A tournament of this server by name; suggestions are this server's tournaments."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        found = await interaction.client.services.tournaments.list(
            interaction.guild_id, name_prefix=str(value), limit=CHOICES_MAX
        )
        return [app_commands.Choice(name=t.name[:100], value=t.name[:100]) for t in found]


class PlayerTransformer(_NameTransformer):
    """A player's name; suggestions are the players of the tournament chosen in the same command."""

    longest = PLAYER_MAX

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str, /
    ) -> list[app_commands.Choice[str]]:
        tournament = getattr(interaction.namespace, "tournament", None)
        if interaction.guild_id is None or not tournament:
            return []
        try:
            names = await interaction.client.services.registrations.player_names(
                interaction.guild_id, tournament=str(tournament), prefix=str(value)
            )
        except UserFacingError:  # no such tournament yet: no suggestions, never an error
            return []
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names[:CHOICES_MAX]]


Tournament = app_commands.Transform[str, TournamentTransformer]
Player = app_commands.Transform[str, PlayerTransformer]
TableNumber = app_commands.Range[int, 1, 1000]
RoundNumber = app_commands.Range[int, 1, 100]


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player named by name, or by server member (the member wins when both are given)."""

    name: str | None
    user_id: int | None


def player_ref(name: str | None, member: discord.Member | discord.User | None) -> PlayerRef:
    if member is None and not (name and name.strip()):
        raise InvalidInput("error.member_or_name")
    return PlayerRef(name.strip() if name and name.strip() else None, member.id if member else None)


# Who sees a command in their menu (the service still checks the configured role): server admins can grant these
# commands to the organizer and referee roles in Server Settings → Integrations.
ORGANIZER_COMMANDS = discord.Permissions(manage_events=True)
REFEREE_COMMANDS = discord.Permissions(moderate_members=True)
ADMIN_COMMANDS = discord.Permissions(administrator=True)
