"""What the rounds read (bot/services/rounds/reading.py): who takes part in a draw, which round a player
sees, a player's own table (BOT-TAB-1)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import (
    CheckIn,
    CheckInStatus,
    Registration,
    RegistrationStatus,
    Round,
    Seat,
)
from bot.errors import NotFound
from bot.services import Services
from bot.services.access import Actor
from tests.support.rounds import (
    GUILD,
    ORGANIZER,
    PLAYER,
    setup_tournament,
)


async def test_bot_tab_1_participants_are_validated_players_minus_withdrawn_and_forfeits(services: Services):
    tid = await setup_tournament(services, 20, extra={0: {"status": "registered"}, 1: {"status": "withdrawn"}})
    # round 1 planned with a forfeit check-in (part A writes these)
    async with services.sessionmaker() as session, session.begin():
        rnd = Round(guild_id=GUILD, tournament_id=tid, number=1)
        session.add(rnd)
        await session.flush()
        reg = (await session.execute(select(Registration).where(Registration.user_id == 1002))).scalar_one()
        session.add(
            CheckIn(
                guild_id=GUILD,
                round_id=rnd.id,
                registration_id=reg.id,
                status=CheckInStatus.FORFEIT.value,
                checked_in_at=services.clock(),
            )
        )
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    users = {s.user_id for t in view.tables for s in t.seats}
    assert len(users) == 17 and not users & {1000, 1001, 1002}


async def test_bot_tab_1_registered_players_count_when_nobody_was_validated(services: Services):
    await setup_tournament(services, 12, status=RegistrationStatus.REGISTERED.value)
    view = await services.rounds.draw(ORGANIZER, tournament="Coppa")
    assert sum(len(t.seats) for t in view.tables) == 12


async def test_players_see_only_published_rounds_and_their_own_table(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    with pytest.raises(NotFound) as err:
        await services.rounds.show(PLAYER, tournament="Coppa")
    assert err.value.key == "error.round_not_published"
    with pytest.raises(NotFound):
        await services.rounds.my_table(PLAYER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    mine = await services.rounds.my_table(PLAYER, tournament="Coppa")
    assert any(s.user_id == PLAYER.user_id for s in mine.table.seats) and mine.round.number == 1


async def test_my_table_loads_only_the_player_s_table(services: Services):
    """Defect 7 (300 simultaneous /my-table took 8–12 s): each call loaded the whole round — every seat and every
    registration — to show one table. Now it loads that table's seats and players only, whatever the field's size
    (`python -m benchmarks.my_table` measures the burst against the old path)."""
    from sqlalchemy import event

    await setup_tournament(services, 80)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    await services.rounds.publish(ORGANIZER, tournament="Coppa")
    loaded: list[str] = []

    def count(target: Any, _context: Any) -> None:
        loaded.append(type(target).__name__)

    event.listen(Seat, "load", count)
    event.listen(Registration, "load", count)
    try:
        mine = await services.rounds.my_table(Actor(guild_id=GUILD, user_id=1040), tournament="Coppa")
    finally:
        event.remove(Seat, "load", count)
        event.remove(Registration, "load", count)
    assert [t.number for t in mine.round.tables] == [mine.table.number]
    assert any(s.user_id == 1040 for s in mine.table.seats)
    assert loaded.count("Seat") == len(mine.table.seats) <= 5
    assert loaded.count("Registration") <= len(mine.table.seats) + 1
