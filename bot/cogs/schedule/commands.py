"""/schedule … — organizers set a round's start (reminders and the Discord event follow), announcements at a time,
the registration deadline, the reminder offsets and the server's time zone; ``/schedule list`` shows every pending
row with its next run time and the latest deliveries (BOT-SCH-1, BOT-REG-2). Times are typed in the server's time
zone and shown as Discord timestamps."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, send, server_locale, tr
from bot.cogs._params import ORGANIZER_COMMANDS, Tournament
from bot.cogs._transformers import LocalDateTime
from bot.cogs.schedule.events import EVENT_NOTES, cancel_round_event, sync_round_event
from bot.present.markup import safe, when
from bot.present.schedule import line_text, offset_label
from bot.rules.schedule import ScheduleError, parse_offsets
from bot.services.schedules import ReminderLine, schedule_refusal

LIST_BUDGET = 3800  # characters of the list's embed description


class ScheduleCog(commands.Cog):
    schedule = app_commands.Group(
        name="schedule",
        description="Round starts, reminders, announcements and deadlines (organizers)",
        guild_only=True,
        default_permissions=ORGANIZER_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    def _wake(self, lines: tuple[ReminderLine, ...] | list[ReminderLine]) -> None:
        self.bot.runner.wake_all([(x.reminder_id, x.due_at) for x in lines if x.status == "pending"])

    async def _event_note(self, interaction: discord.Interaction[StewardBot], outcome: str) -> str:
        return "\n" + tr(interaction, f"schedule.event.{outcome}") if outcome in EVENT_NOTES else ""

    @schedule.command(name="round")
    @app_commands.describe(
        tournament="The tournament",
        start="Start in the server's time zone: YYYY-MM-DD HH:MM",
        number="The round (default: the latest one not closed, or a new one)",
    )
    async def round(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        start: LocalDateTime,
        number: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        """Set a round's start: reminders and the Discord event follow it (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        schedules = self.bot.services.schedules
        done = await schedules.schedule_round(actor, tournament=tournament, start=start, number=number)
        self._wake(done.reminders)
        assert interaction.guild_id is not None
        outcome = await sync_round_event(
            self.bot, interaction.guild_id, round_id=done.round_id, tournament=done.tournament_name,
            number=done.round_number, start=done.start, event_id=done.discord_event_id,
            locale=await server_locale(interaction),
        )  # fmt: skip
        text = tr(interaction, "schedule.round.set", tournament=safe(done.tournament_name), round=done.round_number,
                  when=when(done.start), zone=done.timezone)  # fmt: skip
        if done.previous_start is not None:
            text += "\n" + tr(interaction, "schedule.round.moved", when=when(done.previous_start))
        reminders = ", ".join(when(x.due_at) for x in done.reminders) or tr(interaction, "schedule.round.no_reminders")
        text += "\n" + tr(interaction, "schedule.round.reminders", reminders=reminders)
        await send(interaction, text + await self._event_note(interaction, outcome), ephemeral=True)

    @schedule.command(name="clear")
    @app_commands.describe(tournament="The tournament", number="The round (default: the latest scheduled)")
    async def clear(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        number: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        """Withdraw a round's start: its reminders and Discord event are cancelled (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        done = await self.bot.services.schedules.clear_round(actor, tournament=tournament, number=number)
        assert interaction.guild_id is not None
        outcome = await cancel_round_event(
            self.bot, interaction.guild_id, round_id=done.round_id, event_id=done.discord_event_id
        )
        text = tr(interaction, "schedule.round.cleared", tournament=safe(done.tournament_name), round=done.round_number)
        await send(interaction, text + await self._event_note(interaction, outcome), ephemeral=True)

    @schedule.command(name="deadline")
    @app_commands.describe(tournament="The tournament", at="The deadline, in the server's time zone: YYYY-MM-DD HH:MM")
    async def deadline(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, at: LocalDateTime
    ) -> None:
        """Set the registration deadline: registration closes by itself then (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        line = await self.bot.services.schedules.set_deadline(actor, tournament=tournament, at=at)
        self._wake([line])
        await send(interaction, tr(interaction, "schedule.deadline.set", tournament=safe(tournament),
                                   when=when(line.due_at)), ephemeral=True)  # fmt: skip

    @schedule.command(name="reminders")
    @app_commands.describe(tournament="The tournament", offsets="Before each round, e.g. 24h, 1h, 10m")
    async def reminders(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        offsets: app_commands.Range[str, 1, 60],
    ) -> None:
        """Choose when reminders go out before each round (organizers)."""
        actor = actor_of(interaction)
        try:
            minutes = parse_offsets(offsets)
        except ScheduleError as exc:
            raise schedule_refusal(exc) from None
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = await self.bot.services.schedules.set_reminders(actor, tournament=tournament, offsets=minutes)
        await self.bot.runner.wake_guild(interaction.guild_id)
        shown = ", ".join(offset_label(m) for m in chosen)
        await send(interaction, tr(interaction, "schedule.reminders.set", tournament=safe(tournament),
                                   offsets=shown), ephemeral=True)  # fmt: skip

    @schedule.command(name="list")
    @app_commands.describe(tournament="Only this tournament")
    async def list_(self, interaction: discord.Interaction[StewardBot], tournament: Tournament | None = None) -> None:
        """Every pending schedule with its next run time, and the latest deliveries (staff)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.bot.services.schedules.overview(actor, tournament=tournament)
        locale = locale_of(interaction)
        now, lease = self.bot.services.clock(), self.bot.runner.lease
        parts = [tr(interaction, "schedule.list.zone", zone=found.timezone)]
        parts.append("**" + tr(interaction, "schedule.list.pending", count=len(found.pending)) + "**")
        parts += [line_text(x, locale, now=now, lease=lease) for x in found.pending] or [
            tr(interaction, "schedule.list.none")
        ]
        parts.append("**" + tr(interaction, "schedule.list.recent") + "**")
        parts += [line_text(x, locale, now=now, lease=lease) for x in found.recent] or [
            tr(interaction, "schedule.list.none")
        ]
        text, shown = "", 0
        for part in parts:
            if len(text) + len(part) + 1 > LIST_BUDGET:
                text += "\n" + tr(interaction, "schedule.and_more", count=len(parts) - shown)
                break
            text, shown = text + part + "\n", shown + 1
        out = discord.Embed(title=tr(interaction, "schedule.list.title"), description=text[:4096])
        await interaction.followup.send(embed=out, ephemeral=True)

    @schedule.command(name="cancel")
    @app_commands.describe(id="The number shown by /schedule list")
    async def cancel(
        self, interaction: discord.Interaction[StewardBot], id: app_commands.Range[int, 1, 2**31 - 1]
    ) -> None:
        """Cancel one pending schedule (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        line = await self.bot.services.schedules.cancel(actor, id)
        await send(interaction, tr(interaction, "schedule.cancelled", id=line.reminder_id), ephemeral=True)


class AnnounceCog(commands.Cog):
    """/announce: an organizer's message (and the tables or standings image) posted at a time."""

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="announce")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_events=True)
    @app_commands.describe(
        tournament="The tournament",
        at="When, in the server's time zone: YYYY-MM-DD HH:MM",
        text="The message",
        image="An image to attach when it is posted",
        channel="Where (default: the announcement channel)",
    )
    async def announcement(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        at: LocalDateTime,
        text: app_commands.Range[str, 1, 1800],
        image: Literal["tables", "standings"] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """Post a message (and an image) at a time (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        line = await self.bot.services.schedules.schedule_announcement(
            actor, tournament=tournament, at=at, text=text, image=image,
            channel_id=channel.id if channel else None,
        )  # fmt: skip
        self.bot.runner.wake_all([(line.reminder_id, line.due_at)])
        await send(interaction, tr(interaction, "schedule.announcement.set", id=line.reminder_id,
                                   when=when(line.due_at)), ephemeral=True)  # fmt: skip
