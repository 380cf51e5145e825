"""A logged case in its table's thread, in the server's language; the sanctioned player is the one ping."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.cogs._common import server_locale
from bot.i18n import t
from bot.present.markup import safe
from bot.present.sanctions import case_line
from bot.services.sanction_views import SanctionView

log = logging.getLogger(__name__)


async def announce_in_thread(interaction: discord.Interaction[Any], view: SanctionView) -> None:
    """The case in the table's thread, in the server's language; the sanctioned player is the one ping."""
    if view.table_thread_id is None:
        return
    client = interaction.client
    try:
        thread = client.get_channel(view.table_thread_id) or await client.fetch_channel(view.table_thread_id)
        if not isinstance(thread, discord.abc.Messageable):
            return
        locale = await server_locale(interaction)
        who = f"<@{view.player_user_id}>" if view.player_user_id else f"**{safe(view.player_name)}**"
        text = t("sanction.thread", locale, who=who, line=case_line(view, locale))
        users = [discord.Object(view.player_user_id)] if view.player_user_id else []
        await thread.send(
            text[:2000], allowed_mentions=discord.AllowedMentions(users=users, everyone=False, roles=False)
        )
    except discord.HTTPException as exc:
        log.warning("sanction %s: the table thread refused the message: %s", view.case_number, exc)
