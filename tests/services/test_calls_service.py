"""Call the referee on a real database (BOT-RUL-2): a call finds the caller's table, and of a hundred referees
claiming one call at the same moment exactly one takes it."""

from __future__ import annotations

import asyncio

from bot.services import Services
from bot.services.access import Actor
from tests.services.test_reports_fixtures import GUILD, REFEREE_ROLE, build_tournament, player


async def test_bot_rul_2_one_claim_wins_among_a_hundred_concurrent_ones(services: Services):
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    call = await services.calls.call(player(b.users["Carla"]), tournament=b.name, note="contestazione")
    assert (call.table_number, call.round_number, call.referee_role_id) == (1, 1, REFEREE_ROLE)
    referees = [Actor(guild_id=GUILD, user_id=5000 + i, role_ids=frozenset({REFEREE_ROLE})) for i in range(100)]
    outcomes = await asyncio.gather(*(services.calls.claim(r, call.call_id) for r in referees))
    winners = [o for o in outcomes if o.taken]
    assert len(winners) == 1
    assert {o.view.claimed_by for o in outcomes} == {winners[0].view.claimed_by}  # everyone is told who took it
