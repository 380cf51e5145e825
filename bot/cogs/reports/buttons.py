"""The report message and its two buttons (BOT-RES-1, TOUR-REF-1).

The buttons' custom ids hold only the table id (``report:sign:<id>``, ``report:countersign:<id>``). They are
``DynamicItem`` s registered on the bot, so they keep working after a restart: the database is the truth, the button
only names the table. Their failures take the commands' error path (``guarded``)."""

from __future__ import annotations

import asyncio
import re
from typing import Any, ClassVar, Self

import discord

from bot.cogs._common import actor_of, bot_of, server_locale, tr
from bot.cogs._errors import guarded
from bot.cogs.reports.embeds import report_embed
from bot.i18n import t
from bot.services.reports import ReportView


class _ReportButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"report:(?:sign|countersign):(?P<table_id>[0-9]{1,19})"
):
    """A button under a report that names only its table (``report:<action>:<id>``): Sign and Countersign differ by
    their action, colour and emoji, and by what a press does."""

    ACTION: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle]
    EMOJI: ClassVar[str]

    def __init__(self, table_id: int, *, disabled: bool = False, label: str | None = None) -> None:
        super().__init__(  # rebuilt from its custom id to answer a press: no label of its own
            discord.ui.Button(
                label=label[:80] if label else None,
                style=self.STYLE,
                custom_id=f"report:{self.ACTION}:{table_id}",
                disabled=disabled,
                emoji=self.EMOJI,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["table_id"]))


class SignButton(_ReportButton, template=r"report:sign:(?P<table_id>[0-9]{1,19})"):
    """Every player at the table signs (a second click signs once); the table id is all the button knows."""

    ACTION, STYLE, EMOJI = "sign", discord.ButtonStyle.success, "✍️"

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # acknowledge first (Discord gives 3 seconds): a busy tournament evening must not turn presses into
        # "This interaction failed"; the signature is then stored and the message redrawn from the database
        await interaction.response.defer()
        actor = actor_of(interaction)
        outcome = await bot_of(interaction).services.reports.sign(actor, self.table_id)
        locale = await server_locale(interaction)  # the public report message keeps the server's language
        if outcome.already_signed:
            await interaction.followup.send(tr(interaction, "report.sign.already"), ephemeral=True)
            return
        if _is_report_message(interaction.message, self.table_id):  # not e.g. the buttons under /my-games
            await redraw_report(interaction, self.table_id, locale)
        await interaction.followup.send(tr(interaction, "report.sign.done"), ephemeral=True)


class CountersignButton(_ReportButton, template=r"report:countersign:(?P<table_id>[0-9]{1,19})"):
    """A referee countersigns once everybody has signed; the table locks."""

    ACTION, STYLE, EMOJI = "countersign", discord.ButtonStyle.primary, "🔒"

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first, then work
        actor = actor_of(interaction)
        await bot_of(interaction).services.reports.countersign(actor, self.table_id)
        await redraw_report(interaction, self.table_id, await server_locale(interaction))


_REPORT_LOCKS: dict[int, asyncio.Lock] = {}


async def redraw_report(interaction: discord.Interaction[Any], table_id: int, locale: str) -> None:
    """Edit the report message from the database, one edit at a time per table: concurrent
    signatures each commit, then each redraw reads the latest state inside the table's lock, so the last edit shows
    every signature instead of whichever press finished last."""
    lock = _REPORT_LOCKS.setdefault(table_id, asyncio.Lock())
    async with lock:
        assert interaction.guild_id is not None
        view = await bot_of(interaction).services.reports.view(interaction.guild_id, table_id)
        await interaction.edit_original_response(embed=report_embed(view, locale), view=report_buttons(view, locale))


def _is_report_message(message: discord.Message | None, table_id: int) -> bool:
    """True for the report message of that table (it carries that table's countersign button)."""
    if message is None:
        return False
    wanted = f"report:countersign:{table_id}"
    return any(
        getattr(c, "custom_id", None) == wanted for row in message.components for c in getattr(row, "children", [])
    )


def report_buttons(view: ReportView, locale: str) -> discord.ui.View:
    """Sign and Countersign under the public report, in the server's language like the report itself."""
    buttons = discord.ui.View(timeout=None)
    sign, countersign = t("report.button.sign", locale), t("report.button.countersign", locale)
    buttons.add_item(SignButton(view.table_id, disabled=view.locked or not view.reported, label=sign))
    buttons.add_item(CountersignButton(view.table_id, disabled=view.locked or not view.all_signed, label=countersign))
    return buttons


def _report_message(view: ReportView, locale: str) -> tuple[str | None, dict[str, Any]]:
    pings = " ".join(f"<@{s.user_id}>" for s in view.pending if s.user_id) if not view.locked else ""
    content = t("report.please_sign", locale, players=pings) if pings else None
    kwargs: dict[str, Any] = {
        "embed": report_embed(view, locale),
        "view": report_buttons(view, locale),
        "allowed_mentions": discord.AllowedMentions(users=True, everyone=False, roles=False),
    }
    return content, kwargs


async def post_report(channel: discord.abc.Messageable, view: ReportView, locale: str) -> None:
    """The report message in a channel (the table's thread, for a report its page entered), with the buttons; it
    pings the players who must sign."""
    content, kwargs = _report_message(view, locale)
    await channel.send(content, **kwargs)


async def publish_report(interaction: discord.Interaction[Any], view: ReportView) -> None:
    """The report message, public, with the buttons; it pings the players who must sign."""
    locale = await server_locale(interaction)  # a public message: the server's language
    content, kwargs = _report_message(view, locale)
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)
