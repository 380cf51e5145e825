"""How a round's decisions read, without Discord (the bot, the demo and the command line share it)."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.services.rounds.views import CutView


def cut_text(locale: str, cut: CutView, *, name: Callable[[str], str] = str) -> str:
    """Players level across the semifinals' cut, and what decided who qualifies (never the program's own order);
    ``name`` shows a player's name (escaped for Discord by the cogs)."""
    tied, qualified = ", ".join(name(n) for n in cut.tied), ", ".join(name(n) for n in cut.qualified)
    return t(f"round.cut.{cut.method}", locale, count=cut.seats, rank=cut.rank, seed=cut.seed or "", tied=tied,
             qualified=qualified)  # fmt: skip
