"""Who may do what: the actor of a use case and the role checks (BOT-ROLE-1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.db.models import GuildConfig
from bot.errors import PermissionDenied


class StaffRole(StrEnum):
    ADMIN = "admin"
    ORGANIZER = "organizer"
    REFEREE = "referee"
    HEAD_REFEREE = "head_referee"
    PLAYER = "player"


@dataclass(frozen=True, slots=True)
class Actor:
    """The person behind a use case: a Discord member (or the offline demo/CLI)."""

    guild_id: int
    user_id: int
    display_name: str = ""
    role_ids: frozenset[int] = field(default_factory=frozenset)
    is_admin: bool = False
    locale: str = "it"


def _role_id(config: GuildConfig | None, role: StaffRole) -> int | None:
    if config is None:
        return None
    return {
        StaffRole.ORGANIZER: config.organizer_role_id,
        StaffRole.REFEREE: config.referee_role_id,
        StaffRole.HEAD_REFEREE: config.head_referee_role_id,
        StaffRole.PLAYER: config.player_role_id,
    }.get(role)


# A head referee is also a referee; organizers are not referees (separate duties, ARB/UFF).
IMPLIED_BY: dict[StaffRole, tuple[StaffRole, ...]] = {
    StaffRole.ORGANIZER: (StaffRole.ORGANIZER,),
    StaffRole.REFEREE: (StaffRole.REFEREE, StaffRole.HEAD_REFEREE),
    StaffRole.HEAD_REFEREE: (StaffRole.HEAD_REFEREE,),
    StaffRole.PLAYER: (StaffRole.PLAYER,),
}


def has_role(actor: Actor, config: GuildConfig | None, role: StaffRole) -> bool:
    """Server administrators pass every check; otherwise the mapped Discord role is required.

    The player role is optional: when a server maps none, every member counts as a player.
    """
    if actor.is_admin:
        return True
    if role is StaffRole.ADMIN:
        return False
    if role is StaffRole.PLAYER and _role_id(config, StaffRole.PLAYER) is None:
        return True
    return any(
        (rid := _role_id(config, r)) is not None and rid in actor.role_ids for r in IMPLIED_BY.get(role, (role,))
    )


STAFF = (StaffRole.ORGANIZER, StaffRole.REFEREE)  # either will do (validating the list, the roster, check-in)
Role = StaffRole | tuple[StaffRole, ...]


def require_staff(actor: Actor, config: GuildConfig | None) -> None:
    """Organizer or referee (either role will do); the refusal names both roles."""
    if has_role(actor, config, StaffRole.ORGANIZER) or has_role(actor, config, StaffRole.REFEREE):
        return
    if config is None or (config.organizer_role_id is None and config.referee_role_id is None):
        raise PermissionDenied("error.permission_unmapped", role=StaffRole.ORGANIZER.value)
    raise PermissionDenied("error.permission_staff", role=StaffRole.REFEREE.value)


def require(actor: Actor, config: GuildConfig | None, role: Role) -> None:
    if isinstance(role, tuple):
        if role != STAFF:  # pragma: no cover - a programming error
            raise AssertionError(f"no refusal is worded for the roles {role}")
        require_staff(actor, config)
        return
    if not has_role(actor, config, role):
        configured = role is StaffRole.ADMIN or _role_id(config, role) is not None
        raise PermissionDenied(
            "error.permission" if configured else "error.permission_unmapped",
            role=role.value,
        )
