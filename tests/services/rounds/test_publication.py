"""Publication on a real database (bot/services/rounds/publication.py): the round marked first, then
the Discord side effects recorded, retries idempotent (BOT-TAB-1)."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import select

from bot.db.models import (
    AuditLog,
)
from bot.services import Services
from tests.support.rounds import (
    ORGANIZER,
    setup_tournament,
)


async def test_bot_tab_1_publish_marks_the_round_then_records_threads_and_retries_are_idempotent(services: Services):
    await setup_tournament(services, 8)
    await services.rounds.draw(ORGANIZER, tournament="Coppa")
    job = await services.rounds.publish(ORGANIZER, tournament="Coppa")
    assert job.first_time and job.round.status == "published" and job.channel_id is None
    assert job.round.published_at == services.clock()
    await services.rounds.record_publication(
        ORGANIZER, round_id=job.round.round_id, announcement_message_id=777, thread_ids={1: 501}
    )
    again = await services.rounds.publish(ORGANIZER, tournament="Coppa")
    assert not again.first_time and again.round.announcement_message_id == 777
    assert [t.thread_id for t in again.round.tables] == [501, None]
    async with services.sessionmaker() as session:
        actions = Counter((await session.execute(select(AuditLog.action))).scalars().all())
    assert actions["round.publish"] == 1 and actions["round.publish.discord"] == 1
