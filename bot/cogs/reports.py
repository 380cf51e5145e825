"""/report … and /my-games — match reports signed by every player and countersigned (BOT-RES-1, TOUR-REF-1).

The report message carries two buttons whose custom ids hold only the table id (``report:sign:<id>``,
``report:countersign:<id>``). They are ``DynamicItem`` s registered on the bot, so they keep working after a
restart: the database is the truth, the button only names the table.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._autocomplete import tournament_autocomplete
from bot.cogs._common import actor_of, bot_of, embed, locale_of, safe, send, server_locale, tr
from bot.errors import UserFacingError
from bot.i18n import format_number, render_error, t
from bot.services.reports import MyGamesView, ReportView, TableRef

log = logging.getLogger(__name__)

MODAL_FIELDS_MAX = 5  # Discord: at most five inputs in a modal
MY_GAMES_BUTTONS = 20  # Discord: at most 25 buttons on a message


def _num(value: float | None, locale: str) -> str:
    return "—" if value is None else format_number(value, locale)


def report_embed(view: ReportView, locale: str) -> discord.Embed:
    """The referto (ARB 6): round, table, players, table points, ranking, tournament points, signatures."""
    title = t("report.title", locale, tournament=view.tournament_name, round=view.round_number, table=view.table_number)
    lines = []
    for seat in view.ranking:
        outcome = "" if seat.outcome == "played" else f" ({t(f'report.outcome.{seat.outcome}', locale)})"
        mark = "✅" if seat.signed else ("—" if seat.outcome != "played" else "✍️")
        lines.append(
            t(
                "report.line",
                locale,
                rank=seat.rank if seat.rank is not None else "-",
                name=safe(seat.name),
                table_points=_num(seat.table_points, locale),
                points=_num(seat.tournament_points, locale),
                outcome=outcome,
                mark=mark,
            )
        )
    if not view.reported:
        lines = [t("report.empty", locale)]
    out = embed(title, "\n".join(lines))
    if view.locked:
        status = t("report.status.locked", locale)
    elif view.all_signed:
        status = t("report.status.await_countersign", locale)
    elif view.reported:
        status = t("report.status.await_signatures", locale, names=", ".join(safe(s.name) for s in view.pending))
    else:
        status = t("report.status.empty", locale)
    out.add_field(name=t("report.status", locale), value=status[:1024], inline=False)
    kind = view.kind or "none"
    out.set_footer(text=t("report.footer", locale, kind=t(f"report.kind.{kind}", locale), preset=view.preset))
    return out


class SignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"report:sign:(?P<table_id>[0-9]{1,19})"):
    """Every player at the table signs (a second click signs once); the table id is all the button knows."""

    def __init__(self, table_id: int, *, disabled: bool = False, label: str = "Sign / Firma") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.success,
                custom_id=f"report:sign:{table_id}",
                disabled=disabled,
                emoji="✍️",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SignButton:
        return cls(int(match["table_id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            actor = actor_of(interaction)
            outcome = await bot_of(interaction).services.reports.sign(actor, self.table_id)
        except UserFacingError as err:
            await reply_error(interaction, err)
            return
        locale = await server_locale(interaction)  # the public report message keeps the server's language
        if outcome.already_signed:
            await interaction.response.send_message(tr(interaction, "report.sign.already"), ephemeral=True)
            return
        if not _is_report_message(interaction.message, self.table_id):  # e.g. the buttons under /my-games
            await interaction.response.send_message(tr(interaction, "report.sign.done"), ephemeral=True)
            return
        await interaction.response.edit_message(
            embed=report_embed(outcome.view, locale), view=report_buttons(outcome.view)
        )
        await interaction.followup.send(tr(interaction, "report.sign.done"), ephemeral=True)


class CountersignButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"report:countersign:(?P<table_id>[0-9]{1,19})"
):
    """A referee countersigns once everybody has signed; the table locks."""

    def __init__(self, table_id: int, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="Countersign / Controfirma",
                style=discord.ButtonStyle.primary,
                custom_id=f"report:countersign:{table_id}",
                disabled=disabled,
                emoji="🔒",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CountersignButton:
        return cls(int(match["table_id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            actor = actor_of(interaction)
            view = await bot_of(interaction).services.reports.countersign(actor, self.table_id)
        except UserFacingError as err:
            await reply_error(interaction, err)
            return
        await interaction.response.edit_message(
            embed=report_embed(view, await server_locale(interaction)), view=report_buttons(view)
        )


def _is_report_message(message: discord.Message | None, table_id: int) -> bool:
    """True for the report message of that table (it carries that table's countersign button)."""
    if message is None:
        return False
    wanted = f"report:countersign:{table_id}"
    return any(
        getattr(c, "custom_id", None) == wanted for row in message.components for c in getattr(row, "children", [])
    )


def report_buttons(view: ReportView) -> discord.ui.View:
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(SignButton(view.table_id, disabled=view.locked or not view.reported))
    buttons.add_item(CountersignButton(view.table_id, disabled=view.locked or not view.all_signed))
    return buttons


async def reply_error(interaction: discord.Interaction[Any], err: UserFacingError) -> None:
    """Component and modal callbacks do not go through the tree's on_error: show the domain refusal here."""
    message = render_error(err.key, err.params, locale_of(interaction))
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


class ReportModal(discord.ui.Modal):
    """One field per player: table points (RisiKo!) or tokens (Ricochet Robots); 'r' / 'sq' for out of the game."""

    def __init__(self, view: ReportView, locale: str, *, reason: str | None = None) -> None:
        title_key = "report.modal.title_correct" if reason else "report.modal.title"
        super().__init__(title=t(title_key, locale, table=view.table_number, round=view.round_number)[:45], timeout=900)
        self.table_id = view.table_id
        self.reason = reason
        self.fields: dict[int, discord.ui.TextInput[Any]] = {}
        hint = t("report.modal.hint_tokens" if view.game == "ricochet" else "report.modal.hint_points", locale)
        for seat in view.seats[:MODAL_FIELDS_MAX]:
            default = None
            if seat.outcome != "played":
                default = "r" if seat.outcome in ("withdrawn", "forfeit") else "sq"
            elif seat.table_points is not None:
                default = format_number(seat.table_points, locale).replace(".", "") if locale == "it" else None
                default = default or f"{seat.table_points:g}"
            field: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label=seat.name[:45], placeholder=hint[:100], default=default, max_length=20, required=True
            )
            self.fields[seat.registration_id] = field
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        values = {rid: str(field.value) for rid, field in self.fields.items()}
        try:
            actor = actor_of(interaction)
            reports = bot_of(interaction).services.reports
            if self.reason:
                view = await reports.correct(actor, self.table_id, reason=self.reason, values=values)
            else:
                view = await reports.enter_points(actor, self.table_id, values)
        except UserFacingError as err:
            await reply_error(interaction, err)
            return
        await publish_report(interaction, view)


async def publish_report(interaction: discord.Interaction[Any], view: ReportView) -> None:
    """The report message, public, with the buttons; it pings the players who must sign."""
    locale = await server_locale(interaction)  # a public message: the server's language
    pings = " ".join(f"<@{s.user_id}>" for s in view.pending if s.user_id) if not view.locked else ""
    content = t("report.please_sign", locale, players=pings) if pings else None
    kwargs: dict[str, Any] = {
        "embed": report_embed(view, locale),
        "view": report_buttons(view),
        "allowed_mentions": discord.AllowedMentions(users=True, everyone=False, roles=False),
    }
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


class ReportCog(commands.Cog):
    report = app_commands.Group(name="report", description="Match reports: enter, sign, countersign", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @report.command(name="enter")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        round="Round (default: the latest)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def enter(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: app_commands.Range[str, 1, 100],
        table: app_commands.Range[int, 1, 1000],
        round: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Enter a table's result: points (or tokens) per player (referee or player of the table)."""
        actor = actor_of(interaction)
        view = await self.bot.services.reports.sheet(actor, TableRef(tournament, table, round))
        await interaction.response.send_modal(ReportModal(view, locale_of(interaction)))

    @report.command(name="situation")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        situation="Final situation as JSON (players, territories)",
        round="Round (default: the latest)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def situation(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: app_commands.Range[str, 1, 100],
        table: app_commands.Range[int, 1, 1000],
        situation: app_commands.Range[str, 2, 6000],
        round: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Enter a RisiKo! table by its final situation; the engine scores and explains it."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.reports.enter_situation(actor, TableRef(tournament, table, round), situation)
        await publish_report(interaction, view)

    @report.command(name="countersign")
    @app_commands.describe(tournament="The tournament", table="Table number", round="Round (default: the latest)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def countersign(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: app_commands.Range[str, 1, 100],
        table: app_commands.Range[int, 1, 1000],
        round: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Countersign a report signed by every player; the table locks (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.reports.countersign(actor, TableRef(tournament, table, round))
        await send(interaction, embed=report_embed(view, locale_of(interaction)))

    @report.command(name="correct")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        reason="Why (kept in the audit log)",
        situation="Final situation as JSON (players, territories)",
        round="Round (default: the latest)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def correct(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: app_commands.Range[str, 1, 100],
        table: app_commands.Range[int, 1, 1000],
        reason: app_commands.Range[str, 1, 500],
        situation: app_commands.Range[str, 2, 6000] | None = None,
        round: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Correct a report, also a locked one; logged with before/after (referees)."""
        actor = actor_of(interaction)
        ref = TableRef(tournament, table, round)
        reports = self.bot.services.reports
        if situation is None:
            view = await reports.correction_sheet(actor, ref)
            await interaction.response.send_modal(ReportModal(view, locale_of(interaction), reason=reason))
            return
        await interaction.response.defer(thinking=True)
        view = await reports.correct(actor, ref, reason=reason, situation=situation)
        await publish_report(interaction, view)

    @app_commands.command(name="my-games")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    @app_commands.guild_only()
    async def my_games(
        self, interaction: discord.Interaction[StewardBot], tournament: app_commands.Range[str, 1, 100]
    ) -> None:
        """Your tables in a tournament: points, ranks and the reports you still have to sign."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        games = await self.bot.services.reports.my_games(actor, tournament)
        buttons = discord.ui.View(timeout=None)
        for game in games.to_sign[:MY_GAMES_BUTTONS]:
            buttons.add_item(
                SignButton(game.table_id, label=f"Sign / Firma — T{game.round_number}·{game.table_number}")
            )
        await interaction.followup.send(
            embed=my_games_embed(games, locale_of(interaction)), view=buttons, ephemeral=True
        )


def my_games_embed(games: MyGamesView, locale: str) -> discord.Embed:
    lines = []
    for g in games.games:
        if not g.reported:
            state = t("mygames.state.open", locale)
        elif g.locked:
            state = t("mygames.state.locked", locale)
        elif not g.signed:
            state = t("mygames.state.sign_me", locale)
        else:
            state = t("mygames.state.waiting", locale, names=", ".join(safe(n) for n in g.pending_names) or "—")
        lines.append(
            t(
                "mygames.line",
                locale,
                round=g.round_number,
                table=g.table_number,
                rank=g.rank if g.rank is not None else "-",
                table_points=_num(g.table_points, locale),
                points=_num(g.tournament_points, locale),
                opponents=", ".join(safe(o) for o in g.opponents),
                state=state,
            )
        )
    if not lines:
        lines = [t("mygames.none", locale)]
    title = t("mygames.title", locale, name=safe(games.player_name), tournament=safe(games.tournament_name))
    out = embed(title, "\n".join(lines)[:4000])
    if games.to_sign:
        out.set_footer(text=t("mygames.footer", locale, count=len(games.to_sign)))
    return out


async def setup(bot: StewardBot) -> None:
    bot.add_dynamic_items(SignButton, CountersignButton)
    await bot.add_cog(ReportCog(bot))
