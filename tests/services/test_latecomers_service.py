"""Latecomers at the start of a game (RR-LATE-1, FIRK-LATE-1, BOT-SAN-1): the referees see every seated player
without a check-in with the preset's step for the minutes gone by, apply it once, and /arrival later logs only a
heavier step."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.errors import Conflict, PermissionDenied
from bot.services import Services
from bot.services.access import Actor
from tests.conftest import FakeClock
from tests.support.rounds import GUILD, ORGANIZER, REF_ROLE, setup_tournament

REFEREE = Actor(guild_id=GUILD, user_id=77, role_ids=frozenset({REF_ROLE}))


async def _started(services: Services, clock: FakeClock, preset: str) -> None:
    await setup_tournament(services, 8, preset=preset)
    await services.rounds.plan(ORGANIZER, tournament="Coppa", start=clock.now + timedelta(minutes=5))
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")


async def test_rr_late_1_the_referees_see_the_latecomers_and_apply_the_warning_once(
    services: Services, clock: FakeClock
):
    await _started(services, clock, "ricochet-v3.3")
    with pytest.raises(Conflict):  # before the start nobody is late
        await services.latecomers.list(REFEREE, tournament="Coppa")
    clock.advance(minutes=8)  # 3 minutes past the start
    await services.checkins.check_in(Actor(guild_id=GUILD, user_id=1000), tournament="Coppa")
    view = await services.latecomers.list(REFEREE, tournament="Coppa")
    assert view.minutes_late == 3 and len(view.latecomers) == 7  # everyone seated but the one who checked in
    assert {late.proposal.kind for late in view.latecomers} == {"verbal_warning"}
    first = view.latecomers[0]
    case = await services.latecomers.apply(REFEREE, round_id=view.round_id, registration_id=first.registration_id)
    assert (case.kind, case.article, case.infraction) == ("verbal_warning", "RR 13.5", "late")
    with pytest.raises(Conflict):
        await services.latecomers.apply(REFEREE, round_id=view.round_id, registration_id=first.registration_id)
    assert len((await services.latecomers.list(REFEREE, tournament="Coppa")).latecomers) == 6
    with pytest.raises(PermissionDenied):
        await services.latecomers.list(Actor(guild_id=GUILD, user_id=1001), tournament="Coppa")
    clock.advance(minutes=9)  # 12 minutes late: /arrival logs the forfeit, a heavier step than the warning
    arrival = await services.checkins.mark_arrival(REFEREE, tournament="Coppa", user_id=first.user_id)
    assert arrival.consequence == "forfeit_game" and arrival.case_number == case.case_number + 1
