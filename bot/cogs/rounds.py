"""/round … and /my-table — draw, preview, hand changes, publication, semifinals and final
(BOT-TAB-1, BOT-TAB-2, TOUR-SF-1, TOUR-SF-2, TOUR-FIN-1, BOT-ROLE-1, BOT-I18N-1).

The service decides and stores; this cog renders the table image off the loop and talks to Discord.
Publication order: the service marks the round published first (one transaction); the announcement and
one thread per table follow; whatever Discord refused (missing permissions) is reported to the organizer
and ``/round publish`` on the published round retries only what is missing.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import StewardBot
from bot.cogs._autocomplete import player_autocomplete, tournament_autocomplete
from bot.cogs._common import (
    actor_of,
    discord_timestamp,
    embed,
    locale_of,
    parse_local_datetime,
    safe,
    send,
    server_locale,
    tr,
)
from bot.cogs._round_text import TEXT_BUDGET, _seat_text, report_text, round_label, table_images, tables_text
from bot.i18n import t
from bot.services.rounds import AdjustmentView, PublishJob, RoundView, TableView

log = logging.getLogger(__name__)

CONTENT_BUDGET = 1900  # of a message's content (Discord max 2000)
PLAYER_MENTIONS = discord.AllowedMentions(users=True, everyone=False, roles=False)
THREAD_ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 1440
PERMISSION_FAILURES = ("channel", "announcement:forbidden", "threads:forbidden", "threads:unsupported")


class RoundCog(commands.Cog):
    round = app_commands.Group(name="round", description="Table draws of the rounds", guild_only=True)
    finals = app_commands.Group(name="finals", description="Semifinals and final", guild_only=True)

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------------------------------ replies

    async def _preview(
        self, interaction: discord.Interaction[StewardBot], view: RoundView, title_key: str, extra: str = ""
    ) -> None:
        """The organizer's ephemeral preview: image, report (criteria, bound, optimality, seed) and tables."""
        label = round_label(locale_of(interaction), view)
        title = tr(interaction, title_key, round=label, tournament=safe(view.tournament_name))
        parts = [p for p in (extra, report_text(locale_of(interaction), view)) if p]
        budget = TEXT_BUDGET - sum(len(p) + 2 for p in parts)
        parts.append(tables_text(locale_of(interaction), view, budget=max(budget, 200)))
        if view.status == "drawn":
            parts.append(
                tr(interaction, "round.next_steps" if view.kind == "qualifying" else "round.next_steps_finals")
            )
        card = embed(title, "\n\n".join(parts))
        files = await table_images(view, locale_of(interaction), now=self.bot.services.clock())
        kwargs: dict[str, Any] = {"embed": card, "ephemeral": True}
        if files:
            kwargs["files"] = files
        await interaction.followup.send(**kwargs)

    # -------------------------------------------------------------------------------------------- draw

    @round.command(name="draw")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def draw(self, interaction: discord.Interaction[StewardBot], tournament: str) -> None:
        """Draw the next round's tables (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.draw(actor, tournament=tournament)
        await self._preview(interaction, view, "round.drawn.title")

    @round.command(name="redraw")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def redraw(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
    ) -> None:
        """Draw the unpublished round again, new seed (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.redraw(actor, tournament=tournament)
        await self._preview(interaction, view, "round.redrawn.title")

    async def _adjusted(self, interaction: discord.Interaction[StewardBot], adj: AdjustmentView) -> None:
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
            players=", ".join(safe(p) for p in adj.players),
            tables=", ".join(str(n) for n in adj.tables),
        )
        await self._preview(interaction, adj.round, "round.adjust.title", head + "\n" + "\n".join(lines))

    @round.command(name="swap")
    @app_commands.describe(
        tournament="The tournament",
        player_a="A player",
        player_b="The other player",
    )
    @app_commands.autocomplete(
        tournament=tournament_autocomplete, player_a=player_autocomplete, player_b=player_autocomplete
    )
    async def swap(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
        player_a: str,
        player_b: str,
    ) -> None:
        """Swap two players of the drawn round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        adj = await self.bot.services.rounds.swap(actor, tournament=tournament, a=player_a, b=player_b)
        await self._adjusted(interaction, adj)

    @round.command(name="move")
    @app_commands.describe(
        tournament="The tournament",
        player="A player",
        table="Target table",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete, player=player_autocomplete)
    async def move(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
        player: str,
        table: app_commands.Range[int, 1, 500],
    ) -> None:
        """Move a player to another table (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        adj = await self.bot.services.rounds.move(actor, tournament=tournament, player=player, table=table)
        await self._adjusted(interaction, adj)

    # ----------------------------------------------------------------------------------------- publish

    @round.command(name="publish")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def publish(self, interaction: discord.Interaction[StewardBot], tournament: str) -> None:
        """Publish the drawn round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        job = await self.bot.services.rounds.publish(actor, tournament=tournament)
        outcome = await self._announce(interaction, job)
        await self.bot.services.rounds.record_publication(
            actor,
            round_id=job.round.round_id,
            announcement_message_id=outcome.announcement_id if job.round.announcement_message_id is None else None,
            thread_ids=outcome.threads,
            failures=outcome.failures,
        )
        await send(interaction, outcome.summary(interaction, job), ephemeral=True)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _announce(self, interaction: discord.Interaction[StewardBot], job: PublishJob) -> _Outcome:
        view = job.round
        outcome = _Outcome(announcement_id=view.announcement_message_id)
        channel_id = job.channel_id or interaction.channel_id
        outcome.channel_id = channel_id
        channel: discord.abc.Messageable | None = None
        if channel_id is not None:
            try:
                channel = await self._channel(channel_id)
            except discord.HTTPException:
                channel = None
        if channel is None:
            outcome.failures.append("channel")
            return outcome
        loc = await server_locale(interaction)  # public messages speak the server's language
        label = round_label(loc, view)
        if view.announcement_message_id is None:
            files = await table_images(view, loc, now=self.bot.services.clock())
            head = t("round.announce.head", loc, round=label, tournament=safe(view.tournament_name))
            seed = t("round.seed", loc, seed=view.seed) if view.seed is not None else ""
            foot = t("round.announce.foot", loc)
            budget = CONTENT_BUDGET - len(head) - len(seed) - len(foot) - 6
            content = "\n".join(p for p in (head, tables_text(loc, view, budget=budget), seed, foot) if p)
            try:
                message = await channel.send(content[:2000], files=files or discord.utils.MISSING)
                outcome.announcement_id = message.id
            except discord.Forbidden:
                outcome.failures.append("announcement:forbidden")
            except discord.HTTPException as exc:
                log.warning("announcement of round %s failed: %s", view.round_id, exc)
                outcome.failures.append("announcement:error")
        threadable = isinstance(channel, discord.TextChannel)
        for table in view.tables:
            if table.thread_id is not None or not table.seats:
                continue
            if not threadable:
                outcome.failures.append("threads:unsupported")
                break
            assert isinstance(channel, discord.TextChannel)
            name = t("round.thread_name", loc, number=table.number, round=label)[:100]
            try:
                thread = await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except discord.Forbidden:
                outcome.failures.append("threads:forbidden")
                break  # the same permission is missing for every table
            except discord.HTTPException as exc:
                log.warning("thread for table %s of round %s failed: %s", table.number, view.round_id, exc)
                outcome.failures.append(f"thread:{table.number}")
                continue
            outcome.threads[table.number] = thread.id
            try:
                await thread.send(self._seat_message(loc, table, label)[:2000], allowed_mentions=PLAYER_MENTIONS)
            except discord.HTTPException:
                outcome.failures.append(f"thread_message:{table.number}")
        untold = [t for t in view.tables if t.seats and t.thread_id is None and t.number not in outcome.threads]
        if untold and ("threads:forbidden" in outcome.failures or "threads:unsupported" in outcome.failures):
            await self._ping_in_channel(loc, channel, untold, label, outcome)
        return outcome

    async def _ping_in_channel(
        self,
        loc: str,
        channel: discord.abc.Messageable,
        tables: list[TableView],
        label: str,
        outcome: _Outcome,
    ) -> None:
        """Without threads, every player is still told their table: mentions in the channel, users only."""
        chunk: list[str] = []
        size = 0
        messages: list[str] = []
        for table in tables:
            line = self._seat_message(loc, table, label)[:CONTENT_BUDGET]
            if size + len(line) + 1 > CONTENT_BUDGET and chunk:
                messages.append("\n".join(chunk))
                chunk, size = [], 0
            chunk.append(line)
            size += len(line) + 1
        if chunk:
            messages.append("\n".join(chunk))
        for text in messages:
            try:
                await channel.send(text, allowed_mentions=PLAYER_MENTIONS)
                outcome.pinged_in_channel = True
            except discord.HTTPException:
                outcome.failures.append("channel_pings")
                break

    @staticmethod
    def _seat_message(locale: str, table: TableView, label: str) -> str:
        players = ", ".join(_seat_text(s, mention=True) for s in table.seats)
        return t("round.thread_message", locale, number=table.number, round=label, players=players)

    @round.command(name="plan")
    @app_commands.describe(tournament="The tournament", start="Start, Italian time: YYYY-MM-DD HH:MM")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def plan(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
        start: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Plan the next round, for check-in (organizers)."""
        actor = actor_of(interaction)
        when = parse_local_datetime(start)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.plan(actor, tournament=tournament, start=when)
        text = tr(
            interaction,
            "round.planned",
            round=round_label(locale_of(interaction), view),
            tournament=safe(view.tournament_name),
        )
        if view.scheduled_start:
            text += "\n" + tr(interaction, "round.planned.start", when=discord_timestamp(view.scheduled_start))
        await send(interaction, text, ephemeral=True)

    @round.command(name="close")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def close(self, interaction: discord.Interaction[StewardBot], tournament: str) -> None:
        """Close the published round (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.close(actor, tournament=tournament)
        text = tr(
            interaction,
            "round.closed",
            round=round_label(locale_of(interaction), view),
            tournament=safe(view.tournament_name),
        )
        await send(interaction, text, ephemeral=True)

    # ---------------------------------------------------------------------------------------- reading

    @round.command(name="show")
    @app_commands.describe(tournament="The tournament", number="Round number (default: the latest round)")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def show(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
        number: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        """List the tables of a round."""
        actor = actor_of(interaction)
        await interaction.response.defer(thinking=True, ephemeral=True)
        view = await self.bot.services.rounds.show(actor, tournament=tournament, number=number)
        title = tr(
            interaction,
            "round.show.title",
            round=round_label(locale_of(interaction), view),
            tournament=safe(view.tournament_name),
        )
        card = embed(title, tables_text(locale_of(interaction), view))
        footer = [tr(interaction, f"round.status.{view.status}")]
        if view.seed is not None:
            footer.append(tr(interaction, "round.seed", seed=view.seed))
        card.set_footer(text=" · ".join(footer)[:2048])
        await send(interaction, embed=card, ephemeral=True)

    # ------------------------------------------------------------------------------- semifinals/final

    @finals.command(name="semifinals")
    @app_commands.describe(
        tournament="The tournament", tables="Number of semifinal tables (3: rank 1 goes to the final)"
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def semifinals(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
        tables: app_commands.Range[int, 3, 4] | None = None,
    ) -> None:
        """Seed the semifinals from the standings in bands (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.seed_semifinals(actor, tournament=tournament, tables=tables)
        await self._preview(interaction, view, "round.semifinals.title")

    @finals.command(name="final")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def final(self, interaction: discord.Interaction[StewardBot], tournament: str) -> None:
        """Compose the final from the semifinal results (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.compose_final(actor, tournament=tournament)
        await self._preview(interaction, view, "round.final.title")

    @finals.command(name="decline")
    @app_commands.describe(tournament="The tournament", player="The finalist who declines")
    @app_commands.autocomplete(tournament=tournament_autocomplete, player=player_autocomplete)
    async def decline(
        self,
        interaction: discord.Interaction[StewardBot],
        tournament: str,
        player: str,
    ) -> None:
        """A finalist declines: the final is recomposed with the replacement chain (organizers)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self.bot.services.rounds.decline(actor, tournament=tournament, player=player)
        await self._preview(interaction, view, "round.declined.title")

    # ---------------------------------------------------------------------------------------- player

    @app_commands.command(name="my-table")
    @app_commands.guild_only()
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def my_table(self, interaction: discord.Interaction[StewardBot], tournament: str) -> None:
        """Your table in the latest published round."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = await self.bot.services.rounds.my_table(actor, tournament=tournament)
        label = round_label(locale_of(interaction), mine.round)
        lines = [f"{s.position}. {safe(s.name)}" + (f" ({safe(s.club)})" if s.club else "") for s in mine.table.seats]
        if mine.table.thread_id:
            lines.append(tr(interaction, "round.my_table.thread", thread=f"<#{mine.table.thread_id}>"))
        title = tr(
            interaction,
            "round.my_table.title",
            number=mine.table.number,
            round=label,
            tournament=safe(mine.round.tournament_name),
        )
        await send(interaction, embed=embed(title, "\n".join(lines)), ephemeral=True)


class _Outcome:
    """What the Discord side of a publication achieved."""

    def __init__(self, announcement_id: int | None) -> None:
        self.announcement_id = announcement_id
        self.channel_id: int | None = None
        self.threads: dict[int, int] = {}
        self.failures: list[str] = []
        self.pinged_in_channel = False

    def summary(self, interaction: discord.Interaction[Any], job: PublishJob) -> str:
        label = round_label(locale_of(interaction), job.round)
        key = "round.published" if job.first_time else "round.published_retry"
        lines = [tr(interaction, key, round=label, tournament=safe(job.round.tournament_name))]
        channel = f"<#{self.channel_id}>" if self.channel_id else "?"
        if self.announcement_id:
            lines.append(tr(interaction, "round.published.announcement", channel=channel))
        done = sum(1 for t in job.round.tables if t.thread_id) + len(self.threads)
        lines.append(tr(interaction, "round.published.threads", done=done, total=len(job.round.tables)))
        if self.pinged_in_channel:
            lines.append(tr(interaction, "round.published.pinged", channel=channel))
        for code in PERMISSION_FAILURES:
            if code in self.failures:
                lines.append(tr(interaction, f"round.publish_failed.{code.replace(':', '_')}", channel=channel))
        others = [f for f in self.failures if f not in PERMISSION_FAILURES]
        if others:
            lines.append(tr(interaction, "round.publish_failed.other", count=len(others)))
        if self.failures:
            lines.append(tr(interaction, "round.publish_failed.retry"))
        return "\n".join(lines)


async def setup(bot: StewardBot) -> None:
    await bot.add_cog(RoundCog(bot))
