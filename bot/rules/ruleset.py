"""A tournament's whole ruleset, parsed once and checked at creation.

``load_ruleset(name, overrides)`` loads the preset file, applies the tournament's overrides and parses every section
with its engine's own checks: ``[tournament]`` (:class:`TournamentRules`), the game's tables (:class:`RisikoRules`
or :class:`RicochetRules`), ``[lateness]`` (:class:`LatenessRules`) and ``[season]`` (:class:`SeasonRules`). A
value no engine can use raises :class:`bot.rules.presets.PresetFieldError` naming the field and what is allowed — at
``/tournament create`` or at the ``steward`` command line, never weeks later in the middle of a round. Services
build one ``Ruleset`` per use case and read typed fields only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.rules.lateness import LatenessRules
from bot.rules.presets import Preset, load_preset
from bot.rules.ricochet.config import RicochetRules
from bot.rules.risiko.config import RisikoRules, rules_from_preset
from bot.rules.season import SeasonRules
from bot.rules.tournament.config import TournamentRules


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One preset with the tournament's overrides applied, every section parsed: the tournament, lateness and season
    rules, and the game's own tables (``risiko`` or ``ricochet``, the other None)."""

    preset: Preset
    tournament: TournamentRules
    lateness: LatenessRules
    season: SeasonRules  # how the preset's tournaments make a season's ranking (``[season]``)
    risiko: RisikoRules | None = None
    ricochet: RicochetRules | None = None

    @property
    def name(self) -> str:
        return self.preset.name

    @property
    def game(self) -> str:
        return self.preset.game


def parse_ruleset(preset: Preset) -> Ruleset:
    """Parse and validate every section of an already loaded preset (overrides applied)."""
    return Ruleset(
        preset=preset,
        tournament=TournamentRules.from_preset(preset),
        lateness=LatenessRules.from_preset(preset),
        season=SeasonRules.from_preset(preset),
        risiko=rules_from_preset(preset) if preset.game == "risiko" else None,
        ricochet=RicochetRules.from_mapping(preset.section("ricochet")) if preset.game == "ricochet" else None,
    )


@cache
def _shipped(name: str) -> Ruleset:
    return parse_ruleset(load_preset(name))


def load_ruleset(name: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The typed ruleset of preset ``name`` with a tournament's ``overrides`` (shipped presets are cached)."""
    if not overrides:
        return _shipped(name)
    return parse_ruleset(load_preset(name, overrides))
