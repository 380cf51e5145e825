"""A table's game clock (BOT-SCH-2): time played, recovery minutes, and when the preset's timed ending begins.

A clock is started once, may be paused for a referee's intervention and resumed; every pause adds recovery minutes
equal to the interruption (TOUR-TIME-1, UFF/ARB 1 and 7), so the moment the timed ending begins moves with it:

* RisiKo! with the sdadata (NP "finale con sdadata", RK-SD-1; UFF borrows NP's 120 minutes): at the time limit the
  turn in progress is finished, one supplementary round is played, then the dice-off — the engine in
  :mod:`bot.rules.risiko.endgame` says who rolls and with what threshold;
* RisiKo! FIRK (FIRK-TIME-1): at about 1 h 45 the referee announces that the round in progress is the
  third-to-last; the supplementary turns follow the last round;
* Ricochet Robots has no time limit. Interruptions totalling up to the preset's hours (RR 14: 4 hours) resume the
  game with the points so far; beyond that the game is replayed (RR-INT-1), so while a game is paused the clock
  knows the instant the allowance runs out.

The clock is data (:class:`ClockState`); every function takes ``now``. Nothing here reads the time or knows words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum

from bot.rules.errors import RuleError
from bot.rules.ricochet.game import InterruptionOutcome, interruption_outcome
from bot.rules.ruleset import Ruleset


class ClockError(RuleError):
    """``clock_not_running``, ``clock_already_paused``, ``clock_not_paused``, ``clock_stopped``, ``time_backwards``."""


class Ending(Enum):
    """How the preset ends a game on time: the NP/UFF sdadata, FIRK's last rounds, or no timed ending (Ricochet
    Robots)."""

    SDADATA = "sdadata"  # NP / UFF: finish the turn, one supplementary round, then roll
    FIRK = "firk"  # FIRK: this is the third-to-last round, then up to 3 supplementary turns each
    NONE = "none"  # Ricochet Robots: no time limit


class Announcement(Enum):
    """What the clock calls out in the table's thread (codes; the catalogue writes them)."""

    SDADATA_TIME_UP = "sdadata_time_up"
    FIRK_THIRD_TO_LAST = "firk_third_to_last"
    RR_REPLAY = "rr_replay"  # the interruptions passed the allowance: the game will be replayed


@dataclass(frozen=True, slots=True)
class ClockRules:
    """The preset's clock numbers: how the game ends on time, after how many minutes, how many minutes of pauses
    RR 14 allows before a replay, and from which turn a player may be eliminated."""

    ending: Ending
    time_limit_minutes: int | None  # None: no timed ending
    interruption_allowance_minutes: int | None  # RR 14: beyond this total of pauses, a replay; None: no such rule
    elimination_after_turn: int  # RK-ELIM-1 / FIRK-ELIM-1; 0 for games without eliminations

    @staticmethod
    def of(ruleset: Ruleset) -> ClockRules:
        """The clock's numbers, read from the preset (NP/UFF 120 minutes, FIRK 105, RR 4 hours)."""
        if ruleset.risiko is not None:
            end = ruleset.risiko.end
            return ClockRules(
                ending=Ending.FIRK if end.procedure == "firk" else Ending.SDADATA,
                time_limit_minutes=end.time_limit_minutes,
                interruption_allowance_minutes=None,
                elimination_after_turn=ruleset.risiko.elimination_after_turn,
            )
        assert ruleset.ricochet is not None
        return ClockRules(
            ending=Ending.NONE,
            time_limit_minutes=None,
            interruption_allowance_minutes=ruleset.ricochet.interruption_replay_hours * 60,
            elimination_after_turn=0,
        )

    @property
    def time_up_announcement(self) -> Announcement | None:
        return {Ending.SDADATA: Announcement.SDADATA_TIME_UP, Ending.FIRK: Announcement.FIRK_THIRD_TO_LAST}.get(
            self.ending
        )


@dataclass(frozen=True, slots=True)
class ClockState:
    """One table's clock as data: when it started, the pause in progress if any, and the pauses completed so far (how
    many, and their length in whole seconds)."""

    started_at: datetime
    paused_at: datetime | None = None  # set while paused
    paused_seconds: int = 0  # completed pauses, in whole seconds
    pauses: int = 0

    @property
    def running(self) -> bool:
        return self.paused_at is None


def start(now: datetime) -> ClockState:
    """A clock started at ``now``, never paused."""
    return ClockState(started_at=now)


def _check_time(state: ClockState, now: datetime) -> None:
    if now < state.started_at or (state.paused_at is not None and now < state.paused_at):
        raise ClockError("time_backwards", now)


def pause(state: ClockState, now: datetime) -> ClockState:
    """A referee's intervention begins."""
    _check_time(state, now)
    if state.paused_at is not None:
        raise ClockError("clock_already_paused", state.paused_at)
    return replace(state, paused_at=now, pauses=state.pauses + 1)


def resume(state: ClockState, now: datetime) -> ClockState:
    """The intervention ends: its length becomes recovery minutes."""
    _check_time(state, now)
    if state.paused_at is None:
        raise ClockError("clock_not_paused", state.started_at)
    return replace(state, paused_at=None, paused_seconds=state.paused_seconds + _seconds(now - state.paused_at))


def _seconds(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds()))


def interrupted_seconds(state: ClockState, now: datetime) -> int:
    """Every pause so far, the one in progress included: the recovery time (TOUR-TIME-1)."""
    ongoing = _seconds(now - state.paused_at) if state.paused_at is not None else 0
    return state.paused_seconds + ongoing


def played_seconds(state: ClockState, now: datetime) -> int:
    """Time on the clock: since the start, less every pause."""
    return _seconds(now - state.started_at) - interrupted_seconds(state, now)


def time_up_at(state: ClockState, rules: ClockRules) -> datetime | None:
    """When the timed ending begins: start + the preset's limit + the recovery so far; None while paused (it moves
    by the length of the pause) or without a time limit."""
    if rules.time_limit_minutes is None or state.paused_at is not None:
        return None
    return state.started_at + timedelta(minutes=rules.time_limit_minutes, seconds=state.paused_seconds)


def is_time_up(state: ClockState, rules: ClockRules, now: datetime) -> bool:
    """Whether the time on the clock (pauses left out) has reached the preset's limit; never for a game without one."""
    if rules.time_limit_minutes is None:
        return False
    return played_seconds(state, now) >= rules.time_limit_minutes * 60


def replay_due_at(state: ClockState, rules: ClockRules) -> datetime | None:
    """RR-INT-1: while paused, the instant the interruptions pass the allowance (a replay from then on)."""
    if rules.interruption_allowance_minutes is None or state.paused_at is None:
        return None
    left = rules.interruption_allowance_minutes * 60 - state.paused_seconds
    return state.paused_at + timedelta(seconds=max(0, left))


def interruption_verdict(state: ClockState, rules: ClockRules, now: datetime) -> InterruptionOutcome | None:
    """RR 14 on the interruptions so far (None for games without the rule)."""
    if rules.interruption_allowance_minutes is None:
        return None
    return (
        InterruptionOutcome.RESUME
        if interrupted_seconds(state, now) <= rules.interruption_allowance_minutes * 60
        else InterruptionOutcome.REPLAY
    )


def next_announcement(state: ClockState, rules: ClockRules) -> tuple[Announcement, datetime] | None:
    """The clock's next call and its instant: the time-up call while running, the RR replay call while paused."""
    due = time_up_at(state, rules)
    call = rules.time_up_announcement
    if due is not None and call is not None:
        return call, due
    replay = replay_due_at(state, rules)
    if replay is not None:
        return Announcement.RR_REPLAY, replay
    return None


__all__ = [
    "Announcement",
    "ClockError",
    "ClockRules",
    "ClockState",
    "Ending",
    "InterruptionOutcome",
    "interrupted_seconds",
    "interruption_outcome",
    "interruption_verdict",
    "is_time_up",
    "next_announcement",
    "pause",
    "played_seconds",
    "replay_due_at",
    "resume",
    "start",
    "time_up_at",
]
