"""/sanction … — referees log sanctions with the ladder's proposal, list and export them; the head referee revokes
them and decides appeals (BOT-SAN-1, BOT-SAN-2, BOT-SAN-3, RR-SAN-1, RR-REF-1, RK-SAN-1, FIRK-PEN-1).

``/sanction give`` shows the proposal privately with a Confirm button and a menu of the preset's other kinds (an
override); the sanction is written when the referee confirms, then announced in the table's thread (the one ping is
the sanctioned player's). The proposal is a row and both controls carry only its id: they work after a restart, and
Confirm writes one case however often it is pressed.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, bot_of, embed, locale_of, send, server_locale, tr
from bot.cogs._errors import guarded
from bot.cogs._params import REFEREE_COMMANDS, Player, RoundNumber, TableNumber, Tournament, player_ref
from bot.cogs._transformers import CaseNumber, SanctionKind
from bot.cogs.desk.announce import announce_in_thread
from bot.cogs.desk.embeds import case_embed
from bot.cogs.desk.latecomers import latecomers_message
from bot.cogs.desk.params import InfractionCode
from bot.i18n import t
from bot.present.exports import export_file
from bot.present.markup import safe
from bot.present.sanctions import case_line, kind_name, proposal_text, sanctions_stem, sanctions_table

log = logging.getLogger(__name__)

LIST_BUDGET = 3900
DECISIONS = [app_commands.Choice(name=d, value=d) for d in ("upheld", "changed", "annulled")]


def proposal_view(proposal_id: int, kinds: tuple[str, ...], proposed: str, locale: str) -> discord.ui.View:
    """The kind menu and the Confirm button of a proposal: both carry only its id, so they work after a restart."""
    view = discord.ui.View(timeout=None)
    view.add_item(PickKind(proposal_id, kinds=kinds, proposed=proposed, locale=locale))
    view.add_item(ConfirmProposal(proposal_id, label=t("sanction.confirm", locale)))
    return view


class PickKind(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"sanction:pick:(?P<id>[0-9]{1,19})"):
    """Another kind than the ladder's (recorded as an override when confirmed)."""

    def __init__(
        self, proposal_id: int, *, kinds: tuple[str, ...] = (), proposed: str = "", locale: str = "en",
        item: discord.ui.Select[Any] | None = None,
    ) -> None:  # fmt: skip
        options = [discord.SelectOption(label=kind_name(k, locale)[:100], value=k, default=k == proposed)
                   for k in kinds[:25]]  # fmt: skip
        super().__init__(item or discord.ui.Select(
            placeholder=t("sanction.pick_other", locale)[:150], options=options, min_values=1, max_values=1,
            custom_id=f"sanction:pick:{proposal_id}",
        ))  # fmt: skip
        self.proposal_id = proposal_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickKind:
        return cls(int(match["id"]), item=item if isinstance(item, discord.ui.Select) else None)

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first
        await bot_of(interaction).services.proposals.pick(actor_of(interaction), self.proposal_id, self.item.values[0])


class ConfirmProposal(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sanction:confirm:(?P<id>[0-9]{1,19})"):
    """Write the proposed sanction (once, however often it is pressed), then announce it in the table's thread."""

    def __init__(self, proposal_id: int, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label[:80] if label else None, style=discord.ButtonStyle.danger,
                                           custom_id=f"sanction:confirm:{proposal_id}"))  # fmt: skip
        self.proposal_id = proposal_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmProposal:
        return cls(int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first: the database work may take a moment
        view = await bot_of(interaction).services.proposals.confirm(actor_of(interaction), self.proposal_id)
        await interaction.edit_original_response(embed=case_embed(view, locale_of(interaction)), view=None)
        await announce_in_thread(interaction, view)


class SanctionCog(commands.Cog):
    sanction = app_commands.Group(
        name="sanction",
        description="Referees log sanctions; the head referee revokes and decides appeals",
        guild_only=True,
        default_permissions=REFEREE_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @sanction.command(name="give")
    @app_commands.describe(
        tournament="The tournament",
        infraction="What happened",
        player="The player's name",
        member="Or the server member",
        cards_in_hand="Cards in the player's hand (pact ladders)",
        points="Table-point penalty, or standings points",
        round="Round (default: the player's table now)",
        table="Table number",
        details="What you saw (kept in the log)",
    )
    async def give(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        infraction: InfractionCode,
        player: Player | None = None,
        member: discord.Member | None = None,
        cards_in_hand: app_commands.Range[int, 0, 60] = 0,
        points: app_commands.Range[float, 0, 1000] | None = None,
        round: RoundNumber | None = None,
        table: TableNumber | None = None,
        details: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Log a sanction: the ladder's step or another (referees)."""
        ref = player_ref(player, member)
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        offer = await self.bot.services.proposals.offer(
            actor, tournament=tournament, player=ref.name, user_id=ref.user_id, infraction=infraction,
            cards_in_hand=cards_in_hand, points=points, round_number=round, table=table, details=details,
        )  # fmt: skip
        locale = locale_of(interaction)
        card = embed(
            tr(interaction, "sanction.proposal.title", tournament=safe(offer.view.tournament_name)),
            proposal_text(offer.view.proposal, offer.view.player_name, locale),
        )
        view = proposal_view(offer.proposal_id, offer.kinds, offer.view.proposal.kind, locale)
        await interaction.followup.send(embed=card, view=view, ephemeral=True)

    @sanction.command(name="revoke")
    @app_commands.describe(case="The case number", reason="Why (kept in the log)")
    async def revoke(
        self,
        interaction: discord.Interaction[StewardBot],
        case: CaseNumber,
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        """Revoke a sanction and undo it (head referee)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.sanctions.revoke(actor, case_number=case, reason=reason)
        await send(interaction, embed=case_embed(view, locale_of(interaction)))

    @sanction.command(name="decide")
    @app_commands.describe(
        case="The case under appeal",
        decision="Upheld, changed or annulled",
        kind="The new sanction, when changed",
        note="Reasons (kept in the log)",
        points="Points, if the new sanction takes them",
    )
    @app_commands.choices(decision=DECISIONS)
    async def decide(
        self,
        interaction: discord.Interaction[StewardBot],
        case: CaseNumber,
        decision: app_commands.Choice[str],
        kind: SanctionKind | None = None,
        note: app_commands.Range[str, 1, 500] | None = None,
        points: app_commands.Range[float, 0, 1000] | None = None,
    ) -> None:
        """Decide an appeal for good (head referee)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.sanctions.decide_appeal(
            actor, case_number=case, decision=decision.value, note=note, kind=kind, points=points
        )
        await send(interaction, embed=case_embed(view, locale_of(interaction)))


class SanctionsLogCog(commands.Cog):
    # Reading the log is its own group: /sanction would pass Discord's 8000-character command limit.
    sanctions = app_commands.Group(
        name="sanctions",
        description="The sanctions log of a tournament (referees)",
        guild_only=True,
        default_permissions=REFEREE_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @sanctions.command(name="list")
    @app_commands.describe(tournament="The tournament", round="Only this round", table="Only this table")
    async def list_(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        round: RoundNumber | None = None,
        table: TableNumber | None = None,
    ) -> None:
        """The tournament's sanctions, by round or table (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        views = await self.bot.services.sanctions.list(actor, tournament=tournament, round_number=round, table=table)
        locale = locale_of(interaction)
        lines, used = [], 0
        for index, v in enumerate(views):
            line = case_line(v, locale)
            if used + len(line) + 1 > LIST_BUDGET:
                lines.append(tr(interaction, "players.more", count=len(views) - index))
                break
            lines.append(line)
            used += len(line) + 1
        text = "\n".join(lines) or tr(interaction, "sanction.none")
        await send(interaction, embed=embed(tr(interaction, "sanction.list_title", tournament=safe(tournament)), text),
                   ephemeral=True)  # fmt: skip

    @sanctions.command(name="export")
    @app_commands.describe(tournament="The tournament", format="CSV (default) or an Excel workbook (XLSX)")
    async def export(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: Tournament,
        format: Literal["csv", "xlsx"] = "csv",
    ) -> None:
        """The sanctions as a CSV file or an Excel workbook for spreadsheets (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = await self.bot.services.sanctions.export(actor, tournament=tournament)
        locale = await server_locale(interaction) if format == "xlsx" else locale_of(interaction)
        filename, data = export_file(sanctions_table(export), sanctions_stem(export), format, locale=locale)
        key = "sanction.exported_xlsx" if format == "xlsx" else "sanction.exported"
        await interaction.followup.send(
            tr(interaction, key, count=export.rows, tournament=safe(export.tournament_name)),
            file=discord.File(io.BytesIO(data), filename=filename),
            ephemeral=True,
        )

    @sanctions.command(name="latecomers")
    @app_commands.describe(tournament="The tournament")
    async def latecomers(self, interaction: discord.Interaction[StewardBot], tournament: Tournament) -> None:
        """Players seated but not checked in, with the lateness sanction to apply (referees)."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True)
        view = await self.bot.services.latecomers.list(actor, tournament=tournament)
        await interaction.followup.send(**latecomers_message(interaction, view, locale_of(interaction)))
