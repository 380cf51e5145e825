"""/review countersign|correct|note|repair — referees countersign a signed report (the table locks), correct reports,
also locked ones, with the reason audited (TOUR-REF-1), and write a table's note (FIRK §9: the "morto"'s rules); the
head referee repairs tables whose results name players no longer seated there (issue 40, finding 3)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, send, server_locale, tr
from bot.cogs._errors import slash
from bot.cogs._params import REFEREE_COMMANDS, RoundNumber, TableNumber, Tournament
from bot.cogs.reports.buttons import publish_report
from bot.cogs.reports.embeds import report_embed
from bot.cogs.reports.modal import ReportModal
from bot.i18n import join_names, t
from bot.present.markup import safe
from bot.services.reports import RepairView, TableRef


class ReviewCog(commands.Cog):
    review = app_commands.Group(
        name="review",
        description="Referees countersign and correct match reports",
        guild_only=True,
        default_permissions=REFEREE_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @review.command(name="note")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        text='The note, e.g. the special rules of the "morto" ("-" clears it)',
        round="Round (default: the latest)",
    )
    async def note(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        text: app_commands.Range[str, 1, 500],
        round: RoundNumber | None = None,
    ) -> None:
        """Write a note on a table, shown with it and posted in its thread (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        saved = await self.bot.services.reports.note_table(actor, TableRef(tournament, table, round), text)
        posted = False
        if saved.note and saved.thread_id:
            loc = await server_locale(interaction)
            try:  # the table's players read it where they play; nobody is pinged
                await self.bot.get_partial_messageable(saved.thread_id).send(
                    t("round.table_note", loc, note=safe(saved.note))[:2000],
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                posted = True
            except discord.HTTPException:
                posted = False
        key = "review.note_cleared" if saved.note is None else "review.note_posted" if posted else "review.note_saved"
        reply = tr(interaction, key, table=saved.table_number, round=saved.round_number)
        await send(interaction, reply, ephemeral=True)

    @review.command(name="countersign")
    @app_commands.describe(tournament="The tournament", table="Table number", round="Round (default: the latest)")
    async def countersign(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        round: RoundNumber | None = None,
    ) -> None:
        """Countersign a report signed by every player; the table locks (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.reports.countersign(actor, TableRef(tournament, table, round))
        await send(interaction, embed=report_embed(view, locale_of(interaction)))

    @review.command(name="correct")
    @app_commands.describe(
        tournament="The tournament",
        table="Table number",
        reason="Why (kept in the audit log)",
        situation="Final situation as JSON (players, territories)",
        round="Round (default: the latest)",
    )
    async def correct(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        table: TableNumber,
        reason: app_commands.Range[str, 1, 500],
        situation: app_commands.Range[str, 2, 6000] | None = None,
        round: RoundNumber | None = None,
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

    @review.command(name="repair")
    @app_commands.describe(
        tournament="The tournament",
        round="Round (default: every round)",
        table="Table number (default: every table)",
    )
    async def repair(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        round: RoundNumber | None = None,
        table: TableNumber | None = None,
    ) -> None:
        """Remove results of players no longer seated at their table (head referee)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        done = await self.bot.services.reports.repair(actor, tournament, round=round, table=table)
        await send(interaction, repair_text(done, locale_of(interaction))[:2000], ephemeral=True)


def repair_text(done: RepairView, locale: str) -> str:
    """What the repair did, table by table (or that nothing needed it)."""
    name = safe(done.tournament_name)
    if not done.tables:
        return t("review.repair.nothing", locale, tournament=name)
    lines = [t("review.repair.done", locale, tournament=name, count=len(done.tables))]
    for fixed in done.tables:
        line = t("review.repair.table", locale, round=fixed.round_number, table=fixed.table_number,
                 count=len(fixed.dropped), names=join_names(map(safe, fixed.dropped), locale))  # fmt: skip
        if fixed.missing:
            missing = join_names(map(safe, fixed.missing), locale)
            line += " " + t("review.repair.missing", locale, names=missing, command=slash("review correct", locale))
        lines.append("• " + line)
    return "\n".join(lines)
