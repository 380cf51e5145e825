"""The ``[ricochet]`` preset table as a typed value (every number RR fixes lives in the preset, not in code)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.presets import PresetFieldError
from bot.rules.presets.reader import TableReader
from bot.rules.ricochet.board import EXTRA_ROBOT_BY_EDITION, ROBOT_COLOURS, BoardError


@dataclass(frozen=True, slots=True)
class RicochetRules:
    """Game rules of one tournament (RR section 1). Build with ``from_preset`` / ``from_mapping``."""

    edition: int = 3
    robots: tuple[str, ...] = ("red", "green", "blue", "yellow")
    extra_robot_variant: bool = False
    extra_robot_colour: str = "silver"
    diagonal_variant: bool = False
    minimum_moves: int = 5
    hourglass_seconds: int = 60
    too_complex_after_seconds: int = 300
    target_tokens: int = 17
    end_tokens_two_players: int = 6
    end_tokens_three_players: int = 5
    end_tokens_four_or_more_players: int = 4
    minimum_players: int = 2
    game_over_tokens_left: int = 3
    interruption_replay_hours: int = 4
    solve_budget_seconds: int = 20  # our default: how long the bot's /rr solve searches before answering "at least N"

    def __post_init__(self) -> None:
        for colour in (*self.robots, self.extra_robot_colour):
            if colour not in ROBOT_COLOURS:
                raise BoardError("unknown_robot_colour", colour)
        if self.minimum_moves < 1:
            raise BoardError("bad_minimum_moves", self.minimum_moves)
        if self.edition not in EXTRA_ROBOT_BY_EDITION:
            raise BoardError("unknown_edition", self.edition)
        if self.extra_robot_variant and EXTRA_ROBOT_BY_EDITION[self.edition] != self.extra_robot_colour:
            raise BoardError("extra_robot_not_in_edition", f"{self.extra_robot_colour} (edition {self.edition})")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> RicochetRules:
        values = TableReader(data, "ricochet").fields_of(cls, strings=ROBOT_COLOURS)
        try:
            return cls(**values)
        except BoardError as exc:
            field, allowed = {
                "unknown_robot_colour": ("robots", ", ".join(ROBOT_COLOURS)),
                "bad_minimum_moves": ("minimum_moves", ">= 1"),
                "unknown_edition": ("edition", ", ".join(str(e) for e in EXTRA_ROBOT_BY_EDITION)),
                "extra_robot_not_in_edition": ("extra_robot_colour", "the edition's fifth robot"),
            }.get(exc.code, ("", ""))
            if not field:
                raise
            raise PresetFieldError(f"ricochet.{field}", exc.value, allowed) from None

    @classmethod
    def from_preset(cls, name: str = "ricochet-v3.3", overrides: Mapping[str, Any] | None = None) -> RicochetRules:
        from bot.rules.presets import load_preset

        return cls.from_mapping(load_preset(name, overrides).section("ricochet"))

    @property
    def robot_colours(self) -> tuple[str, ...]:
        """Robots on the board: the four, plus silver/black under the RR 8.1 variant."""
        if self.extra_robot_variant and self.extra_robot_colour not in self.robots:
            return (*self.robots, self.extra_robot_colour)
        return self.robots

    def end_tokens(self, players_at_start: int) -> int:
        """Tokens that end the game (RR 6.2), counted on the players at the start of the game."""
        if players_at_start <= 2:
            return self.end_tokens_two_players
        if players_at_start == 3:
            return self.end_tokens_three_players
        return self.end_tokens_four_or_more_players
