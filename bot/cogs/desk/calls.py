"""Call the referee (BOT-RUL-2): ``/referee`` or the button under each table's thread message pings the server's
referee role — the one mention this bot makes on purpose — with the tournament, round and table; the first referee
to press "I'm on it" takes the call and the message says who did. A seated player calls for their own table, the
staff for any; a table with an open call is not called again (the second caller is told who called and when).

Both buttons are ``DynamicItem`` s whose custom ids hold only ids, so they keep working after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, bot_of, server_locale, tr
from bot.cogs._errors import guarded
from bot.cogs._params import TableNumber, Tournament
from bot.i18n import t
from bot.present.markup import discord_timestamp, safe
from bot.services.calls import CallOutcome, CallView


def call_text(view: CallView, locale: str) -> str:
    role = f"<@&{view.referee_role_id}>" if view.referee_role_id else t("call.referees", locale)
    where = (
        t("call.where", locale, round=view.round_number, table=view.table_number)
        if view.table_number is not None
        else t("call.where_unknown", locale)
    )
    note = f"\n> {safe(view.note)}" if view.note else ""
    return t("call.message", locale, role=role, tournament=safe(view.tournament_name), where=where,
             caller=f"<@{view.caller_id}>") + note  # fmt: skip


def claim_view(view: CallView, locale: str) -> discord.ui.View:
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(ClaimButton(view.call_id, label=t("call.claim", locale), disabled=view.claimed_by is not None))
    return buttons


def _mentions(view: CallView) -> discord.AllowedMentions:
    roles = [discord.Object(view.referee_role_id)] if view.referee_role_id else []
    return discord.AllowedMentions(everyone=False, users=False, roles=roles)


async def post_call(interaction: discord.Interaction[Any], outcome: CallOutcome) -> None:
    """A new call: the caller is told privately, the referees publicly (the role ping). A table that already has
    an open call: the caller is told who called and when, and nobody is pinged again."""
    view = outcome.view
    if not outcome.created:
        await interaction.followup.send(
            tr(interaction, "call.already_open", table=view.table_number, caller=f"<@{view.caller_id}>",
               when=discord_timestamp(view.created_at, "R")),
            ephemeral=True,
        )  # fmt: skip
        return
    await interaction.followup.send(tr(interaction, "call.sent", table=view.table_number), ephemeral=True)
    locale = await server_locale(interaction)  # a public message: the server's language
    await interaction.followup.send(
        call_text(view, locale)[:2000], view=claim_view(view, locale), allowed_mentions=_mentions(view)
    )


class CallButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"referee:call:(?P<round>[0-9]{1,19}):(?P<table>[0-9]{1,4})",
):
    """Under each table's thread message: call a referee to this table."""

    def __init__(self, round_id: int, table: int, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] if label else None, style=discord.ButtonStyle.secondary,
                custom_id=f"referee:call:{round_id}:{table}", emoji="🛎️",
            )
        )  # fmt: skip
        self.round_id, self.table = round_id, table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CallButton:
        return cls(int(match["round"]), int(match["table"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first
        outcome = await bot_of(interaction).services.calls.call_from_table(
            actor_of(interaction), round_id=self.round_id, table_number=self.table
        )
        await post_call(interaction, outcome)


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"referee:claim:(?P<call>[0-9]{1,19})"):
    """ "I'm on it": the first referee takes the call; the button then says who."""

    def __init__(self, call_id: int, *, label: str | None = None, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] if label else None, style=discord.ButtonStyle.primary,
                custom_id=f"referee:claim:{call_id}", disabled=disabled, emoji="🏃",
            )
        )  # fmt: skip
        self.call_id = call_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ClaimButton:
        return cls(int(match["call"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first
        outcome = await bot_of(interaction).services.calls.claim(actor_of(interaction), self.call_id)
        if not outcome.taken:
            await interaction.followup.send(
                tr(interaction, "call.taken_by", referee=f"<@{outcome.view.claimed_by}>"), ephemeral=True
            )
            return
        locale = await server_locale(interaction)
        text = call_text(outcome.view, locale) + "\n" + t("call.claimed", locale, referee=f"<@{interaction.user.id}>")
        await interaction.edit_original_response(
            content=text[:2000], view=claim_view(outcome.view, locale), allowed_mentions=discord.AllowedMentions.none()
        )


class CallCog(commands.Cog):
    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @app_commands.command(name="referee")
    @app_commands.guild_only()
    @app_commands.describe(
        tournament="The tournament",
        table="Table number (default: your table; staff: any table)",
        note="What it is about",
    )
    async def referee(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber | None = None,
        note: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """Call a referee to a table: the referees are pinged and the first one takes it."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the refusals and the receipt are private
        outcome = await self.bot.services.calls.call(actor, tournament=tournament, table=table, note=note)
        await post_call(interaction, outcome)
