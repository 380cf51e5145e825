"""Game clocks on a real database (BOT-SCH-2, TOUR-TIME-1, RK-SD-1..3, RK-ELIM-1, FIRK-TIME-1, RR-INT-1): the call
is a row at the preset's minute plus every pause, pauses are counted once however many referees press, and the
end-of-game tracker plays the engine's sdadata and FIRK supplementary turns to their end."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models import ReminderKind, ReminderStatus, ScheduledReminder
from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.services import Services
from bot.services.access import Actor
from tests.conftest import FakeClock
from tests.support.reports_fixtures import GUILD, REFEREE, REFEREE_ROLE, build_tournament, player

FOUR = [["Anna", "Bruno", "Carla", "Dario"]]


async def calls(services: Services, status: str = ReminderStatus.PENDING.value) -> list[ScheduledReminder]:
    async with services.sessionmaker() as session:
        query = select(ScheduledReminder).where(
            ScheduledReminder.kind == ReminderKind.CLOCK.value, ScheduledReminder.status == status
        )
        return list((await session.execute(query)).scalars().all())


@pytest.mark.parametrize(("preset", "limit", "call"), [
    ("risiko-nostra-passione-2018", 120, "sdadata_time_up"),
    ("risiko-ufficiali-2018", 120, "sdadata_time_up"),
    ("risiko-firk-1", 105, "firk_third_to_last"),
])  # fmt: skip
async def test_bot_sch_2_the_call_is_planned_at_the_preset_minute_and_moves_with_every_pause(
    services: Services, clock: FakeClock, preset: str, limit: int, call: str
):
    b = await build_tournament(services, preset=preset, rounds={1: [FOUR[0], ["Elio", "Fabio", "Gino", "Ugo"]]})
    t0 = clock.now
    report = await services.clocks.start(REFEREE, tournament=b.name)  # every table at once
    assert [v.table_number for v in report.started] == [1, 2] and report.already == ()
    assert {(c.call, c.due_at) for c in await calls(services)} == {(call, t0 + timedelta(minutes=limit))}
    clock.advance(minutes=40)
    paused = await services.clocks.pause(REFEREE, tournament=b.name, table=1)
    assert not paused.running and paused.time_up_at is None
    assert len(await calls(services)) == 1  # table 1's call waits; table 2's stands
    clock.advance(minutes=9, seconds=30)
    resumed = await services.clocks.resume(REFEREE, tournament=b.name, table=1)
    assert resumed.recovery_seconds == 570 and resumed.pauses == 1
    assert resumed.time_up_at == t0 + timedelta(minutes=limit + 9, seconds=30)
    due = sorted(c.due_at for c in await calls(services))
    assert due == [t0 + timedelta(minutes=limit), t0 + timedelta(minutes=limit + 9, seconds=30)]
    with pytest.raises(Conflict):
        await services.clocks.start(REFEREE, tournament=b.name, table=1)
    again = await services.clocks.start(REFEREE, tournament=b.name)
    assert again.started == () and again.already == (1, 2)


async def test_bot_sch_2_of_a_hundred_referees_pausing_at_once_one_pause_counts(services: Services, clock: FakeClock):
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds={1: FOUR})
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    clock.advance(minutes=5)
    referees = [Actor(guild_id=GUILD, user_id=6000 + i, role_ids=frozenset({REFEREE_ROLE})) for i in range(100)]
    outcomes = await asyncio.gather(
        *(services.clocks.pause(r, tournament=b.name, table=1) for r in referees), return_exceptions=True
    )
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(isinstance(o, Conflict) for o in outcomes if isinstance(o, Exception))
    clock.advance(minutes=3)
    outcomes = await asyncio.gather(
        *(services.clocks.resume(r, tournament=b.name, table=1) for r in referees), return_exceptions=True
    )
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    (view,) = await services.clocks.status(REFEREE, tournament=b.name, table=1)
    assert (view.pauses, view.recovery_seconds) == (1, 180)


async def test_bot_sch_2_only_referees_run_the_clock(services: Services):
    b = await build_tournament(services, rounds={1: FOUR})
    with pytest.raises(PermissionDenied):
        await services.clocks.start(player(b.users["Anna"]), tournament=b.name)


async def test_rk_sd_1_the_tracker_plays_the_sdadata_to_its_end_with_the_engine_s_thresholds(
    services: Services, clock: FakeClock
):
    """NP: time up in Bruno's turn → the round ends, one supplementary round, then Dario (last seat) rolls 4,
    everybody after their turn; a conquest of 3 skips the roll (RK-SD-2); a roll of 4 or less ends the game."""
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds={1: FOUR})
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    anna = player(b.users["Anna"])

    async def turn(who: str, conquests: int = 0) -> str:
        step = await services.clocks.record(player(b.users[who]), tournament=b.name, table=None,
                                            event={"event": "turn_ended", "conquests": conquests})  # fmt: skip
        return step.outcome

    for who in ("Anna", "Bruno", "Carla", "Dario") * 4:
        assert await turn(who) == "next_turn"
    (view,) = await services.clocks.status(REFEREE, tournament=b.name, table=1)
    assert view.turns_completed == 4 and view.elimination_allowed
    assert await turn("Anna") == "next_turn"
    clock.advance(minutes=121)  # past the limit: the next event records the time-up first
    step = await services.clocks.record(anna, tournament=b.name, table=1,
                                        event={"event": "turn_ended", "player": "Bruno"})  # fmt: skip
    assert step.time_up_recorded and step.outcome == "next_turn"
    assert await calls(services) == []  # the call is moot: the table recorded the time-up itself
    for who in ("Carla", "Dario", "Anna", "Bruno", "Carla"):  # the round ends, then one supplementary round
        assert await turn(who) == "next_turn"
    step = await services.clocks.record(anna, tournament=b.name, table=1, event={"event": "turn_ended"})
    assert step.outcome == "roll_required" and step.details["threshold"] == 4
    assert step.view.expecting == {"kind": "roll", "player": "Dario", "threshold": 4}
    step = await services.clocks.record(anna, tournament=b.name, table=1, event={"event": "roll", "dice": [3, 5]})
    assert step.outcome == "game_continues"
    assert await turn("Anna", conquests=3) == "no_roll_conquests"
    assert await turn("Bruno") == "roll_required"
    step = await services.clocks.record(anna, tournament=b.name, table=1, event={"event": "roll", "dice": [1, 2]})
    assert step.outcome == "game_ended" and step.view.tracker is not None
    assert step.view.tracker["end_reason"] == "sdadata"
    with pytest.raises(Conflict):
        await turn("Carla")


async def test_rk_elim_1_nobody_is_eliminated_before_the_end_of_the_fourth_turn(services: Services):
    b = await build_tournament(services, preset="risiko-ufficiali-2018", rounds={1: FOUR})
    await services.clocks.start(REFEREE, tournament=b.name, table=1, first="Carla")
    for who in ("Carla", "Dario", "Anna", "Bruno") * 3 + ("Carla",):
        await services.clocks.record(REFEREE, tournament=b.name, table=1, event={"event": "turn_ended", "player": who})
    with pytest.raises(InvalidInput) as caught:
        await services.clocks.record(REFEREE, tournament=b.name, table=1,
                                     event={"event": "player_eliminated", "player": "Anna"})  # fmt: skip
    assert caught.value.key == "error.clock.elimination_too_early" and caught.value.params == {"turns": 3, "needed": 4}
    for who in ("Dario", "Anna", "Bruno"):
        await services.clocks.record(REFEREE, tournament=b.name, table=1, event={"event": "turn_ended", "player": who})
    step = await services.clocks.record(REFEREE, tournament=b.name, table=1,
                                        event={"event": "player_eliminated", "player": "Anna"})  # fmt: skip
    assert step.outcome == "player_out"


async def test_bot_sch_2_a_stranger_cannot_record_at_a_table_and_bad_events_are_refused(services: Services):
    b = await build_tournament(services, preset="risiko-nostra-passione-2018", rounds={1: FOUR})
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    with pytest.raises(PermissionDenied):
        await services.clocks.record(Actor(guild_id=GUILD, user_id=424242), tournament=b.name, table=1,
                                     event={"event": "turn_ended"})  # fmt: skip
    with pytest.raises(InvalidInput) as caught:
        await services.clocks.record(REFEREE, tournament=b.name, table=1,
                                     event={"event": "turn_ended", "player": "Carla"})  # fmt: skip
    assert caught.value.key == "error.clock.not_their_turn"
    with pytest.raises(InvalidInput) as caught:
        await services.clocks.record(REFEREE, tournament=b.name, table=1, event={"event": "pass"})
    assert caught.value.key == "error.clock.event_not_in_procedure"


async def test_firk_time_1_third_to_last_round_then_three_supplementary_turns_each(
    services: Services, clock: FakeClock
):
    b = await build_tournament(services, preset="risiko-firk-1", rounds={1: [["Anna", "Bruno", "Carla"]]})
    await services.clocks.start(REFEREE, tournament=b.name, table=1)
    clock.advance(minutes=106)
    step = await services.clocks.record(REFEREE, tournament=b.name, table=1, event={"event": "turn_ended"})
    assert step.time_up_recorded and step.view.ending == "firk"
    outcomes = []
    for _ in range(8):  # the rest of this round and two more
        outcomes.append((await services.clocks.record(REFEREE, tournament=b.name, table=1,
                                                      event={"event": "turn_ended"})).details)  # fmt: skip
    assert outcomes[-1].get("supplementary_starts")
    for _ in range(3):  # everybody passes: the game ends
        step = await services.clocks.record(REFEREE, tournament=b.name, table=1, event={"event": "pass"})
    assert step.outcome == "game_ended" and step.view.tracker and step.view.tracker["end_reason"] == "all_passed"


async def test_rr_int_1_a_pause_over_four_hours_is_called_a_replay_and_a_shorter_one_resumes(
    services: Services, clock: FakeClock
):
    b = await build_tournament(services, preset="ricochet-v3.3", game="ricochet",
                               rounds={1: [["Anna", "Bruno", "Carla"]]})  # fmt: skip
    start = await services.clocks.start(REFEREE, tournament=b.name, table=1)
    assert start.started[0].ending == "none" and await calls(services) == []  # RR has no time limit
    clock.advance(minutes=30)
    paused = await services.clocks.pause(REFEREE, tournament=b.name, table=1)
    (replay,) = await calls(services)
    assert replay.call == "rr_replay" and replay.due_at == clock.now + timedelta(hours=4)
    clock.advance(hours=2)
    resumed = await services.clocks.resume(REFEREE, tournament=b.name, table=1)
    assert resumed.interruption_verdict == "resume" and await calls(services) == []
    clock.advance(minutes=10)
    await services.clocks.pause(REFEREE, tournament=b.name, table=1)
    (replay,) = await calls(services)
    assert replay.due_at == clock.now + timedelta(hours=2) and paused.allowance_minutes == 240
    clock.advance(hours=2, seconds=1)
    (view,) = await services.clocks.status(REFEREE, tournament=b.name, table=1)
    assert view.interruption_verdict == "replay"
    with pytest.raises(Conflict):
        await services.clocks.record(REFEREE, tournament=b.name, table=1, event={"event": "turn_ended"})


async def test_bot_role_1_clock_status_is_the_staff_s_and_a_player_reads_their_own_table_only(services: Services):
    """`/clock status` and `/endgame status`: referees and organizers read every table; a seated player their own
    table only (asked for another, refused); a member who plays nothing here is refused."""
    from tests.support.reports_fixtures import ORGANIZER, OUTSIDER

    b = await build_tournament(services, rounds={1: [FOUR[0], ["Elio", "Fabio", "Gino", "Ugo"]]})
    await services.clocks.start(REFEREE, tournament=b.name)
    assert [v.table_number for v in await services.clocks.status(REFEREE, tournament=b.name)] == [1, 2]
    assert [v.table_number for v in await services.clocks.status(ORGANIZER, tournament=b.name)] == [1, 2]
    anna = player(b.users["Anna"])
    assert [v.table_number for v in await services.clocks.status(anna, tournament=b.name)] == [1]
    assert [v.table_number for v in await services.clocks.status(anna, tournament=b.name, table=1)] == [1]
    with pytest.raises(PermissionDenied) as refused:
        await services.clocks.status(anna, tournament=b.name, table=2)
    assert refused.value.key == "error.clock.not_your_table" and refused.value.params == {"table": 2, "own": 1}
    with pytest.raises(PermissionDenied) as refused:
        await services.clocks.status(OUTSIDER, tournament=b.name)
    assert refused.value.key == "error.permission"
