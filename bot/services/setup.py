"""Server set-up: the role mapping, the announcement channel and the language of public messages (BOT-ROLE-1)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.models import GuildConfig
from bot.errors import InvalidInput
from bot.services._base import BaseService
from bot.services.access import Actor, StaffRole


@dataclass(frozen=True, slots=True)
class GuildSetup:
    guild_id: int
    organizer_role_id: int | None
    referee_role_id: int | None
    head_referee_role_id: int | None
    player_role_id: int | None
    announcement_channel_id: int | None
    locale: str


class SetupService(BaseService):
    async def get_setup(self, guild_id: int, *, default_locale: str = "it") -> GuildSetup:
        async with self.run(guild_id) as uc:
            if uc.config is None:
                return GuildSetup(guild_id, None, None, None, None, None, default_locale)
            return _view(uc.config)

    async def locale(self, guild_id: int, *, default: str) -> str:
        """The server's language for public messages (``GuildConfig.locale``); ``default`` before any set-up."""
        async with self.run(guild_id) as uc:
            return uc.config.locale if uc.config is not None else default

    async def set_locale(self, actor: Actor, *, locale: str) -> GuildSetup:
        """Set the server's language for public messages (announcements, threads, report messages). Administrators."""
        if locale not in ("it", "en"):
            raise InvalidInput("error.out_of_range", field="locale", min="it", max="en", value=locale[:8])
        async with self.run(actor) as uc:  # the configuration is made first, then the role checked against it
            config = uc.config = await uc.guild.config_or_create(locale=locale)
            uc.require(StaffRole.ADMIN)
            before = config.locale
            config.locale = locale
            config.updated_at = uc.clock()
            await uc.flush()
            await uc.audit("setup.locale", "guild_config", config.id, before=before, after=locale)
            return _view(config)

    async def set_roles(
        self,
        actor: Actor,
        *,
        organizer_role_id: int,
        referee_role_id: int,
        head_referee_role_id: int,
        player_role_id: int | None = None,
        announcement_channel_id: int | None = None,
        server_locale: str | None = None,
    ) -> GuildSetup:
        """Map the server's Discord roles to the steward's roles. Server administrators only. A new server's
        language for public messages is ``server_locale`` (Discord's server language), not the administrator's."""
        async with self.run(actor) as uc:  # the configuration is made first, then the role checked against it
            config = uc.config = await uc.guild.config_or_create(locale=server_locale or actor.locale)
            uc.require(StaffRole.ADMIN)
            before = _view(config)
            config.organizer_role_id = organizer_role_id
            config.referee_role_id = referee_role_id
            config.head_referee_role_id = head_referee_role_id
            config.player_role_id = player_role_id
            if announcement_channel_id is not None:
                config.announcement_channel_id = announcement_channel_id
            config.updated_at = uc.clock()
            await uc.flush()
            after = _view(config)
            await uc.audit("setup.roles", "guild_config", config.id, before=_roles(before), after=_roles(after))
            return after


def _view(config: GuildConfig) -> GuildSetup:
    return GuildSetup(
        guild_id=config.guild_id,
        organizer_role_id=config.organizer_role_id,
        referee_role_id=config.referee_role_id,
        head_referee_role_id=config.head_referee_role_id,
        player_role_id=config.player_role_id,
        announcement_channel_id=config.announcement_channel_id,
        locale=config.locale,
    )


def _roles(setup: GuildSetup) -> dict[str, int | None]:
    return {
        "organizer": setup.organizer_role_id,
        "referee": setup.referee_role_id,
        "head_referee": setup.head_referee_role_id,
        "player": setup.player_role_id,
        "announcements": setup.announcement_channel_id,
    }
