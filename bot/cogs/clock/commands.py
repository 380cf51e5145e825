"""/clock … (referees) and /endgame … (the players at the table, or a referee): the table's game clock and the
timed ending it calls (BOT-SCH-2, TOUR-TIME-1, RR-INT-1, FIRK-TIME-1, RK-SD-1..3, RK-ELIM-1).

The clock's calls are rows the runner delivers to the table's thread at the preset's minute plus the recovery
minutes of every pause; the end-of-game tracker is the RisiKo! engine, fed one event per command."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, send, server_locale
from bot.cogs._params import REFEREE_COMMANDS, Player, TableNumber, Tournament
from bot.errors import InvalidInput
from bot.i18n import t
from bot.present.clock import clock_line, expect_text, step_text
from bot.present.markup import safe
from bot.rules.rulebook import cite
from bot.services.clocks import ClockView


async def _tell_table(interaction: discord.Interaction[StewardBot], view: ClockView, key: str) -> None:
    """A short public note in the table's thread (pauses and resumes concern the players); never fails the command."""
    if view.thread_id is None:
        return
    locale = await server_locale(interaction)
    try:
        channel = interaction.client.get_partial_messageable(view.thread_id, guild_id=interaction.guild_id)
        await channel.send(t(key, locale, table=view.table_number, who=f"<@{interaction.user.id}>")[:2000],
                           allowed_mentions=discord.AllowedMentions.none())  # fmt: skip
    except discord.HTTPException:
        pass


class ClockCog(commands.Cog):
    clock = app_commands.Group(
        name="clock",
        description="Game clocks of the tables (referees)",
        guild_only=True,
        default_permissions=REFEREE_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @clock.command(name="start")
    @app_commands.describe(
        tournament="The tournament",
        table="One table (default: every table of the published round)",
        first="Who plays first at that table (default: seat 1)",
    )
    async def start(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber | None = None,
        first: Player | None = None,
    ) -> None:
        """Start the clock of a table, or of every table at once (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        report = await self.bot.services.clocks.start(actor, tournament=tournament, table=table, first=first)
        await self.bot.runner.wake_guild(interaction.guild_id)
        locale = locale_of(interaction)
        lines = [clock_line(v, locale) for v in report.started]
        if report.already:
            lines.append(t("clock.already_running", locale, tables=", ".join(map(str, report.already))))
        await send(interaction, "\n".join(lines)[:2000], ephemeral=True)

    async def _toggle(
        self, interaction: discord.Interaction[StewardBot], tournament: str, table: int, *, pausing: bool
    ) -> None:
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        clocks = self.bot.services.clocks
        view = await (clocks.pause if pausing else clocks.resume)(actor, tournament=tournament, table=table)
        await self.bot.runner.wake_guild(interaction.guild_id)
        await _tell_table(interaction, view, "clock.table.paused" if pausing else "clock.table.resumed")
        await send(interaction, clock_line(view, locale_of(interaction)), ephemeral=True)

    @clock.command(name="pause")
    @app_commands.describe(tournament="The tournament", table="The table")
    async def pause(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, table: TableNumber
    ) -> None:
        """Stop a table's clock for an intervention: it becomes recovery time (referees)."""
        await self._toggle(interaction, tournament, table, pausing=True)

    @clock.command(name="resume")
    @app_commands.describe(tournament="The tournament", table="The table")
    async def resume(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, table: TableNumber
    ) -> None:
        """Restart a table's clock: the pause is added as recovery minutes (referees)."""
        await self._toggle(interaction, tournament, table, pausing=False)

    @clock.command(name="status")
    @app_commands.describe(tournament="The tournament", table="One table (default: all)")
    async def status(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, table: TableNumber | None = None
    ) -> None:
        """Time played, recovery minutes and when the timed ending begins (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        views = await self.bot.services.clocks.status(actor, tournament=tournament, table=table)
        locale = locale_of(interaction)
        text = "\n".join(clock_line(v, locale) for v in views) or t("clock.none", locale, tournament=safe(tournament))
        await send(interaction, text[:2000], ephemeral=True)


class EndgameCog(commands.Cog):
    endgame = app_commands.Group(name="endgame", description="The end of the game at your table", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    async def _record(
        self, interaction: discord.Interaction[StewardBot], tournament: str, table: int | None, event: dict[str, Any]
    ) -> None:
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)  # public: the whole table reads who rolls next
        step = await self.bot.services.clocks.record(actor, tournament=tournament, table=table, event=event)
        await send(interaction, step_text(step, await server_locale(interaction))[:2000])

    @endgame.command(name="turn")
    @app_commands.describe(
        tournament="The tournament",
        conquests="Conquered this turn",
        table="Default: yours",
    )
    async def turn(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        conquests: app_commands.Range[int, 0, 42] = 0,
        table: TableNumber | None = None,
    ) -> None:
        """The end of the current turn and its conquests."""
        await self._record(interaction, tournament, table, {"event": "turn_ended", "conquests": conquests})

    @endgame.command(name="roll")
    @app_commands.describe(
        tournament="The tournament",
        die1="The first die",
        die2="The second die",
        table="Default: yours",
    )
    async def roll(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        die1: app_commands.Range[int, 1, 6],
        die2: app_commands.Range[int, 1, 6],
        table: TableNumber | None = None,
    ) -> None:
        """The sdadata roll: does the game end?"""
        await self._record(interaction, tournament, table, {"event": "roll", "dice": [die1, die2]})

    @endgame.command(name="pass")
    @app_commands.describe(tournament="The tournament", table="Default: yours")
    async def pass_(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber | None = None,
    ) -> None:
        """Pass a supplementary turn (FIRK)."""
        await self._record(interaction, tournament, table, {"event": "pass"})

    @endgame.command(name="out")
    @app_commands.describe(tournament="The tournament", player="Who is out", how="Eliminated or withdrawn",
                           table="Default: yours")  # fmt: skip
    async def out(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        player: Player,
        how: Literal["eliminated", "withdrawn"] = "eliminated",
        table: TableNumber | None = None,
    ) -> None:
        """A player eliminated (not before turn 4 ends) or withdrawn."""
        kind = "player_eliminated" if how == "eliminated" else "player_withdrawn"
        await self._record(interaction, tournament, table, {"event": kind, "player": player})

    @endgame.command(name="status")
    @app_commands.describe(tournament="The tournament", table="The table (default: yours)")
    async def status(
        self, interaction: discord.Interaction[StewardBot], tournament: Tournament, table: TableNumber | None = None
    ) -> None:
        """Who plays or rolls now, and with what threshold (the sdadata at your table)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        clocks = self.bot.services.clocks
        number = table if table is not None else await clocks.table_of(actor, tournament=tournament)
        if number is None:
            raise InvalidInput("error.clock.which_table")
        (view,) = await clocks.status(actor, tournament=tournament, table=number)
        loc = locale_of(interaction)
        lines = [clock_line(view, loc)]
        if view.expecting:
            lines.append(expect_text(view.expecting, loc))
        article = cite(view.preset, "bot.rules.risiko.endgame:step")
        if article is not None:
            lines.append(f"-# {article.reference} — {article.title[loc]}")
        await send(interaction, "\n".join(lines)[:2000], ephemeral=True)
