"""/tournaments list|show — everyone reads this server's tournaments."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, send, tr
from bot.cogs._params import Tournament
from bot.present.markup import discord_timestamp, safe

LIST_BUDGET = 3900  # characters of one embed description (Discord max 4096)
STATUS_ORDER = ("validated", "registered", "waitlisted", "withdrawn", "disqualified")


def status_text(interaction: discord.Interaction[StewardBot], status: str) -> str:
    return tr(interaction, f"tournament.status.{status}")


class TournamentsCog(commands.Cog):
    tournaments = app_commands.Group(name="tournaments", description="This server's tournaments", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @tournaments.command(name="list")
    async def list_(self, interaction: discord.Interaction[StewardBot]) -> None:
        """List this server's tournaments, newest first."""
        guild_id = actor_of(interaction).guild_id
        await interaction.response.defer(thinking=True)
        found = await self.bot.services.tournaments.list(guild_id, limit=50)
        lines: list[str] = []
        used = 0
        for index, t in enumerate(found):
            line = tr(
                interaction,
                "tournament.list.line",
                name=safe(t.name),
                preset=tr(interaction, f"choice.{t.preset}"),
                status=status_text(interaction, t.status),
            )
            if used + len(line) + 1 > LIST_BUDGET:
                lines.append(tr(interaction, "players.more", count=len(found) - index))
                break
            lines.append(line)
            used += len(line) + 1
        if not found:
            lines.append(tr(interaction, "tournament.list.none"))
        await send(interaction, embed=embed(tr(interaction, "tournament.list.title"), "\n".join(lines)))

    @tournaments.command(name="show")
    @app_commands.describe(tournament="The tournament to show")
    async def show(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Show a tournament: status, rules, players and deadline."""
        guild_id = actor_of(interaction).guild_id
        await interaction.response.defer(thinking=True)
        detail = await self.bot.services.tournaments.show(guild_id, tournament)
        t = detail.tournament
        lines = [
            tr(interaction, "tournament.show.status", status=status_text(interaction, t.status)),
            tr(interaction, "tournament.created.preset", preset=tr(interaction, f"choice.{t.preset}")),
            tr(interaction, "tournament.created.cap", cap=t.cap)
            if t.cap
            else tr(interaction, "tournament.created.no_cap"),
        ]
        if t.registration_deadline:
            when = f"{discord_timestamp(t.registration_deadline)} ({discord_timestamp(t.registration_deadline, 'R')})"
            lines.append(tr(interaction, "tournament.created.deadline", when=when))
        counts = ", ".join(
            f"{tr(interaction, f'status.{s}')}: {detail.counts[s]}" for s in STATUS_ORDER if detail.counts.get(s)
        )
        lines.append(tr(interaction, "tournament.show.players", counts=counts or "0"))
        lines.append(tr(interaction, "tournament.show.rounds", rounds=detail.rounds))
        if detail.current_round is not None:
            lines.append(tr(interaction, "tournament.show.current_round", round=detail.current_round))
        if t.overrides:
            lines.append(tr(interaction, "tournament.created.overrides", keys=safe(", ".join(t.overrides))[:500]))
        await send(interaction, embed=embed(safe(t.name), "\n".join(lines)))
