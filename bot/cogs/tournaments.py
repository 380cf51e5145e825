"""/tournament … and /roster import|export — organizers create, show, close and validate tournaments; players as CSV
(BOT-REG-1, BOT-REG-2, BOT-ROLE-1)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._autocomplete import tournament_autocomplete
from bot.cogs._common import actor_of, discord_timestamp, embed, parse_local_datetime, safe, send, tr
from bot.errors import InvalidInput
from bot.rules.presets import PRESET_NAMES
from bot.services.players_csv import RowProblem
from bot.services.registrations import CSV_MAX_BYTES
from bot.services.tournaments import parse_overrides

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
LIST_BUDGET = 3900  # characters of one embed description (Discord max 4096)
PROBLEM_BUDGET = 1800  # characters of problem lines in one message (Discord max 2000)
STATUS_ORDER = ("validated", "registered", "waitlisted", "withdrawn", "disqualified")


def problem_lines(interaction: discord.Interaction[StewardBot], problems: tuple[RowProblem, ...]) -> list[str]:
    """Every bad row with its line number, as many as fit in one message."""
    lines: list[str] = []
    used = 0
    for index, p in enumerate(problems):
        params = dict(p.params)
        if isinstance(params.get("field"), str):
            params["field"] = tr(interaction, f"field.{params['field']}")
        for key in ("name", "column", "value"):
            if isinstance(params.get(key), str):
                params[key] = safe(params[key])
        line = tr(interaction, "csv.line", line=p.line, message=tr(interaction, p.key, **params))
        if used + len(line) + 1 > PROBLEM_BUDGET:
            lines.append(tr(interaction, "csv.more_problems", count=len(problems) - index))
            break
        lines.append(line)
        used += len(line) + 1
    return lines


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Create and manage tournaments", guild_only=True)
    # Import/export live in their own group: /tournament would pass Discord's 8000-character command limit.
    roster = app_commands.Group(name="roster", description="A tournament's player list as a CSV file", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    def _status(self, interaction: discord.Interaction[StewardBot], status: str) -> str:
        return tr(interaction, f"tournament.status.{status}")

    @tournament.command(name="create")
    @app_commands.describe(
        name="Name of the tournament (unique in this server)",
        preset="The rulebook the tournament follows",
        cap="Maximum number of players; later registrations go to the waitlist",
        deadline="Registration deadline, Italian time: YYYY-MM-DD HH:MM",
        overrides='Changes to the preset as JSON, e.g. {"tournament": {"qualifying_rounds": 3}}',
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[StewardBot],
        name: app_commands.Range[str, 1, 100],
        preset: app_commands.Choice[str],
        cap: app_commands.Range[int, 2, 2000] | None = None,
        deadline: app_commands.Range[str, 1, 40] | None = None,
        overrides: app_commands.Range[str, 1, 2000] | None = None,
    ) -> None:
        """Create a tournament with a ruleset preset (organizers)."""
        actor = actor_of(interaction)
        when = parse_local_datetime(deadline)
        changes = parse_overrides(overrides)
        await interaction.response.defer(thinking=True)
        created = await self.bot.services.tournaments.create(
            actor, name=name, preset=preset.value, cap=cap, registration_deadline=when, overrides=changes
        )
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
        if created.overrides:
            lines.append(tr(interaction, "tournament.created.overrides", keys=safe(", ".join(created.overrides))[:500]))
        lines.append(tr(interaction, "tournament.created.next", name=safe(created.name)))
        await send(
            interaction,
            embed=embed(tr(interaction, "tournament.created.title", name=safe(created.name)), "\n".join(lines)),
        )

    @tournament.command(name="list")
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
                status=self._status(interaction, t.status),
            )
            if used + len(line) + 1 > LIST_BUDGET:
                lines.append(tr(interaction, "players.more", count=len(found) - index))
                break
            lines.append(line)
            used += len(line) + 1
        if not found:
            lines.append(tr(interaction, "tournament.list.none"))
        await send(interaction, embed=embed(tr(interaction, "tournament.list.title"), "\n".join(lines)))

    @tournament.command(name="show")
    @app_commands.describe(tournament="The tournament to show")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def show(
        self, interaction: discord.Interaction[StewardBot], tournament: app_commands.Range[str, 1, 100]
    ) -> None:
        """Show a tournament: status, rules, players and deadline."""
        guild_id = actor_of(interaction).guild_id
        await interaction.response.defer(thinking=True)
        detail = await self.bot.services.tournaments.show(guild_id, tournament)
        t = detail.tournament
        lines = [
            tr(interaction, "tournament.show.status", status=self._status(interaction, t.status)),
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

    @tournament.command(name="close")
    @app_commands.describe(tournament="The tournament whose registration to close")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def close(
        self, interaction: discord.Interaction[StewardBot], tournament: app_commands.Range[str, 1, 100]
    ) -> None:
        """Close registration to a tournament (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        t = await self.bot.services.tournaments.close_registration(actor, tournament)
        await send(interaction, tr(interaction, "tournament.closed", name=safe(t.name)))

    @tournament.command(name="validate")
    @app_commands.describe(tournament="The tournament whose player list to validate")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def validate(
        self, interaction: discord.Interaction[StewardBot], tournament: app_commands.Range[str, 1, 100]
    ) -> None:
        """Validate the registration list by the deadline (organizers, referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        report = await self.bot.services.tournaments.validate(actor, tournament)
        lines = [
            tr(interaction, "tournament.validated.count", count=report.validated + report.already_validated),
        ]
        if report.late:
            names = ", ".join(safe(n) for n in report.late)
            lines.append(tr(interaction, "tournament.validated.late", count=len(report.late), names=names)[:1500])
        if report.waitlisted:
            lines.append(tr(interaction, "tournament.validated.waitlisted", count=report.waitlisted))
        title = tr(interaction, "tournament.validated.title", name=safe(report.tournament.name))
        await send(interaction, embed=embed(title, "\n".join(lines)))

    @roster.command(name="import")
    @app_commands.describe(
        tournament="The tournament to add the players to",
        file="CSV file: nome/name, club, squadra/team, famiglia/family, discord id (; or , separated)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def import_(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: app_commands.Range[str, 1, 100],
        file: discord.Attachment,
    ) -> None:
        """Import players from a CSV file (organizers); a file with a bad row imports nothing."""
        actor = actor_of(interaction)
        if file.size > CSV_MAX_BYTES:
            raise InvalidInput("error.csv_too_big", max=CSV_MAX_BYTES // 1024, size=file.size // 1024)
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await file.read()
        outcome = await self.bot.services.registrations.import_csv(actor, tournament=tournament, data=data)
        if outcome.problems:
            head = tr(interaction, "csv.rejected", count=len(outcome.problems), file=safe(file.filename)[:100])
            await send(interaction, "\n".join([head, *problem_lines(interaction, outcome.problems)]), ephemeral=True)
            return
        text = tr(interaction, "csv.imported", count=outcome.imported, tournament=safe(outcome.tournament_name))
        if outcome.waitlisted:
            text += "\n" + tr(interaction, "csv.imported_waitlisted", count=outcome.waitlisted)
        await send(interaction, text, ephemeral=True)

    @roster.command(name="export")
    @app_commands.describe(tournament="The tournament whose players to export")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def export(
        self, interaction: discord.Interaction[StewardBot], tournament: app_commands.Range[str, 1, 100]
    ) -> None:
        """Export the players as a CSV file for spreadsheets (organizers, referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = await self.bot.services.registrations.export_csv(actor, tournament=tournament)
        text = tr(interaction, "csv.exported", count=export.rows, tournament=safe(export.tournament_name))
        await interaction.followup.send(
            text, file=discord.File(io.BytesIO(export.data), filename=export.filename), ephemeral=True
        )


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(TournamentCog(bot))
