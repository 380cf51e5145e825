"""Publishing a round on Discord: the announcement, one thread per table, and a report of what Discord refused.

The service marks the round published first (one transaction); the announcement and the threads follow; whatever
Discord refused (missing permissions) is reported to the organizer, and ``/round publish`` on the published round
retries only what is missing.
"""

from __future__ import annotations

import logging
import zlib
from datetime import datetime, timedelta
from typing import Any, Literal

import discord

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, locale_of, server_locale, tr
from bot.cogs.desk.calls import CallButton
from bot.cogs.rounds.bracket import final_bracket
from bot.cogs.rounds.images import table_images
from bot.i18n import join_names, t
from bot.present.markup import safe
from bot.present.rounds import cut_text, round_label, seat_text, seats_text, tables_text
from bot.present.tables import MAX_PAGES
from bot.services.rounds import PublishJob, TableView
from bot.web.report import report_url

log = logging.getLogger(__name__)

CONTENT_BUDGET = 1900  # of a message's content (Discord max 2000)
PLAYER_MENTIONS = discord.AllowedMentions(users=True, everyone=False, roles=False)
THREAD_ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 1440
PERMISSION_FAILURES = ("channel", "announcement:forbidden", "threads:forbidden", "threads:unsupported")


class PublicationOutcome:
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


async def _channel(bot: StewardBot, channel_id: int) -> discord.abc.Messageable | None:
    channel = bot.get_channel(channel_id)
    if channel is None:
        channel = await bot.fetch_channel(channel_id)
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def _remember(
    interaction: discord.Interaction[StewardBot],
    round_id: int,
    *,
    announcement_id: int | None = None,
    threads: dict[int, int] | None = None,
    intents: tuple[int, ...] = (),
    pinged: tuple[int, ...] = (),
) -> None:
    """Store one side effect the moment Discord confirms it, or its intent just before asking:
    a publish that dies half-way and is run again resumes exactly where it stopped."""
    await interaction.client.services.rounds.remember_publication(
        actor_of(interaction), round_id=round_id, announcement_message_id=announcement_id, thread_ids=threads or {},
        thread_intents=intents, pinged=pinged,
    )  # fmt: skip


def _nonce(kind: str, key: int, text: str = "") -> str:
    """A message's nonce, the same for the same message: Discord returns the message already made instead of a
    second one when the same nonce comes again within minutes (``enforce_nonce``) — a crash between Discord making
    the message and the bot storing it does not post it twice. At most 25 characters."""
    return f"{kind}{key}-{zlib.crc32(text.encode()):08x}"[:25]


def _thread_made_before(
    channel: discord.TextChannel, name: str, since: datetime, owner_id: int | None
) -> discord.Thread | None:
    """The thread this bot asked for at ``since`` (the recorded intent) but never stored: the bot died after Discord
    made it. Found by name among the channel's threads (Discord lists the active ones at every connection), made no
    earlier than the intent — an older thread of the same name (a recomposed final's) is not it."""
    earliest = since - timedelta(seconds=5)  # the bot's clock and Discord's may differ a little
    for thread in channel.threads:
        if thread.name == name and thread.owner_id == owner_id and discord.utils.snowflake_time(thread.id) >= earliest:
            return thread
    return None


async def announce(interaction: discord.Interaction[StewardBot], job: PublishJob) -> PublicationOutcome:
    """The announcement with the table image, then one thread per table with its players (mentions: users only).
    Every step is recorded as it happens (the thread's intent before it is asked for), so running it again after a
    crash posts nothing twice and tells every player once."""
    bot = interaction.client
    view = job.round
    outcome = PublicationOutcome(announcement_id=view.announcement_message_id)
    channel_id = job.channel_id or interaction.channel_id
    outcome.channel_id = channel_id
    channel: discord.abc.Messageable | None = None
    if channel_id is not None:
        try:
            channel = await _channel(bot, channel_id)
        except discord.HTTPException:
            channel = None
    if channel is None:
        outcome.failures.append("channel")
        return outcome
    loc = await server_locale(interaction)  # public messages speak the server's language
    label = round_label(loc, view)
    if view.announcement_message_id is None:
        files = await table_images(view, loc, now=bot.services.clock())
        if view.kind == "final" and interaction.guild_id is not None:  # the final phase at a glance (BOT-IMG-1)
            files.extend(await final_bracket(bot, interaction.guild_id, view, loc))
            files = files[:MAX_PAGES]  # a message carries at most 10 files
        head = t("round.announce.head", loc, round=label, tournament=safe(view.tournament_name))
        seed = t("round.seed", loc, seed=view.seed) if view.seed is not None else ""
        ties = view.ties or ((view.cut,) if view.cut is not None else ())
        if ties:  # who took a seat among players level where a line cut them (the cut, a band…), and how
            seed = "\n".join([*(cut_text(loc, tie) for tie in ties), seed])
        seats = seats_text(loc, view)  # semifinals: who goes straight to the final, and the repechage's seat and why
        if seats:
            seed = "\n".join([seats, seed]) if seed else seats
        foot = t("round.announce.foot", loc)
        budget = CONTENT_BUDGET - len(head) - len(seed) - len(foot) - 6
        content = "\n".join(p for p in (head, tables_text(loc, view, budget=budget), seed, foot) if p)[:2000]
        try:
            message = await channel.send(
                content, files=files or discord.utils.MISSING, nonce=_nonce("a", view.round_id, content)
            )
            outcome.announcement_id = message.id
            await _remember(interaction, view.round_id, announcement_id=message.id)  # before anything else
        except discord.Forbidden:
            outcome.failures.append("announcement:forbidden")
        except discord.HTTPException as exc:
            log.warning("announcement of round %s failed: %s", view.round_id, exc)
            outcome.failures.append("announcement:error")
    threadable = isinstance(channel, discord.TextChannel)
    pages = await report_pages(bot, interaction, view.round_id)
    for table in view.tables:
        if not table.seats or (table.thread_id is not None and table.thread_pinged):
            continue
        if not threadable:
            outcome.failures.append("threads:unsupported")
            break
        assert isinstance(channel, discord.TextChannel)
        name = t("round.thread_name", loc, number=table.number, round=label)[:100]
        thread_id = table.thread_id
        if thread_id is None:
            found = None
            if table.thread_requested_at is not None:  # asked for before a crash: made, perhaps, but never stored
                found = _thread_made_before(channel, name, table.thread_requested_at, bot.user.id if bot.user else None)
            if found is None:
                await _remember(interaction, view.round_id, intents=(table.number,))  # the intent first
                try:
                    found = await channel.create_thread(
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
            thread_id = found.id
            outcome.threads[table.number] = thread_id
            await _remember(interaction, view.round_id, threads={table.number: thread_id})  # a re-run skips this
        try:
            buttons = discord.ui.View(timeout=None)  # the table calls a referee from its thread (BOT-RUL-2)
            buttons.add_item(CallButton(view.round_id, table.number, label=t("call.button", loc)))
            if table.number in pages:  # the table reports its game from the phones (issue 42)
                buttons.add_item(discord.ui.Button(label=t("report_page.button", loc), url=pages[table.number]))
            text = seat_message(loc, table, label)[:2000]
            await bot.get_partial_messageable(thread_id).send(
                text, allowed_mentions=PLAYER_MENTIONS, view=buttons, nonce=_nonce("p", thread_id, text)
            )
            await _remember(interaction, view.round_id, pinged=(table.number,))
        except discord.HTTPException:
            outcome.failures.append(f"thread_message:{table.number}")
    untold = [t for t in view.tables if t.seats and t.thread_id is None and t.number not in outcome.threads]
    if untold and ("threads:forbidden" in outcome.failures or "threads:unsupported" in outcome.failures):
        await _ping_in_channel(loc, channel, untold, label, outcome)
    return outcome


async def report_pages(bot: StewardBot, interaction: discord.Interaction[StewardBot], round_id: int) -> dict[int, str]:
    """The report pages' URLs of a round's tables by number; none while the bot serves no pages."""
    base = bot.settings.venue_base_url()
    if base is None:
        return {}
    try:
        links = await bot.services.report_pages.links(actor_of(interaction), round_id)
    except Exception:  # the publication goes on without the links: /report page gives them later
        log.warning("report pages of round %s not linked", round_id, exc_info=True)
        return {}
    return {number: report_url(base, token) for number, token in links.items()}


async def _ping_in_channel(
    loc: str,
    channel: discord.abc.Messageable,
    tables: list[TableView],
    label: str,
    outcome: PublicationOutcome,
) -> None:
    """Without threads, every player is still told their table: mentions in the channel, users only."""
    chunk: list[str] = []
    size = 0
    messages: list[str] = []
    for table in tables:
        line = seat_message(loc, table, label)[:CONTENT_BUDGET]
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


def seat_message(locale: str, table: TableView, label: str) -> str:
    players = join_names((seat_text(s, mention=True) for s in table.seats), locale)
    text = t("round.thread_message", locale, number=table.number, round=label, players=players)
    if table.special:  # FIRK-SIZE-1: the table is not an ordinary one — say how
        text += "\n" + t(f"round.special.{table.special}", locale)
    if table.note:
        text += "\n> " + t("round.table_note", locale, note=safe(table.note))
    return text
