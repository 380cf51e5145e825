"""/tournament … — organizers create a tournament, change its number of qualifying rounds, close its registration,
validate its player list (BOT-REG-1, BOT-ROLE-1) and delete a test tournament that has no results (issue 44)."""

from __future__ import annotations

import io
import json
from functools import partial
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, locale_of, send, tr
from bot.cogs._params import ORGANIZER_COMMANDS, Tournament
from bot.cogs._transformers import LocalDateTime
from bot.cogs.tournaments.deletion import confirmation
from bot.files.sheets import file_stem
from bot.i18n import join_names
from bot.present.markup import discord_timestamp, safe
from bot.present.modulo import ModuloRefused, modulo_workbook, problems_text
from bot.rules.presets import PRESET_NAMES
from bot.rules.tournament.config import FORMATS
from bot.rules.tournament.export import read_export
from bot.services.tournaments import parse_overrides
from bot.workers import default_workers


def qualifying_line(interaction: discord.Interaction[StewardBot], rounds: int) -> str:
    """How many qualifying rounds the tournament plays (0: not fixed, the organizers end the phase)."""
    if rounds:
        return tr(interaction, "tournament.qualifying_rounds", rounds=rounds)
    return tr(interaction, "tournament.qualifying_rounds.open")


PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
FORMAT_CHOICES = [app_commands.Choice(name=name, value=name) for name in FORMATS]


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(
        name="tournament",
        description="Create and manage tournaments (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @tournament.command(name="create")
    @app_commands.describe(
        name="Name of the tournament (unique in this server)",
        preset="The rulebook the tournament follows",
        cap="Maximum number of players; later registrations go to the waitlist",
        deadline="Registration deadline, server time zone: YYYY-MM-DD HH:MM",
        overrides="Advanced: rulebook settings as JSON",
        format="All'italiana (points over games) or knockout (table winners go on)",
        qualifying_rounds="Qualifying rounds, 0–20 (0: not fixed)",
    )
    @app_commands.choices(preset=PRESET_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[StewardBot],
        name: app_commands.Range[str, 1, 100],
        preset: app_commands.Choice[str],
        cap: app_commands.Range[int, 2, 2000] | None = None,
        deadline: LocalDateTime | None = None,
        overrides: app_commands.Range[str, 1, 2000] | None = None,
        format: app_commands.Choice[str] | None = None,
        qualifying_rounds: int | None = None,
    ) -> None:
        """Create a tournament with a ruleset preset (organizers)."""
        actor = actor_of(interaction)
        changes = parse_overrides(overrides)
        await interaction.response.defer(thinking=True)
        created = await self.bot.services.tournaments.create(
            actor,
            name=name,
            preset=preset.value,
            cap=cap,
            registration_deadline=deadline,
            overrides=changes,
            format=format.value if format else None,
            qualifying_rounds=qualifying_rounds,
        )
        if created.registration_deadline:  # registration closes by itself then: wake the runner for it
            await self.bot.runner.wake_guild(interaction.guild_id)
        lines = [
            tr(interaction, "tournament.created.preset", preset=tr(interaction, f"choice.{created.preset}")),
            tr(interaction, "tournament.created.cap", cap=created.cap)
            if created.cap
            else tr(interaction, "tournament.created.no_cap"),
        ]
        if created.registration_deadline:
            lines.append(
                tr(interaction, "tournament.created.deadline", when=discord_timestamp(created.registration_deadline))
            )
        if created.format == "knockout":  # NP-FMT-1: how it will run, before anyone registers
            lines.append(tr(interaction, "tournament.created.knockout", final_size=created.final_size))
        if qualifying_rounds is not None:
            lines.append(qualifying_line(interaction, created.qualifying_rounds))
        if created.overrides:
            lines.append(tr(interaction, "tournament.created.overrides", keys=safe(", ".join(created.overrides))[:500]))
        lines.append(tr(interaction, "tournament.created.next", name=safe(created.name)))
        await send(
            interaction,
            embed=embed(tr(interaction, "tournament.created.title", name=safe(created.name)), "\n".join(lines)),
        )

    @tournament.command(name="edit")
    @app_commands.describe(
        tournament="The tournament",
        qualifying_rounds="Qualifying rounds, 0–20 (0: not fixed)",
    )
    async def edit(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, qualifying_rounds: int | None = None
    ) -> None:
        """Set a tournament's number of qualifying rounds (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        t = await self.bot.services.tournaments.edit(actor, tournament, qualifying_rounds=qualifying_rounds)
        title = tr(interaction, "tournament.edited.title", name=safe(t.name))
        await send(interaction, embed=embed(title, qualifying_line(interaction, t.qualifying_rounds)))

    @tournament.command(name="export")
    @app_commands.describe(
        tournament="The tournament",
        format="json: the whole tournament; modulo: the national ranking's workbook",
    )
    async def export(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        format: Literal["json", "modulo"] = "json",
    ) -> None:
        """The whole tournament as JSON, or the ModuloTorneo workbook (organizers, referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        document = await self.bot.services.exports.tournament(actor, tournament=tournament)
        stem = file_stem(tournament, "", limit=40, fallback="tournament")
        if format == "json":
            data = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
            await interaction.followup.send(
                tr(interaction, "tournament.exported.json"),
                ephemeral=True,
                file=discord.File(io.BytesIO(data), filename=f"{stem}.json"),
            )
            return
        export = read_export(document)
        try:
            workbook = await default_workers().thread(partial(modulo_workbook, export))
        except ModuloRefused as exc:
            refusal = tr(interaction, "tournament.exported.modulo_refused")
            lines = [refusal, *problems_text(exc.problems, locale_of(interaction))]
            await send(interaction, "\n".join(lines)[:1900], ephemeral=True)
            return
        await interaction.followup.send(
            tr(interaction, "tournament.exported.modulo"),
            ephemeral=True,
            file=discord.File(io.BytesIO(workbook), filename=f"ModuloTorneo-{stem}.xlsx"),
        )

    @tournament.command(name="close")
    @app_commands.describe(tournament="The tournament whose registration to close")
    async def close(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Close registration to a tournament (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        t = await self.bot.services.tournaments.close_registration(actor, tournament)
        await send(interaction, tr(interaction, "tournament.closed", name=safe(t.name)))

    @tournament.command(name="validate")
    @app_commands.describe(tournament="The tournament whose player list to validate")
    async def validate(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Validate the registration list by the deadline (organizers, referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        report = await self.bot.services.tournaments.validate(actor, tournament)
        lines = [
            tr(interaction, "tournament.validated.count", count=report.validated + report.already_validated),
        ]
        if report.late:
            names = join_names(map(safe, report.late), locale_of(interaction))
            lines.append(tr(interaction, "tournament.validated.late", count=len(report.late), names=names)[:1500])
        if report.waitlisted:
            lines.append(tr(interaction, "tournament.validated.waitlisted", count=report.waitlisted))
        title = tr(interaction, "tournament.validated.title", name=safe(report.tournament.name))
        await send(interaction, embed=embed(title, "\n".join(lines)))

    @tournament.command(name="delete")
    @app_commands.describe(tournament="The tournament to delete (only one with no results)")
    async def delete(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Delete a test tournament that has no results, after a confirmation (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        deletion = await self.bot.services.tournaments.deletion(actor, tournament)
        await interaction.followup.send(ephemeral=True, **confirmation(deletion, locale_of(interaction)))
