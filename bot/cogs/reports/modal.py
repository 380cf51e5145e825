"""The report form: one field per player (table points or tokens); its failures take the commands' error path."""

from __future__ import annotations

import secrets
from typing import Any

import discord

from bot.cogs._common import actor_of, bot_of
from bot.cogs._errors import GuardedModal
from bot.cogs.reports.buttons import publish_report
from bot.i18n import format_number, t
from bot.services.reports import ReportStamp, ReportView

MODAL_FIELDS_MAX = 5  # Discord: at most five inputs in a modal


class ReportModal(GuardedModal):
    """One field per player: table points (RisiKo!) or tokens (Ricochet Robots); 'r' / 'sq' for out of the game."""

    def __init__(self, view: ReportView, locale: str, *, reason: str | None = None) -> None:
        title_key = "report.modal.title_correct" if reason else "report.modal.title"
        super().__init__(
            title=t(title_key, locale, table=view.table_number, round=view.round_number)[:45],
            timeout=900,
            # one id per opened form: discord.py keeps open forms by custom id alone, so two people opening the same
            # table's form had the first one's answer read against the second one's fields (issue 40, finding 7)
            custom_id=f"report:{'correct' if reason else 'enter'}:{view.table_id}:{secrets.token_hex(6)}",
        )
        self.table_id = view.table_id
        self.stamp = ReportStamp.of(view)  # the table as this form shows it: a write goes against it (issue 40)
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
        await interaction.response.defer(thinking=True)  # acknowledge first: the report's write may take a moment
        values = {rid: str(field.value) for rid, field in self.fields.items()}
        actor = actor_of(interaction)
        reports = bot_of(interaction).services.reports
        if self.reason:
            view = await reports.correct(actor, self.table_id, reason=self.reason, values=values, seen=self.stamp)
        else:
            view = await reports.enter_points(actor, self.table_id, values, seen=self.stamp)
        await publish_report(interaction, view)
