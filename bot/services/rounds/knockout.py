"""The knockout as the services show it (NP-FMT-1): its plan and why a field cannot be planned (who goes on is read
with the round: ``reading.knockout_advancing``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.tournament.config import TournamentRules
from bot.rules.tournament.model import TournamentError
from bot.services.rounds.views import KnockoutView


def knockout_refusal(value: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of "this field cannot be planned" (NP-FMT-1): the nearest fields and finals that can."""
    below, above = value.get("below"), value.get("above")
    return {
        "players": value.get("players"),
        "final_size": value.get("final_size"),
        "nearest": " / ".join(str(x) for x in (below, above) if x is not None) or "-",
        "finals": " / ".join(str(x) for x in value.get("other_finals", ())) or "-",
    }


def knockout_view(rules: TournamentRules, players: int) -> KnockoutView:
    """NP-FMT-1: the knockout plan for ``players`` (or the nearest workable field sizes when there is none)."""
    try:
        plan = rules.knockout_plan(players)
    except TournamentError as exc:
        value = exc.value if isinstance(exc.value, dict) else {}
        return KnockoutView(players, (), value.get("below"), value.get("above"), rules.final_size,
                            tuple(value.get("other_finals", ())))  # fmt: skip
    return KnockoutView(players, tuple((k.players, k.sizes) for k in plan), final_size=rules.final_size)
