"""The Discord permissions the bot itself needs, and why: the one list the README's invite step and `/setup roles`'s
check read (``tests/cogs/test_setup_permissions.py`` holds the README to it).

Each permission's reason is the catalogue key ``setup.permission.<attribute>``, its name as Discord's permission
list shows it ``setup.permission.<attribute>.name``. ``channel`` permissions are needed in the channel where rounds
are announced (the threads inherit them from it); ``server`` ones apply to the server as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord


@dataclass(frozen=True)
class Needed:
    attribute: str  # a ``discord.Permissions`` attribute
    label: str  # the English name in Discord's permission list (the README's invite step names it so)
    scope: Literal["channel", "server"]


NEEDED: tuple[Needed, ...] = (
    Needed("view_channel", "View Channels", "channel"),
    Needed("send_messages", "Send Messages", "channel"),
    Needed("send_messages_in_threads", "Send Messages in Threads", "channel"),
    Needed("create_public_threads", "Create Public Threads", "channel"),
    Needed("embed_links", "Embed Links", "channel"),
    Needed("attach_files", "Attach Files", "channel"),
    Needed("pin_messages", "Pin Messages", "channel"),
    Needed("manage_events", "Manage Events", "server"),
)


def invite_permissions() -> discord.Permissions:
    """The ``permissions=`` value of the invite URL: every permission in ``NEEDED``."""
    return discord.Permissions(**{n.attribute: True for n in NEEDED})


def missing(server: discord.Permissions, channel: discord.Permissions | None) -> tuple[list[Needed], list[Needed]]:
    """What the bot lacks: in the server (its roles), and, of what the server grants, in the announcement channel
    (the channel's overwrites). ``channel`` None: no channel to look at."""
    in_server = [n for n in NEEDED if not getattr(server, n.attribute)]
    in_channel = [
        n
        for n in NEEDED
        if n.scope == "channel" and channel is not None and n not in in_server and not getattr(channel, n.attribute)
    ]
    return in_server, in_channel
