"""The latecomers of a started round (RR-LATE-1, FIRK-LATE-1, ARB 3): one message for the referees listing every
seated player who has not checked in with the preset's sanction for the minutes gone by, and a button per player
that logs it. The buttons are ``DynamicItem`` s (``late:apply:<round>:<player>``) and survive a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs._common import actor_of, bot_of, embed, locale_of, tr
from bot.cogs._errors import guarded
from bot.cogs.desk.announce import announce_in_thread
from bot.cogs.desk.embeds import case_embed
from bot.i18n import t
from bot.present.markup import safe
from bot.present.sanctions import kind_name
from bot.services.latecomers import LatecomersView

BUTTONS_MAX = 20  # Discord: at most 25 components on a message
LATE_TEMPLATE = r"late:apply:(?P<round>[0-9]{1,19}):(?P<player>[0-9]{1,19})"


class ApplyLateness(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LATE_TEMPLATE):
    def __init__(self, round_id: int, registration_id: int, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] if label else None, style=discord.ButtonStyle.danger,
                custom_id=f"late:apply:{round_id}:{registration_id}",
            )
        )  # fmt: skip
        self.round_id, self.registration_id = round_id, registration_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ApplyLateness:
        return cls(int(match["round"]), int(match["player"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # acknowledge first
        view = await bot_of(interaction).services.latecomers.apply(
            actor_of(interaction), round_id=self.round_id, registration_id=self.registration_id
        )
        await interaction.followup.send(embed=case_embed(view, locale_of(interaction)), ephemeral=True)
        await announce_in_thread(interaction, view)


def latecomers_message(interaction: discord.Interaction[Any], view: LatecomersView, locale: str) -> dict[str, Any]:
    """The embed and the buttons: one line and one button per latecomer (the first 20)."""
    title = tr(interaction, "late.title", tournament=safe(view.tournament_name), round=view.round_number,
               minutes=view.minutes_late)  # fmt: skip
    if not view.latecomers:
        return {"embed": embed(title, tr(interaction, "late.none"))}
    lines = []
    buttons = discord.ui.View(timeout=None)
    for index, late in enumerate(view.latecomers):
        p = late.proposal
        lines.append(t("late.line", locale, name=safe(late.name), table=late.table_number,
                       kind=kind_name(p.kind, locale), article=p.article))  # fmt: skip
        if index < BUTTONS_MAX:
            label = t("late.apply", locale, name=late.name)
            buttons.add_item(ApplyLateness(view.round_id, late.registration_id, label=label))
    if len(view.latecomers) > BUTTONS_MAX:
        lines.append(t("players.more", locale, count=len(view.latecomers) - BUTTONS_MAX))
    return {"embed": embed(title, "\n".join(lines)[:4000]), "view": buttons}
