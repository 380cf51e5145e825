"""Call the referee on a real database (BOT-RUL-2, BOT-ROLE-1): a call finds the caller's table; a table has one
open call however many press at once; only a seated player (own table) or the staff may call; of a hundred referees
claiming one call at the same moment exactly one takes it."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select
from sqlmodel import col

from bot.db.models import RefereeCall, Round, RoundStatus
from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.services import Services
from bot.services.access import Actor
from tests.support.reports_fixtures import GUILD, ORGANIZER, OUTSIDER, REFEREE, REFEREE_ROLE, build_tournament, player


async def test_bot_rul_2_one_claim_wins_among_a_hundred_concurrent_ones(services: Services):
    b = await build_tournament(services, rounds={1: [["Anna", "Bruno", "Carla", "Dario"]]})
    call = (await services.calls.call(player(b.users["Carla"]), tournament=b.name, note="contestazione")).view
    assert (call.table_number, call.round_number, call.referee_role_id) == (1, 1, REFEREE_ROLE)
    referees = [Actor(guild_id=GUILD, user_id=5000 + i, role_ids=frozenset({REFEREE_ROLE})) for i in range(100)]
    outcomes = await asyncio.gather(*(services.calls.claim(r, call.call_id) for r in referees))
    winners = [o for o in outcomes if o.taken]
    assert len(winners) == 1
    assert {o.view.claimed_by for o in outcomes} == {winners[0].view.claimed_by}  # everyone is told who took it


TWO_TABLES = {1: [["Anna", "Bruno", "Carla", "Dario"], ["Elio", "Fede", "Gina", "Ivo"]]}


async def _rows(services: Services) -> list[RefereeCall]:
    async with services.sessionmaker() as session:
        return list((await session.execute(select(RefereeCall).order_by(col(RefereeCall.id)))).scalars())


async def test_bot_rul_2_a_table_has_one_open_call_whoever_presses_and_however_often(services: Services):
    """Four players pressing 🛎️ 25 times each at the same moment: one call, one ping; every other press is shown
    that call (who, when). Once a referee takes it, the table can call again."""
    b = await build_tournament(services, rounds=TWO_TABLES)
    at_one = [player(b.users[n]) for n in ("Anna", "Bruno", "Carla", "Dario")]
    outcomes = await asyncio.gather(*(services.calls.call(a, tournament=b.name) for a in at_one * 25))
    made = [o for o in outcomes if o.created]
    assert len(made) == 1 and len(await _rows(services)) == 1
    assert {(o.view.call_id, o.view.caller_id, o.view.table_number) for o in outcomes} == {
        (made[0].view.call_id, made[0].view.caller_id, 1)
    }
    other = await services.calls.call(player(b.users["Elio"]), tournament=b.name)
    assert other.created and other.view.table_number == 2  # another table calls on its own
    await services.calls.claim(REFEREE, made[0].view.call_id)
    again = await services.calls.call(player(b.users["Anna"]), tournament=b.name)
    assert again.created and again.view.call_id != made[0].view.call_id


async def test_bot_role_1_who_may_call_a_referee_to_which_table(services: Services):
    b = await build_tournament(services, rounds=TWO_TABLES)
    with pytest.raises(PermissionDenied) as refused:  # a member who plays no game here
        await services.calls.call(OUTSIDER, tournament=b.name)
    assert refused.value.key == "error.call.not_seated"
    with pytest.raises(PermissionDenied) as refused:  # a player, for another table
        await services.calls.call(player(b.users["Anna"]), tournament=b.name, table=2)
    assert refused.value.key == "error.call.not_your_table" and refused.value.params["own"] == 1
    with pytest.raises(InvalidInput):  # staff must say which table
        await services.calls.call(REFEREE, tournament=b.name)
    assert (await services.calls.call(ORGANIZER, tournament=b.name, table=2)).view.table_number == 2
    assert (await services.calls.call(player(b.users["Anna"]), tournament=b.name, table=1)).created
    assert [c.caller_id for c in await _rows(services)] == [ORGANIZER.user_id, b.users["Anna"]]


async def test_bot_rul_2_an_old_round_s_button_calls_nobody(services: Services):
    """The thread button of a closed round used to call the same table number of the newest round."""
    b = await build_tournament(services, rounds={1: TWO_TABLES[1], 2: [["Anna", "Elio", "Carla", "Gina"]]})
    async with services.sessionmaker() as session, session.begin():
        rounds = (await session.execute(select(Round).order_by(col(Round.number)))).scalars().all()
        rounds[0].status = RoundStatus.CLOSED.value
    with pytest.raises(Conflict) as over:
        await services.calls.call_from_table(player(b.users["Anna"]), round_id=rounds[0].id or 0, table_number=1)
    assert over.value.key == "error.call.round_over"
    made = await services.calls.call_from_table(player(b.users["Anna"]), round_id=rounds[1].id or 0, table_number=1)
    assert made.created and made.view.round_number == 2
    assert await _rows(services) and len(await _rows(services)) == 1
