"""The organizer's private replies after a draw, a redraw, a hand change or a finals step: the table image, the
draw report (criteria, bound, optimality, seed) and the tables as text."""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs._bot import StewardBot
from bot.cogs._common import bot_of, embed, locale_of, tr
from bot.cogs.rounds.images import table_images
from bot.i18n import join_names
from bot.present.markup import safe
from bot.present.rounds import TEXT_BUDGET, report_text, round_label, tables_text
from bot.services.rounds import AdjustmentView, RoundView


async def preview(
    interaction: discord.Interaction[StewardBot], view: RoundView, title_key: str, extra: str = ""
) -> None:
    """The organizer's ephemeral preview: image, report (criteria, bound, optimality, seed) and tables."""
    label = round_label(locale_of(interaction), view)
    title = tr(interaction, title_key, round=label, tournament=safe(view.tournament_name))
    parts = [p for p in (extra, report_text(locale_of(interaction), view)) if p]
    budget = TEXT_BUDGET - sum(len(p) + 2 for p in parts)
    parts.append(tables_text(locale_of(interaction), view, budget=max(budget, 200)))
    if view.status == "drawn":
        parts.append(tr(interaction, "round.next_steps" if view.kind == "qualifying" else "round.next_steps_finals"))
    card = embed(title, "\n\n".join(parts))
    files = await table_images(view, locale_of(interaction), now=bot_of(interaction).services.clock())
    kwargs: dict[str, Any] = {"embed": card, "ephemeral": True}
    if files:
        kwargs["files"] = files
    await interaction.followup.send(**kwargs)


async def adjusted(interaction: discord.Interaction[StewardBot], adj: AdjustmentView) -> None:
    lines = [
        tr(
            interaction,
            "round.cost_line",
            criterion=tr(interaction, f"round.criterion.{name}"),
            before=adj.before[name],
            after=adj.after[name],
        )
        for name in adj.after
    ]
    if adj.worse:
        lines.append(tr(interaction, "round.cost_worse"))
    head = tr(
        interaction,
        "round.adjust.done",
        players=join_names(map(safe, adj.players), locale_of(interaction)),
        tables=join_names(map(str, adj.tables), locale_of(interaction)),
    )
    await preview(interaction, adj.round, "round.adjust.title", head + "\n" + "\n".join(lines))
