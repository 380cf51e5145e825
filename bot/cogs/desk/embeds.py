"""A logged case as a Discord embed (its words: ``bot.present.sanctions``)."""

from __future__ import annotations

import discord

from bot.cogs._common import embed
from bot.i18n import t
from bot.present.markup import discord_timestamp, safe
from bot.present.sanctions import case_line, kind_name
from bot.services.sanction_views import SanctionView


def case_embed(v: SanctionView, locale: str) -> discord.Embed:
    out = embed(t("sanction.case_title", locale, case=v.case_number, tournament=safe(v.tournament_name)), "")
    lines = [case_line(v, locale)]
    if v.overridden and v.proposed_kind:
        lines.append(t("sanction.override", locale, proposed=kind_name(v.proposed_kind, locale)))
    lines.append(t(f"sanction.consequence.{v.consequence}", locale))
    if v.changes_the_table:
        lines.append(t("sanction.enter_in_report", locale))
    if v.details:
        lines.append(t("sanction.details", locale, details=safe(v.details)[:500]))
    if v.appeal_deadline is not None and not v.revoked:
        lines.append(t("sanction.appeal_until", locale, when=discord_timestamp(v.appeal_deadline, "R")))
    out.description = "\n".join(lines)[:4000]
    return out
