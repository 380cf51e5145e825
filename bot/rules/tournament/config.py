"""The preset's ``[tournament]`` table, validated into a frozen value (presets, not ifs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.presets import Preset
from bot.rules.tournament.model import Criterion, TournamentError
from bot.rules.tournament.standings import TieBreaker


def _criteria(raw: Any, where: str) -> tuple[Criterion, ...]:
    if not isinstance(raw, list):
        raise TournamentError("preset_field_not_a_list", where)
    try:
        return tuple(Criterion(x) for x in raw)
    except ValueError:
        raise TournamentError("unknown_criterion", f"{where}={raw!r}") from None


@dataclass(frozen=True, slots=True)
class TournamentRules:
    preset: str
    game: str
    format: str
    table_size: int
    large_table_size: int
    min_table_size: int
    large_tables_first: bool
    cinquisti: bool
    teams: bool
    seeded_round1: bool
    family_separation: bool
    round1_criteria: tuple[Criterion, ...]
    round2_criteria: tuple[Criterion, ...]
    qualifying_rounds: int
    semifinal_tables: int
    odd_even_threshold: int
    final_size: int
    knockout_table_sizes: tuple[int, ...]
    tie_breakers: tuple[str, ...]
    withdrawal_deduction: float
    raw: Mapping[str, Any]

    @staticmethod
    def from_preset(preset: Preset) -> TournamentRules:
        s = preset.section("tournament")
        try:
            tie = tuple(str(TieBreaker(x)) for x in s.get("tie_breakers", []))
        except ValueError:
            raise TournamentError("unknown_tie_breaker", s.get("tie_breakers")) from None
        table = int(s["table_size"])
        return TournamentRules(
            preset=preset.name,
            game=preset.game,
            format=str(s.get("format", "italian")),
            table_size=table,
            large_table_size=int(s.get("large_table_size", table + 1)),
            min_table_size=int(s.get("min_table_size", table)),
            large_tables_first=bool(s.get("large_tables_first", False)),
            cinquisti=bool(s.get("cinquisti", False)),
            teams=bool(s.get("teams", False)),
            seeded_round1=bool(s.get("seeded_round1", False)),
            family_separation=bool(s.get("family_separation", False)),
            round1_criteria=_criteria(s.get("round1_criteria", ["club_pairs"]), "round1_criteria"),
            round2_criteria=_criteria(s.get("round2_criteria", ["repeat_pairs"]), "round2_criteria"),
            qualifying_rounds=int(s.get("qualifying_rounds", 0)),
            semifinal_tables=int(s.get("semifinal_tables", 0)),
            odd_even_threshold=int(s.get("odd_even_threshold", 0)),
            final_size=int(s.get("final_size", 0)),
            knockout_table_sizes=tuple(int(x) for x in s.get("knockout_table_sizes", [table, table + 1])),
            tie_breakers=tie,
            withdrawal_deduction=float(s.get("withdrawal_deduction", 0.0)),
            raw=s,
        )
