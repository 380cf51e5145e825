"""A round's Discord scheduled event: created when the round is scheduled or published, moved with its start,
cancelled when its start is withdrawn. Without the *Manage Events* permission the bot says so once per server."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t

if TYPE_CHECKING:
    from bot.cogs._bot import StewardBot
    from bot.services.rounds import RoundView

log = logging.getLogger(__name__)

EVENT_LENGTH = timedelta(hours=3)  # our default: Discord needs an end for an event held outside a voice channel
EXTERNAL = 3  # GuildScheduledEventEntityType.EXTERNAL
GUILD_ONLY = 2
CANCELED = 4


async def sync_round_event(
    bot: StewardBot,
    guild_id: int,
    *,
    round_id: int,
    tournament: str,
    number: int,
    start: datetime,
    event_id: int | None,
    locale: str,
) -> str:
    """Create or move the round's event; returns ``created``, ``updated``, ``forbidden`` (first refusal: say so),
    ``forbidden_again`` (already said) or ``failed``."""
    payload: dict[str, Any] = {
        "name": t("schedule.event.name", locale, tournament=tournament, round=number)[:100],
        "description": t("schedule.event.description", locale, tournament=tournament, round=number)[:1000],
        "privacy_level": GUILD_ONLY,
        "entity_type": EXTERNAL,
        "entity_metadata": {"location": t("schedule.event.location", locale)[:100]},
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + EVENT_LENGTH).isoformat(),
    }
    try:
        if event_id is not None:
            try:
                await bot.http.edit_scheduled_event(guild_id, event_id, **payload)
                return "updated"
            except discord.NotFound:  # somebody deleted it by hand: make a new one
                pass
        data = await bot.http.create_guild_scheduled_event(guild_id, **payload)
        await bot.services.schedules.set_round_event(guild_id, round_id, int(data["id"]))
        return "created"
    except discord.Forbidden:
        return "forbidden" if await bot.services.schedules.events_refused(guild_id) else "forbidden_again"
    except (discord.HTTPException, KeyError, ValueError) as exc:
        log.warning("discord event of round %s: %s", round_id, exc)
        return "failed"


async def cancel_round_event(bot: StewardBot, guild_id: int, *, round_id: int, event_id: int | None) -> str:
    """Cancel the round's event (status CANCELED); ``none`` when the bot never made one."""
    if event_id is None:
        return "none"
    try:
        await bot.http.edit_scheduled_event(guild_id, event_id, status=CANCELED)
    except discord.NotFound:
        pass
    except discord.HTTPException as exc:
        log.warning("cancelling discord event %s: %s", event_id, exc)
        return "failed"
    await bot.services.schedules.set_round_event(guild_id, round_id, None)
    return "cancelled"


async def round_event(interaction: discord.Interaction[StewardBot], view: RoundView) -> str:
    """After publication: the round's Discord event, when its start is known and ahead; a line for the reply."""
    from bot.cogs._common import server_locale, tr

    if view.scheduled_start is None or interaction.guild_id is None:
        return ""
    if view.scheduled_start <= interaction.client.services.clock():
        return ""
    outcome = await sync_round_event(
        interaction.client, interaction.guild_id, round_id=view.round_id, tournament=view.tournament_name,
        number=view.number, start=view.scheduled_start, event_id=view.discord_event_id,
        locale=await server_locale(interaction),
    )  # fmt: skip
    return "\n" + tr(interaction, f"schedule.event.{outcome}") if outcome in EVENT_NOTES else ""


EVENT_NOTES = ("created", "updated", "cancelled", "forbidden", "failed")
