"""Deleting a test tournament (issue 44): ``/tournament delete`` shows the organizer what goes, privately, with a
Confirm button; the button is a ``DynamicItem`` carrying only the tournament's id and creation instant
(``tournament:delete:<id>:<stamp>``), so it works after a restart, deletes once however often it is pressed (the
service locks the tournament's row), and never a later tournament that got the deleted one's id."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs._common import actor_of, bot_of, embed, locale_of
from bot.cogs._errors import guarded
from bot.i18n import t
from bot.present.markup import safe
from bot.services.tournaments import TournamentDeletion

DELETE_TEMPLATE = r"tournament:delete:(?P<id>[0-9]{1,19}):(?P<stamp>-?[0-9]{1,20})"


def size_line(deletion: TournamentDeletion, locale: str) -> str:
    """Registrations, rounds and tables of the tournament: what goes with it."""
    return t("tournament.delete.size", locale, registrations=deletion.registrations, rounds=deletion.rounds,
             tables=deletion.tables)  # fmt: skip


def confirmation(deletion: TournamentDeletion, locale: str) -> dict[str, Any]:
    """The private question with its Confirm button."""
    title = t("tournament.delete.confirm.title", locale, name=safe(deletion.name))
    body = "\n".join((size_line(deletion, locale), t("tournament.delete.confirm.body", locale)))
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmDelete(deletion.id, deletion.stamp, label=t("tournament.delete.button", locale)))
    return {"embed": embed(title, body), "view": view}


class ConfirmDelete(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DELETE_TEMPLATE):
    """Delete the tournament the confirmation named: once, however often it is pressed (organizers)."""

    def __init__(self, tournament_id: int, stamp: int, *, label: str | None = None) -> None:  # no label: a restart's
        super().__init__(discord.ui.Button(label=label[:80] if label else None, style=discord.ButtonStyle.danger,
                                           custom_id=f"tournament:delete:{tournament_id}:{stamp}"))  # fmt: skip
        self.tournament_id, self.stamp = tournament_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmDelete:
        return cls(int(match["id"]), int(match["stamp"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # acknowledge first: the delete may take a moment
        locale = locale_of(interaction)
        deleted = await bot_of(interaction).services.tournaments.delete(
            actor_of(interaction), self.tournament_id, self.stamp
        )
        title = t("tournament.deleted.title", locale, name=safe(deleted.name))
        body = "\n".join((size_line(deleted, locale), t("tournament.deleted.body", locale)))
        await interaction.edit_original_response(embed=embed(title, body), view=None)
