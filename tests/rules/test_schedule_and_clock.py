"""The pure side of the clock issue: wall-clock times in the server's zone with daylight saving time, reminder
offsets (BOT-SCH-1), and the table clock per preset (BOT-SCH-2, TOUR-TIME-1, RK-SD-1, FIRK-TIME-1, RR-INT-1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules import clock
from bot.rules.clock import Announcement, ClockError, ClockRules, Ending
from bot.rules.ricochet.game import InterruptionOutcome
from bot.rules.ruleset import load_ruleset
from bot.rules.schedule import (
    DstRefusal,
    ScheduleError,
    check_future,
    parse_offsets,
    reminder_plan,
    wall_clock_to_utc,
)

ROME = "Europe/Rome"
T0 = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


def test_bot_sch_1_a_rome_wall_clock_time_is_the_right_instant_in_winter_and_in_summer():
    assert wall_clock_to_utc(datetime(2026, 12, 5, 21, 0), ROME) == datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
    assert wall_clock_to_utc(datetime(2027, 7, 5, 21, 0), ROME) == datetime(2027, 7, 5, 19, 0, tzinfo=UTC)
    aware = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
    assert wall_clock_to_utc(aware, ROME) is not None and wall_clock_to_utc(aware, ROME) == aware


def test_bot_sch_1_02_30_on_the_spring_forward_night_is_refused_with_the_two_nearest_times():
    with pytest.raises(DstRefusal) as caught:
        wall_clock_to_utc(datetime(2027, 3, 28, 2, 30), ROME)
    exc = caught.value
    assert exc.code == "time_nonexistent" and exc.zone_name == ROME
    assert exc.before == datetime(2027, 3, 28, 0, 30, tzinfo=UTC)  # 01:30 winter time
    assert exc.after == datetime(2027, 3, 28, 1, 30, tzinfo=UTC)  # 03:30 summer time


def test_bot_sch_1_02_30_on_the_fall_back_night_happens_twice_and_is_refused():
    with pytest.raises(DstRefusal) as caught:
        wall_clock_to_utc(datetime(2026, 10, 25, 2, 30), ROME)
    assert caught.value.code == "time_ambiguous"
    assert caught.value.after - caught.value.before == timedelta(hours=1)
    # the hours around the change are fine
    assert wall_clock_to_utc(datetime(2026, 10, 25, 1, 59), ROME) == datetime(2026, 10, 24, 23, 59, tzinfo=UTC)
    assert wall_clock_to_utc(datetime(2026, 10, 25, 3, 0), ROME) == datetime(2026, 10, 25, 2, 0, tzinfo=UTC)


@given(st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2030, 12, 31)))
def test_bot_sch_1_every_accepted_wall_clock_time_reads_back_as_itself(local: datetime):
    """Property: a time the rules accept is the instant whose Rome wall clock shows exactly that time."""
    from zoneinfo import ZoneInfo

    try:
        instant = wall_clock_to_utc(local.replace(second=0, microsecond=0), ROME)
    except DstRefusal as exc:
        assert exc.code in ("time_nonexistent", "time_ambiguous")
        assert local.month in (3, 10) and local.hour == 2
        return
    assert instant.astimezone(ZoneInfo(ROME)).replace(tzinfo=None) == local.replace(second=0, microsecond=0)


@pytest.mark.parametrize("name", ["Mars/Olympus", "../etc/passwd", "", "Europe/Rome;DROP"])
def test_bot_sch_1_an_unknown_time_zone_is_refused_with_a_code(name: str):
    with pytest.raises(ScheduleError) as caught:
        wall_clock_to_utc(datetime(2026, 12, 5, 21, 0), name)
    assert caught.value.code == "timezone_unknown"


def test_bot_sch_1_offsets_read_like_people_write_them():
    assert parse_offsets("24h, 1h, 10m") == (1440, 60, 10)
    assert parse_offsets("1d 1h30m 90") == (1440, 90)  # 1h30m and 90 are the same reminder
    for bad, code in [("", "offsets_empty"), ("soon", "offset_invalid"), ("0m", "offset_out_of_range"),
                      ("15d", "offset_out_of_range"), ("1m 2m 3m 4m 5m 6m 7m", "offsets_too_many")]:  # fmt: skip
        with pytest.raises(ScheduleError) as caught:
            parse_offsets(bad)
        assert caught.value.code == code, bad


def test_bot_sch_1_reminders_already_past_when_a_round_is_scheduled_are_left_out():
    now = T0 - timedelta(minutes=30)
    plan = reminder_plan(T0, (1440, 60, 10), now)
    assert [(p.offset_minutes, p.due_at) for p in plan] == [(10, T0 - timedelta(minutes=10))]
    assert plan[0].lists_missing_check_ins
    full = reminder_plan(T0, (1440, 60, 10), T0 - timedelta(days=3))
    assert [p.offset_minutes for p in full] == [1440, 60, 10]
    assert [p.lists_missing_check_ins for p in full] == [False, False, True]


def test_bot_sch_1_a_start_must_be_ahead_and_within_two_years():
    with pytest.raises(ScheduleError, match="time_in_past"):
        check_future(T0, T0)
    with pytest.raises(ScheduleError, match="time_too_far"):
        check_future(T0 + timedelta(days=800), T0)


# ---------------------------------------------------------------------------------------------- the clock


@pytest.mark.parametrize(
    ("preset", "ending", "limit", "call"),
    [
        ("risiko-nostra-passione-2018", Ending.SDADATA, 120, Announcement.SDADATA_TIME_UP),
        ("risiko-ufficiali-2018", Ending.SDADATA, 120, Announcement.SDADATA_TIME_UP),
        ("risiko-firk-1", Ending.FIRK, 105, Announcement.FIRK_THIRD_TO_LAST),
    ],
)
def test_bot_sch_2_the_timed_ending_is_called_at_the_preset_minute_plus_every_pause(preset, ending, limit, call):
    """RK-SD-1 (NP 120 min), FIRK-TIME-1 (about 1 h 45), UFF borrows NP; TOUR-TIME-1 recovery = each interruption."""
    rules = ClockRules.of(load_ruleset(preset))
    assert (rules.ending, rules.time_limit_minutes) == (ending, limit)
    state = clock.start(T0)
    assert clock.next_announcement(state, rules) == (call, T0 + timedelta(minutes=limit))
    state = clock.pause(state, T0 + timedelta(minutes=30))
    assert clock.next_announcement(state, rules) is None  # while paused the call waits: it moves
    state = clock.resume(state, T0 + timedelta(minutes=37))
    state = clock.pause(state, T0 + timedelta(minutes=50))
    state = clock.resume(state, T0 + timedelta(minutes=55, seconds=30))
    assert state.pauses == 2 and state.paused_seconds == 7 * 60 + 5 * 60 + 30
    assert clock.time_up_at(state, rules) == T0 + timedelta(minutes=limit + 12, seconds=30)
    just_before = T0 + timedelta(minutes=limit + 12, seconds=29)
    assert not clock.is_time_up(state, rules, just_before)
    assert clock.is_time_up(state, rules, just_before + timedelta(seconds=1))
    assert clock.played_seconds(state, just_before) == limit * 60 - 1


def test_rr_int_1_interruptions_up_to_four_hours_resume_beyond_them_the_game_is_replayed():
    rules = ClockRules.of(load_ruleset("ricochet-v3.3"))
    assert (rules.ending, rules.time_limit_minutes, rules.interruption_allowance_minutes) == (Ending.NONE, None, 240)
    state = clock.pause(clock.start(T0), T0 + timedelta(minutes=10))
    assert clock.next_announcement(state, rules) == (Announcement.RR_REPLAY, T0 + timedelta(minutes=250))
    state = clock.resume(state, T0 + timedelta(minutes=190))  # 180 minutes of interruption
    assert clock.interruption_verdict(state, rules, T0 + timedelta(minutes=200)) is InterruptionOutcome.RESUME
    state = clock.pause(state, T0 + timedelta(minutes=200))
    assert clock.replay_due_at(state, rules) == T0 + timedelta(minutes=260)  # 60 minutes of allowance left
    at_limit = T0 + timedelta(minutes=260)
    assert clock.interruption_verdict(state, rules, at_limit) is InterruptionOutcome.RESUME  # exactly 4 h: resume
    over = at_limit + timedelta(seconds=1)
    assert clock.interruption_verdict(state, rules, over) is InterruptionOutcome.REPLAY


def test_bot_sch_2_a_clock_refuses_pausing_twice_resuming_a_running_clock_and_going_back_in_time():
    state = clock.start(T0)
    with pytest.raises(ClockError, match="clock_not_paused"):
        clock.resume(state, T0 + timedelta(minutes=1))
    paused = clock.pause(state, T0 + timedelta(minutes=1))
    with pytest.raises(ClockError, match="clock_already_paused"):
        clock.pause(paused, T0 + timedelta(minutes=2))
    with pytest.raises(ClockError, match="time_backwards"):
        clock.resume(paused, T0)


@given(st.lists(st.integers(min_value=0, max_value=3600), min_size=0, max_size=12))
def test_tour_time_1_recovery_is_the_sum_of_the_interruptions_and_play_time_never_counts_them(gaps: list[int]):
    """Property: alternate play and pauses of random lengths; recovery = Σ pauses, played + recovery = wall time."""
    rules = ClockRules.of(load_ruleset("risiko-nostra-passione-2018"))
    state, now, paused_total = clock.start(T0), T0, 0
    for i, gap in enumerate(gaps):
        now += timedelta(seconds=gap)
        if i % 2 == 0:
            state = clock.pause(state, now)
        else:
            state = clock.resume(state, now)
            paused_total += gap
    if state.paused_at is not None:
        state, paused_total = clock.resume(state, now), paused_total
    assert state.paused_seconds == paused_total
    assert clock.played_seconds(state, now) + clock.interrupted_seconds(state, now) == int((now - T0).total_seconds())
    assert clock.time_up_at(state, rules) == T0 + timedelta(minutes=120, seconds=paused_total)
