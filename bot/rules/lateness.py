"""Lateness at the start of a game, per preset (RR-LATE-1, FIRK-LATE-1, UFF/ARB lateness; BOT-REG-4).

Each preset's ``[lateness]`` table holds every threshold; :func:`judge_lateness` turns "this many minutes late" into a
code and numbers (never sentences — the i18n layer words them):

* RR 13.5: not at the table at the set time → an automatic verbal warning; still absent after 10 minutes → the game
  is forfeit (RR 9.3: last of the game).
* FIRK base rule 1: 1–10 minutes late → the first three cards the player earns are given up; over 10 → cannot play.
* ARB art. 3 / UFF casistica "Ritardi": not present at the start → replaced by the organizers.
* NP says nothing about lateness: the minutes are only recorded (our default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.rules.presets import Preset
from bot.rules.presets.reader import TableReader


class LatenessCode(StrEnum):
    """What arriving late means for the player, as a code the catalogue words (beside each member, the article that
    sets it)."""

    ON_TIME = "on_time"
    RECORDED = "recorded"  # late, and the preset attaches no consequence
    WARNING = "warning"  # RR 13.5: automatic verbal warning
    FORFEIT_GAME = "forfeit_game"  # RR 13.5 / 9.3: forfeit, last of the game
    CARDS_FORFEITED = "cards_forfeited"  # FIRK rule 1: the first N cards earned are given up
    CANNOT_PLAY = "cannot_play"  # FIRK rule 1: more than 10 minutes late
    REPLACED = "replaced_by_organizers"  # ARB art. 3, UFF "Ritardi"


# Codes after which the player does not play this game (the check-in is a forfeit and the draw leaves them out).
OUT_OF_THE_GAME = frozenset({LatenessCode.FORFEIT_GAME, LatenessCode.CANNOT_PLAY, LatenessCode.REPLACED})


@dataclass(frozen=True, slots=True)
class LatenessRules:
    """The preset's ``[lateness]`` thresholds, in whole minutes (0 or False: the preset has no such rule)."""

    warning_when_late: bool = False
    forfeit_after_minutes: int = 0  # 0 = no such rule
    cards_forfeited: int = 0
    cards_forfeited_up_to_minutes: int = 0
    cannot_play_after_minutes: int = 0  # 0 = no such rule
    replaced_when_late: bool = False

    @staticmethod
    def from_preset(preset: Preset) -> LatenessRules:
        return LatenessRules(**TableReader(preset.section("lateness"), "lateness").fields_of(LatenessRules))


@dataclass(frozen=True, slots=True)
class Lateness:
    """The verdict: ``code`` plus the numbers the message needs."""

    code: LatenessCode
    minutes_late: int
    cards_forfeited: int = 0
    limit_minutes: int = 0  # the threshold that applied (RR 10, FIRK 10), 0 when none

    @property
    def plays(self) -> bool:
        return self.code not in OUT_OF_THE_GAME


def judge_lateness(rules: LatenessRules, minutes_late: int) -> Lateness:
    """The preset's consequence of arriving ``minutes_late`` whole minutes after the set time (0 = on time)."""
    late = max(0, minutes_late)
    if late == 0:
        return Lateness(LatenessCode.ON_TIME, 0)
    if rules.replaced_when_late:
        return Lateness(LatenessCode.REPLACED, late)
    if rules.cannot_play_after_minutes and late > rules.cannot_play_after_minutes:
        return Lateness(LatenessCode.CANNOT_PLAY, late, limit_minutes=rules.cannot_play_after_minutes)
    if rules.forfeit_after_minutes and late > rules.forfeit_after_minutes:
        return Lateness(LatenessCode.FORFEIT_GAME, late, limit_minutes=rules.forfeit_after_minutes)
    if rules.cards_forfeited and late <= rules.cards_forfeited_up_to_minutes:
        return Lateness(
            LatenessCode.CARDS_FORFEITED, late, rules.cards_forfeited, limit_minutes=rules.cards_forfeited_up_to_minutes
        )
    if rules.warning_when_late:
        return Lateness(LatenessCode.WARNING, late, limit_minutes=rules.forfeit_after_minutes)
    return Lateness(LatenessCode.RECORDED, late)


def minutes_late(scheduled_start: datetime | None, now: datetime) -> int:
    """Whole minutes past the scheduled start, rounded up (a started minute counts); 0 when on time. The check-in
    and the referee's latecomers list count lateness with this one function."""
    if scheduled_start is None or now <= scheduled_start:
        return 0
    return math.ceil((now - scheduled_start).total_seconds() / 60)
