"""/setup roles — a server administrator maps Discord roles to the steward's roles (BOT-ROLE-1); /setup timezone — the
zone schedules are typed in (BOT-SCH-1)."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs._bot import StewardBot
from bot.cogs._common import actor_of, embed, send, tr
from bot.cogs._params import ADMIN_COMMANDS
from bot.cogs.setup.permissions import Needed, missing
from bot.i18n import normalise_locale
from bot.present.markup import discord_timestamp
from bot.services.backups import backup_status


class SetupCog(commands.Cog):
    setup = app_commands.Group(
        name="setup",
        description="Configure the steward for this server",
        guild_only=True,
        default_permissions=ADMIN_COMMANDS,
    )

    def __init__(self, bot: StewardBot) -> None:
        self.bot = bot

    @setup.command(name="roles")
    @app_commands.describe(
        organizer="Role of the tournament organizers",
        referee="Role of the referees",
        head_referee="Role of the head referee",
        player="Role players must have to register (optional: everyone may)",
        announcements="Channel for announcements (optional)",
    )
    async def roles(
        self,
        interaction: discord.Interaction[StewardBot],
        organizer: discord.Role,
        referee: discord.Role,
        head_referee: discord.Role,
        player: discord.Role | None = None,
        announcements: discord.TextChannel | None = None,
    ) -> None:
        """Map this server's roles to organizer, referee, head referee and player."""
        actor = actor_of(interaction)
        result = await self.bot.services.setup.set_roles(
            actor,
            server_locale=normalise_locale(interaction.guild_locale, self.bot.settings.default_locale)
            if interaction.guild_locale
            else None,
            organizer_role_id=organizer.id,
            referee_role_id=referee.id,
            head_referee_role_id=head_referee.id,
            player_role_id=player.id if player else None,
            announcement_channel_id=announcements.id if announcements else None,
        )
        lines = [
            tr(interaction, "setup.roles.line", role=tr(interaction, "role.organizer"), value=organizer.mention),
            tr(interaction, "setup.roles.line", role=tr(interaction, "role.referee"), value=referee.mention),
            tr(interaction, "setup.roles.line", role=tr(interaction, "role.head_referee"), value=head_referee.mention),
            tr(
                interaction,
                "setup.roles.line",
                role=tr(interaction, "role.player"),
                value=player.mention if player else tr(interaction, "setup.roles.everyone"),
            ),
        ]
        if result.announcement_channel_id:
            lines.append(
                tr(
                    interaction,
                    "setup.roles.line",
                    role=tr(interaction, "setup.roles.announcements"),
                    value=f"<#{result.announcement_channel_id}>",
                )
            )
        lines.extend(["", *permission_lines(interaction, announcements)])
        lines.append(await backup_line(interaction))
        await send(interaction, embed=embed(tr(interaction, "setup.roles.title"), "\n".join(lines)), ephemeral=True)

    @setup.command(name="timezone")
    @app_commands.describe(zone="An IANA time zone, e.g. Europe/Rome")
    async def timezone(
        self, interaction: discord.Interaction[StewardBot], zone: app_commands.Range[str, 1, 64]
    ) -> None:
        """The time zone schedules are typed in (default Europe/Rome)."""
        actor = actor_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = await self.bot.services.schedules.set_timezone(actor, zone)
        await send(interaction, tr(interaction, "schedule.timezone.set", zone=name), ephemeral=True)


async def backup_line(interaction: discord.Interaction[StewardBot]) -> str:
    """The scheduled backup's state: the newest one's time, or when the first is due, or that none is scheduled."""
    bot = interaction.client
    status = await asyncio.to_thread(backup_status, bot.settings, bot.services.clock())
    if not status.enabled:
        return tr(interaction, "setup.backup.off")
    if status.last is not None:
        return tr(interaction, "setup.backup.last", time=discord_timestamp(status.last))
    return tr(interaction, "setup.backup.never", time=discord_timestamp(status.next) if status.next else "?")


def permission_lines(
    interaction: discord.Interaction[StewardBot], announcements: discord.TextChannel | None
) -> list[str]:
    """What the bot itself may not do here, each with what it is for (``bot.cogs.setup.permissions.NEEDED``): its
    roles' permissions in the server, then the overwrites of the channel rounds are announced in (the one chosen, or
    the one ``/setup`` runs in). Without its own member in the cache, the permissions Discord sent with this command
    (this channel's) stand for both."""
    me = interaction.guild.me if interaction.guild is not None else None
    channel: discord.Permissions | None
    if me is not None:
        server = me.guild_permissions
        where = announcements or interaction.channel
        channel = where.permissions_for(me) if isinstance(where, discord.abc.GuildChannel) else None
    else:
        server, channel = interaction.app_permissions, None
    in_server, in_channel = missing(server, channel)
    if not in_server and not in_channel:
        return [tr(interaction, "setup.permissions.ok")]

    def line(needed: Needed) -> str:
        name = tr(interaction, f"setup.permission.{needed.attribute}.name")
        return tr(
            interaction,
            "setup.permission.line",
            name=name,
            reason=tr(interaction, f"setup.permission.{needed.attribute}"),
        )

    out: list[str] = []
    if in_server:
        out += [tr(interaction, "setup.permissions.missing"), *map(line, in_server)]
    if in_channel:
        mention = announcements.mention if announcements else f"<#{interaction.channel_id}>"
        out += [tr(interaction, "setup.permissions.missing_in_channel", channel=mention), *map(line, in_channel)]
    return out
